/*
 * gridsync/detail/tagged_word.cuh - tagged words (internal): the public
 * names and their contract are in gridsync/tagged.cuh.
 */
#ifndef GRIDSYNC_DETAIL_TAGGED_WORD_CUH
#define GRIDSYNC_DETAIL_TAGGED_WORD_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier_wait.cuh>

/* A tagged word: the tag in the high half, the value's 32 bits in the low. */
GS_DEVICE void gs__tagged_put(unsigned long long *word, unsigned int bits, unsigned int tag)
{
    gs_st_relaxed_gpu_u64(word, (unsigned long long)tag << 32 | bits);
}

/* Poll `word` (relaxed 64-bit loads) until its tag is `tag`; then *bits is
 * the value stored with it. The inline polls first; past them the watched
 * slow path bounds the wait by the barrier's time-out and names `from`
 * (the writer) in the record. 1: *bits is set; 0: the wait timed out (or
 * another did): the caller must leave. */
GS_DEVICE int gs__tagged_get(const gs_grid_barrier *b, const unsigned long long *word,
                             unsigned int tag, unsigned int from, unsigned int *bits)
{
    for (;;) {
        for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k) {
            const unsigned long long v = gs_ld_relaxed_gpu_u64(word);
            if ((unsigned int)(v >> 32) == tag) {
                *bits = (unsigned int)v;
                return 1;
            }
        }
        gs__waiter w = {b->state,  word,     tag, b->timeout_ns, 0u, b->count, gs__block_rank(),
                        0u,        GS__UNTIL_TAG_EQ, b->method, from};
        if (gs__wait_slow(&w))
            return 0;
        /* the tag arrived: the inline polls read it again (its writer
         * rewrites the word only after this block has answered, the
         * contract of gridsync/tagged.cuh) */
    }
}

#endif /* GRIDSYNC_DETAIL_TAGGED_WORD_CUH */
