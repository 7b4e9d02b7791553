/*
 * grid_sizes.h - the grid sizes every synchronization test covers: 1, 2,
 * the SM count, one more, the co-resident maximum (and one less), never
 * above the maximum, without repeats.
 */
#ifndef GS_TEST_GRID_SIZES_H
#define GS_TEST_GRID_SIZES_H

static inline int gs_test_grid_sizes(unsigned int sms, unsigned int max_blocks,
                                     unsigned int out[6])
{
    unsigned int cand[6] = {1u, 2u, sms, sms + 1u, max_blocks - 1u, max_blocks};
    int n = 0;
    for (int i = 0; i < 6; ++i) {
        unsigned int g = cand[i] < max_blocks ? cand[i] : max_blocks, dup = 0;
        for (int j = 0; j < n; ++j)
            dup |= out[j] == g;
        if (g > 0 && !dup)
            out[n++] = g;
    }
    return n;
}

/* The most nearly square w x h = blocks (w >= h), for 2-D layouts. */
static inline void gs_test_grid_2d(unsigned int blocks, unsigned int *w, unsigned int *h)
{
    unsigned int best = 1u;
    for (unsigned int d = 1u; d * d <= blocks; ++d)
        if (blocks % d == 0u)
            best = d;
    *h = best;
    *w = blocks / best;
}

#endif
