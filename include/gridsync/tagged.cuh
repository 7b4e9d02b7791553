/*
 * gridsync/tagged.cuh - tagged words: a 32-bit value and the step that
 * wrote it, in one 8-byte store, so that a reader needs no flag and no
 * fence: the tag it polls for is in the word that carries the value.
 *
 *   #include <gridsync/tagged.cuh>
 *
 *   // a halo exchange: each block publishes its edge for step s and reads
 *   // its neighbour's, with no barrier in between (base: the last tag used)
 *   gs_tagged_put_f32(&mine[parity][i], edge[i], base + s + 1);
 *   float v;
 *   if (!gs_tagged_get_f32(&bar, &theirs[parity][i], base + s + 1, neighbour, &v))
 *       give_up = 1;   // the watchdog fired: leave the kernel (all threads)
 *
 * Contract:
 *   gs_tagged_put_*(word, v, tag)  one st.relaxed.gpu.u64 of (tag << 32) | bits(v).
 *   gs_tagged_get_*(&bar, word, tag, from, &v)
 *                                   waits until the word's tag is `tag`, then
 *                                   *v is the value stored with that tag.
 *                                   Returns 1, or 0 when the wait timed out
 *                                   (or another wait already did); then the
 *                                   block must leave the kernel (see
 *                                   gs_block_leave_if below). `from` is the
 *                                   writer's block rank, for the report.
 *   Tags: a word is read for one tag at a time, and compared for equality.
 *   Start from zeroed words and tags from 1, and let every launch go on
 *   from where the last stopped (pass it the last tag used so far, as the
 *   signals' base; its steps then use base + 1, base + 2, ...): a tag must
 *   not repeat while a stale word could still hold it (zero the words again
 *   before 2^32 tags have been used).
 *   Reuse: a writer may store a word's next tag only once the reader has
 *   read the current one; in an exchange where each side's next values are
 *   computed from what it read of the other's (halos, pipelines with
 *   back-pressure), waiting for the other side's next word is that proof,
 *   and two sets of words, for even and odd steps, are enough.
 * Why correct: an aligned 64-bit access is single-copy atomic (PTX memory
 *   model), so a load that sees the tag sees the value stored with it; no
 *   other memory is ordered, which is why the reader needs no acquire and
 *   the writer no release (and a writer's store does not wait for the
 *   acknowledgement of its earlier stores: the ~600 ns a release after a
 *   store costs on H200, docs/scoped-sync.md). Reuse of a word: the
 *   writer's next store is computed from what it read of the reader's
 *   reply, which the reader computed from the value it read; PTX's
 *   no-thin-air axiom forbids that read to observe the store that depends
 *   on it. What is not carried in tagged words is not ordered by them:
 *   use a signal or a barrier for other data.
 * Watchdog: the grid barrier's (its view's state and time-out): a wait
 *   that exceeds it records the writer's rank, the tag seen and the tag
 *   expected, raises the flag (every other slow wait gives up too), and
 *   gs_barrier_check reports it ("tagged word from block 5: block 6
 *   waited for tag 12 but saw tag 11"). Nothing hangs the GPU (unless the
 *   time-out is turned off: GRIDSYNC_BARRIER_TIMEOUT=off).
 * When: data that goes to exactly one reader per step in small pieces
 *   (halos, boundary values, pipeline hand-offs): the exchange costs a
 *   store's trip to L2 and a poll (0.85-0.98 us a step with both 1-D
 *   neighbours at 132-1056 blocks on H200, against 1.14-1.49 for the
 *   neighbour barrier, which moves no data; `gridsync bench sync`). Larger
 *   data (where 8 bytes per 4 is a cost) or data read by many is better
 *   published once behind a signal.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_TAGGED_CUH
#define GRIDSYNC_TAGGED_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/scoped/tagged_word.cuh>

/* A tagged word: 8 bytes, 8-byte aligned, in global memory. */
typedef unsigned long long gs_tagged_word;

GS_DEVICE void gs_tagged_put_u32(gs_tagged_word *word, unsigned int v, unsigned int tag)
{
    gs__tagged_put(word, v, tag);
}

GS_DEVICE void gs_tagged_put_f32(gs_tagged_word *word, float v, unsigned int tag)
{
    gs__tagged_put(word, __float_as_uint(v), tag);
}

GS_DEVICE int gs_tagged_get_u32(const gs_grid_barrier *b, const gs_tagged_word *word,
                                unsigned int tag, unsigned int from, unsigned int *v)
{
    return gs__tagged_get(b, word, tag, from, v);
}

GS_DEVICE int gs_tagged_get_f32(const gs_grid_barrier *b, const gs_tagged_word *word,
                                unsigned int tag, unsigned int from, float *v)
{
    unsigned int bits = 0u;
    int ok = gs__tagged_get(b, word, tag, from, &bits);
    *v = __uint_as_float(bits);
    return ok;
}

/* Every thread of the block calls it after its gets: a block barrier that
 * also orders the values stored to shared memory before the block's reads,
 * and, if any thread's get gave up, the whole block leaves the kernel. */
GS_DEVICE void gs_block_leave_if(int gave_up)
{
    if (__syncthreads_or(gave_up))
        asm volatile("exit;");
}

#endif /* GRIDSYNC_TAGGED_CUH */
