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
    /* from 1: the first look at the abort word (host memory, a PCIe round
     * trip) and the clock comes after 64 polls, never on a prompt meeting */
    for (unsigned int spins = 1;; ++spins) {
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

#endif /* GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH */
