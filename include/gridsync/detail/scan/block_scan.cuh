/*
 * gridsync/detail/scan/block_scan.cuh - gs::block_inclusive_scan and
 * gs::block_exclusive_scan: prefix combinations over every thread of a
 * block in linear thread-rank order, generic over the value type and the
 * operator. Any block shape (1-, 2- or 3-D), any size up to 1024 threads.
 * `smem` holds 32 values. All threads must call; every thread gets its
 * prefix, and with `total` the combination of the whole block.
 *
 * How: each warp scans its lanes (gs::warp_inclusive_scan), its last lane
 * stores the warp's total in smem[warp]; after a barrier every thread folds
 * the totals of the warps before its own, left to right, and combines that
 * prefix with its warp-level result (the exclusive form shifts the warp's
 * results up one lane first; thread 0 gets the identity).
 * Why correct: the barrier orders the warps' stores before any thread's
 * loads (bar.sync orders the block's shared-memory accesses); one more at
 * entry keeps a previous call's readers from seeing this call's writes, so
 * `smem` can be reused back to back. The order of combination is fixed
 * (warp scan shape, then warps left to right), so floating results repeat
 * bitwise.
 * When: one item per thread. Two barriers per call; the fold over warp
 * totals costs up to 31 operations in the last warp (reads of one shared
 * word each, broadcast to the warp).
 *
 *   __shared__ int smem[32];
 *   int count;
 *   int slot = gs::block_exclusive_scan(keep ? 1 : 0, smem, gs::sum<int>(), &count);
 */
#ifndef GRIDSYNC_DETAIL_BLOCK_SCAN_CUH
#define GRIDSYNC_DETAIL_BLOCK_SCAN_CUH

#include <gridsync/detail/scan/warp_scan.cuh>

namespace gs {
namespace detail {

/* The shared part: v becomes the warp-level inclusive result; returns the
 * combination of the warps before the caller's (meaningless in warp 0) and
 * stores the block's total in *total when total is not NULL. */
template <class T, class Op>
static __device__ __forceinline__ T block_scan_warps(T &v, T *smem, Op op, T *total)
{
    unsigned int tid = gs__thread_rank(), n = gs__block_threads();
    unsigned int warp = tid >> 5, nwarps = (n + 31u) >> 5;
    unsigned int lanes = warp == nwarps - 1u ? n - (warp << 5) : 32u;
    __syncthreads(); /* a previous call's readers are done with smem */
    v = warp_inclusive_scan(v, lanes, op);
    if ((tid & 31u) == lanes - 1u)
        smem[warp] = v;
    __syncthreads(); /* the warps' totals are written before anyone reads them */
    T before = smem[0];
    for (unsigned int w = 1u; w < warp; ++w)
        before = op(before, smem[w]);
    if (total) { /* going on with the same left fold: the same bits in every warp */
        T all = before;
        for (unsigned int w = warp > 1u ? warp : 1u; w < nwarps; ++w)
            all = op(all, smem[w]);
        *total = all;
    }
    return before;
}

} // namespace detail

/* Thread r gets op(v_0, ..., v_r), r the linear thread rank. */
template <class T, class Op>
static __device__ __forceinline__ T block_inclusive_scan(T v, T *smem, Op op, T *total = nullptr)
{
    detail::check_combined<Op, T>();
    T before = detail::block_scan_warps(v, smem, op, total);
    return (gs__thread_rank() >> 5) > 0u ? op(before, v) : v;
}

/* Thread r gets op(v_0, ..., v_{r-1}); thread 0 gets the identity. */
template <class T, class Op>
static __device__ __forceinline__ T block_exclusive_scan(T v, T *smem, Op op, T *total = nullptr)
{
    detail::check_combined<Op, T>();
    unsigned int tid = gs__thread_rank(), n = gs__block_threads(), warp = tid >> 5;
    unsigned int lanes = n - (warp << 5) < 32u ? n - (warp << 5) : 32u;
    unsigned int mask = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
    T before = detail::block_scan_warps(v, smem, op, total);
    T shifted = detail::value_traits<T>::shuffle_up(mask, v, 1u);
    if ((tid & 31u) == 0u)
        return warp > 0u ? before : Op::identity();
    return warp > 0u ? op(before, shifted) : shifted;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_BLOCK_SCAN_CUH */
