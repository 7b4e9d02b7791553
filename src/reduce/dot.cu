/*
 * dot.cu - gs_dot: CUDA by Example's dot product (docs/tutorials.md),
 * finished on the GPU in the same launch.
 *
 * How: the single-pass agent (gridsync/detail/reduce/single_pass.cuh) over two
 * arrays read in step (two pairs of 16-byte vectors in flight per thread
 * when both are aligned), each index contributing x[i] * y[i], summed. The
 * tutorial stopped after the block sums, copied 32 partials to the host and
 * added them there: a copy and a host round trip per call, and a grid of 32
 * blocks whatever n is.
 * Why correct: the agent's argument; products are rounded once, then summed
 * (16-bit floats: widened to float, multiplied and summed in float; integer
 * products and sums wrap).
 * Deterministic: the grid and every fold order depend only on n and the
 * device.
 */
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/reduce/single_pass.cuh>

#include "../core/dtype_element.cuh"
#include "../core/error.h"
#include "single_pass.h"

namespace {

/* The dot's kernels, per element type, and the bytes of their results. */
struct dot_table {
    const void *kernels[GS_DTYPE_COUNT];
    size_t result_bytes[GS_DTYPE_COUNT];
};

dot_table dot_kernels()
{
    dot_table d = {{}, {}};
    gs__dtypes::for_each_dtype([&](auto element, gs_dtype type) {
        typedef typename decltype(element)::type T;
        typedef gs::sum<T> Op; /* products summed: in float for the 16-bit floats */
        d.kernels[type] = (const void *)gs::detail::single_pass_kernel<
            gs::detail::single_pass_policy<2>, Op, gs::detail::two_inputs<T>,
            gs::detail::product<T>>;
        d.result_bytes[type] = sizeof(typename Op::accumulator);
    });
    return d;
}

const dot_table dots = dot_kernels();

} // namespace

extern "C" gs_status gs_dot(gs_dtype type, const void *x, const void *y, long long n,
                            void *result, cudaStream_t stream)
{
    if ((int)type < 0 || type >= GS_DTYPE_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_dot: unknown element type %d", (int)type);
    const void *inputs[2] = {x, y};
    gs__single_pass_launch launch;
    GS_TRY(gs__single_pass_prepare("gs_dot", dots.kernels[type], type, dots.result_bytes[type],
                                   inputs, 2, n, result, stream, &launch));
    gs_status st = gs__single_pass_start(&launch, inputs, n, stream);
    return gs__single_pass_finish(&launch, result, stream, st);
}
