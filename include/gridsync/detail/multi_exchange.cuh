/*
 * gridsync/detail/multi_exchange.cuh - the cross-GPU step of gs_multi_sync
 * (internal): the layout of each GPU's state words, system-scope loads and
 * stores, and block 0's exchange with the other GPUs. How and why:
 * gridsync/multi.cuh.
 */
#ifndef GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH
#define GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH

#include <gridsync/detail/memory_order.cuh>
#include <gridsync_multi.h>

/* Layout of a GPU's state words (device memory of that GPU). */
enum {
    GS_MULTI_EPOCH = 0,    /* meetings passed on this GPU, over all launches: the word the
                            * local blocks wait on (with BROKEN, one 64-bit word) */
    GS_MULTI_BROKEN = 1,   /* a cross-GPU wait timed out */
    GS_MULTI_REC_EPOCH = 2,
    GS_MULTI_REC_MISSING = 3, /* bitmask of GPUs whose epoch never came */
    GS_MULTI_REC_ABORTED = 4, /* the host raised the abort word: a rank's launch failed */
    GS_MULTI_ARRIVALS = 32,   /* size words: GPU j writes its epoch at [ARRIVALS + j] */
    GS_MULTI_COUNTER = 64,    /* the local blocks' arrivals (flip counter), a line of its own */
    GS_MULTI_STATE_WORDS = 96
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

/* gs_multi_view.flags */
enum {
    GS_MULTI_VIEW_EPOCH_KNOWN = 1u, /* view.epoch holds the state's epoch */
    GS_MULTI_VIEW_BROKEN = 2u       /* a meeting broke: the rest skip the cross-GPU step */
};

/* Thread 0 of the GPU's last block to arrive: the cross-GPU exchange for
 * meeting `epoch`, then the release of the local blocks.
 * One release pattern (fence.acq_rel.sys, then relaxed system-scope stores
 * into every peer's slot), then acquire polls of the peers' slots. A system
 * fence is the expensive part, so there is exactly one, before the stores;
 * an ld.acquire needs none (an acquire fence after relaxed polls cost as much
 * as a second release: 2.8 us per meeting against NCCL's 1.4 us,
 * docs/multi-gpu.md). No slot for this GPU itself.
 * Nothing is loaded or stored ahead of the fence (the fence waits for every
 * access before it: a store of the epoch there, or the register spills of a
 * call, cost a round trip each), so the fence and the stores are inline and
 * only the wait is a call (out of line: the rest of the grid never pays its
 * registers). */
static __device__ __noinline__ void gs__multi_wait_peers(gs_multi_view *v, unsigned int epoch,
                                                         int local_waiters);

static __device__ __forceinline__ void gs__multi_exchange(gs_multi_view *v, unsigned int epoch,
                                                          int local_waiters)
{
    if (!(v->flags & GS_MULTI_VIEW_BROKEN)) {
        gs__fence_acq_rel_sys();
        for (int j = 0; j < v->size; ++j)
            if (j != v->rank)
                gs__st_relaxed_sys(v->peer_arrivals[j] + v->rank, epoch);
    }
    gs__multi_wait_peers(v, epoch, local_waiters);
}

/* The wait of gs__multi_exchange, then {epoch, broken} stored into the
 * GPU's epoch word: with release (gpu scope) where local blocks wait on it,
 * so that they acquire what this thread acquired from the peers (causality
 * is transitive: peer -> this thread at system scope, this thread -> the
 * local blocks at gpu scope); relaxed and before the polls on a grid of one
 * block, where only the next launch reads it. After a broken meeting the
 * cross-GPU step is skipped: the launch's remaining meetings are local
 * barriers only, so the kernel ends promptly and gs_multi_barrier_check
 * reports the break. */
static __device__ __noinline__ void gs__multi_wait_peers(gs_multi_view *v, unsigned int epoch,
                                                         int local_waiters)
{
    unsigned int *s = v->state;
    unsigned long long *word = (unsigned long long *)(s + GS_MULTI_EPOCH);
    unsigned int broken = (v->flags & GS_MULTI_VIEW_BROKEN) != 0u;
    if (!local_waiters && !broken)
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(word),
                     "l"((unsigned long long)epoch)
                     : "memory");
    unsigned long long deadline = 0;
    /* from 1: the first look at the abort word (host memory, a PCIe round
     * trip) and the clock comes after 64 polls, never on a prompt meeting */
    for (unsigned int spins = 1; !broken; ++spins) {
        unsigned int missing = 0;
        for (int j = 0; j < v->size; ++j)
            if (j != v->rank && (int)(gs__ld_acquire_sys(s + GS_MULTI_ARRIVALS + j) - epoch) < 0)
                missing |= 1u << j;
        if (!missing)
            break;
        if ((spins & 63u) != 0u)
            continue;
        /* every 64 polls: has the host called the meeting off (a rank's
         * launch failed), or is the deadline past (a time-out of 0 is off)? */
        unsigned int aborted = gs__ld_acquire_sys(v->abort) != 0u;
        unsigned long long now = gs_globaltimer_ns();
        if (!deadline)
            deadline = v->timeout_ns ? now + v->timeout_ns : ~0ull;
        if (aborted || now >= deadline) {
            broken = 1u;
            v->flags |= GS_MULTI_VIEW_BROKEN;
            gs_st_relaxed_gpu(s + GS_MULTI_REC_EPOCH, epoch);
            gs_st_relaxed_gpu(s + GS_MULTI_REC_MISSING, missing);
            gs_st_relaxed_gpu(s + GS_MULTI_REC_ABORTED, aborted);
        }
    }
    if (local_waiters || broken)
        gs_st_release_gpu_u64(word, (unsigned long long)broken << 32 | epoch);
}

#endif /* GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH */
