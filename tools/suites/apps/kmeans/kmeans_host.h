/*
 * kmeans_host.h - the host side of k-means (kmeans.cuh, which includes this
 * file): the points (blobs from the seeded generator), the CPU's FP64
 * reference, the grid, the poison and the check, one solve of each version.
 */
#ifndef GS_BENCH_KMEANS_HOST_H
#define GS_BENCH_KMEANS_HOST_H

#include "testing/random.h"

/* The data: blob b (of `blobs` <= KM_K) is centred at ((b % 4 + 1) 10,
 * (b / 4 + 1) 10), its points that centre plus KM_SIGMA times a normal
 * deviate cut at +-6 per coordinate; point i is of blob i % blobs. Centroid
 * k starts at point k (k < blobs: a point of blob k) or at blob k's centre
 * (no point there: the centroid stays empty). Within a blob two points
 * differ by at most 12 sigma = 3 per coordinate (KM_SPREAD), blobs are 10
 * apart: every assignment is unambiguous (km_reference checks it). */
#define KM_SIGMA 0.25
#define KM_SPREAD 3.0
#define KM_GAP 1e-3 /* the smallest (d2 - d1) / d2 km_create accepts */

typedef struct km_host {
    km_problem p;
    int blobs, max_blocks; /* slots: for grids up to max_blocks */
    unsigned long long seed;
    double ref[KM_K][2];     /* the CPU's centroids after p.iters iterations */
    long long ref_count[KM_K];
    double scale;            /* the largest |coordinate| of ref: the error's unit */
    double gap;              /* the smallest (d2 - d1) / d2 of any assignment */
    int ref_moves;           /* iterations until the assignment stopped changing */
    float2 got[KM_K];
    int got_count[KM_K];
} km_host;

static void km_destroy(km_host *w)
{
    cudaFree((void *)w->p.points);
    cudaFree((void *)w->p.init);
    cudaFree(w->p.slots);
    cudaFree(w->p.cbuf);
    cudaFree(w->p.centroids);
    cudaFree(w->p.counts);
    memset(w, 0, sizeof *w);
}

/* The points and the initial centroids (the rule above). */
static void km_points(float2 *pts, long long n, int blobs, unsigned long long seed, float2 *init)
{
    gs_rng rng = {seed};
    const double pi = 3.14159265358979323846;
    for (long long i = 0; i < n; ++i) {
        const int b = (int)(i % blobs);
        const double u = 0.5 * (gs_rng_uniform(&rng) + 1.0), a = pi * (gs_rng_uniform(&rng) + 1.0);
        const double r = sqrt(-2.0 * log(1.0 - u)); /* 1 - u in (0, 1] */
        double zx = r * cos(a), zy = r * sin(a);
        zx = zx < -6.0 ? -6.0 : zx > 6.0 ? 6.0 : zx;
        zy = zy < -6.0 ? -6.0 : zy > 6.0 ? 6.0 : zy;
        pts[i] = make_float2((float)((b % 4 + 1) * 10.0 + KM_SIGMA * zx),
                             (float)((b / 4 + 1) * 10.0 + KM_SIGMA * zy));
    }
    for (int k = 0; k < KM_K; ++k)
        init[k] = k < blobs ? pts[k] : make_float2((float)((k % 4 + 1) * 10.0),
                                                   (float)((k / 4 + 1) * 10.0));
}

/* Lloyd's iterations in FP64 (distances and sums): w->ref, ref_count, gap.
 * Once an assignment equals the one before, the means and so every later
 * iteration repeat it exactly: the loop stops there (ref_moves). */
static void km_reference(km_host *w, const float2 *pts, const float2 *init, unsigned char *who)
{
    const long long n = w->p.n;
    double c[KM_K][2];
    for (int k = 0; k < KM_K; ++k)
        c[k][0] = init[k].x, c[k][1] = init[k].y;
    w->gap = 1.0;
    w->ref_moves = w->p.iters;
    for (int it = 0; it < w->p.iters; ++it) {
        double s[KM_K][2] = {{0.0}};
        long long cnt[KM_K] = {0};
        long long moved = 0;
        for (long long i = 0; i < n; ++i) {
            double d1 = INFINITY, d2 = INFINITY;
            int best = 0;
            for (int k = 0; k < KM_K; ++k) {
                const double dx = pts[i].x - c[k][0], dy = pts[i].y - c[k][1];
                const double d = dx * dx + dy * dy;
                if (d < d1)
                    d2 = d1, d1 = d, best = k;
                else if (d < d2)
                    d2 = d;
            }
            const double g = (d2 - d1) / d2;
            w->gap = g < w->gap ? g : w->gap;
            moved += it == 0 || who[i] != best;
            who[i] = (unsigned char)best;
            s[best][0] += pts[i].x, s[best][1] += pts[i].y;
            cnt[best] += 1;
        }
        for (int k = 0; k < KM_K; ++k) {
            w->ref_count[k] = cnt[k];
            if (cnt[k] > 0)
                c[k][0] = s[k][0] / (double)cnt[k], c[k][1] = s[k][1] / (double)cnt[k];
        }
        if (moved == 0) {
            w->ref_moves = it;
            break;
        }
    }
    w->scale = 0.0;
    for (int k = 0; k < KM_K; ++k) {
        w->ref[k][0] = c[k][0], w->ref[k][1] = c[k][1];
        w->scale = fmax(w->scale, fmax(fabs(c[k][0]), fabs(c[k][1])));
    }
}

/* n points of `blobs` blobs from `seed`, `iters` iterations a solve, slots
 * for grids up to max_blocks; on the device, and the CPU's answer. */
static gs_status km_create(km_host *w, long long n, int blobs, int iters, int max_blocks,
                           unsigned long long seed)
{
    memset(w, 0, sizeof *w);
    if (n < KM_K || n > (1ll << 28) || blobs < 1 || blobs > KM_K || iters < 1 || max_blocks < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "k-means: %lld points (%d .. 2^28), %d blobs (1 .. %d), %d iterations, "
                        "%d blocks", n, KM_K, blobs, KM_K, iters, max_blocks);
    w->p.n = n, w->p.iters = iters, w->blobs = blobs, w->max_blocks = max_blocks, w->seed = seed;
    float2 *pts = (float2 *)malloc((size_t)n * sizeof *pts), init[KM_K];
    unsigned char *who = (unsigned char *)malloc((size_t)n);
    gs_status st = GS_SUCCESS;
    if (!pts || !who)
        st = gs__fail(GS_ERR_OUT_OF_MEMORY, "k-means: out of host memory (%lld points)", n);
    if (st == GS_SUCCESS) {
        km_points(pts, n, blobs, seed, init);
        km_reference(w, pts, init, who);
        if (w->gap < KM_GAP)
            st = gs__fail(GS_ERR_INTERNAL, "k-means: an assignment is ambiguous ((d2 - d1) / d2 "
                          "= %.3g < %.0e; seed %llu)", w->gap, KM_GAP, seed);
    }
    if (st == GS_SUCCESS) {
        cudaError_t err = cudaMalloc((void **)&w->p.points, (size_t)n * sizeof(float2));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&w->p.init, KM_K * sizeof(float2));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&w->p.slots, 2ull * KM_PARTS * max_blocks * sizeof(double));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&w->p.cbuf, 2 * KM_K * sizeof(float2));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&w->p.centroids, KM_K * sizeof(float2));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&w->p.counts, KM_K * sizeof(int));
        if (err == cudaSuccess)
            err = cudaMemcpy((void *)w->p.points, pts, (size_t)n * sizeof(float2),
                             cudaMemcpyHostToDevice);
        if (err == cudaSuccess)
            err = cudaMemcpy((void *)w->p.init, init, sizeof init, cudaMemcpyHostToDevice);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMalloc/cudaMemcpy(k-means points)", __FILE__, __LINE__);
    }
    free(pts);
    free(who);
    if (st != GS_SUCCESS)
        km_destroy(w);
    return st;
}

/* The persistent version's grid: `want` blocks (0: one an SM, at most one
 * per KM_THREADS points) and the points a block keeps in shared memory,
 * *cap (all of its points where they fit in the per-block opt-in, else the
 * first that do; none where that would keep `want` blocks from being
 * co-resident). */
static gs_status km_grid(long long n, int want, int *blocks, int *cap)
{
    int dev = 0, sms = 0, optin = 0, most = 0;
    cudaFuncAttributes fa;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    GS_CUDA_TRY(cudaFuncGetAttributes(&fa, (const void *)km_persistent_kernel));
    long long g = want > 0 ? want : (n + KM_THREADS - 1) / KM_THREADS;
    g = want > 0 || g < sms ? g : sms;
    const long long per = (n + g - 1) / g, fit = (optin - (long long)fa.sharedSizeBytes) / 8;
    *cap = (int)(per < fit ? per : fit);
    GS_CUDA_TRY(cudaFuncSetAttribute((const void *)km_persistent_kernel,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)(*cap * sizeof(float2))));
    GS_TRY(gs_max_coresident_blocks((const void *)km_persistent_kernel, KM_THREADS,
                                    (size_t)*cap * sizeof(float2), &most));
    if (most < g)
        *cap = 0;
    *blocks = (int)g;
    return GS_SUCCESS;
}

/* The answer's buffers (NaN centroids, counts -1) and the partials and
 * centroids between iterations (NaN): a read before its write shows. */
static gs_status km_poison(km_host *w, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaMemsetAsync(w->p.slots, 0xff, 2ull * KM_PARTS * w->max_blocks * sizeof(double),
                                stream));
    GS_CUDA_TRY(cudaMemsetAsync(w->p.cbuf, 0xff, 2 * KM_K * sizeof(float2), stream));
    GS_CUDA_TRY(cudaMemsetAsync(w->p.centroids, 0xff, KM_K * sizeof(float2), stream));
    GS_CUDA_TRY(cudaMemsetAsync(w->p.counts, 0xff, KM_K * sizeof(int), stream));
    return GS_SUCCESS;
}

/* The bound on the error (km_check) of a solve on `blocks` blocks: the float
 * sums of m = ceil(n / (blocks KM_THREADS)) shifted points a thread, 5
 * shuffle levels and each x - c rounded lose at most (m + 6) 2^-24 KM_SPREAD
 * of a mean; rounding the centroid to float 2^-24 scale; twice that, over
 * scale. Iterations do not add up: c + mean(x - c) is mean(x) whatever c. */
static double km_bound(const km_host *w, int blocks)
{
    const double u = ldexp(1.0, -24);
    const double m = ceil((double)w->p.n / ((double)blocks * KM_THREADS));
    return 2.0 * ((m + 6.0) * u * KM_SPREAD + u * w->scale) / w->scale;
}

/* Compare the device's answer with the CPU's: every count exactly, every
 * centroid within km_bound (*rel: the largest coordinate difference over
 * scale); GS_ERR_INTERNAL naming the first difference when there is one. */
static gs_status km_check(km_host *w, const char *what, int blocks, double *rel)
{
    GS_CUDA_TRY(cudaMemcpy(w->got, w->p.centroids, sizeof w->got, cudaMemcpyDeviceToHost));
    GS_CUDA_TRY(cudaMemcpy(w->got_count, w->p.counts, sizeof w->got_count,
                           cudaMemcpyDeviceToHost));
    const double bound = km_bound(w, blocks);
    *rel = 0.0;
    for (int k = 0; k < KM_K; ++k) {
        if (w->got_count[k] != w->ref_count[k])
            return gs__fail(GS_ERR_INTERNAL, "k-means %s, %lld points, %d blocks: cluster %d has "
                            "%d points, expected %lld (seed %llu)", what, w->p.n, blocks, k,
                            w->got_count[k], w->ref_count[k], w->seed);
        const double e = fmax(fabs(w->got[k].x - w->ref[k][0]), fabs(w->got[k].y - w->ref[k][1]));
        const double r = e / w->scale;
        if (!(r <= bound)) /* NaN (poison) too */
            return gs__fail(GS_ERR_INTERNAL, "k-means %s, %lld points, %d blocks: centroid %d = "
                            "(%.9g, %.9g), expected (%.9g, %.9g): %.3g > bound %.3g (seed %llu)",
                            what, w->p.n, blocks, k, w->got[k].x, w->got[k].y, w->ref[k][0],
                            w->ref[k][1], r, bound, w->seed);
        *rel = r > *rel ? r : *rel;
    }
    return GS_SUCCESS;
}

/* ------------------------------------------------------ one solve each */

static gs_status km_solve_persistent(const km_host *w, gs_barrier_t bar,
                                     const gs_grid_barrier *view, int blocks, int cap,
                                     cudaStream_t stream)
{
    if (blocks > w->max_blocks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "k-means: %d blocks, slots for %d", blocks,
                        w->max_blocks);
    km_problem p = w->p;
    p.blocks = blocks, p.cap = cap;
    gs_grid_barrier v = *view;
    void *args[] = {&p, &v};
    return gs_launch((const void *)km_persistent_kernel, dim3((unsigned int)blocks),
                     dim3(KM_THREADS), (size_t)cap * sizeof(float2), stream, args, bar);
}

/* Whether the relaunch kernels can be chained by programmatic dependent
 * launch here (gs_pdl_overlaps: sm_90 code on a 9.0 device). */
static gs_status km_pdl_supported(int *yes)
{
    return gs_pdl_overlaps((const void *)km_step_kernel, yes);
}

/* One kernel per iteration on `blocks` blocks, then the answer's (one
 * block); `pdl` (only where km_pdl_supported says so): each launched with
 * programmatic stream serialization. */
static gs_status km_solve_relaunch(const km_host *w, int blocks, int pdl, cudaStream_t stream)
{
    if (blocks > w->max_blocks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "k-means: %d blocks, slots for %d", blocks,
                        w->max_blocks);
    km_problem p = w->p;
    p.blocks = blocks, p.cap = 0;
    for (int it = 0; it <= p.iters; ++it) {
        void *args[] = {&p, &it};
        GS_TRY(peer_pdl_launch((const void *)km_step_kernel,
                               dim3(it < p.iters ? (unsigned int)blocks : 1u), dim3(KM_THREADS),
                               stream, args, pdl));
    }
    return GS_SUCCESS;
}

#endif
