/*
 * gemm_check.h - one matrix multiply case against an FP64 CPU reference, for
 * the GPU tests of gs_sgemm and its kernels (test_gemm.cu, test_gemm_splitk.cu,
 * test_gemm_streamk.cu), and the helpers of their bitwise-repeatability checks.
 *
 * Bound (per element, rigorous): an FP32 dot product of length k, summed in
 * any order with or without FMA, errs by at most gamma(k)*sum|a||b| with
 * gamma(j) = j*u / (1 - j*u), u = 2^-24. Scaling by alpha and adding beta*c
 * are two more roundings, so |C - ref| <= gamma(k + 2) * (|alpha| sum|a||b| +
 * |beta| |c0|). (Split-k sums k in slices and the slices in order: still one
 * summation order of the k products, so the same bound.) The relative
 * Frobenius error is reported, and bounded by the same gamma(k + 2) times
 * ||bound||_F / ||ref||_F.
 *
 * Every output element is checked; C is poisoned with NaN first when beta is
 * 0 (so a kernel that reads C there, or leaves an element unwritten, fails),
 * and the padding columns of C (ldc > n) must still hold their poison.
 */
#ifndef GS_TEST_GEMM_CHECK_H
#define GS_TEST_GEMM_CHECK_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "gridsync_internal.h"
#include "gpu_test.h"

static uint64_t rng;

static float uniform(void) /* [-1, 1) */
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((rng >> 40) * (1.0 / 8388608.0)) - 1.0f;
}

typedef struct shape {
    int m, n, k;
} shape;

static int checks;

/* Runs the kernel under test on `p` (device pointers), enqueued on `stream`. */
typedef gs_status (*gemm_launch)(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream);

/* One case: `label` names the kernel in messages; `pad` extra columns in
 * every leading dimension. Counts one check. */
static void gemm_check_case(const char *label, gemm_launch run, const void *ctx, shape s, int pad,
                            float alpha, float beta)
{
    int lda = s.k + pad, ldb = s.n + pad, ldc = s.n + pad;
    size_t na = (size_t)s.m * lda, nb = (size_t)s.k * ldb, nc = (size_t)s.m * ldc;
    float *a = (float *)malloc(na * 4), *b = (float *)malloc(nb * 4);
    float *c0 = (float *)malloc(nc * 4), *c = (float *)malloc(nc * 4);
    const float poison = nanf("");
    for (size_t i = 0; i < na; ++i)
        a[i] = uniform();
    for (size_t i = 0; i < nb; ++i)
        b[i] = uniform();
    for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < ldc; ++j)
            c0[(size_t)i * ldc + j] = j < s.n && beta != 0.0f ? uniform() : poison;
    float *da, *db, *dc;
    CUDA_OK(cudaMalloc((void **)&da, na * 4));
    CUDA_OK(cudaMalloc((void **)&db, nb * 4));
    CUDA_OK(cudaMalloc((void **)&dc, nc * 4));
    CUDA_OK(cudaMemcpy(da, a, na * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(db, b, nb * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dc, c0, nc * 4, cudaMemcpyHostToDevice));
    gs__sgemm_args p = {s.m, s.n, s.k, alpha, da, lda, db, ldb, beta, dc, ldc};
    GS_OK(run(&p, ctx, 0));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(c, dc, nc * 4, cudaMemcpyDeviceToHost));

    const double u = ldexp(1.0, -24), j = s.k + 2.0, gamma = j * u / (1.0 - j * u);
    double err2 = 0.0, ref2 = 0.0, bound2 = 0.0;
    long bad = 0, padding_touched = 0;
    double *row = (double *)calloc((size_t)s.n, sizeof(double));
    double *mag = (double *)calloc((size_t)s.n, sizeof(double));
    for (int i = 0; i < s.m; ++i) {
        memset(row, 0, (size_t)s.n * sizeof(double));
        memset(mag, 0, (size_t)s.n * sizeof(double));
        for (int q = 0; q < s.k; ++q) {
            double aiq = a[(size_t)i * lda + q];
            const float *bq = b + (size_t)q * ldb;
            for (int jj = 0; jj < s.n; ++jj) {
                row[jj] += aiq * bq[jj];
                mag[jj] += fabs(aiq * bq[jj]);
            }
        }
        for (int jj = 0; jj < ldc; ++jj) {
            float got = c[(size_t)i * ldc + jj];
            if (jj >= s.n) {
                padding_touched += !isnan(got);
                continue;
            }
            double cold = beta != 0.0f ? c0[(size_t)i * ldc + jj] : 0.0;
            double ref = alpha * row[jj] + beta * cold;
            double bound = gamma * (fabs(alpha) * mag[jj] + fabs(beta) * fabs(cold)) + 1e-30;
            double e = fabs((double)got - ref);
            if (!(e <= bound)) { /* also catches NaN: unwritten or C read with beta = 0 */
                if (bad < 3)
                    fprintf(stderr, "  %s %dx%dx%d: C[%d][%d] = %.9g, reference %.9g, bound %.3g\n",
                            label, s.m, s.n, s.k, i, jj, got, ref, bound);
                ++bad;
            }
            err2 += e * e;
            ref2 += ref * ref;
            bound2 += bound * bound;
        }
    }
    double frob = sqrt(err2 / (ref2 > 0 ? ref2 : 1)), frob_bound = sqrt(bound2 / (ref2 > 0 ? ref2 : 1));
    ++checks;
    EXPECT(bad == 0 && padding_touched == 0 && frob <= frob_bound,
           "%s m=%d n=%d k=%d pad=%d alpha=%g beta=%g: %ld elements out of bound, %ld padding "
           "elements written, relative Frobenius error %.3g (bound %.3g)",
           label, s.m, s.n, s.k, pad, alpha, beta, bad, padding_touched, frob,
           frob_bound);
    if (s.m * (long)s.n >= 1000000)
        printf("  %-8s %dx%dx%d: relative Frobenius error %.3g (bound %.3g)\n",
               label, s.m, s.n, s.k, frob, frob_bound);
    free(row);
    free(mag);
    free(a);
    free(b);
    free(c0);
    free(c);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
}

/* Helpers of the bitwise checks. */
static inline void fill_random(float *d, size_t count)
{
    float *h = (float *)malloc(count * 4);
    for (size_t i = 0; i < count; ++i)
        h[i] = uniform();
    CUDA_OK(cudaMemcpy(d, h, count * 4, cudaMemcpyHostToDevice));
    free(h);
}

static inline long differing_words(const float *x, const float *y, size_t count)
{
    long differ = 0;
    for (size_t i = 0; i < count; ++i)
        differ += memcmp(&x[i], &y[i], sizeof(float)) != 0;
    return differ;
}

/* The same bits every run (one check): `run` on m x n x k runs 6 times;
 * between the runs `other` runs a smaller shape on the same stream (other
 * tiles over the same workspace), and in the last run the same call runs at
 * the same time on a second stream (its own workspace) into its own C, with
 * the same bits too. `label` names the case in messages. */
static inline void gemm_check_repeatable(const char *label, gemm_launch run, const void *ctx,
                                         shape s, gemm_launch other_run,
                                         const void *other_ctx)
{
    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
    float *da, *db, *dc, *dc2, *first = (float *)malloc(nc * 4), *again = (float *)malloc(nc * 4);
    float *side_host = (float *)malloc(nc * 4);
    CUDA_OK(cudaMalloc((void **)&da, na * 4));
    CUDA_OK(cudaMalloc((void **)&db, nb * 4));
    CUDA_OK(cudaMalloc((void **)&dc, nc * 4));
    CUDA_OK(cudaMalloc((void **)&dc2, nc * 4));
    fill_random(da, na);
    fill_random(db, nb);
    gs__sgemm_args p = {s.m, s.n, s.k, 1.0f, da, s.k, db, s.n, 0.0f, dc, s.n};
    gs__sgemm_args other = {s.m / 2 + 1, s.n / 3 + 1, s.k / 2 + 3, 1.0f, da, s.k, db, s.n,
                            0.0f, dc2, s.n};
    CUDA_OK(cudaMemset(dc, 0xff, nc * 4));
    GS_OK(run(&p, ctx, 0));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(first, dc, nc * 4, cudaMemcpyDeviceToHost));
    long differ = 0, nans = 0;
    for (size_t j = 0; j < nc; ++j)
        nans += isnan(first[j]);
    for (int r = 1; r < 6; ++r) {
        GS_OK(other_run(&other, other_ctx, 0));
        CUDA_OK(cudaMemset(dc, 0xff, nc * 4));
        if (r < 5) {
            GS_OK(run(&p, ctx, 0));
        } else { /* two streams at once, each with its own workspace */
            cudaStream_t side;
            gs__sgemm_args q = p;
            CUDA_OK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
            CUDA_OK(cudaMalloc((void **)&q.c, nc * 4));
            CUDA_OK(cudaMemset(q.c, 0xff, nc * 4));
            CUDA_OK(cudaDeviceSynchronize());
            GS_OK(run(&q, ctx, side));
            GS_OK(run(&p, ctx, 0));
            CUDA_OK(cudaDeviceSynchronize());
            CUDA_OK(cudaMemcpy(side_host, q.c, nc * 4, cudaMemcpyDeviceToHost));
            differ += differing_words(first, side_host, nc);
            CUDA_OK(cudaFree(q.c));
            CUDA_OK(cudaStreamDestroy(side));
        }
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(again, dc, nc * 4, cudaMemcpyDeviceToHost));
        differ += differing_words(first, again, nc);
    }
    ++checks;
    EXPECT(differ == 0 && nans == 0, "%dx%dx%d (%s): %ld words differ between runs, %ld NaN",
           s.m, s.n, s.k, label, differ, nans);
    free(first);
    free(again);
    free(side_host);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
    CUDA_OK(cudaFree(dc2));
}

