/*
 * kmeans.cuh - the k-means clustering of `gridsync bench apps`
 * (kmeans/run.cu) and its test (tests/gpu/test_apps_kmeans.cu): Lloyd's
 * algorithm on n 2-D float points, KM_K clusters, a fixed number of
 * iterations. An iteration assigns every point to its nearest centroid
 * (squared distance in float; ties to the lowest index), then moves each
 * centroid to the mean of its points (a centroid without points stays).
 *
 * Every version runs the same block code on the same grid of G blocks
 * (block b owns the points [b n / G, (b + 1) n / G)):
 *   km_assign  each thread sums, per cluster, x - c and y - c (c: the
 *              cluster's current centroid) and a count of its points in
 *              float registers; the warp sums them (shuffles), the 16 warps'
 *              sums are added in double in warp order and the block writes
 *              its K x 3 partials to slot set s of `slots`;
 *   km_update  after every block has written (a barrier or a kernel
 *              boundary), warp k of every block adds cluster k's partials of
 *              all G blocks in double in a fixed order (lane l: blocks l,
 *              l + 32, ...; then a butterfly, whose result every lane has
 *              bit for bit, as a + b == b + a) and moves centroid k to
 *              c + sum(x - c) / count, rounded to float. Every block gets the
 *              same centroids bit for bit, so the next assignment is the same
 *              whichever block makes it.
 * Why shifted sums: the sums of x - c are of the points' spread (their blob's
 *   width), not of their coordinates, so float sums of m points per thread
 *   lose (m + 5) 2^-24 of the spread, not of the coordinates (docs/apps.md:
 *   the bound); the partials cross blocks in double, where G terms of up to
 *   n points' sums lose nothing we could see.
 * The versions:
 *   gridsync persistent (km_persistent_kernel): one launch for all
 *     iterations; each block copies its first `cap` points into shared
 *     memory once (all of them where they fit: 227 KB an SM) and reads the
 *     rest from global memory every iteration; one gs_grid_sync an
 *     iteration.
 *   relaunch (km_step_kernel): one kernel per iteration, launched in a CUDA
 *     graph or on a stream, with or without programmatic dependent launch;
 *     kernel i computes iteration i's centroids from the slots kernel i - 1
 *     wrote (and the centroids before, kept by block 0 in `cbuf`), then
 *     assigns, reading every point from global memory; kernel `iters` (one
 *     block) writes the answer.
 */
#ifndef GS_BENCH_KMEANS_CUH
#define GS_BENCH_KMEANS_CUH

#include <gridsync/barrier.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_internal.h"
#include "suites/pdl_peer.cuh"

enum {
    KM_K = 16,                /* clusters */
    KM_THREADS = 32 * KM_K,   /* threads of every block: warp k updates centroid k */
    KM_WARPS = KM_THREADS / 32,
    KM_PARTS = 3 * KM_K       /* a block's partials: sum x - c, sum y - c, count, per cluster */
};

/* The device's view of one problem (plain data, passed by value). */
typedef struct km_problem {
    const float2 *points; /* n points */
    const float2 *init;   /* KM_K initial centroids */
    double *slots;        /* 2 sets x KM_K x 3 x G: slot(s, k, c, b) = ((s K + k) 3 + c) G + b */
    float2 *cbuf;         /* relaunch: 2 x KM_K centroids, iteration i's in cbuf[(i & 1) K ..] */
    float2 *centroids;    /* the answer: KM_K centroids after `iters` iterations */
    int *counts;          /* the answer: points per cluster in the last iteration */
    long long n;
    int iters;
    int blocks; /* G: the grid of the assigning kernels (the answer's kernel has one block) */
    int cap;    /* persistent: points of a block in shared memory (its first ones) */
    unsigned int delay_seed, max_delay_ns; /* tests: random stalls before a block's partials
                                              (0: none) */
} km_problem;

static __device__ __forceinline__ long long km_first(const km_problem &p, int b)
{
    return p.n * b / (long long)p.blocks;
}

/* Tests: a random stall of up to max_delay_ns, in one block of four each
 * iteration (a multiplicative hash of the seed, the iteration and the
 * block), before the block writes its partials. */
static __device__ __forceinline__ void km_delay(const km_problem &p, int it)
{
    if (p.max_delay_ns == 0u)
        return;
    unsigned int x = (p.delay_seed ^ (unsigned int)it * 0x9e3779b9u ^ blockIdx.x * 0x85ebca6bu) *
                     0xcc9e2d51u;
    x ^= x >> 15;
    if ((x & 3u) == 0u)
        __nanosleep((x >> 2) % p.max_delay_ns);
}

/* One point into the thread's sums: its nearest centroid k (ties to the
 * lowest k), then x - c_k, y - c_k and 1 into cluster k's sums. */
