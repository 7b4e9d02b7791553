/*
 * wavefront.cuh - the wavefront of `gridsync bench apps` (wavefront/run.cu)
 * and its test (tests/gpu/test_apps_wavefront.cu): the longest common
 * subsequence (LCS) of two strings by dynamic programming,
 *   L[r][c] = max(L[r-1][c], L[r][c-1], L[r-1][c-1] + (A[r-1] == B[c-1])),
 * L[0][*] = L[*][0] = 0 (the max form equals the textbook one because L
 * grows by at most 1 a step), computed in tiles of WF_TH x WF_TW cells.
 * Tile (i, j) needs tile (i-1, j) (its top row), tile (i, j-1) (its left
 * column) and tile (i-1, j-1) (one corner value).
 *
 * The tile code (wf_band) is the same in every version: one warp, lane l
 * owns WF_R rows of the tile; at lane step s it computes the WF_R x WF_C
 * cells of column chunk s - l, taking the row above from lane l - 1 by a
 * shuffle (lane 0 from the tile's top row in shared memory). The versions
 * differ only in how a tile learns that its inputs are ready:
 *   - signals (wf_signal_kernel): block b owns the bands (tile rows) b,
 *     b + G, ...; its compute warp streams through a whole band in one lane
 *     pipeline, and its signal warp waits for the band above tile by tile,
 *     copies each top row into a ring in shared memory (the two warps meet
 *     at mbarriers: a slot filled, a tile left) and publishes the compute
 *     warp's progress (gs_signal_store). Nothing stops at a tile edge, and
 *     only a band-to-band hand-off costs a synchronization.
 *   - full barrier (wf_barrier_kernel): every block computes its tiles of
 *     anti-diagonal d, then gs_grid_sync; TR + TC - 1 barriers.
 *   - relaunch (wf_diagonal_kernel): one kernel per anti-diagonal, one
 *     block per tile; the kernel boundary is the barrier. With PDL
 *     (programmatic dependent launch, sm_90) the next diagonal's kernel is
 *     launched while this one runs and waits in griddepcontrol.wait.
 * Every version writes every tile's bottom row to h and right column to v
 * (each value once), which the host compares with the CPU's DP exactly.
 */
#ifndef GS_BENCH_WAVEFRONT_CUH
#define GS_BENCH_WAVEFRONT_CUH

#include <gridsync/barrier.cuh>
#include <gridsync/signal.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_internal.h"
#include "suites/pdl_peer.cuh"

enum {
    WF_R = 4,               /* rows of a lane */
    WF_C = 4,               /* columns of a lane step (one word of B's chars) */
    WF_TH = 32 * WF_R,      /* tile rows: one warp */
    WF_TW = 32,             /* tile columns: one top-row value per lane */
    WF_K = WF_TW / WF_C,    /* lane steps per tile */
    WF_LAG = (WF_K + 30) / WF_K, /* tiles entered, not yet left, in wf_band: it leaves tile
                               t (lane 31 done) at lane step K t + K + 30 and enters tile
                               f at step K f, so standing at tile f it has left exactly
                               the band's tiles before f - WF_LAG */
    WF_DEPTH = 16,          /* top rows in the signal version's ring: a slot comes free
                               when its tile is left, WF_LAG tiles or so after it was
                               entered, so ~11 tiles (90 lane steps) of rows can wait
                               ahead (not measured against other depths) */
    WF_FILL = 4,            /* most top rows its signal warp loads at once */
    WF_PAD_A = 0xFE,        /* padding chars: match nothing */
    WF_PAD_B = 0xFF,
    WF_ALPHABET = 4         /* chars 0 .. 3 (DNA) */
};

/* The device's view of one problem (plain data, passed by value). */
typedef struct wf_problem {
    const unsigned int *a; /* A, 4 chars a word, padded with WF_PAD_A to tr * WF_TH chars */
    const unsigned int *b; /* B, padded with WF_PAD_B to (tc + 1) * WF_TW chars */
    int *h;                /* h[i * hs + c] = L[min((i + 1) TH, m)][c + 1]: band i's bottom row */
    int *v;                /* v[j * vs + r] = L[r + 1][min((j + 1) TW, n)]: tile column j's right */
    int m, n, tr, tc;      /* lengths of A and B; bands (tile rows) and tile columns */
    long long hs, vs;      /* tc * WF_TW, tr * WF_TH */
    unsigned int delay_seed, max_delay_ns; /* tests: random stalls at tile edges (0: none) */
} wf_problem;

/* Tests: a random stall of up to max_delay_ns, at one tile edge in eight
 * (a multiplicative hash of the seed, the edge and the block). */
static __device__ __forceinline__ void wf_delay(const wf_problem &p, unsigned int what)
{
    if (p.max_delay_ns == 0u)
        return;
    unsigned int x = (p.delay_seed ^ what * 0x9e3779b9u ^ blockIdx.x * 0x85ebca6bu) * 0xcc9e2d51u;
    x ^= x >> 15;
    if ((x & 7u) == 0u)
        __nanosleep((x >> 3) % p.max_delay_ns);
}

/* The top row of one tile: L at the row above the tile, columns c0 .. c0 +
 * TW (corner = column c0, the one before the tile). */
struct __align__(16) wf_top {
    int row[WF_TW];
    int corner;
};

/* How a run of wf_band gets its top rows: one tile's, filled before (the
 * barrier and relaunch versions). */
struct wf_one_tile {
    wf_top *top;
    __device__ void enter(int) const {}
    __device__ void leave(int) const {}
    __device__ const wf_top &slot(int) const { return *top; }
};

/*
 * wf_band - tiles j0 .. j0 + nt - 1 of band i, in one lane pipeline (the
 * tile code of every version; one warp calls it).
 * How: lane l holds rows i*TH + R*l .. + R - 1 and their values in the last
 *   column done (left); at step s it computes column chunk g = s - l (C
 *   columns): the row above from lane l - 1's outputs of step s - 1
 *   (__shfl_up_sync), or, for lane 0, from the tile's top row. Lane 0
 *   enters a tile every K steps (feed.enter: the signal version waits for
 *   the top row there); lane 31 leaves one K steps apart, 31 steps later
 *   (feed.leave: publish). The bottom valid row's lane writes h, each lane
 *   writes its rows of v at its tile's last valid column.
 * Why correct: a cell depends on cells up, left and up-left, all computed
 *   at an earlier step or earlier in the same step (the R x C loop runs in
 *   row-major order). Cells past m or n get values that only flow into
 *   other cells past m or n (their dependencies point up and left), and the
 *   padding chars match nothing, so they never reach a valid cell.
 * When: the tile code of all versions; one warp per band keeps the inner
 *   dependence in registers and shuffles, with no block barrier.
 */
