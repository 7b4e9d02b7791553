/*
 * missing_sync.cu - seed 000's block reduction (sumWithinBlock), with and
 * without its barriers.
 *
 * How: each 256-thread block loads one element per thread into shared
 * memory and halves the active threads each level, thread t adding slot
 * t + s into slot t; thread 0 writes the block's sum.
 * Why the barriers: after the load, thread t + s's slot was written by
 * another thread (another warp when s >= 32); after each level, the next
 * level reads slots this level wrote. Without them, a warp can read a slot
 * before its writer has stored it: partial sums are lost or counted from
 * stale values. Within one warp, lanes run in lockstep only by accident
 * (independent thread scheduling, Volta onwards), so even s < 32 is a race.
 * Seed 003's matrix multiply without barriers is tiled16's nosync twin
 * (src/gemm/tiled16.cu).
 */
#include <stdlib.h>

#include "gridsync_internal.h"
#include "demo/demos.h"

#define GS__BLOCK_SUM_KERNEL(name, SYNC)                                                    \
    static __global__ void __launch_bounds__(256) name(const float *input, float *output, int n) \
    {                                                                                       \
        __shared__ float shared_data[256];                                                  \
        int tid = threadIdx.x;                                                              \
        int global_id = blockIdx.x * blockDim.x + threadIdx.x;                              \
        shared_data[tid] = global_id < n ? input[global_id] : 0.0f;                         \
        SYNC; /* every load -> the first level's reads */                                   \
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {                             \
            if (tid < s)                                                                    \
                shared_data[tid] += shared_data[tid + s];                                   \
            SYNC; /* this level's writes -> the next level's reads */                       \
        }                                                                                   \
        if (tid == 0)                                                                       \
            output[blockIdx.x] = shared_data[0];                                            \
    }

GS__BLOCK_SUM_KERNEL(block_sum_sync, __syncthreads())
GS__BLOCK_SUM_KERNEL(block_sum_nosync, (void)0)

extern "C" gs_status gs_demo_block_sums(int sync, const float *in, int n, float *sums)
{
    int blocks = (n + 255) / 256;
    float *d = NULL;
    if (n < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "block sums: n must be >= 1");
    GS_CUDA_TRY(cudaMalloc((void **)&d, (size_t)blocks * sizeof(float)));
    if (sync)
        block_sum_sync<<<blocks, 256>>>(in, d, n);
    else
        block_sum_nosync<<<blocks, 256>>>(in, d, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(sums, d, (size_t)blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "block_sum<<<>>>", __FILE__, __LINE__);
    return GS_SUCCESS;
}
