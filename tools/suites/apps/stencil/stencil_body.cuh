/*
 * stencil_body.cuh - the 2-D heat stencil of `gridsync bench apps`:
 * one step, the split of the field into tiles, the bodies of the persistent
 * kernels (templated over how blocks synchronize, so that the GPU kernels
 * of stencil_kernels.cu and the emulated host test run the very same
 * code), and on the host (stencil_host.h) the tiling and the CPU
 * references.
 *
 * The problem: a w x h field of floats, zero outside (Dirichlet), stepped
 * `steps` times by u' = u + (n + s + w + e - 4u) / 8 = u/2 + (n + s + w + e)/8
 * (explicit heat equation, r = 1/8: every weight is exact in binary).
 * Every version computes each cell with gs_stencil_cell, in the same order,
 * so every version gives the same bits, and so does the CPU's float replica.
 *
 * No includes of gridsync or the CUDA runtime here: the host test compiles
 * this file under tests/host/cuda_emulation.h.
 */
#ifndef GS_BENCH_APPS_STENCIL_BODY_CUH
#define GS_BENCH_APPS_STENCIL_BODY_CUH

#include <math.h>
#include <stddef.h>

#define GS_STENCIL_HD __host__ __device__ __forceinline__

/* One cell's step. 0.125 * sum and 0.5 * c are exact, so the fma rounds
 * once, as a separate multiply and add would: the same bits everywhere. */
GS_STENCIL_HD float gs_stencil_cell(float c, float n, float s, float w, float e)
{
    return fmaf(0.125f, (n + s) + (w + e), 0.5f * c);
}

/* What a kernel of the stencil receives (by value). */
struct gs_stencil_field {
    int w, h, steps;
    int gx, gy;           /* on chip: the tiles, gx x gy (the grid); global: 1 x blocks */
    int tile_w, tile_h;   /* on chip: the largest tile (the shared-memory layout);
                             global: unused (0) */
    const float *u0;      /* the initial field; never written, so every solve starts here */
    float *a, *b;         /* the field between steps (global-memory versions) */
    float *out;           /* the field after the last step (every version) */
    float *halo;          /* on-chip: the tiles' edges, two parities (gs_stencil_halo_floats) */
    unsigned long long *tagged; /* tagged on-chip: the same edges as tagged words */
    unsigned int tag0;    /* tagged: the tag before this solve's first (step s writes tag0+s+1) */
};

/* Tile (bx, by) of a gx x gy split: cells [x0, x1) x [y0, y1). Widths and
 * heights differ by at most one; none is empty when gx <= w and gy <= h. */
struct gs_stencil_tile {
    int x0, x1, y0, y1;
};

GS_STENCIL_HD gs_stencil_tile gs_stencil_tile_of(const gs_stencil_field &f, int bx, int by)
{
    gs_stencil_tile t = {(int)((long long)bx * f.w / f.gx), (int)((long long)(bx + 1) * f.w / f.gx),
                         (int)((long long)by * f.h / f.gy), (int)((long long)(by + 1) * f.h / f.gy)};
    return t;
}

/* The halo of the on-chip version, in floats: for each parity, each tile
 * row's top and bottom rows (rows[p][by][0|1][x]) and each tile column's
 * left and right columns (cols[p][bx][0|1][y]). */
GS_STENCIL_HD size_t gs_stencil_halo_floats(int w, int h, int gx, int gy)
{
    return 2u * 2u * ((size_t)gy * (size_t)w + (size_t)gx * (size_t)h);
}

/* Where a tile's edge lies in that halo, for parity p: the first cell of
 * tile row by's top (bottom = 0) or bottom row (1), of tile column bx's left
 * (right = 0) or right column (1). Step s writes parity (s + 1) & 1, and
 * step s reads, as its ring, parity s & 1 (what step s - 1 wrote). */
GS_STENCIL_HD size_t gs_stencil_halo_row(const gs_stencil_field &f, int p, int by, int bottom)
{
    return (size_t)p * 2u * (size_t)f.gy * (size_t)f.w + (size_t)(2 * by + bottom) * (size_t)f.w;
}

GS_STENCIL_HD size_t gs_stencil_halo_col(const gs_stencil_field &f, int p, int bx, int right)
{
    return 4u * (size_t)f.gy * (size_t)f.w + (size_t)p * 2u * (size_t)f.gx * (size_t)f.h +
           (size_t)(2 * bx + right) * (size_t)f.h;
}

/* Step s reads *src and writes *dst: u0 first, then a and b in turn, the
 * last step into out. */
GS_STENCIL_HD void gs_stencil_buffers(const gs_stencil_field &f, int s, const float **src,
                                      float **dst)
{
    *src = s == 0 ? f.u0 : (s - 1) % 2 ? f.b : f.a;
    *dst = s == f.steps - 1 ? f.out : s % 2 ? f.b : f.a;
}

/* Cell (x, y) after one step of field u (global memory). */
GS_STENCIL_HD float gs_stencil_at(const float *u, int w, int h, int x, int y)
{
    const float *p = u + (size_t)y * (size_t)w + (size_t)x;
    float n = y > 0 ? p[-w] : 0.0f, s = y + 1 < h ? p[w] : 0.0f;
    float west = x > 0 ? p[-1] : 0.0f, east = x + 1 < w ? p[1] : 0.0f;
    return gs_stencil_cell(*p, n, s, west, east);
}

/* The global-memory kernel's unit of work: a group of whole rows, at least
 * four cells a thread of a block of `threads` (one row from 4 x threads
 * cells wide). Group g is rows [g * rows, (g + 1) * rows). */
GS_STENCIL_HD int gs_stencil_group_rows(int w, int threads)
{
    const int r = (4 * threads + w - 1) / w;
    return r < 1 ? 1 : r;
}

/*
 * The persistent kernel, field in global memory (sizes whose tiles do not
 * fit in shared memory). The grid is 1-D, `blocks` blocks.
 * How: the field is cut into groups of whole rows (gs_stencil_group_rows);
 * block b owns groups b, b + blocks, b + 2 blocks, ..., so the grid sweeps
 * the field together, the way a relaunched grid does; even steps go top to
 * bottom, odd steps bottom to top, so a step starts on the rows the last
 * one wrote last (still in L2). A group's cells go four a thread in flight
 * (loads first, then stores). `sync` is called steps - 1 times by every
 * block; it is at least a barrier with blocks b - 1 and b + 1 around the
 * ring (gs_neighbour_sync_1d with GS_NEIGHBOURS_WRAP).
 * Why correct: a group reads its own rows and the row on either side of
 * it, which belong to the groups before and after it: blocks b - 1 and
 * b + 1 around the ring (the first group's neighbour above is the field's
 * edge, the last block's group is followed by block 0's next). Their writes
 * of step s happen-before this block's reads at step s + 1 (release/acquire
 * at GPU scope through sync). Two buffers suffice: step s + 2 overwrites
 * what step s + 1 read, and a block starts step s + 2 only after both
 * neighbours finished step s + 1 (its (s+2)-th sync returns only once they
 * made theirs), so their reads of step s + 1 happen-before its writes. The
 * order of the sweep changes when a cell is computed, never what it reads.
 * The field is read with plain loads, never the non-coherent path (no
 * const __restrict__ here).
 * Why this layout (H200, docs/apps-stencil.md): one band of rows a block
 * made 132 - 528 streams far apart in memory and ran at 1800-2000 GB/s;
 * the interleaved groups with every SM full (2048 threads) at 2750-2900,
 * against 2100-2200 for the relaunched kernel; the alternating direction
 * adds 5% at 2^24 cells (a 64 MiB field, near the 60 MB L2).
 * When: memory-bound sizes; the synchronization is a small share of a step.
 */
/* The next cell of a thread's walk through a group: (dx, dy) further on,
 * carried into the next row at the field's width w. */
GS_STENCIL_HD void gs_stencil_advance(int *x, int *y, int dx, int dy, int w)
{
    *x += dx;
    *y += dy;
    if (*x >= w) {
        *x -= w;
        ++*y;
    }
}

template <class Sync>
__device__ __forceinline__ void gs_stencil_global_body(const gs_stencil_field &f, int blk,
                                                       int blocks, Sync sync)
{
    const int tid = (int)threadIdx.x, nt = (int)blockDim.x;
    const int rows = gs_stencil_group_rows(f.w, nt), groups = (f.h + rows - 1) / rows;
    const int mine = blk < groups ? (groups - 1 - blk) / blocks + 1 : 0;
    /* the thread's cells in a group are tid, tid + nt, ...: their (x, y)
     * advance by (dx, dy) with a carry, no division a cell */
    const int dx = nt % f.w, dy = nt / f.w, x_first = tid % f.w, y_first = tid / f.w;
    for (int s = 0; s < f.steps; ++s) {
        const float *src;
        float *dst;
        gs_stencil_buffers(f, s, &src, &dst);
        for (int i = 0; i < mine; ++i) {
            const int g = blk + (s & 1 ? mine - 1 - i : i) * blocks;
            const int y0 = g * rows, y1 = y0 + rows < f.h ? y0 + rows : f.h;
            const int cells = (y1 - y0) * f.w;
            int x = x_first, y = y0 + y_first;
            for (int i0 = tid; i0 < cells; i0 += 4 * nt) {
                float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                unsigned int at[4] = {0u, 0u, 0u, 0u}; /* fields of < 2^31 cells (setup) */
                const int here = i0 + 3 * nt < cells ? 4 : (cells - i0 + nt - 1) / nt;
                if (here == 4) { /* no branch between the loads: all twenty in flight */
#pragma unroll
                    for (int k = 0; k < 4; ++k) {
                        v[k] = gs_stencil_at(src, f.w, f.h, x, y);
                        at[k] = (unsigned int)y * (unsigned int)f.w + (unsigned int)x;
                        gs_stencil_advance(&x, &y, dx, dy, f.w);
                    }
                } else { /* the group's last cells */
#pragma unroll
                    for (int k = 0; k < 3; ++k)
                        if (k < here) {
                            v[k] = gs_stencil_at(src, f.w, f.h, x, y);
                            at[k] = (unsigned int)y * (unsigned int)f.w + (unsigned int)x;
                            gs_stencil_advance(&x, &y, dx, dy, f.w);
                        }
                }
#pragma unroll
                for (int k = 0; k < 4; ++k)
                    if (k < here)
                        dst[at[k]] = v[k];
            }
        }
        if (s + 1 < f.steps)
            sync();
    }
}

/* The cells on the edge of a tw x th tile: the top row, the bottom row,
 * then the left and the right columns between them (each cell once, also
 * when the tile is one cell wide or high). */
GS_STENCIL_HD int gs_stencil_perimeter(int tw, int th)
{
    const int side = th > 2 ? th - 2 : 0;
    return tw + (th > 1 ? tw : 0) + side * (tw > 1 ? 2 : 1);
}

/* The i-th of them (0 <= i < gs_stencil_perimeter(tw, th)). */
GS_STENCIL_HD void gs_stencil_perimeter_cell(int i, int tw, int th, int *lx, int *ly)
{
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

/* Interior strip i of an iw x ih interior in `bands` bands a column:
 * column lx, rows [ya, yb) (tile coordinates, the interior starting at 1). */
GS_STENCIL_HD void gs_stencil_strip_of(int i, int iw, int ih, int bands, int *lx, int *ya,
                                       int *yb)
{
    const int band = i / iw;
    *lx = 1 + i % iw;
    *ya = 1 + band * ih / bands;
    *yb = 1 + (band + 1) * ih / bands;
}

/* Rows [ya, yb) of one column of a tile with a one-cell ring (row stride
 * S): src and dst point at the column in the two copies, which never
 * overlap (__restrict__ tells the compiler so). The cells above and at the
 * current one stay in registers (three shared loads a cell), and four rows'
 * loads are issued before their stores: a row's loads behind the last
 * row's store would cost one shared-memory latency a row. */
GS_STENCIL_HD void gs_stencil_strip(const float *__restrict__ src, float *__restrict__ dst, int S,
                                     int ya, int yb)
{
    float up = src[ya * S], c = src[(ya + 1) * S];
    int ly = ya;
    for (; ly + 4 <= yb; ly += 4) {
        const float *r = src + (ly + 1) * S; /* the row of the first cell */
        const float d0 = r[S], d1 = r[2 * S], d2 = r[3 * S], d3 = r[4 * S];
        const float w0 = r[-1], e0 = r[1], w1 = r[S - 1], e1 = r[S + 1];
        const float w2 = r[2 * S - 1], e2 = r[2 * S + 1], w3 = r[3 * S - 1], e3 = r[3 * S + 1];
        float *o = dst + (ly + 1) * S;
        o[0] = gs_stencil_cell(c, up, d0, w0, e0);
        o[S] = gs_stencil_cell(d0, c, d1, w1, e1);
        o[2 * S] = gs_stencil_cell(d1, d0, d2, w2, e2);
        o[3 * S] = gs_stencil_cell(d2, d1, d3, w3, e3);
        up = d2;
        c = d3;
    }
    for (; ly < yb; ++ly) {
        const float down = src[(ly + 2) * S];
        dst[(ly + 1) * S] = gs_stencil_cell(c, up, down, src[(ly + 1) * S - 1], src[(ly + 1) * S + 1]);
        up = c;
        c = down;
    }
}

/*
 * How the on-chip body exchanges its edges: a halo in global memory that a
 * barrier orders. `put` writes an edge cell of step s (parity (s+1) & 1),
 * `get` reads one of step s - 1 at the start of step s, `ring_done` follows
 * the block's gets (the ring before the step's reads), `step_done` ends
 * every step but the last (the barrier that makes the edges visible, and
 * a block barrier too: a block without neighbours skips the gets and
 * ring_done). With a barrier the gets can only follow it (early_gets
 * false).
 * The tagged exchange of stencil_kernels.cu has the same members, and
 * early_gets: each value carries its step, so the next step's ring is read
 * while this step's interior is computed (try_get: one look, no wait).
 */
template <class Sync>
struct gs_stencil_barrier_halo {
    static constexpr bool early_gets = false;
    float *halo;
    Sync sync;
    __device__ __forceinline__ void put(size_t at, float v, int) const { halo[at] = v; }
    __device__ __forceinline__ int get(size_t at, int, int, float *v) const
    {
        *v = halo[at];
        return 1;
    }
    __device__ __forceinline__ void ring_done(int) const { __syncthreads(); }
    __device__ __forceinline__ void step_done() const { sync(); }
};

/* The ring a block reads each step: the facing edges of its face
 * neighbours, north, south, west and east (`side`: the cells on each side,
 * 0 where the tile has no neighbour), numbered one side after another.
 * Ring cell j as step s reads it: its word in the halo (the parity of step
 * s - 1's edges), its place in a copy of the tile (row stride S), and the
 * rank of the block that writes it. */
GS_STENCIL_HD void gs_stencil_ring_cell(const gs_stencil_field &f, const gs_stencil_tile &t,
                                        int bx, int by, const int side[4], int j, int s,
                                        size_t *at, int *off, int *from)
{
    const int tw = t.x1 - t.x0, th = t.y1 - t.y0, S = f.tile_w + 2, p = s & 1;
    if (j < side[0]) { /* north: the bottom row of the tile above */
        *at = gs_stencil_halo_row(f, p, by - 1, 1) + t.x0 + j;
        *off = j + 1;
        *from = (by - 1) * f.gx + bx;
    } else if ((j -= side[0]) < side[1]) { /* south: the top row of the tile below */
        *at = gs_stencil_halo_row(f, p, by + 1, 0) + t.x0 + j;
        *off = (th + 1) * S + j + 1;
        *from = (by + 1) * f.gx + bx;
    } else if ((j -= side[1]) < side[2]) { /* west: the right column of the tile left */
        *at = gs_stencil_halo_col(f, p, bx - 1, 1) + t.y0 + j;
        *off = (j + 1) * S;
        *from = by * f.gx + bx - 1;
    } else { /* east: the left column of the tile right */
        j -= side[2];
        *at = gs_stencil_halo_col(f, p, bx + 1, 0) + t.y0 + j;
        *off = (j + 1) * S + tw + 1;
        *from = by * f.gx + bx + 1;
    }
}

/* Early gets (tagged): how many threads of a block of nt poll a ring of
 * `ring` cells while the others compute an interior of `interior` cells.
 * Whole warps, at most half the block (one thread when it has one): one
 * poller a ring cell, or one per two, or per four, the most pollers that
 * leave at most GS_STENCIL_INTERIOR_PER_THREAD interior cells to each other
 * thread, else one per four. Why (H200, us a step, one / two / four cells
 * a poller, 256 threads): tiles of 32 x 32 (2^16 cells on 64 blocks) 0.88
 * / 0.92 / 1.00, where the polls' own latency is the step's; tiles of
 * 45 x 44 (2^18 on 132 blocks) 1.16 / 1.09 / 1.04, where the interior is
 * (14 / 11 / 9 cells a thread). */
#define GS_STENCIL_INTERIOR_PER_THREAD 8
GS_STENCIL_HD int gs_stencil_pollers(int ring, int interior, int nt)
{
    if (ring <= 0)
        return 0;
    const int most = nt / 2 > 0 ? nt / 2 : 1;
    int pollers = most;
    for (int per = 1; per <= 4; per *= 2) {
        pollers = ((ring + per - 1) / per + 31) / 32 * 32;
        pollers = pollers < most ? pollers : most;
        const int others = nt > pollers ? nt - pollers : nt;
        if (interior <= GS_STENCIL_INTERIOR_PER_THREAD * others)
            break;
    }
    return pollers;
}

/* Fast looks at a poller's words before its watched gets. */
#define GS_STENCIL_POLL_ROUNDS 8

/* A poller's share of the ring of step s (early gets): cells p, p + pollers,
 * ..., four at a time with their loads in flight together (try_get), then
 * the watched get for any still missing; stored into `copy`. Returns 1
 * when a get gave up (the watchdog): the block must leave. */
template <class Halo>
__device__ __forceinline__ int gs_stencil_poll_ring(const gs_stencil_field &f,
                                                    const gs_stencil_tile &t, int bx, int by,
                                                    const int side[4], int ring, int p,
                                                    int pollers, int s, float *copy,
                                                    const Halo &halo)
{
    for (int j0 = p; j0 < ring; j0 += 4 * pollers) {
        size_t at[4];
        int off[4], from; /* the writer: only for a watched get, looked up then */
        float v[4];
        unsigned int pending = 0u;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            at[k] = 0u;
            off[k] = 0;
            v[k] = 0.0f;
            if (j0 + k * pollers < ring) {
                gs_stencil_ring_cell(f, t, bx, by, side, j0 + k * pollers, s, &at[k], &off[k],
                                     &from);
                pending |= 1u << k;
            } else { /* a valid word, looked at and ignored */
                at[k] = at[0];
            }
        }
        for (int round = 0; pending != 0u && round < GS_STENCIL_POLL_ROUNDS; ++round) {
            float got[4];
            int in[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) /* every look unconditional: four loads in flight */
                in[k] = halo.try_get(at[k], s, &got[k]);
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if ((pending >> k & 1u) && in[k]) {
                    v[k] = got[k];
                    pending &= ~(1u << k);
                }
        }
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (pending >> k & 1u) {
                gs_stencil_ring_cell(f, t, bx, by, side, j0 + k * pollers, s, &at[k], &off[k],
                                     &from);
                if (!halo.get(at[k], s, from, &v[k]))
                    return 1;
            }
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (j0 + k * pollers < ring)
                copy[off[k]] = v[k];
    }
    return 0;
}

/*
 * The persistent kernel, tile on chip (sizes whose tiles fit in shared
 * memory: up to 2^21 cells on an H200).
 * How: the block keeps its tile, with a one-cell ring, in shared memory in
 * two copies (cur, nxt) for the whole run; only the tile's four edges go
 * through global memory. Each step computes nxt from cur: first the tile's
 * edge cells, written to the halo of the step's parity as they are
 * computed, then the interior (each thread walks a column strip, the cells
 * above and at it in registers: three shared loads a cell, no branch).
 * The ring of the next step (the neighbours' edges of this one) comes in
 * one of two ways:
 *   - behind a barrier (gs_stencil_barrier_halo): the step ends with
 *     halo.step_done, and the next one starts by reading its ring into cur
 *     (every thread) and a block barrier;
 *   - tagged (early_gets): the last `pollers` threads of the block read it
 *     into nxt's ring while the others compute the interior, so the trip of
 *     the neighbours' edges and the poll's round trip overlap the interior;
 *     a block barrier ends the step.
 * Then swap. `smem` holds 2 * (tile_h + 2) * (tile_w + 2) floats.
 * Why correct, halo behind a barrier: the ring read at step s + 1 (parity
 * (s+1) & 1) was written by the face neighbours at step s before their
 * (s+1)-th sync, which this block's (s+1)-th sync waits for
 * (release/acquire at GPU scope, then a block barrier before the reads).
 * The edges of step s + 2 go to the same parity; a neighbour writes them
 * only after its (s+2)-th sync returns, which needs this block's (s+2)-th
 * call, made after its reads of step s + 1: one barrier a step and two halo
 * parities suffice (a block is at most one step ahead of its neighbours).
 * Why correct, tagged halo (no barrier between blocks): each edge cell
 * travels with its step's tag in one 8-byte word (gridsync/tagged.cuh),
 * and a get polls until the tag is the step's: it reads that step's value.
 * The edge of step s + 2 that overwrites the word is computed from the
 * reader's edge of step s + 1, which the reader computed from the value of
 * step s it read (the facing edges share their cells' coordinates): the
 * no-thin-air axiom keeps that read from seeing the later store.
 * Within the block: the block barrier before a step's reads (ring_done
 * after the gets, or ending the last step) orders the ring's stores and the
 * last step's writes to nxt (now cur) before them. The ring goes to ring
 * cells no step reads from that copy until then: behind a barrier into
 * cur's, which the last step never touched; tagged into nxt's, which this
 * step does not read (it reads cur) and whose last reads, at the step
 * before, every thread finished before this step's first block barrier.
 * The interior and edges write nxt, the copy the last step read, which
 * every thread finished reading before that barrier too. The ring outside
 * the field is zero in both copies and never written.
 * When: a field that fits in the SMs' shared memory; a step costs its
 * edges and one exchange with the neighbours, not a pass over memory.
 */