static __device__ __forceinline__ void km_point(float2 q, const float cx[KM_K],
                                                const float cy[KM_K], float ax[KM_K],
                                                float ay[KM_K], int an[KM_K])
{
    int best = 0;
    float bd = INFINITY;
#pragma unroll
    for (int k = 0; k < KM_K; ++k) {
        const float dx = q.x - cx[k], dy = q.y - cy[k], d = dx * dx + dy * dy;
        best = d < bd ? k : best;
        bd = d < bd ? d : bd;
    }
#pragma unroll
    for (int k = 0; k < KM_K; ++k)
        if (best == k) {
            ax[k] += q.x - cx[k];
            ay[k] += q.y - cy[k];
            an[k] += 1;
        }
}

/* The shared memory of km_assign: each warp's sums. */
struct km_block_sums {
    float s[KM_WARPS][KM_K][2];
    int count[KM_WARPS][KM_K];
};

/*
 * km_assign - iteration `it` of this block's points with the centroids `cent`
 * (shared), its partials into slot set it & 1: points [lo, lo + cap) from `spts` (shared),
 * the rest from global memory. Ends with the partials written by threads
 * 0 .. KM_PARTS - 1; the caller's barrier or kernel end publishes them.
 */
static __device__ __forceinline__ void km_assign(const km_problem &p, int it,
                                                 const float2 *cent, const float2 *spts,
                                                 long long cap, km_block_sums *sums)
{
    float cx[KM_K], cy[KM_K], ax[KM_K], ay[KM_K];
    int an[KM_K];
#pragma unroll
    for (int k = 0; k < KM_K; ++k) {
        cx[k] = cent[k].x, cy[k] = cent[k].y;
        ax[k] = 0.0f, ay[k] = 0.0f, an[k] = 0;
    }
    const int b = (int)blockIdx.x, t = (int)threadIdx.x;
    const long long lo = km_first(p, b), hi = km_first(p, b + 1);
    const long long on_chip = hi - lo < cap ? hi - lo : cap;
    for (long long i = t; i < on_chip; i += KM_THREADS)
        km_point(spts[i], cx, cy, ax, ay, an);
    for (long long i = lo + on_chip + t; i < hi; i += KM_THREADS)
        km_point(__ldg(p.points + i), cx, cy, ax, ay, an);
    const int lane = t & 31, warp = t >> 5;
#pragma unroll
    for (int k = 0; k < KM_K; ++k) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            ax[k] += __shfl_down_sync(0xffffffffu, ax[k], o);
            ay[k] += __shfl_down_sync(0xffffffffu, ay[k], o);
            an[k] += __shfl_down_sync(0xffffffffu, an[k], o);
        }
        if (lane == 0) {
            sums->s[warp][k][0] = ax[k];
            sums->s[warp][k][1] = ay[k];
            sums->count[warp][k] = an[k];
        }
    }
    __syncthreads();
    km_delay(p, it);
    if (t < KM_PARTS) {
        const int k = t / 3, c = t % 3, set = it & 1;
        double v = 0.0;
        for (int w = 0; w < KM_WARPS; ++w)
            v += c == 2 ? (double)sums->count[w][k] : (double)sums->s[w][k][c];
        p.slots[((long long)(set * KM_K + k) * 3 + c) * p.blocks + b] = v;
    }
}

/*
 * km_update - warp k (of KM_WARPS = KM_K): centroid k from slot set `set`
 * (every block's partials, written before a barrier or kernel boundary
 * that precedes this call) and its value before, `prev`; returns it and
 * sets *count (every lane the same). Reads with ld.cg: the partials come
 * from other SMs.
 */
static __device__ __forceinline__ float2 km_update(const km_problem &p, int set, float2 prev,
                                                   int *count)
{
    const int k = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31, g = p.blocks;
    const double *s = p.slots + (long long)(set * KM_K + k) * 3 * g;
    double sx = 0.0, sy = 0.0, n = 0.0;
    for (int b = lane; b < g; b += 32) {
        sx += __ldcg(s + b);
        sy += __ldcg(s + g + b);
        n += __ldcg(s + 2 * g + b);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        sx += __shfl_xor_sync(0xffffffffu, sx, o);
        sy += __shfl_xor_sync(0xffffffffu, sy, o);
        n += __shfl_xor_sync(0xffffffffu, n, o);
    }
    *count = (int)n;
    if (n == 0.0)
        return prev;
    return make_float2((float)((double)prev.x + sx / n), (float)((double)prev.y + sy / n));
}

