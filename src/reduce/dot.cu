/*
 * dot.cu - gs_dot: the dot product of seed 004 (CUDA by Example), finished on
 * the GPU in the same launch.
 *
 * How: as the single-pass reduction (reduce.cu): each thread folds x[i]*y[i]
 * over a grid-stride slice into four accumulators, the block reduces them
 * with warp shuffles, and the last block to draw a ticket folds the blocks'
 * partials in index order (single_pass.cuh). The seed stopped after the
 * block sums, copied 32 partials to the host and added them there: a copy
 * and a host round trip per call, and a grid of 32 blocks whatever n is.
 * Why correct: see single_pass.cuh; products are rounded once, then summed.
 * Deterministic: the grid and every fold order depend only on n and the
 * device.
 */
#include "../core/error.h"
#include "single_pass.cuh"

#define GS__DOT_KERNEL(T, t)                                                                \
    static __global__ void __launch_bounds__(GS_REDUCE_THREADS)                             \
        dot_##t(const T *x, const T *y, long long n, T *partials, unsigned int *ticket,     \
                T *out)                                                                     \
    {                                                                                       \
        __shared__ T smem[32];                                                              \
        long long stride = (long long)gridDim.x * blockDim.x;                               \
        long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;                     \
        T a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                   \
        for (; i + 3 * stride < n; i += 4 * stride) {                                       \
            a0 += x[i] * y[i];                                                              \
            a1 += x[i + stride] * y[i + stride];                                            \
            a2 += x[i + 2 * stride] * y[i + 2 * stride];                                    \
            a3 += x[i + 3 * stride] * y[i + 3 * stride];                                    \
        }                                                                                   \
        for (; i < n; i += stride)                                                          \
            a0 += x[i] * y[i];                                                              \
        T r = gs_block_reduce_sum_##t((a0 + a1) + (a2 + a3), smem);                         \
        gs__single_pass_finish_sum_##t(r, partials, ticket, out, smem);                     \
    }

GS__DOT_KERNEL(float, f32)
GS__DOT_KERNEL(double, f64)

extern "C" gs_status gs_dot(gs_dtype type, const void *x, const void *y, long long n,
                            void *result, cudaStream_t stream)
{
    if (type != GS_FLOAT32 && type != GS_FLOAT64)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: element type must be f32 or f64, got %s",
                        gs_dtype_name(type));
    if (n < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: length must be >= 0, got %lld", n);
    if (!result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: result pointer is NULL");
    if (n > 0 && (!x || !y))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: input pointer is NULL");
    const void *inputs[2] = {x, y};
    gs__single_pass_launch launch;
    GS_TRY(gs__single_pass_prepare("gs_dot", type, inputs, 2, n, result, stream, &launch));
    void *args[] = {(void *)&x, (void *)&y, &n, &launch.ws->partials, &launch.ws->ticket,
                    &launch.out};
    const void *kernel = type == GS_FLOAT32 ? (const void *)dot_f32 : (const void *)dot_f64;
    GS_CUDA_TRY(cudaLaunchKernel(kernel, dim3(launch.blocks), dim3(GS_REDUCE_THREADS), args, 0,
                                 stream));
    return gs__single_pass_complete(&launch, type, result, stream);
}
