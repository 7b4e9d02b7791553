/*
 * gridsync/detail/barrier_split.cuh - the split-phase grid barrier
 * (internal): gs_grid_arrive and gs_grid_wait of gridsync/barrier.cuh.
 * How it works, why it is correct and when to prefer it: there.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH
#define GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier_wait.cuh>

/* What gs_grid_arrive hands to gs_grid_wait: the flip counter's value
 * before this block's arrival (meaningful in thread 0) and the barrier's
 * number in the launch (every thread), by which the wait tells a token of
 * another step apart. */
typedef struct gs_grid_token {
    unsigned int phase;
    unsigned int count;
} gs_grid_token;

GS_DEVICE gs_grid_token gs__grid_arrive(gs_grid_barrier *b)
{
    gs_grid_token token;
    unsigned int n = gs__grid_blocks();
    b->count += 1u;
    token.count = b->count;
    token.phase = 0u;
    __syncthreads(); /* the block's writes happen-before thread 0's release */
    if (n > 1u && gs__thread_rank() == 0u) {
        unsigned int rank = gs__block_rank();
        /* flip's arrival: the old value comes back while the block works */
        token.phase = gs_atom_add_release_gpu(b->state + GS_W_FLIP,
                                              rank == 0u ? 0x80000000u - (n - 1u) : 1u);
    }
    return token;
}

GS_DEVICE void gs__grid_wait(gs_grid_barrier *b, gs_grid_token token)
{
    int give_up = 0;
    unsigned int n = gs__grid_blocks();
    if (n > 1u && gs__thread_rank() == 0u) {
        if (token.count != b->count) { /* another barrier ran between arrive and wait */
            gs__raise_misuse(b->state, b->count, b->method, GS_MISUSE_TOKEN, token.count,
                             b->count, 0u, 0u);
            give_up = 1;
        } else {
            give_up = gs__wait(b, gs__block_rank(), b->state + GS_W_FLIP,
                               GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, token.phase, 0u,
                               gs__late(b));
        }
    }
    if (__syncthreads_or(give_up)) /* thread 0's acquire before the block's reads */
        asm volatile("exit;");
}

#endif /* GRIDSYNC_DETAIL_BARRIER_SPLIT_CUH */