template <class Halo>
__device__ __forceinline__ void gs_stencil_onchip_body(const gs_stencil_field &f, int bx, int by,
                                                       float *smem, Halo halo)
{
    const gs_stencil_tile t = gs_stencil_tile_of(f, bx, by);
    const int tw = t.x1 - t.x0, th = t.y1 - t.y0, S = f.tile_w + 2;
    const int tid = (int)threadIdx.x, nt = (int)blockDim.x;
    const bool north = by > 0, south = by + 1 < f.gy, west = bx > 0, east = bx + 1 < f.gx;
    float *cur = smem, *nxt = smem + (size_t)(f.tile_h + 2) * (size_t)S;

    for (int i = tid; i < (th + 2) * (tw + 2); i += nt) { /* tile and ring from u0 */
        int ly = i / (tw + 2), lx = i % (tw + 2), y = t.y0 + ly - 1, x = t.x0 + lx - 1;
        bool in = x >= 0 && x < f.w && y >= 0 && y < f.h;
        cur[ly * S + lx] = in ? f.u0[(size_t)y * (size_t)f.w + (size_t)x] : 0.0f;
        nxt[ly * S + lx] = 0.0f;
    }
    __syncthreads();
    const int side[4] = {north ? tw : 0, south ? tw : 0, west ? th : 0, east ? th : 0};
    const int ring = side[0] + side[1] + side[2] + side[3];
    const int iw = tw > 2 ? tw - 2 : 0, ih = th > 2 ? th - 2 : 0;
    const int pollers = Halo::early_gets ? gs_stencil_pollers(ring, iw * ih, nt) : 0;
    const int nc = nt > pollers ? nt - pollers : nt; /* the interior's threads */
    /* the edge cells, then the interior (iw x ih) in column strips: `bands`
     * strips per column when the interior's threads outnumber its columns */
    const int perimeter = gs_stencil_perimeter(tw, th);
    const int bands = iw > 0 && nc / iw > 0 ? nc / iw : 1, items = iw * bands;
    int strip_lx = 0, strip_ya = 0, strip_yb = 0, edge_lx = 0, edge_ly = 0;
    if (tid < items && tid < nc)
        gs_stencil_strip_of(tid, iw, ih, bands, &strip_lx, &strip_ya, &strip_yb);
    if (tid < perimeter)
        gs_stencil_perimeter_cell(tid, tw, th, &edge_lx, &edge_ly);
    for (int s = 0; s < f.steps; ++s) {
        if (!Halo::early_gets && s > 0 && ring > 0) {
            int gave_up = 0;
            for (int j = tid; j < ring; j += nt) {
                size_t at;
                int off, from;
                float v = 0.0f;
                gs_stencil_ring_cell(f, t, bx, by, side, j, s, &at, &off, &from);
                gave_up |= !halo.get(at, s, from, &v);
                cur[off] = v;
            }
            halo.ring_done(gave_up); /* the ring before the step's reads */
        }
        /* the parity this step's edges go to: its rows and columns */
        const size_t wr = gs_stencil_halo_row(f, (s + 1) & 1, 0, 0);
        const size_t wc = gs_stencil_halo_col(f, (s + 1) & 1, 0, 0);
        /* the tile's edge cells first, so that they are on their way to the
         * neighbours while the interior is computed */
        for (int i = tid; i < perimeter; i += nt) {
            int lx = edge_lx, ly = edge_ly;
            if (i != tid)
                gs_stencil_perimeter_cell(i, tw, th, &lx, &ly);
            const float *p = cur + (ly + 1) * S + lx + 1;
            const float v = gs_stencil_cell(p[0], p[-S], p[S], p[-1], p[1]);
            nxt[(ly + 1) * S + lx + 1] = v;
            if (ly == 0 && north)
                halo.put(wr + (size_t)(2 * by) * f.w + t.x0 + lx, v, s);
            if (ly == th - 1 && south)
                halo.put(wr + (size_t)(2 * by + 1) * f.w + t.x0 + lx, v, s);
            if (lx == 0 && west)
                halo.put(wc + (size_t)(2 * bx) * f.h + t.y0 + ly, v, s);
            if (lx == tw - 1 && east)
                halo.put(wc + (size_t)(2 * bx + 1) * f.h + t.y0 + ly, v, s);
        }
        /* the interior: column strips (the first strip's place computed
         * once, before the steps: no division a step) */
        for (int i = tid; tid < nc && i < items; i += nc) {
            int lx = strip_lx, ya = strip_ya, yb = strip_yb;
            if (i != tid)
                gs_stencil_strip_of(i, iw, ih, bands, &lx, &ya, &yb);
            gs_stencil_strip(cur + lx + 1, nxt + lx + 1, S, ya, yb);
        }
        if constexpr (Halo::early_gets) {
            int gave_up = 0; /* the next step's ring, into nxt's */
            if (tid >= nt - pollers && s + 1 < f.steps)
                gave_up = gs_stencil_poll_ring(f, t, bx, by, side, ring, tid - (nt - pollers),
                                               pollers, s + 1, nxt, halo);
            halo.ring_done(gave_up); /* also: nxt, complete, before it is read */
        } else if (s + 1 < f.steps) {
            halo.step_done();
        } else {
            __syncthreads(); /* nxt, complete, before it is written out */
        }
        float *swap = cur;
        cur = nxt;
        nxt = swap;
    }
    for (int i = tid; i < tw * th; i += nt) {
        int lx = i % tw, ly = i / tw;
        f.out[(size_t)(t.y0 + ly) * f.w + t.x0 + lx] = cur[(ly + 1) * S + lx + 1];
    }
}

#include "suites/apps/stencil/stencil_host.h"

#endif /* GS_BENCH_APPS_STENCIL_BODY_CUH */
