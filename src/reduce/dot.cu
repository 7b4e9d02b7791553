/*
 * dot.cu - gs_dot: the dot product of seed 004 (CUDA by Example), finished on
 * the GPU in the same launch.
 *
 * How: as the single-pass reduction (reduce.cu): each thread folds x[i]*y[i]
 * over a grid-stride slice into four accumulators, reading 16-byte vectors
 * when both inputs are aligned; the block reduces them
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

#define GS__DOT4(acc, u, v) acc += ((u.x * v.x + u.y * v.y) + (u.z * v.z + u.w * v.w))
#define GS__DOT2(acc, u, v) acc += (u.x * v.x + u.y * v.y)

/* 16-byte vector loads when both inputs are 16-byte aligned (two vector
 * pairs, 64 bytes, in flight per thread: more spills at 32 registers),
 * element by element otherwise and for the remainder; see reduce.cu. */
#define GS__DOT_KERNEL(T, t, VT, DOTV)                                                      \
    static __global__ void __launch_bounds__(GS_REDUCE_THREADS)    \
        dot_##t(const T *x, const T *y, long long n, T *partials, unsigned int *ticket,     \
                T *out)                                                                     \
    {                                                                                       \
        __shared__ T smem[32];                                                              \
        gs__single_pass_begin();                                                            \
        const long long per = (long long)(sizeof(VT) / sizeof(T));                          \
        long long stride = (long long)gridDim.x * blockDim.x;                               \
        long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;                 \
        long long scalar_from = 0;                                                          \
        T a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                   \
        if ((((unsigned long long)x | (unsigned long long)y) & 15ull) == 0ull) {            \
            const VT *xv = (const VT *)x, *yv = (const VT *)y;                              \
            long long nv = n / per, i = first;                                              \
            for (; i + stride < nv; i += 2 * stride) {                                      \
                VT x0 = __ldcs(xv + i), x1 = __ldcs(xv + i + stride);                         \
                VT y0 = __ldcs(yv + i), y1 = __ldcs(yv + i + stride);                         \
                DOTV(a0, x0, y0);                                                           \
                DOTV(a2, x1, y1);                                                           \
            }                                                                               \
            for (; i < nv; i += stride) {                                                   \
                VT u = __ldcs(xv + i), w = __ldcs(yv + i);                                  \
                DOTV(a0, u, w);                                                             \
            }                                                                               \
            scalar_from = nv * per;                                                         \
        }                                                                                   \
        for (long long i = scalar_from + first; i < n; i += stride)                         \
            a1 += x[i] * y[i];                                                              \
        T r = gs_block_reduce_sum_##t((a0 + a1) + (a2 + a3), smem);                         \
        gs__single_pass_finish_sum_##t(r, partials, ticket, out, smem);                     \
    }

GS__DOT_KERNEL(float, f32, float4, GS__DOT4)
GS__DOT_KERNEL(double, f64, double2, GS__DOT2)

extern "C" gs_status gs_dot(gs_dtype type, const void *x, const void *y, long long n,
                            void *result, cudaStream_t stream)
{
    if (type != GS_FLOAT32 && type != GS_FLOAT64)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: element type must be f32 or f64, got %s",
                        gs_dtype_name(type));
    const void *inputs[2] = {x, y};
    gs__single_pass_launch launch;
    const void *kernel = type == GS_FLOAT32 ? (const void *)dot_f32 : (const void *)dot_f64;
    GS_TRY(gs__single_pass_prepare("gs_dot", kernel, type, inputs, 2, n, result, stream, &launch));
    void *args[] = {(void *)&x, (void *)&y, &n, &launch.ws.partials, &launch.ws.ticket,
                    &launch.out};
    gs_status st = gs__single_pass_start(&launch, args, stream);
    return gs__single_pass_finish(&launch, type, result, stream, st);
}
