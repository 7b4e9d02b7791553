/*
 * gridsync/detail/scan/warp_scan.cuh - gs::warp_inclusive_scan and
 * gs::warp_exclusive_scan: prefix combinations over the first `lanes` lanes
 * of a warp with shuffles, generic over the value type and the operator
 * (gridsync/detail/reduce/reduce_ops.cuh: anything with identity() and an
 * associative operator()).
 *
 * How: Kogge-Stone, five steps of __shfl_up_sync (1, 2, 4, 8, 16 lanes); at
 * step o a lane folds in the value o lanes below it, if there is one, as the
 * left operand: op(earlier, later), so operators that are not commutative
 * (argmin's ties, min's -0 against +0) keep the order of the elements. The
 * exclusive form shifts the inclusive result up one lane; lane 0 gets the
 * identity.
 * Why correct: shuffles exchange registers within the warp with the
 * synchronization of the lanes in `mask` built in; no memory is involved.
 * After step o, lane l holds op over lanes max(0, l - 2o + 1) .. l, so after
 * the fifth step it holds lanes 0 .. l. The shape is fixed: the bits of a
 * floating result depend only on the inputs.
 * When: inside a warp; the block scans and the single-pass scan are built on
 * it.
 *
 *   float prefix = gs::warp_inclusive_scan(x, 32u, gs::sum<float>());
 */
#ifndef GRIDSYNC_DETAIL_WARP_SCAN_CUH
#define GRIDSYNC_DETAIL_WARP_SCAN_CUH

#include <gridsync/detail/core/grid_geometry.cuh>
#include <gridsync/detail/core/value_traits.cuh>

namespace gs {

/* The lanes 0 .. lanes-1 of the calling warp, lanes in 1 .. 32 (all of
 * them must call; warps are formed from the linear thread rank, as the
 * hardware forms them). Lane l gets op(v_0, ..., v_l). */
template <class T, class Op>
static __device__ __forceinline__ T warp_inclusive_scan(T v, unsigned int lanes, Op op)
{
    detail::check_combined<Op, T>();
    unsigned int lane = gs__thread_rank() & 31u;
    unsigned int mask = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
#pragma unroll
    for (unsigned int o = 1u; o < 32u; o <<= 1) {
        T earlier = detail::value_traits<T>::shuffle_up(mask, v, o);
        if (lane >= o)
            v = op(earlier, v);
    }
    return v;
}

/* As warp_inclusive_scan, but lane l gets op(v_0, ..., v_{l-1}) and lane 0
 * the identity. */
template <class T, class Op>
static __device__ __forceinline__ T warp_exclusive_scan(T v, unsigned int lanes, Op op)
{
    detail::check_combined<Op, T>();
    unsigned int mask = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
    T before = detail::value_traits<T>::shuffle_up(mask, warp_inclusive_scan(v, lanes, op), 1u);
    return (gs__thread_rank() & 31u) == 0u ? Op::identity() : before;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_WARP_SCAN_CUH */
