/*
 * gridsync/multi.cuh - gs_multi_sync: a barrier across the grids of
 * persistent kernels running on several GPUs at once (gridsync_multi.h).
 *
 * How: (1) a grid barrier on this GPU: every local block has arrived and
 * its writes are visible to block 0 (gpu scope). (2) Thread 0 of block 0
 * takes the next epoch, issues fence.acq_rel.sys and writes the epoch into
 * its slot of every other GPU's arrival words (peer memory) with relaxed
 * system-scope stores: a release pattern. It then polls its own arrival
 * words with ld.acquire.sys until every other GPU's slot holds the epoch.
 * (3) A second
 * grid barrier releases the local blocks.
 * Why correct: the release pattern is cumulative: the local writes that
 * block 0 observed through the first grid barrier are ordered before its
 * stores of the epoch, so a GPU whose acquire load reads that epoch sees
 * them; its own second grid barrier then passes that on to all of its blocks
 * (acquire, then gpu-scope release).
 * Watchdog: the cross-GPU wait is bounded by the view's time-out, and ends
 * early when the host raises the abort word (gs_multi_launch does when a
 * GPU's launch fails, so that the others do not wait for it). Either way
 * block 0 records the epoch and which GPUs had not arrived, and sets the
 * broken flag; later cross-GPU waits of the launch return at once, so the
 * kernel ends; gs_multi_barrier_check reports it and re-arms.
 * When: kernels that keep their state on several GPUs and must meet between
 * phases; each meeting costs two grid barriers plus one NVLink round trip.
 * All threads of every block on every GPU must call it the same number of
 * times.
 */
#ifndef GRIDSYNC_MULTI_CUH
#define GRIDSYNC_MULTI_CUH

#include <gridsync/barrier.cuh>
#include <gridsync/detail/multi_exchange.cuh>
#include <gridsync_multi.h>

/* gs_multi_sync - barrier across every thread of the grids of every GPU of
 * the view's group (see above). */
static __device__ __forceinline__ void gs_multi_sync(gs_multi_view *v)
{
    gs_grid_sync(&v->grid);
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && gs__thread_rank() == 0)
        gs__multi_exchange(v);
    gs_grid_sync(&v->grid);
}

#endif /* GRIDSYNC_MULTI_CUH */
