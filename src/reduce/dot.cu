/*
 * dot.cu - gs_dot: CUDA by Example's dot product (docs/tutorials.md),
 * finished on the GPU in the same launch.
 *
 * How: the single-pass agent (gridsync/detail/single_pass.cuh) over two
 * arrays read in step (two pairs of 16-byte vectors in flight per thread
 * when both are aligned), each index contributing x[i] * y[i], summed. The
 * tutorial stopped after the block sums, copied 32 partials to the host and
 * added them there: a copy and a host round trip per call, and a grid of 32
 * blocks whatever n is.
 * Why correct: the agent's argument; products are rounded once, then summed.
 * Deterministic: the grid and every fold order depend only on n and the
 * device.
 */
#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/single_pass.cuh>

#include "../core/error.h"
#include "single_pass.h"

template <class T>
static const void *dot_kernel()
{
    return (const void *)gs::detail::single_pass_kernel<
        gs::detail::single_pass_policy<2>, gs::sum<T>, gs::detail::two_inputs<T>,
        gs::detail::product<T>>;
}

extern "C" gs_status gs_dot(gs_dtype type, const void *x, const void *y, long long n,
                            void *result, cudaStream_t stream)
{
    if (type != GS_FLOAT32 && type != GS_FLOAT64)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: element type must be f32 or f64, got %s",
                        gs_dtype_name(type));
    const void *inputs[2] = {x, y};
    gs__single_pass_launch launch;
    const void *kernel = type == GS_FLOAT32 ? dot_kernel<float>() : dot_kernel<double>();
    GS_TRY(gs__single_pass_prepare("gs_dot", kernel, type, gs_dtype_size(type), inputs, 2, n,
                                   result, stream, &launch));
    gs_status st = gs__single_pass_start(&launch, inputs, n, stream);
    return gs__single_pass_finish(&launch, result, stream, st);
}
