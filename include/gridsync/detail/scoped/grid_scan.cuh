/*
 * gridsync/detail/scoped/grid_scan.cuh - gs::grid_exclusive_scan (internal):
 * the exclusive prefix over the blocks of one value a block, and the grid's
 * total, which every thread gets, in one grid barrier. The public names:
 * gridsync/grid_scan.cuh.
 */
#ifndef GRIDSYNC_DETAIL_GRID_SCAN_CUH
#define GRIDSYNC_DETAIL_GRID_SCAN_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/block_scan.cuh>
#include <gridsync/detail/scoped/grid_slots.cuh>

namespace gs {

/*
 * grid_exclusive_scan(&view, block_value, op, &total) - block b's value is
 * thread 0's block_value (the other threads' are not read); every thread of
 * block b gets op over the values of blocks 0 .. b-1 (op's identity in
 * block 0) and, where total is not NULL, *total = op over every block's
 * value. All threads of every block call it, the same number of times (it
 * is a grid barrier: it counts as one in the view's count).
 *
 *   __shared__ unsigned int smem[32];
 *   unsigned int kept;   // this block's items, in every thread
 *   unsigned int slot = gs::block_exclusive_scan(keep ? 1u : 0u, smem, gs::sum<unsigned int>(), &kept);
 *   unsigned int all, base = gs::grid_exclusive_scan(&bar, kept, gs::sum<unsigned int>(), &all);
 *   if (keep) out[written + base + slot] = x;   // stream compaction, in order
 *   written += all;
 *
 * How: thread 0 stores the block's value in its slot of the barrier state's
 *   partials and the grid meets once on flip's counter
 *   (gs::detail::grid_slot_meeting, shared with the all-reduce). Then the
 *   block reads all n slots, thread t the contiguous run t * c .. t * c + c - 1
 *   (c = ceil(n / threads)), its loads eight at a time, folded left to
 *   right; the thread whose run holds slot b keeps its fold of the run's
 *   slots before b. A block exclusive scan over the runs' folds
 *   (gs::block_exclusive_scan, with the block's total) gives each run's
 *   prefix and the grid's total; the prefix of b is that run's prefix
 *   combined with the fold before b, handed to every thread through shared
 *   memory.
 * Why correct: the meeting's happens-before makes every slot's store
 *   visible to every block's loads after it, and its two alternating slot
 *   sets may be reused by any mix of all-reduces and scans
 *   (grid_slots.cuh). The shared words are written after a block barrier
 *   that every reader of the previous call has passed (the entry's, and the
 *   block scan's own) and read after the next one.
 * Deterministic: the runs, the block scan's shape and the order of every
 *   fold are fixed by the grid's size and the block's, never by timing:
 *   a grid of a given shape gets the same bits on every run; the total has
 *   the same bits in every block, and earlier blocks are always the left
 *   operand (so a non-commutative operator works too).
 * Cost: the barrier, plus n / threads loads a thread (one round for grids
 *   up to the block's size), a block scan (two block barriers) and one more
 *   block barrier; no block reduction before the barrier, unlike the
 *   all-reduce (measured by `gridsync bench sync`, row `grid scan u32`).
 * When: each block of a persistent kernel produced a count (items kept,
 *   work found, bytes to write) and needs where its output starts and how
 *   much the grid produced, to go on without a kernel boundary: stream
 *   compaction, output allocation, a work queue's next round. One value a
 *   thread and a scan over all threads: the block scan first, then this on
 *   the block's total, as above.
 */
template <class T, class Op>
static __device__ __forceinline__ T grid_exclusive_scan(gs_grid_barrier *b, T block_value, Op op,
                                                        T *total)
{
    __shared__ T smem[32];
    __shared__ T prefix_of_block;
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
    b->count += 1u;
    __syncthreads(); /* the block's writes before the release; the last call's readers */
    const T *set = detail::grid_slot_meeting(b, block_value); /* thread 0's value */
    /* thread tid's run of slots: lo .. hi - 1 */
    const unsigned int per = (n + nt - 1u) / nt;
    const unsigned int lo = tid * per < n ? tid * per : n, hi = lo + per < n ? lo + per : n;
    T run = Op::identity(), before = Op::identity();
    for (unsigned int i = lo; i < hi; i += 8u) {
        T v[8];
#pragma unroll
        for (unsigned int k = 0; k < 8u; ++k)
            if (i + k < hi)
                v[k] = set[i + k];
#pragma unroll
        for (unsigned int k = 0; k < 8u; ++k)
            if (i + k < hi) {
                if (i + k == rank)
                    before = run;
                run = op(run, v[k]);
            }
    }
    T all;
    T run_prefix = block_exclusive_scan(run, smem, op, &all);
    if (rank >= lo && rank < hi)
        prefix_of_block = op(run_prefix, before);
    __syncthreads();
    if (total)
        *total = all;
    return prefix_of_block;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_GRID_SCAN_CUH */
