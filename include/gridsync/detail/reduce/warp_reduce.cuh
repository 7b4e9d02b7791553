/*
 * gridsync/detail/reduce/warp_reduce.cuh - gs::warp_reduce: a reduction over the
 * first `lanes` lanes of a warp with shuffles, generic over the value type
 * and the operator (gridsync/detail/reduce/reduce_ops.cuh).
 *
 * How: five steps of __shfl_down_sync (16, 8, 4, 2, 1 lanes); a lane folds
 * the value `o` lanes above it only when that lane is one of the `lanes`.
 * Why correct: shuffles exchange registers within the warp with the
 * synchronization of the lanes in `mask` built in; no memory is involved.
 * Lane 0 ends with op over lanes 0 .. lanes-1, in a fixed tree order.
 * When: inside a warp; the block reductions are built on it.
 */
#ifndef GRIDSYNC_DETAIL_WARP_REDUCE_CUH
#define GRIDSYNC_DETAIL_WARP_REDUCE_CUH

#include <gridsync/detail/core/value_traits.cuh>

namespace gs {

/* The first `lanes` lanes of the calling warp (all of them must call);
 * result in lane 0. */
template <class T, class Op>
static __device__ __forceinline__ T warp_reduce(T v, unsigned int lanes, Op op)
{
    detail::check_combined<Op, T>();
    unsigned int lane; /* the hardware lane: right for 2-D and 3-D blocks too */
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned int mask = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned int o = 16u; o > 0u; o >>= 1) {
        T other = detail::value_traits<T>::shuffle_down(mask, v, o);
        if (lane + o < lanes)
            v = op(v, other);
    }
    return v;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_WARP_REDUCE_CUH */
