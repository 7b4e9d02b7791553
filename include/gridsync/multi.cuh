/*
 * gridsync/multi.cuh - gs_multi_sync: a barrier across the grids of
 * persistent kernels running on several GPUs at once (gridsync_multi.h).
 *
 * How: one meeting is a grid barrier whose last arriver meets the other
 * GPUs before it releases the others. (1) Thread 0 of every block adds to
 * the GPU's arrival counter (flip's scheme: the top bit flips at the last
 * arrival) with atom.acq_rel. (2) The block whose add flips it is the last
 * to arrive: its thread 0 issues fence.release.sys and writes the meeting's
 * epoch into its slot of every other GPU's arrival words (peer memory) with
 * relaxed system-scope stores, a release pattern, then polls its own arrival
 * words with ld.acquire.sys until every other GPU's slot holds the epoch,
 * then stores the epoch with release (gpu scope) into the word (3) every
 * other block's thread 0 polls with ld.acquire.
 * Why correct: every block's add is a release and the adds form one release
 * sequence, so the last arriver's acquiring add sees every local block's
 * writes; its system-scope release pattern passes them (cumulativity) to
 * each peer GPU that reads the epoch with an acquire; what it acquired from
 * the peers reaches the local blocks through its gpu-scope release of the
 * epoch and their acquire polls. Causality order is transitive across the
 * two scopes.
 * Watchdog: the cross-GPU wait is bounded by the view's time-out, and ends
 * early when the host raises the abort word (gs_multi_launch does when a
 * GPU's launch fails, so that the others do not wait for it). Either way the
 * last arriver records the epoch and which GPUs had not arrived, and
 * releases the local blocks with the broken flag; the launch's later
 * meetings skip the cross-GPU step, so the kernel ends;
 * gs_multi_barrier_check reports it and re-arms. A local block that never
 * arrives ends as a time-out of the GPU's grid barrier, as gs_grid_sync's.
 * When: kernels that keep their state on several GPUs and must meet between
 * phases; a meeting costs one grid barrier's arrival plus one NVLink round
 * trip (it was two grid barriers around block 0's exchange: 4.1 us at 132
 * blocks per GPU against NCCL's 3.2 on H200).
 * All threads of every block on every GPU must call it the same number of
 * times. The same meeting carrying a value, whose reduction over every GPU
 * every thread gets: gs_multi_allreduce_* (gridsync/multi_allreduce.cuh).
 * The pieces of a meeting: gridsync/detail/multi/multi_exchange.cuh.
 */
#ifndef GRIDSYNC_MULTI_CUH
#define GRIDSYNC_MULTI_CUH

#include <gridsync/barrier.cuh>
#include <gridsync/detail/multi/multi_exchange.cuh>
#include <gridsync_multi.h>

/* gs_multi_sync - barrier across every thread of the grids of every GPU of
 * the view's group (see above). */
static __device__ __forceinline__ void gs_multi_sync(gs_multi_view *v)
{
    const unsigned int n = gs__grid_blocks();
    int give_up = 0;
    const int leader = gs__thread_rank() == 0u;
    gs__multi_plan p = {0u, 0u, 0, 0, 0, (unsigned int *)0};
    v->grid.count += 1u;
    if (leader)
        p = gs__multi_plan_meeting(v);
    __syncthreads(); /* the block's writes happen-before thread 0's release */
    if (leader) {
        /* the view is this thread's copy in local memory: written only
         * after the release (a store ahead of a fence makes it wait) */
        unsigned int *s = v->state;
        const unsigned int rank = gs__block_rank();
        if (n == 1u || gs__multi_arrive(s, n, rank))
            gs__multi_exchange(v, p, n > 1u);
        else
            give_up = gs__multi_wait_local(v, p.epoch, rank);
        v->epoch = p.epoch;
    }
    /* thread 0's acquire before the block's reads; on one block nobody can
     * give up, and a plain barrier is cheaper than the reduction's */
    if (n == 1u)
        __syncthreads();
    else if (__syncthreads_or(give_up))
        asm volatile("exit;");
}

#endif /* GRIDSYNC_MULTI_CUH */
