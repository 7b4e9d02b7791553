/*
 * reduce.cu - gs_reduce and the registry of its operators.
 *
 * Every operator is one line of `ops` below: its name and, for each element
 * type, an instantiation of the single-pass agent
 * (gridsync/detail/reduce/single_pass.cuh) on its functor. Adding an operator takes
 * its functor (gridsync/detail/), its line here (with its convenience
 * function, if any) and its constant in gridsync.h; nothing else. Every
 * element type (src/core/dtype_element.cuh) gets its kernel. The
 * workspace (workspace.h) has room for any accumulator up to
 * GS_REDUCE_SLOT_BYTES, checked here at compile time. What a call writes is
 * its operator's accumulator: a sum of 16-bit floats writes a float.
 */
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/reduce/single_pass.cuh>

#include "../core/dtype_element.cuh"
#include "../core/error.h"
#include "single_pass.h"

namespace {

/* An operator: its name, and per element type (in gs_dtype's order) its
 * kernel and the bytes its result takes. */
struct reduce_op_entry {
    const char *name;
    const void *kernels[GS_DTYPE_COUNT];
    size_t result_bytes[GS_DTYPE_COUNT];
};

/* The single pass over one array with operator Op. */
template <class Op>
const void *kernel_of()
{
    static_assert(sizeof(typename Op::accumulator) <= GS_REDUCE_SLOT_BYTES,
                  "an accumulator must fit a workspace slot (workspace.h)");
    return (const void *)gs::detail::single_pass_kernel<
        gs::detail::single_pass_policy<1>, Op, gs::detail::one_input<typename Op::value_type>,
        gs::detail::lift<Op>>;
}

/* Op's kernel and result size for every element type. */
template <template <class> class Op>
reduce_op_entry entry(const char *name)
{
    reduce_op_entry e = {name, {}, {}};
    gs__dtypes::for_each_dtype([&](auto element, gs_dtype type) {
        typedef Op<typename decltype(element)::type> op;
        e.kernels[type] = kernel_of<op>();
        e.result_bytes[type] = sizeof(typename op::accumulator);
    });
    return e;
}

/* In the order of gs_reduce_op. */
const reduce_op_entry ops[] = {
    entry<gs::sum>("sum"),
    entry<gs::min>("min"),
    entry<gs::max>("max"),
    entry<gs::argmin>("argmin"),
    entry<gs::argmax>("argmax"),
};
static_assert(sizeof ops / sizeof ops[0] == GS_REDUCE_OP_COUNT, "one entry per gs_reduce_op");

/* The device's value-and-index is the host's gs_reduce_arg. */
static_assert(sizeof(gs::arg<float>) == sizeof(gs_reduce_arg) &&
                  sizeof(gs::arg<long long>) == sizeof(gs_reduce_arg) &&
                  sizeof(gs::arg<__half>) == sizeof(gs_reduce_arg) &&
                  offsetof(gs::arg<float>, value) == offsetof(gs_reduce_arg, value) &&
                  offsetof(gs::arg<double>, value) == offsetof(gs_reduce_arg, value) &&
                  offsetof(gs::arg<__half>, value) == offsetof(gs_reduce_arg, value.f16) &&
                  offsetof(gs::arg<__nv_bfloat16>, value) == offsetof(gs_reduce_arg, value.bf16),
              "gs::arg<T> and gs_reduce_arg must have one layout");

/* What gs_reduce_result_type says (dtype.c): a sum of 16-bit floats is the
 * float it adds up in. */
static_assert(sizeof(gs::sum<__half>::accumulator) == sizeof(float) &&
                  sizeof(gs::sum<__nv_bfloat16>::accumulator) == sizeof(float) &&
                  sizeof(gs::max<__half>::accumulator) == 2,
              "the sums of 16-bit floats are floats; their min and max 16-bit values");

} // namespace

extern "C" const char *gs_reduce_op_name(gs_reduce_op op)
{
    return (int)op >= 0 && op < GS_REDUCE_OP_COUNT ? ops[op].name : "unknown";
}

extern "C" gs_status gs_reduce(gs_reduce_op op, gs_dtype type, const void *d_in, long long n,
                               void *result, cudaStream_t stream)
{
    if ((int)op < 0 || op >= GS_REDUCE_OP_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_reduce: unknown operation %d", (int)op);
    if ((int)type < 0 || type >= GS_DTYPE_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_reduce: unknown element type %d", (int)type);
    const reduce_op_entry *e = &ops[op];
    const void *inputs[1] = {d_in};
    gs__single_pass_launch launch;
    GS_TRY(gs__single_pass_prepare("gs_reduce", e->kernels[type], type, e->result_bytes[type],
                                   inputs, 1, n, result, stream, &launch));
    gs_status st = gs__single_pass_start(&launch, inputs, n, stream);
    return gs__single_pass_finish(&launch, result, stream, st);
}

extern "C" gs_status gs_reduce_sum(gs_dtype type, const void *d_in, long long n, void *result,
                                   cudaStream_t stream)
{
    return gs_reduce(GS_REDUCE_SUM, type, d_in, n, result, stream);
}

extern "C" gs_status gs_reduce_min(gs_dtype type, const void *d_in, long long n, void *result,
                                   cudaStream_t stream)
{
    return gs_reduce(GS_REDUCE_MIN, type, d_in, n, result, stream);
}

extern "C" gs_status gs_reduce_max(gs_dtype type, const void *d_in, long long n, void *result,
                                   cudaStream_t stream)
{
    return gs_reduce(GS_REDUCE_MAX, type, d_in, n, result, stream);
}

extern "C" gs_status gs_reduce_argmin(gs_dtype type, const void *d_in, long long n,
                                      gs_reduce_arg *result, cudaStream_t stream)
{
    return gs_reduce(GS_REDUCE_ARGMIN, type, d_in, n, result, stream);
}

extern "C" gs_status gs_reduce_argmax(gs_dtype type, const void *d_in, long long n,
                                      gs_reduce_arg *result, cudaStream_t stream)
{
    return gs_reduce(GS_REDUCE_ARGMAX, type, d_in, n, result, stream);
}
