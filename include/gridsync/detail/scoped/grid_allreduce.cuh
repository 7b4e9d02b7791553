/*
 * gridsync/detail/scoped/grid_allreduce.cuh - gs::grid_allreduce (internal): a
 * reduction over every thread of the grid whose result every thread gets,
 * in one grid barrier. The public names: gridsync/allreduce.cuh.
 */
#ifndef GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH
#define GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/reduce/warp_reduce.cuh>
#include <gridsync/detail/scoped/grid_slots.cuh>

namespace gs {

/*
 * grid_allreduce(&view, v, op) - every thread passes v, every thread gets
 * op over all of them. All threads of every block call it, the same number
 * of times (it is a grid barrier: it counts as one in the view's count).
 *
 * How: the block reduces its values (warp shuffles, then warp 0 over the
 *   warps' results), thread 0 stores the block's partial in its slot of
 *   the state and arrives at flip's counter (atom.add.release), then polls
 *   it (ld.acquire) until every block has arrived (the meeting
 *   gs::detail::grid_slot_meeting of detail/scoped/grid_slots.cuh, which
 *   the grid scan shares). Then every warp reads its
 *   share of the partials, eight independent loads at a time, folds them in
 *   a fixed order, and the warps' results are folded in order through
 *   shared memory. (Eight copies of the partials, each read by an eighth of
 *   the grid, measured no faster on H200: docs/scoped-sync.md.)
 * Why correct: each partial is stored before its block's release and read
 *   after the reader's acquire of a value that every release contributed
 *   to, so every read sees its block's store (happens-before; the block's
 *   reads are ordered after thread 0's acquire by a block barrier). Two slot
 *   sets are used by turns (the view's count of slot collectives, all-reduces
 *   and scans, decides): a block writes set s for collective k + 2 only
 *   after passing collective k + 1, a grid barrier no block reaches before
 *   it has read set s for collective k (the argument in full:
 *   grid_slots.cuh).
 * Deterministic: the block's order (fixed by the block's shape) and the
 *   grid's (fixed by the grid's size) do not depend on timing, so a grid of
 *   a given shape gets the same bits on every run, in every block.
 * Cost: the barrier, plus a round of loads of the n partials spread over
 *   the block, and warp reductions and block barriers on either side
 *   (measured by `gridsync bench sync`).
 * When: a global sum, norm or maximum that every block needs to go on (the
 *   dot products of conjugate gradient, a convergence test), instead of a
 *   grid barrier, a reduction into memory and another barrier.
 */
/* Thread `first` folds slots first + k * stride,
 * k = 0, 1, ... in order, its loads issued eight at a time (a dependent
 * chain of loads would cost one L2 round trip per slot). */
template <class T, class Op>
static __device__ __forceinline__ T fold_slots(const T *slots, unsigned int n, unsigned int first,
                                               unsigned int stride, Op op)
{
    T x = Op::identity();
    for (unsigned int i = first; i < n; i += 8u * stride) {
        T v[8];
#pragma unroll
        for (unsigned int k = 0; k < 8u; ++k)
            v[k] = i + k * stride < n ? slots[i + k * stride] : Op::identity();
#pragma unroll
        for (unsigned int k = 0; k < 8u; ++k)
            x = op(x, v[k]);
    }
    return x;
}

template <class T, class Op>
static __device__ __forceinline__ T grid_allreduce(gs_grid_barrier *b, T v, Op op)
{
    __shared__ T warp_partial[32];
    __shared__ T block_result;
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    const unsigned int warp = tid >> 5, nwarps = (nt + 31u) >> 5, lane = tid & 31u;
    const unsigned int n = gs__grid_blocks();
    const unsigned int wlanes = warp == nwarps - 1u ? nt - (warp << 5) : 32u;
    v = warp_reduce(v, wlanes, op);
    if (lane == 0u)
        warp_partial[warp] = v;
    b->count += 1u;
    __syncthreads(); /* warps' results; and the block's writes before the release */
    T x = v;
    if (warp == 0u) {
        x = tid < nwarps ? warp_partial[tid] : Op::identity();
        x = warp_reduce(x, nwarps < 32u ? nwarps : 32u, op);
        if (tid == 0u)
            block_result = x; /* the answer when the block is the grid */
    }
    const T *set = detail::grid_slot_meeting(b, x); /* thread 0's x: the block's partial */
    if (n == 1u)
        return block_result;
    /* every warp folds its share of the partials, in an order fixed by n and
     * the block's size; then warp 0 folds the warps' results in order */
    x = fold_slots(set, n, tid, nt, op);
    x = warp_reduce(x, wlanes, op);
    if (lane == 0u)
        warp_partial[warp] = x;
    __syncthreads();
    if (warp == 0u) {
        x = tid < nwarps ? warp_partial[tid] : Op::identity();
        x = warp_reduce(x, nwarps < 32u ? nwarps : 32u, op);
        if (tid == 0u)
            block_result = x;
    }
    __syncthreads();
    return block_result;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH */
