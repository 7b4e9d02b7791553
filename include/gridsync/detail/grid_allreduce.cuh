/*
 * gridsync/detail/grid_allreduce.cuh - gs::grid_allreduce (internal): a
 * reduction over every thread of the grid whose result every thread gets,
 * in one grid barrier. The public names: gridsync/allreduce.cuh.
 */
#ifndef GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH
#define GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier_wait.cuh>
#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/warp_reduce.cuh>

namespace gs {

/*
 * grid_allreduce(&view, v, op) - every thread passes v, every thread gets
 * op over all of them. All threads of every block call it, the same number
 * of times (it is a grid barrier: it counts as one in the view's count).
 *
 * How: the block reduces its values (warp shuffles, then warp 0 over the
 *   warps' results), thread 0 stores the block's partial in its slot of
 *   each of the state's GS_ALLREDUCE_REPLICAS copies and arrives at flip's
 *   counter (atom.add.release), then polls it (ld.acquire) until every
 *   block has arrived. Warp 0 then reads every block's partial from copy
 *   rank % copies (so that each L2 line of partials serves a fraction of
 *   the grid: every block reading one copy queued on its lines, 2.5x the
 *   barrier at 528 blocks on H200), lane l folding slots l, l + 32, ... in
 *   order, combines the lanes with a fixed shuffle tree and hands the
 *   result to the block through shared memory.
 * Why correct: each partial is stored before its block's release and read
 *   after the reader's acquire of a value that every release contributed
 *   to, so every read sees its block's store (happens-before; the reads are
 *   ordered after thread 0's acquire by __syncwarp). Two slot sets are used
 *   by turns (the view's count decides): a block writes set s for its
 *   (k+2)-th all-reduce only after passing barrier k+1, which no block
 *   reaches before it has read set s for all-reduce k.
 * Deterministic: the block's order (fixed by the block's shape) and the
 *   grid's (fixed by the grid's size) do not depend on timing, so a grid of
 *   a given shape gets the same bits on every run, in every block.
 * Cost: the barrier, plus one round of loads of n partials in warp 0 and
 *   two warp reductions (measured by `gridsync bench sync`).
 * When: a global sum, norm or maximum that every block needs to go on (the
 *   dot products of conjugate gradient, a convergence test), instead of a
 *   grid barrier, a reduction into memory and another barrier.
 */
template <class T, class Op>
static __device__ __forceinline__ T grid_allreduce(gs_grid_barrier *b, T v, Op op)
{
    __shared__ T warp_partial[32];
    __shared__ T block_result;
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    const unsigned int warp = tid >> 5, nwarps = (nt + 31u) >> 5;
    const unsigned int n = gs__grid_blocks();
    v = warp_reduce(v, warp == nwarps - 1u ? nt - (warp << 5) : 32u, op);
    if ((tid & 31u) == 0u)
        warp_partial[warp] = v;
    b->count += 1u;
    __syncthreads(); /* warps' results; and the block's writes before the release */
    int give_up = 0;
    if (warp == 0u) {
        T x = tid < nwarps ? warp_partial[tid] : Op::identity();
        x = warp_reduce(x, nwarps < 32u ? nwarps : 32u, op);
        /* set (count & 1), copy r at words [r * 2 * round(capacity)] of it */
        const unsigned int copy_words = 2u * GS_ROUND_LINE(b->capacity);
        unsigned int *set = b->state + GS_W_PARTIALS(b->capacity) +
                            (b->count & 1u) * GS_PARTIAL_SET_WORDS(b->capacity);
        const T *mine = (const T *)(set + (gs__block_rank() % GS_ALLREDUCE_REPLICAS) * copy_words);
        if (n > 1u) {
            if (tid == 0u) {
                unsigned int rank = gs__block_rank();
                unsigned int *ctr = b->state + GS_W_FLIP;
                for (unsigned int r = 0; r < GS_ALLREDUCE_REPLICAS; ++r)
                    ((T *)(set + r * copy_words))[rank] = x; /* ordered before the release */
                unsigned int old =
                    gs_atom_add_release_gpu(ctr, rank == 0u ? 0x80000000u - (n - 1u) : 1u);
                give_up = gs__wait(b, rank, ctr, GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, old,
                                   0u, gs__late(b));
            }
            __syncwarp(); /* orders thread 0's acquire before the warp's loads */
            give_up = __shfl_sync(0xffffffffu, give_up, 0);
            if (!give_up) {
                x = Op::identity();
                for (unsigned int i = tid; i < n; i += 32u)
                    x = op(x, mine[i]);
                x = warp_reduce(x, n < 32u ? n : 32u, op);
            }
        }
        if (tid == 0u)
            block_result = x;
    }
    if (__syncthreads_or(give_up))
        asm volatile("exit;");
    return block_result;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_GRID_ALLREDUCE_CUH */
