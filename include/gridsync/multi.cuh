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
#include <gridsync_multi.h>

/* Layout of a GPU's state words (device memory of that GPU). */
enum {
    GS_MULTI_EPOCH = 0,    /* barriers passed on this GPU, over all launches */
    GS_MULTI_BROKEN = 1,   /* a cross-GPU wait timed out */
    GS_MULTI_REC_EPOCH = 2,
    GS_MULTI_REC_MISSING = 3, /* bitmask of GPUs whose epoch never came */
    GS_MULTI_REC_ABORTED = 4, /* the host raised the abort word: a rank's launch failed */
    GS_MULTI_ARRIVALS = 32    /* size words: GPU j writes its epoch at [ARRIVALS + j] */
};

GS_DEVICE unsigned int gs__ld_acquire_sys(const unsigned int *p)
{
    unsigned int v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GS_DEVICE void gs__st_relaxed_sys(unsigned int *p, unsigned int v)
{
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GS_DEVICE void gs__fence_acq_rel_sys(void) { asm volatile("fence.acq_rel.sys;" ::: "memory"); }

/* Block 0, thread 0: the cross-GPU exchange (out of line: the rest of the
 * grid never pays its registers). One release pattern (fence.acq_rel.sys,
 * then relaxed system-scope stores into every peer's slot), then acquire
 * polls of the peers' slots. A system fence is the expensive part, so there
 * is exactly one, before the stores; an ld.acquire needs none (an acquire
 * fence after relaxed polls cost as much as a second release: 2.8 us per
 * meeting against NCCL's 1.4 us, docs/multi-gpu.md). No slot for this GPU
 * itself. */
static __device__ __noinline__ void gs__multi_exchange(gs_multi_view *v)
{
    unsigned int *s = v->state;
    if (gs_ld_relaxed_gpu(s + GS_MULTI_BROKEN))
        return;
    unsigned int epoch = s[GS_MULTI_EPOCH] + 1u; /* only this thread writes it */
    s[GS_MULTI_EPOCH] = epoch;
    gs__fence_acq_rel_sys();
    for (int j = 0; j < v->size; ++j)
        if (j != v->rank)
            gs__st_relaxed_sys(v->peer_arrivals[j] + v->rank, epoch);
    unsigned long long deadline = 0;
    for (unsigned int spins = 0;; ++spins) {
        unsigned int missing = 0;
        for (int j = 0; j < v->size; ++j)
            if (j != v->rank && (int)(gs__ld_acquire_sys(s + GS_MULTI_ARRIVALS + j) - epoch) < 0)
                missing |= 1u << j;
        if (!missing)
            return;
        if ((spins & 63u) != 0u)
            continue;
        /* every 64 polls: has the host called the meeting off (a rank's
         * launch failed), or is the deadline past (a time-out of 0 is off)? */
        unsigned int aborted = gs__ld_acquire_sys(v->abort) != 0u;
        unsigned long long now = gs_globaltimer_ns();
        if (!deadline)
            deadline = v->timeout_ns ? now + v->timeout_ns : ~0ull;
        if (aborted || now >= deadline) {
            gs_st_relaxed_gpu(s + GS_MULTI_REC_EPOCH, epoch);
            gs_st_relaxed_gpu(s + GS_MULTI_REC_MISSING, missing);
            gs_st_relaxed_gpu(s + GS_MULTI_REC_ABORTED, aborted);
            gs_st_release_gpu(s + GS_MULTI_BROKEN, 1u);
            return;
        }
    }
}

static __device__ __forceinline__ void gs_multi_sync(gs_multi_view *v)
{
    gs_grid_sync(&v->grid);
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && gs__thread_rank() == 0)
        gs__multi_exchange(v);
    gs_grid_sync(&v->grid);
}

#endif