/* A call captured in a CUDA graph (a split-k or stream-k call takes its
 * workspace from the graph's memory, its counters zeroed by a graph node):
 * each of 3 replays gives the direct call's bits on n x n x n. One check
 * (none on a device without memory pools). */
static inline void gemm_check_graph(const char *label, gemm_launch run, const void *ctx, int n)
{
    size_t count = (size_t)n * n;
    float *da, *db, *dc, *direct = (float *)malloc(count * 4), *replay = (float *)malloc(count * 4);
    CUDA_OK(cudaMalloc((void **)&da, count * 4));
    CUDA_OK(cudaMalloc((void **)&db, count * 4));
    CUDA_OK(cudaMalloc((void **)&dc, count * 4));
    fill_random(da, count);
    fill_random(db, count);
    gs__sgemm_args p = {n, n, n, 1.0f, da, n, db, n, 0.0f, dc, n};
    CUDA_OK(cudaMemset(dc, 0xff, count * 4));
    GS_OK(run(&p, ctx, 0));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(direct, dc, count * 4, cudaMemcpyDeviceToHost));
    int pools = 0, dev = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    if (pools) {
        cudaStream_t s;
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        GS_OK(run(&p, ctx, s));
        CUDA_OK(cudaStreamEndCapture(s, &graph));
        CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
        long differ = 0;
        for (int r = 0; r < 3; ++r) {
            CUDA_OK(cudaMemsetAsync(dc, 0xff, count * 4, s));
            CUDA_OK(cudaGraphLaunch(exec, s));
            CUDA_OK(cudaStreamSynchronize(s));
            CUDA_OK(cudaMemcpy(replay, dc, count * 4, cudaMemcpyDeviceToHost));
            differ += differing_words(direct, replay, count);
        }
        ++checks;
        EXPECT(differ == 0, "%d^3 (%s) in a graph: %ld words differ from the direct call", n,
               label, differ);
        CUDA_OK(cudaGraphExecDestroy(exec));
        CUDA_OK(cudaGraphDestroy(graph));
        CUDA_OK(cudaStreamDestroy(s));
    } else {
        printf("  graph case skipped: device %d has no memory pools\n", dev);
    }
    free(direct);
    free(replay);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
}

/* Each split-k or stream-k call's blocks counted themselves out of its
 * workspace: freeing the workspaces does not wait for them (it would wait a
 * minute for a call that never completes its count). One check. */
static inline void gemm_check_counted_out(void)
{
    struct timespec t0, t1;
    CUDA_OK(cudaDeviceSynchronize());
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gs_reduce_release_workspaces();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ++checks;
    EXPECT(seconds < 5.0 && gs__ws_cached_count() == 0,
           "releasing the workspaces took %.1f s (%d left): a call's blocks were not counted out",
           seconds, gs__ws_cached_count());
}

#endif
