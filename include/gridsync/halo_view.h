/*
 * gridsync/halo_view.h - what a kernel receives of a halo (the tiles'
 * edges exchanged as tagged words, gridsync/halo.cuh): the view struct
 * passed by value to kernels. Plain C with no #include, so that NVRTC
 * compiles it; gridsync.h includes it for the host.
 */
#ifndef GRIDSYNC_HALO_VIEW_H
#define GRIDSYNC_HALO_VIEW_H

/* The device view of a halo; the host fills it with gs_halo_device().
 * Plain data: a w x h field (1-D: n x 1) cut into gx x gy tiles, one a
 * block (block rank r: tile column r % gx, tile row r / gx), tile (bx, by)
 * being cells [bx * w / gx, (bx + 1) * w / gx) x [by * h / gy, ...).
 * words: the edges of every tile as tagged words, two parities; epochs:
 * one word a block, the last tag it used (the next launch goes on from
 * it, so nothing is reset between launches or graph replays). */
typedef struct gs_halo {
    unsigned long long *words;
    unsigned int *epochs;
    int w, h;            /* the field, in cells (1-D: h = 1) */
    int gx, gy;          /* the tiles (1-D: gy = 1) */
    int dims;            /* 1 or 2: a 1-D tile has no ring rows above and below */
    int value_words;     /* tagged words a value: 1 (float) or 2 (double) */
} gs_halo;

/* The values a halo's words hold (value_words words each): for each of two
 * parities, each tile row's top and bottom rows (when gy > 1) and each tile
 * column's left and right columns (when gx > 1). */
#define GS_HALO_VALUES(w, h, gx, gy)                                          \
    (((gy) > 1 ? 4ull * (unsigned long long)(gy) * (unsigned long long)(w) : 0ull) + \
     ((gx) > 1 ? 4ull * (unsigned long long)(gx) * (unsigned long long)(h) : 0ull))

#endif /* GRIDSYNC_HALO_VIEW_H */
