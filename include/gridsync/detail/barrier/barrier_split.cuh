/*
 * gridsync/detail/barrier/barrier_split.cuh - the split-phase grid barrier
 * (internal): gs_grid_arrive and gs_grid_wait of gridsync/barrier.cuh.
 * How it works, why it is correct and when to prefer it: there.
 *
 * Two threads of different warps share the work so that their stalls
 * overlap instead of adding up (research/probes/split_phase.cu measured each
 * part): thread 0 releases (its fence waits ~300 ns for the block's writes,
 * and delays only warp 0's work), and the poller, lane 0 of the last warp,
 * polls in the wait (its load's round trip runs while warp 0 still works
 * off its fence). The release is a red, not an atom: nobody waits for a
 * value to come back. The poller knows the counter's top bit before the
 * arrival: from its own last wait when no barrier of the view ran since,
 * else from a load ahead of the block barrier that precedes the release.
 * When the wait comes soon after the arrive, the poller lets the other
 * arrivals land before its first poll (GS_TUNE_SPLIT_GATE_CLOCKS_PER_BLOCK).
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH
#define GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>

/* What gs_grid_arrive hands to gs_grid_wait: in the poller, the flip
 * counter's top bit before this block's arrival (bit 31) and the SM clock
 * at the arrival (bits 0-30); in every thread, the barrier's number in the
 * launch, by which the wait tells a token of another step apart. */
typedef struct gs_grid_token {
    unsigned int poller;
    unsigned int count;
} gs_grid_token;

GS_DEVICE unsigned int gs__clock31(void) { return (unsigned int)clock64() & 0x7fffffffu; }

/* The thread that polls: lane 0 of the block's last warp (thread 0 when the
 * block is one warp). */
GS_DEVICE unsigned int gs__split_poller(void) { return (gs__block_threads() - 1u) & ~31u; }

GS_DEVICE gs_grid_token gs__grid_arrive(gs_grid_barrier *b)
{
    gs_grid_token token;
    const unsigned int n = gs__grid_blocks(), tid = gs__thread_rank();
    const int polls = n > 1u && tid == gs__split_poller();
    unsigned int phase = 0u;
    if (polls) {
        if (b->split_phase != 0u && (b->split_phase >> 1) == b->count)
            /* no barrier since this thread's last wait saw the top bit */
            phase = b->split_phase << 31;
        else
            /* ahead of the block barrier, so ahead of the release: this
             * block's arrival is missing, the bit cannot flip before it */
            phase = gs__ld_relaxed_gpu(b->state + GS_W_FLIP) & 0x80000000u;
    }
    b->count += 1u;
    token.count = b->count;
    __syncthreads(); /* the block's writes happen-before thread 0's release */
    token.poller = polls ? phase | gs__clock31() : 0u;
    if (n > 1u && tid == 0u)
        gs__red_add_release_gpu(b->state + GS_W_FLIP,
                               gs__block_rank() == 0u ? 0x80000000u - (n - 1u) : 1u);
    return token;
}

GS_DEVICE void gs__grid_wait(gs_grid_barrier *b, gs_grid_token token)
{
    int give_up = 0;
    const unsigned int n = gs__grid_blocks();
    if (n > 1u && gs__thread_rank() == gs__split_poller()) {
        if (token.count != b->count) { /* another barrier ran between arrive and wait */
            gs__raise_misuse(b->state, b->count, b->method, GS_MISUSE_TOKEN, token.count,
                             b->count, 0u, 0u);
            give_up = 1;
        } else {
            const unsigned int phase = token.poller & 0x80000000u;
            const unsigned int gate = GS_TUNE_SPLIT_GATE_CLOCKS_PER_BLOCK * n;
            /* bounded: at most `gate` clocks, however the clock wraps */
            while (((gs__clock31() - token.poller) & 0x7fffffffu) < gate) {
            }
            give_up = gs__wait(b, gs__block_rank(), b->state + GS_W_FLIP,
                               GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, phase, 0u, gs__late(b));
            /* the bit it flipped to, valid until the view's next barrier */
            b->split_phase = b->count << 1 | (phase >> 31 ^ 1u);
        }
    }
    if (__syncthreads_or(give_up)) /* the poller's acquire before the block's reads */
        asm volatile("exit;");
}

#endif /* GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH */
