/*
 * gridsync/detail/scoped/halo_tile.cuh - a block's tile of a halo (internal): the
 * struct gs_halo_tile, where a tile lies in the field and in shared memory,
 * its edge cells, its ring and where each of their values lies among the
 * halo's tagged words. The public names and the contract are in
 * gridsync/halo.cuh; the exchange itself is detail/scoped/halo_exchange.cuh.
 */
#ifndef GRIDSYNC_DETAIL_HALO_TILE_CUH
#define GRIDSYNC_DETAIL_HALO_TILE_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/halo_view.h>
#include <gridsync/detail/core/grid_geometry.cuh>
#include <gridsync/detail/core/tuning.h>

/* A block's tile, as gs_halo_begin_* fills it (every thread holds its own
 * copy; the fields a kernel reads are documented in gridsync/halo.cuh). A
 * copy of the tile in shared memory is (h + 2 * ring_rows) rows of
 * `stride` = w + 2 values: the tile and a ring of one cell around it
 * (1-D: one cell each end). */
typedef struct gs_halo_tile {
    gs_halo view;
    const gs_grid_barrier *bar; /* the watchdog of the waits */
    void *cur, *nxt;            /* the two copies: this step reads cur, writes nxt */
    int x0, y0, w, h;           /* the tile: cells [x0, x0 + w) x [y0, y0 + h) */
    int stride, ring_rows;      /* a copy's row stride; 1 (2-D) or 0 (1-D) */
    int bx, by;                 /* the tile's column and row among the tiles */
    int side[4];                /* ring cells from the north, south, west, east
                                   neighbour (0: no neighbour there) */
    int ring, edges;            /* their sum; the tile's edge cells */
    int thread, threads;        /* the calling thread's rank in the block, the block's threads */
    int pollers, computers;     /* the last `pollers` threads fetch the next ring; the first
                                   `computers` walk the interior (all of them, with one thread) */
    int edge_xy;                /* edge cell t.thread (when t.thread < edges), decoded once:
                                   x | y << 16 (a tile in shared memory is < 2^16 cells wide) */
    int strips, bands;          /* the interior's column strips, `bands` a column */
    int strip_xy, strip_end;    /* the calling thread's first strip (strip t.thread), packed so */
    int step, steps;            /* the step being computed, and how many this launch makes */
    unsigned int base;          /* the last tag before this launch: step s carries base + s + 1 */
} gs_halo_tile;

/* A thread's walk through the tile's interior (gs_halo_interior): cell
 * (lx, ly) while ly < end; the computing threads take cells computers
 * apart in row order, each step (dx, dy) further on with a carry into the
 * next row, no division a cell. */
typedef struct gs_halo_walk {
    int lx, ly, end;
    int dx, dy, x_end, width;
} gs_halo_walk;

/* A column strip of the interior (gs_halo_strips): column x, rows
 * [y, end), while item < items. 2-D: the interior's columns cut into
 * `bands` strips each, strip i being column 1 + i % iw, band i / iw, the
 * computing threads taking strips computers apart; a thread walking its
 * strip down keeps the cells above and at it in registers (three shared
 * loads a 5-point cell, not five). 1-D: a strip is one cell (y = 0). */
typedef struct gs_halo_strip {
    int x, y, end;
    int item, items;
} gs_halo_strip;