/*
 * km_persistent_kernel - gridsync persistent: all iterations in one launch.
 * How: every block copies KM_K initial centroids and its first p.cap points
 *   to shared memory; per iteration i: km_assign into slot set i & 1,
 *   gs_grid_sync, km_update by every block (the same centroids everywhere,
 *   kept in shared memory). Block 0 writes the answer after the last.
 * Why one barrier an iteration suffices: set s = i & 1 is written in
 *   iteration i before barrier i and read after it. A block writes set s
 *   again in iteration i + 2, after passing barrier i + 1, which it passes
 *   only once every block has arrived there, i.e. has finished reading set
 *   s in iteration i's update. Iteration i + 1's writes go to the other set,
 *   which nobody reads until barrier i + 1. The barrier orders the writes of
 *   every block before the reads of every block (gridsync/barrier.cuh).
 * When: iterations short enough that a kernel boundary shows, or data that
 *   fits on chip: the points stay in shared memory across iterations, which
 *   no sequence of kernels can do.
 */
static __global__ void __launch_bounds__(KM_THREADS, 1)
    km_persistent_kernel(km_problem p, gs_grid_barrier bar)
{
    extern __shared__ float2 km_spts[];
    __shared__ float2 cent[KM_K];
    __shared__ km_block_sums sums;
    const int t = (int)threadIdx.x;
    const long long lo = km_first(p, (int)blockIdx.x), hi = km_first(p, (int)blockIdx.x + 1);
    const long long on_chip = hi - lo < p.cap ? hi - lo : p.cap;
    for (long long i = t; i < on_chip; i += KM_THREADS)
        km_spts[i] = __ldg(p.points + lo + i);
    if (t < KM_K)
        cent[t] = __ldg(p.init + t);
    __syncthreads();
    for (int it = 0; it < p.iters; ++it) {
        km_assign(p, it, cent, km_spts, p.cap, &sums);
        gs_grid_sync(&bar); /* also a block barrier: the warps' reads of cent are done */
        int count = 0;
        const float2 prev = cent[t >> 5];
        const float2 c = km_update(p, it & 1, prev, &count);
        /* every lane of warp k has read cent[k] before lane 0 replaces it:
         * km_update's shuffles order no shared memory access (racecheck
         * reported the lanes' read against lane 0's write) */
        __syncwarp();
        if ((t & 31) == 0) {
            cent[t >> 5] = c;
            if (it == p.iters - 1 && blockIdx.x == 0) {
                p.centroids[t >> 5] = c;
                p.counts[t >> 5] = count;
            }
        }
        __syncthreads();
    }
}

/*
 * km_step_kernel - the relaunch versions' kernel: iteration `it` (it <
 * p.iters), or, with it == p.iters on one block, the answer.
 * How: peer_pdl_trigger, peer_pdl_wait (no-ops without the PDL attribute,
 *   where the stream or graph orders the kernels); then this iteration's
 *   centroids: the initial ones (it = 0), else km_update from slot set
 *   (it - 1) & 1 and the centroids before, cbuf[(it - 1) & 1]; block 0 keeps
 *   them in cbuf[it & 1]; then km_assign into set it & 1.
 * Why correct: everything after the wait runs once kernel it - 1 has
 *   completed, its writes visible. Kernel it writes slot set and cbuf it & 1,
 *   last read by kernel it - 1 (set (it - 2) & 1 = it & 1 it read in its
 *   update): complete. Blocks of one kernel read set (it - 1) & 1 and write
 *   set it & 1: the two sets keep a fast block's writes off what a slow one
 *   still reads. The first kernel of the next solve reads only p.init.
 * When: the textbook structure (a kernel per iteration); every kernel
 *   re-reads its points from memory (L2 where they fit, 50 MB on an H200).
 */
static __global__ void __launch_bounds__(KM_THREADS, 1) km_step_kernel(km_problem p, int it)
{
    peer_pdl_trigger();
    peer_pdl_wait();
    __shared__ float2 cent[KM_K];
    __shared__ km_block_sums sums;
    const int t = (int)threadIdx.x;
    if (it == 0) {
        if (t < KM_K)
            cent[t] = __ldg(p.init + t);
    } else {
        const int k = t >> 5;
        int count = 0;
        const float2 c = km_update(p, (it - 1) & 1, __ldcg(p.cbuf + ((it - 1) & 1) * KM_K + k),
                                   &count);
        if ((t & 31) == 0) {
            cent[k] = c;
            if (it == p.iters) {
                p.centroids[k] = c;
                p.counts[k] = count;
            }
        }
    }
    if (it == p.iters)
        return; /* the answer's kernel: one block, uniform */
    __syncthreads();
    if (blockIdx.x == 0 && t < KM_K)
        p.cbuf[(it & 1) * KM_K + t] = cent[t];
    km_assign(p, it, cent, NULL, 0, &sums);
}

#include "suites/apps/kmeans/kmeans_host.h"

#endif
