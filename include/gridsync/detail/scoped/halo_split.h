/*
 * gridsync/detail/scoped/halo_split.h - the split of a field into tiles
 * (internal): the algorithm of gs_halo_split_2d (src/barrier/halo.c checks
 * the arguments and calls it). Plain C with no #include, pure, so that the
 * host tests that do not link the library (the emulated stencil's) use the
 * very same split.
 */
#ifndef GRIDSYNC_DETAIL_HALO_SPLIT_H
#define GRIDSYNC_DETAIL_HALO_SPLIT_H

/* Tiles for `blocks` blocks on a w x h field (each >= 1): gx x gy with
 * gx <= w, gy <= h and gx * gy <= blocks, using at least 7/8 of the blocks
 * the field allows, with the smallest tile perimeter (the halo a step
 * exchanges), then the most blocks. 132 blocks on a square field: 12 x 11. */
static inline void gs__halo_split_2d(int w, int h, int blocks, int *gx, int *gy)
{
    long long most = 0, best_cost = -1, best_used = 0;
    *gx = *gy = 1;
    for (int x = 1; x <= blocks && x <= w; ++x) { /* the most blocks the field allows */
        long long y = blocks / x < h ? blocks / x : h;
        most = x * y > most ? x * y : most;
    }
    for (int x = 1; x <= blocks && x <= w; ++x) {
        int y = blocks / x < h ? blocks / x : h;
        long long used = (long long)x * y, cost = (w + x - 1) / x + (h + y - 1) / y;
        if (8 * used < 7 * most)
            continue;
        if (best_cost < 0 || cost < best_cost || (cost == best_cost && used > best_used)) {
            best_cost = cost;
            best_used = used;
            *gx = x;
            *gy = y;
        }
    }
}

#endif /* GRIDSYNC_DETAIL_HALO_SPLIT_H */
