/* test_smoke.cu - the build links, a kernel runs, every output is written. */
#include "gpu_test.h"

static __global__ void squares(unsigned int *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = i * i + 7u;
}

int main(void)
{
    gs_test_require_gpu("smoke");
    const unsigned int n = 1000003u; /* odd: the last block is partial */
    unsigned int *d = NULL, *h = (unsigned int *)malloc(n * sizeof *h);
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    printf("smoke: %s, %d SMs, cc %d.%d\n", info.name, info.sm_count, info.cc_major,
           info.cc_minor);
    CUDA_OK(cudaMalloc(&d, n * sizeof *d));
    CUDA_OK(cudaMemset(d, 0xAB, n * sizeof *d)); /* poison */
    squares<<<(n + 255u) / 256u, 256>>>(d, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost));
    unsigned int bad = 0;
    for (unsigned int i = 0; i < n; ++i)
        bad += h[i] != i * i + 7u;
    EXPECT(bad == 0, "%u of %u elements wrong", bad, n);
    cudaFree(d);
    free(h);
    return gs_test_finish("smoke", 1);
}
