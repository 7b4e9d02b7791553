/*
 * gridsync/detail/scoped/signal_ops.cuh - the signal operations (internal): the
 * public names and their contract are in gridsync/signal.cuh.
 */
#ifndef GRIDSYNC_DETAIL_SIGNAL_OPS_CUH
#define GRIDSYNC_DETAIL_SIGNAL_OPS_CUH

#include <gridsync/signal_view.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>

/* Counter i, or NULL (recorded as a misuse) when i is past the set. */
GS_DEVICE unsigned long long *gs__signal(const gs_signal_set *s, unsigned int i)
{
    if (i < s->count)
        return s->values + (unsigned long long)i * GS_SIGNAL_STRIDE;
    gs__raise_misuse(s->record, 0u, 0, GS_MISUSE_SIGNAL_INDEX, i, s->count, 0u, 0u);
    return 0;
}

/* atom.max with release: the counter never goes down, and the old value
 * says whether this store tried to. */
GS_DEVICE void gs__signal_store(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    unsigned long long *p = gs__signal(s, i), old;
    if (!p)
        return;
    asm volatile("atom.release.gpu.global.max.u64 %0, [%1], %2;"
                 : "=l"(old)
                 : "l"(p), "l"(v)
                 : "memory");
    if (old > v)
        gs__raise_misuse(s->record, 0u, 0, GS_MISUSE_SIGNAL_BACKWARDS, i, (unsigned int)old,
                         (unsigned int)(old >> 32), (unsigned int)v, (unsigned int)(v >> 32));
}

GS_DEVICE void gs__signal_add(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    unsigned long long *p = gs__signal(s, i);
    if (p)
        asm volatile("red.release.gpu.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GS_DEVICE unsigned long long gs__signal_load(const gs_signal_set *s, unsigned int i)
{
    unsigned long long *p = gs__signal(s, i);
    return p ? gs__ld_acquire_gpu_u64(p) : 0ull;
}

/* Poll (ld.acquire) until counter i >= v; the watched slow path of the
 * barriers bounds it. 1: reached; 0: the wait timed out or the set's
 * record was already raised (the caller must not use what it waited for). */
GS_DEVICE int gs__signal_wait(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    unsigned long long *p = gs__signal(s, i);
    if (!p)
        return 0;
    const int until = GS__UNTIL_GE64 | GS__ACQUIRE_EACH;
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k)
        if (gs__wait_done(p, until, v, 0u))
            return 1;
    gs__waiter w = {s->record, p, v, s->timeout_ns, 0u, 0u, gs__block_rank(), 0u, until, 0, i};
    return !gs__wait_slow(&w);
}

#endif /* GRIDSYNC_DETAIL_SIGNAL_OPS_CUH */