namespace gs {
namespace detail {

/* The first cell of part i when n cells go to `parts` parts (even split). */
GS_DEVICE int halo_cut(int i, int n, int parts) { return (int)((long long)i * n / parts); }

/* The words of a value: its index among the halo's values, times
 * value_words. Values, parity p: each tile row's top and bottom rows
 * (rows exist when gy > 1), then each tile column's left and right columns
 * (when gx > 1); GS_HALO_VALUES (halo_view.h) counts them. */
GS_DEVICE unsigned long long halo_row(const gs_halo &v, unsigned int p, int by, int bottom)
{
    return ((unsigned long long)p * 2u * (unsigned long long)v.gy + (unsigned long long)(2 * by + bottom)) * (unsigned long long)v.w;
}

GS_DEVICE unsigned long long halo_col(const gs_halo &v, unsigned int p, int bx, int right)
{
    const unsigned long long rows = v.gy > 1 ? 4u * (unsigned long long)v.gy * (unsigned long long)v.w : 0u;
    return rows + ((unsigned long long)p * 2u * (unsigned long long)v.gx + (unsigned long long)(2 * bx + right)) * (unsigned long long)v.h;
}

/* Where cell (lx, ly) of the tile lies in a copy (-1 and w, h: the ring). */
GS_DEVICE int halo_at(const gs_halo_tile &t, int lx, int ly)
{
    return (ly + t.ring_rows) * t.stride + lx + 1;
}

/* The edge cells of a tile, i < t.edges: 2-D, the top row, the bottom
 * row, then the left and the right columns between them (each cell once,
 * also when the tile is one cell wide or high); 1-D, the first cell and
 * the last. Every other cell is the interior. */
GS_DEVICE void halo_edge_decode(const gs_halo_tile &t, int i, int *lx, int *ly)
{
    const int tw = t.w, th = t.h;
    if (t.ring_rows == 0) { /* 1-D */
        *lx = i == 0 ? 0 : tw - 1;
        *ly = 0;
        return;
    }
    const int side = th > 2 ? th - 2 : 0;
    if (i < tw) {
        *lx = i;
        *ly = 0;
    } else if (th > 1 && i < 2 * tw) {
        *lx = i - tw;
        *ly = th - 1;
    } else {
        const int j = i - (th > 1 ? 2 * tw : tw);
        *lx = j < side ? 0 : tw - 1;
        *ly = 1 + (j < side ? j : j - side);
    }
}

/* The same, with the calling thread's own edge cell (i == t.thread, the
 * first of a loop from t.thread) decoded once at gs_halo_begin. */
GS_DEVICE void halo_edge_cell(const gs_halo_tile &t, int i, int *lx, int *ly)
{
    if (i == t.thread) {
        *lx = t.edge_xy & 0xffff;
        *ly = t.edge_xy >> 16;
        return;
    }
    halo_edge_decode(t, i, lx, ly);
}

GS_DEVICE int halo_edge_count(int tw, int th, int dims)
{
    if (dims == 1)
        return tw >= 2 ? 2 : 1;
    const int side = th > 2 ? th - 2 : 0;
    return tw + (th > 1 ? tw : 0) + side * (tw > 1 ? 2 : 1);
}

/* Ring cell j (j < t.ring) of the step whose edges carry `tag`: its value's
 * index among the halo's values, its place in a copy, the writer's rank.
 * The ring is the facing edges of the face neighbours, north, south, west,
 * east, one side after another. */
GS_DEVICE void halo_ring_cell(const gs_halo_tile &t, int j, unsigned int tag, unsigned long long *at,
                              int *off, int *from)
{
    const gs_halo &v = t.view;
    const unsigned int p = tag & 1u;
    if (j < t.side[0]) { /* north: the bottom row of the tile above */
        *at = halo_row(v, p, t.by - 1, 1) + (unsigned long long)(t.x0 + j);
        *off = halo_at(t, j, -1);
        *from = (t.by - 1) * v.gx + t.bx;
    } else if ((j -= t.side[0]) < t.side[1]) { /* south: the top row of the tile below */
        *at = halo_row(v, p, t.by + 1, 0) + (unsigned long long)(t.x0 + j);
        *off = halo_at(t, j, t.h);
        *from = (t.by + 1) * v.gx + t.bx;
    } else if ((j -= t.side[1]) < t.side[2]) { /* west: the right column of the tile left */
        *at = halo_col(v, p, t.bx - 1, 1) + (unsigned long long)(t.y0 + j);
        *off = halo_at(t, -1, j);
        *from = t.by * v.gx + t.bx - 1;
    } else { /* east: the left column of the tile right */
        j -= t.side[2];
        *at = halo_col(v, p, t.bx + 1, 0) + (unsigned long long)(t.y0 + j);
        *off = halo_at(t, t.w, j);
        *from = t.by * v.gx + t.bx + 1;
    }
}

/* The interior: columns [1, w - 1) and rows [1, h - 1) (1-D: row 0). */
GS_DEVICE gs_halo_walk halo_interior(const gs_halo_tile &t)
{
    gs_halo_walk c = {0, 0, 0, 0, 0, 0, 0};
    const int iw = t.w > 2 ? t.w - 2 : 0;
    const int y0 = t.ring_rows, y1 = t.ring_rows ? t.h - 1 : 1;
    if (iw == 0 || y1 <= y0 || t.thread >= t.computers)
        return c; /* ly == end: nothing */
    c.width = iw;
    c.x_end = 1 + iw;
    c.lx = 1 + t.thread % iw;
    c.ly = y0 + t.thread / iw;
    c.dx = t.computers % iw;
    c.dy = t.computers / iw;
    c.end = y1;
    return c;
}

GS_DEVICE void halo_interior_next(gs_halo_walk &c)
{
    c.lx += c.dx;
    c.ly += c.dy;
    if (c.lx >= c.x_end) {
        c.lx -= c.width;
        ++c.ly;
    }
}

/* The interior's strips (halo_strip_plan at gs_halo_begin): strip i's
 * column and rows. Bands split the interior's rows evenly (ih / bands
 * each, at least one row: bands <= ih), so the strips of a column cover
 * its rows once. */
GS_DEVICE void halo_strip_of(const gs_halo_tile &t, int i, gs_halo_strip &s)
{
    const int iw = t.w - 2, y0 = t.ring_rows, ih = t.ring_rows ? t.h - 2 : 1;
    const int band = i / iw;
    s.x = 1 + (i - band * iw);
    s.y = y0 + band * ih / t.bands; /* < 1024 * 2^16: bands <= threads */
    s.end = y0 + (band + 1) * ih / t.bands;
}

/* Sets t.strips, t.bands and the calling thread's first strip: 2-D, as
 * many bands a column as the computing threads fill (at least one, at most
 * the interior's rows); 1-D, one cell a strip. */
GS_DEVICE void halo_strip_plan(gs_halo_tile &t)
{
    const int iw = t.w > 2 ? t.w - 2 : 0, ih = t.ring_rows ? (t.h > 2 ? t.h - 2 : 0) : 1;
    int bands = t.ring_rows && iw > 0 ? t.computers / iw : 1;
    bands = bands < 1 ? 1 : bands > ih ? ih : bands;
    t.bands = bands;
    t.strips = iw > 0 && ih > 0 ? iw * bands : 0;
    gs_halo_strip s = {0, 0, 0, 0, 0};
    if (t.thread < t.strips && t.thread < t.computers)
        halo_strip_of(t, t.thread, s);
    t.strip_xy = s.x | s.y << 16;
    t.strip_end = s.end;
}

/* The calling thread's first strip (none for the pollers). */
GS_DEVICE gs_halo_strip halo_strips(const gs_halo_tile &t)
{
    gs_halo_strip s = {t.strip_xy & 0xffff, t.strip_xy >> 16, t.strip_end,
                       t.thread < t.computers ? t.thread : t.strips, t.strips};
    return s;
}

GS_DEVICE void halo_strip_next(const gs_halo_tile &t, gs_halo_strip &s)
{
    s.item += t.computers;
    if (s.item < s.items)
        halo_strip_of(t, s.item, s);
}

/* Pollers for a ring of `ring` cells and an interior of `interior` cells on
 * nt threads (the rule and its measurement: GS_TUNE_HALO_INTERIOR_PER_THREAD
 * in tuning.h). */
GS_DEVICE int halo_pollers(int ring, int interior, int nt)
{
    if (ring <= 0)
        return 0;
    const int most = nt / 2 > 0 ? nt / 2 : 1;
    int pollers = most;
    for (int per = 1; per <= 4; per *= 2) {
        pollers = ((ring + per - 1) / per + 31) / 32 * 32;
        pollers = pollers < most ? pollers : most;
        const int others = nt > pollers ? nt - pollers : nt;
        if (interior <= GS_TUNE_HALO_INTERIOR_PER_THREAD * others)
            break;
    }
    return pollers;
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_HALO_TILE_CUH */
