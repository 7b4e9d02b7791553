/*
 * gridsync/detail/scoped/tagged_word.cuh - tagged words (internal): the public
 * names and their contract are in gridsync/tagged.cuh.
 */
#ifndef GRIDSYNC_DETAIL_TAGGED_WORD_CUH
#define GRIDSYNC_DETAIL_TAGGED_WORD_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>

/* A tagged word: the tag in the high half, the value's 32 bits in the low. */
GS_DEVICE void gs__tagged_put(unsigned long long *word, unsigned int bits, unsigned int tag)
{
    gs__st_relaxed_gpu_u64(word, (unsigned long long)tag << 32 | bits);
}

/* The watched wait for a tag (out of line, its own function so that the
 * barriers' slow path, and so their kernels' registers, are unchanged):
 * keeps polling; every 32 polls looks at the record's flag (another wait
 * timed out: leave) and at the deadline, the bounded wait's
 * (bounded_wait.cuh), started on entry (past it: record the writer, the tag
 * seen and the tag expected, raise the flag, leave; with the time-out off,
 * GRIDSYNC_BARRIER_TIMEOUT=off, it waits for ever). Written out as the
 * barriers' watched wait (gs::detail::wait_slow) is, for the same reason.
 * 0: the tag came, *seen is the word that carried it; 1: the caller must
 * leave. */
static __device__ __noinline__ int gs__tagged_wait_slow(const gs__waiter *w,
                                                        unsigned long long *seen)
{
    gs::detail::wait_deadline deadline = gs::detail::wait_deadline_from_now(w->timeout_ns);
    const unsigned long long *word = (const unsigned long long *)w->p;
    if (gs__ld_relaxed_gpu(w->state + GS_REC_FLAG) != 0u)
        return 1; /* a time-out already happened: leave as every slow wait does */
    for (unsigned int spins = 1;; ++spins) {
        const unsigned long long v = gs__ld_relaxed_gpu_u64(word);
        if ((unsigned int)(v >> 32) == (unsigned int)w->ref) {
            *seen = v;
            return 0;
        }
        if ((spins & 31u) != 0u)
            continue;
        if (gs__ld_relaxed_gpu(w->state + GS_REC_FLAG) != 0u)
            return 1;
        if (!gs::detail::wait_deadline_reached(deadline))
            continue;
        unsigned int detail[GS_REC_DETAIL_WORDS] = {w->target, (unsigned int)(v >> 32), 0u,
                                                    (unsigned int)w->ref, 0u, 0u};
        gs__raise_detail(w->state, GS_REC_KIND_TAGGED_TIMEOUT, w->count, w->rank, w->method,
                         detail);
        return 1;
    }
}

/* Poll `word` (relaxed 64-bit loads) until its tag is `tag`; then *bits is
 * the value stored with it. The inline polls first; past them the watched
 * slow path bounds the wait by the barrier's time-out and names `from`
 * (the writer) in the record. 1: *bits is set; 0: the wait timed out (or
 * another did): the caller must leave. */
GS_DEVICE int gs__tagged_get(const gs_grid_barrier *b, const unsigned long long *word,
                             unsigned int tag, unsigned int from, unsigned int *bits)
{
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k) {
        const unsigned long long v = gs__ld_relaxed_gpu_u64(word);
        if ((unsigned int)(v >> 32) == tag) {
            *bits = (unsigned int)v;
            return 1;
        }
    }
    gs__waiter w = {b->state, word, tag, b->timeout_ns, 0u, b->count, gs__block_rank(),
                    0u,       0,    b->method,      from};
    unsigned long long seen = 0ull;
    if (gs__tagged_wait_slow(&w, &seen))
        return 0;
    *bits = (unsigned int)seen;
    return 1;
}

#endif /* GRIDSYNC_DETAIL_TAGGED_WORD_CUH */