template <class Feed>
static __device__ __forceinline__ void wf_band(const wf_problem &p, int i, int j0, int nt,
                                               int left[WF_R], const Feed &feed)
{
    const unsigned int full = 0xffffffffu;
    const int lane = (int)(threadIdx.x & 31u), chunks = nt * WF_K;
    const int h = min(WF_TH, p.m - i * WF_TH), lb = (h - 1) / WF_R, qb = (h - 1) % WF_R;
    const int wlast = p.n - (p.tc - 1) * WF_TW; /* valid columns of the last tile */
    const unsigned int a = __ldg(p.a + (long long)i * 32 + lane);
    const unsigned int *bw = p.b + (long long)j0 * WF_K; /* one word per chunk */
    const int first_row = i * WF_TH + lane * WF_R;
    int out[WF_C] = {0, 0, 0, 0}, up_last = 0;
    const int corner0 = __shfl_up_sync(full, left[WF_R - 1], 1); /* lanes > 0 */
    unsigned int bword = __ldg(bw + max(0, min(-lane, chunks - 1)));
    for (int s = 0; s < chunks + 31; ++s) {
        const int g = s - lane, t0 = s / WF_K, k0 = s % WF_K;
        if (k0 == 0 && t0 < nt)
            feed.enter(t0); /* warp-uniform: lane 0 enters tile j0 + t0 */
        int up[WF_C];
#pragma unroll
        for (int c = 0; c < WF_C; ++c)
            up[c] = __shfl_up_sync(full, out[c], 1);
        int corner = g == 0 ? corner0 : up_last;
        if (lane == 0 && t0 < nt) {
            const wf_top &top = feed.slot(t0);
            int4 q = *(const int4 *)&top.row[k0 * WF_C];
            up[0] = q.x, up[1] = q.y, up[2] = q.z, up[3] = q.w;
            if (k0 == 0)
                corner = top.corner;
        }
        up_last = up[WF_C - 1];
        const unsigned int b = bword;
        bword = __ldg(bw + max(0, min(g + 1, chunks - 1))); /* the next step's chars */

        int cur[WF_R][WF_C];
#pragma unroll
        for (int q = 0; q < WF_R; ++q) {
            const unsigned int eq = __vcmpeq4(b, ((a >> (8 * q)) & 0xffu) * 0x01010101u);
#pragma unroll
            for (int c = 0; c < WF_C; ++c) {
                int u = q == 0 ? up[c] : cur[q - 1][c];
                int l = c == 0 ? left[q] : cur[q][c - 1];
                int d = c == 0 ? (q == 0 ? corner : left[q - 1])
                               : (q == 0 ? up[c - 1] : cur[q - 1][c - 1]);
                cur[q][c] = max(max(u, l), d + (int)((eq >> (8 * c)) & 1u));
            }
        }
        if (g >= 0 && g < chunks) {
            const int t = g / WF_K, k = g % WF_K, j = j0 + t;
            if (lane == lb) { /* the band's last valid row: h */
                int4 o = make_int4(0, 0, 0, 0);
#pragma unroll
                for (int q = 0; q < WF_R; ++q)
                    if (q == qb)
                        o = make_int4(cur[q][0], cur[q][1], cur[q][2], cur[q][3]);
                *(int4 *)(p.h + i * p.hs + (long long)j * WF_TW + k * WF_C) = o;
            }
            const int last = j == p.tc - 1 ? wlast - 1 : WF_TW - 1; /* last valid column */
            if (k == last / WF_C) { /* this tile's right column: v */
                /* r[q] = cur[q][last % C], as selects: written as `if (c == last
                 * % C)` nvcc made cur a local array indexed at run time, stored
                 * to local memory every lane step */
                const int lc = last % WF_C;
                int r[WF_R];
#pragma unroll
                for (int q = 0; q < WF_R; ++q) {
                    r[q] = cur[q][WF_C - 1];
#pragma unroll
                    for (int c = WF_C - 2; c >= 0; --c)
                        r[q] = lc <= c ? cur[q][c] : r[q];
                }
                *(int4 *)(p.v + j * p.vs + first_row) = make_int4(r[0], r[1], r[2], r[3]);
            }
#pragma unroll
            for (int q = 0; q < WF_R; ++q)
                left[q] = cur[q][WF_C - 1];
        }
#pragma unroll
        for (int c = 0; c < WF_C; ++c)
            out[c] = cur[WF_R - 1][c];
        const int g31 = s - 31;
        if (g31 >= 0 && g31 % WF_K == WF_K - 1)
            feed.leave(g31 / WF_K); /* warp-uniform: lane 31 left tile j0 + g31 / K */
    }
}

/* One tile (i, j) on its own (barrier and relaunch versions): its top row
 * and left column from h and v, written by other blocks before the barrier
 * or kernel boundary that precedes this call. */
