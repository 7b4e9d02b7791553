/*
 * test_scan_device_api.cu - the device API of gridsync/scan.cuh in a
 * user's kernel: gs::warp_* and gs::block_* scans, the C-style names and an
 * argmin scan, at block sizes 32 to 1024 including ones that are not
 * multiples of 32, against sums, maxima, minima and first minima computed
 * on the CPU; the C-style names of u32, u64, f16 and bf16 (a 16-bit float's
 * sum scans in float and returns the float prefix: exact here, on small
 * integers; its min and max are 16-bit values, exactly).
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

/* The C-style names of the types added: per thread, the f16 inclusive sum
 * (a float), the bf16 exclusive max, the u32 warp inclusive sum, the u64
 * block exclusive min, the f16 warp exclusive min. */
static __global__ void device_api_types(const int *in, float *sums, __nv_bfloat16 *maxes,
                                        unsigned int *usums, unsigned long long *wmins,
                                        __half *hmins)
{
    __shared__ float fs[32];
    __shared__ __nv_bfloat16 bs[32];
    __shared__ unsigned long long ws[32];
    const unsigned int n = blockDim.x, t = threadIdx.x, i = blockIdx.x * n + t;
    const int v = in[i];
    const __half h = __int2half_rn(v);
    const unsigned int lanes = n - (t & ~31u) < 32u ? n - (t & ~31u) : 32u;
    sums[i] = gs_block_inclusive_sum_f16(h, fs);
    maxes[i] = gs_block_exclusive_max_bf16(__int2bfloat16_rn(v), bs);
    usums[i] = gs_warp_inclusive_sum_u32((unsigned int)v, lanes);
    wmins[i] = gs_block_exclusive_min_u64(0x8000000000000000ull + (unsigned long long)(v + 20), ws);
    hmins[i] = gs_warp_exclusive_min_f16(h, lanes);
}

static int check_device_api_types(void)
{
    const int sizes[] = {32, 33, 100, 256, 257, 999, 1024};
    enum { BLOCKS = 3, MOST = BLOCKS * 1024 };
    static int h_in[MOST];
    static float sums[MOST];
    static uint16_t maxes[MOST], hmins[MOST];
    static unsigned int usums[MOST];
    static unsigned long long wmins[MOST];
    char *d;
    CUDA_OK(cudaMalloc((void **)&d, (size_t)MOST * 32));
    int *d_in = (int *)d;
    char *o = d + 4 * MOST;
    int checks = 0;
    for (int n : sizes) {
        for (int i = 0; i < BLOCKS * n; ++i)
            h_in[i] = (int)(next_u64() % 41) - 20;
        CUDA_OK(cudaMemcpy(d_in, h_in, (size_t)BLOCKS * n * 4, cudaMemcpyHostToDevice));
        device_api_types<<<BLOCKS, n>>>(d_in, (float *)o, (__nv_bfloat16 *)(o + 4 * MOST),
                                        (unsigned int *)(o + 8 * MOST),
                                        (unsigned long long *)(o + 12 * MOST),
                                        (__half *)(o + 20 * MOST));
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(sums, o, sizeof sums, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(maxes, o + 4 * MOST, sizeof maxes, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(usums, o + 8 * MOST, sizeof usums, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(wmins, o + 12 * MOST, sizeof wmins, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(hmins, o + 20 * MOST, sizeof hmins, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < BLOCKS; ++b) {
            const int *x = h_in + b * n;
            int sum = 0, mx = INT32_MIN, warp_sum = 0, warp_min = INT32_MAX;
            unsigned long long mn = ~0ull;
            for (int t = 0; t < n; ++t) {
                const int i = b * n + t;
                if (t % 32 == 0) {
                    warp_sum = 0;
                    warp_min = INT32_MAX;
                }
                /* exclusive ones before this element, inclusive ones after */
                wrong += (mx == INT32_MIN ? !isinf(gs_bf16_to_double(maxes[i]))
                                          : gs_bf16_to_double(maxes[i]) != mx);
                wrong += wmins[i] != mn;
                wrong += warp_min == INT32_MAX ? !isinf(gs_f16_to_double(hmins[i]))
                                               : gs_f16_to_double(hmins[i]) != warp_min;
                sum += x[t];
                warp_sum += x[t];
                mx = x[t] > mx ? x[t] : mx;
                warp_min = x[t] < warp_min ? x[t] : warp_min;
                const unsigned long long u = 0x8000000000000000ull + (unsigned long long)(x[t] + 20);
                mn = u < mn ? u : mn;
                wrong += sums[i] != (float)sum || usums[i] != (unsigned int)warp_sum;
            }
        }
        EXPECT(wrong == 0, "device API of u32, u64, f16, bf16, blocks of %d threads: %d wrong", n,
               wrong);
        ++checks;
    }
    cudaFree(d);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    (void)scan_test_begin("scan_device_api");
    int checks = 0;
    checks += check_device_api();
    checks += check_device_api_types();
    return scan_test_end("scan_device_api", checks);
}
