/*
 * test_scan_device_api.cu - the device API of gridsync/scan.cuh in a
 * user's kernel: gs::warp_* and gs::block_* scans, the C-style names and an
 * argmin scan, at block sizes 32 to 1024 including ones that are not
 * multiples of 32, against sums, maxima, minima and first minima computed
 * on the CPU.
 */
#include "scan_test.h"

/* ------------------------------------------------------- the device API */

static __global__ void device_api(const int *in, int *out)
{
    __shared__ int smem[32];
    __shared__ double dsmem[32];
    unsigned int n = blockDim.x, t = threadIdx.x, i = blockIdx.x * n + t;
    int v = in[i], total = -1;
    int *o = out + 6 * (size_t)i;
    o[0] = gs_block_inclusive_sum_i32(v, smem);
    o[1] = gs::block_exclusive_scan(v, smem, gs::sum<int>(), &total);
    o[2] = gs_block_exclusive_max_i32(v, smem);
    o[3] = (int)gs_block_inclusive_min_f64((double)v, dsmem);
    unsigned int lanes = n - (t & ~31u) < 32u ? n - (t & ~31u) : 32u;
    o[4] = gs_warp_exclusive_sum_i32(v, lanes);
    o[5] = total;
}

static __global__ void argmin_api(const int *in, gs::arg<int> *out)
{
    __shared__ gs::arg<int> smem[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    gs::arg<int> mine = {(long long)threadIdx.x, in[i]};
    out[i] = gs::block_inclusive_scan(mine, smem, gs::argmin<int>());
}

static int check_device_api(void)
{
    const int sizes[] = {32, 33, 64, 100, 255, 256, 257, 512, 999, 1024};
    const int blocks = 5;
    int *d_in, *d_out, *h_in = (int *)malloc(blocks * 1024 * 4);
    int *h_out = (int *)malloc((size_t)blocks * 1024 * 6 * 4);
    gs::arg<int> *d_arg, *h_arg = (gs::arg<int> *)malloc(blocks * 1024 * sizeof(gs::arg<int>));
    CUDA_OK(cudaMalloc((void **)&d_in, blocks * 1024 * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)blocks * 1024 * 6 * 4));
    CUDA_OK(cudaMalloc((void **)&d_arg, blocks * 1024 * sizeof(gs::arg<int>)));
    int checks = 0;
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) {
        int n = sizes[s];
        for (int i = 0; i < blocks * n; ++i)
            h_in[i] = (int)(next_u64() % 41) - 20;
        CUDA_OK(cudaMemcpy(d_in, h_in, (size_t)blocks * n * 4, cudaMemcpyHostToDevice));
        device_api<<<blocks, n>>>(d_in, d_out);
        argmin_api<<<blocks, n>>>(d_in, d_arg);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)blocks * n * 6 * 4, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_arg, d_arg, (size_t)blocks * n * sizeof(gs::arg<int>),
                           cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < blocks; ++b) {
            const int *x = h_in + b * n;
            int sum = 0, mx = -0x7fffffff - 1, mn = 0x7fffffff, warp_sum = 0, total = 0, best = 0;
            for (int t = 0; t < n; ++t)
                total += x[t];
            for (int t = 0; t < n; ++t) {
                const int *o = h_out + 6 * (size_t)(b * n + t);
                if (t % 32 == 0)
                    warp_sum = 0;
                wrong += o[1] != sum || o[2] != mx || o[4] != warp_sum || o[5] != total;
                sum += x[t];
                mx = x[t] > mx ? x[t] : mx;
                mn = x[t] < mn ? x[t] : mn;
                warp_sum += x[t];
                best = x[t] < x[best] ? t : best; /* the first minimum */
                wrong += o[0] != sum || o[3] != mn;
                const gs::arg<int> &a = h_arg[b * n + t];
                wrong += a.index != best || a.value != x[best];
            }
        }
        EXPECT(wrong == 0, "device API, blocks of %d threads: %d wrong values", n, wrong);
        ++checks;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_arg);
    free(h_in);
    free(h_out);
    free(h_arg);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    (void)scan_test_begin("scan_device_api");
    int checks = 0;
    checks += check_device_api();
    return scan_test_end("scan_device_api", checks);
}