static __device__ __forceinline__ void wf_tile(const wf_problem &p, int i, int j, wf_top *top)
{
    const int lane = (int)(threadIdx.x & 31u);
    __syncwarp(); /* lane 0's reads of the last tile's top row are done */
    const long long above = (i - 1) * p.hs + (long long)j * WF_TW; /* used when i > 0 */
    top->row[lane] = i > 0 ? __ldcg(p.h + above + lane) : 0;
    if (lane == 0)
        top->corner = i > 0 && j > 0 ? __ldcg(p.h + above - 1) : 0;
    int left[WF_R] = {0, 0, 0, 0};
    if (j > 0) {
        int4 l = __ldcg((const int4 *)(p.v + (j - 1) * p.vs + i * WF_TH + lane * WF_R));
        left[0] = l.x, left[1] = l.y, left[2] = l.z, left[3] = l.w;
    }
    __syncwarp(); /* the top row is in shared memory */
    wf_one_tile feed = {top};
    wf_band(p, i, j, 1, left, feed);
}

/*
 * wf_barrier_kernel - a full barrier per anti-diagonal.
 * How: for d = 0 .. tr + tc - 2, block b computes tiles (x, d - x) for x =
 *   lo + b, lo + b + G, ... of the diagonal, then gs_grid_sync.
 * Why correct: tile (x, d - x) reads what tiles of diagonal d - 1 (and d -
 *   2) wrote; the barriers between (release by every block, acquire by
 *   every block, gridsync/barrier.cuh) order those writes before the reads.
 * When: the textbook way; every diagonal waits for its slowest tile and
 *   for all G blocks, busy or not.
 */
static __global__ void __launch_bounds__(32) wf_barrier_kernel(wf_problem p, gs_grid_barrier bar)
{
    __shared__ __align__(16) wf_top top;
    for (int d = 0; d < p.tr + p.tc - 1; ++d) {
        const int lo = max(0, d - p.tc + 1), hi = min(p.tr - 1, d);
        for (int x = lo + (int)blockIdx.x; x <= hi; x += (int)gridDim.x)
            wf_tile(p, x, d - x, &top);
        gs_grid_sync(&bar);
    }
}

/*
 * wf_diagonal_kernel - the relaunch versions' kernel: anti-diagonal d, one
 * block per tile.
 * How: first griddepcontrol.launch_dependents (the next diagonal's kernel
 *   may launch now) and griddepcontrol.wait (until the kernel before this
 *   one has completed), then the tile. Launched without the
 *   programmatic-serialization attribute, both are no-ops and the stream
 *   (or graph) orders diagonal d after d - 1; with it (the "+ PDL"
 *   versions), the next kernel's blocks start while this one runs.
 * Why correct: nothing before the wait touches memory. Tile (x, d - x)
 *   reads what diagonals d - 1 and d - 2 wrote: the wait returns once
 *   kernel d - 1 has completed with its writes visible, and d - 1 completed
 *   only after its own wait, i.e. after d - 2. Each value of h and v is
 *   written once per solve; the next solve's first kernel overwrites them
 *   only after its wait, when every kernel before it has completed.
 *   The test stalls random tiles after the wait (wf_delay) to catch a
 *   kernel that reads before its predecessor's writes.
 * When: the textbook wavefront; PDL hides the launch, not the drain of
 *   each tile at the kernel's end.
 */
static __global__ void __launch_bounds__(32) wf_diagonal_kernel(wf_problem p, int d)
{
    peer_pdl_trigger();
    peer_pdl_wait();
    __shared__ __align__(16) wf_top top;
    const int x = max(0, d - p.tc + 1) + (int)blockIdx.x;
    wf_delay(p, (unsigned int)d); /* tests: a late tile, which the next kernel must wait for */
    wf_tile(p, x, d - x, &top);
}

#include "suites/apps/wavefront/wavefront_signal.cuh"
#include "suites/apps/wavefront/wavefront_host.h"

#endif
