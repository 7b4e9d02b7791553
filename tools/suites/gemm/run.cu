/*
 * run.cu - `gridsync bench gemm`: FP32 matrix multiply throughput of
 * gs_sgemm next to cuBLAS SGEMM in pedantic FP32 mode (no TF32, no tensor
 * cores) and the tiled matrix-multiply tutorial's 16x16 kernel
 * (docs/tutorials.md), measured in the same run.
 *
 * gs_sgemm cuts k into slices (split-k) or divides every tile's k steps
 * among one wave of blocks (stream-k) on shapes with too few tiles of C for
 * the GPU (src/gemm/sgemm_plan.c), and runs 128 x 256 tiles where they
 * fill the SMs as well (sgemm_wide.cu): its rows say which tile and
 * schedule it took, and on the divided shapes the unsplit kernel
 * (GS_GEMM_FAST, what gs_sgemm ran before split-k) is timed too, as "gridsync unsplit"; where it takes
 * stream-k, the best split (GS_GEMM_SPLITK) too, as "gridsync split-k".
 *
 * Floor: 2*m*n*k flops; the peak is SMs x 128 FP32 lanes x 2 x the SM's
 * maximum clock. Inputs are random in [-1, 1); before timing, each gridsync
 * row's result is compared with cuBLAS's (relative Frobenius difference,
 * which must stay under 1e-5: both are FP32 with different summation
 * orders), so no row times a wrong or empty result.
 *
 * Its description (columns, plots, README table, reading): describe.c.
 */
#include <cublas_v2.h>

#include <stdio.h>

#include <gridsync/detail/core/tuning.h>

#include "gridsync_internal.h"
#include "harness/compare.h"
#include "harness/fill.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"
#include "suites/gemm/methods.h"

typedef struct gemm_shape {
    int m, n, k;
} gemm_shape;

enum method { M_GRIDSYNC, M_CUBLAS, M_TUTORIAL, M_UNSPLIT, M_SPLITK };
static const char *const method_names[] = {"gridsync", "cublas", TUTORIAL, UNSPLIT, SPLITK};

typedef struct run {
    enum method m;
    gemm_shape s;
    float *a, *b, *c;
    cublasHandle_t blas;
    int calls;
    int sms, wide_built; /* for the plan gs_sgemm follows */
} run;

static gs_status blas_status(cublasStatus_t st, const char *call)
{
    return st == CUBLAS_STATUS_SUCCESS
               ? GS_SUCCESS
               : gs__fail(GS_ERR_CUDA, "%s failed: cuBLAS status %d", call, (int)st);
}

static gs_status one_call(void *p, cudaStream_t s)
{
    run *r = (run *)p;
    const float one = 1.0f, zero = 0.0f;
    const gemm_shape g = r->s;
    switch (r->m) {
    case M_GRIDSYNC:
        return gs_sgemm(g.m, g.n, g.k, 1.0f, r->a, g.k, r->b, g.n, 0.0f, r->c, g.n, s);
    case M_SPLITK:
        return gs_sgemm_with(GS_GEMM_SPLITK, g.m, g.n, g.k, 1.0f, r->a, g.k, r->b, g.n, 0.0f, r->c,
                             g.n, s);
    case M_UNSPLIT:
        return gs_sgemm_with(GS_GEMM_FAST, g.m, g.n, g.k, 1.0f, r->a, g.k, r->b, g.n, 0.0f, r->c,
                             g.n, s);
    case M_TUTORIAL:
        return gs_sgemm_with(GS_GEMM_TILED16, g.m, g.n, g.k, 1.0f, r->a, g.k, r->b, g.n, 0.0f,
                             r->c, g.n, s);
    case M_CUBLAS: /* row-major C = A B is column-major C^T = B^T A^T */
        GS_TRY(blas_status(cublasSetStream(r->blas, s), "cublasSetStream"));
        return blas_status(cublasSgemm(r->blas, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.m, g.k, &one,
                                       r->b, g.n, r->a, g.k, &zero, r->c, g.n),
                           "cublasSgemm");
    }
    return gs__fail(GS_ERR_INTERNAL, "bench gemm: unknown method");
}

/* Run `m` (a gridsync method) and cuBLAS once each and compare their
 * results: *rel, the relative Frobenius difference. */
static gs_status cross_check(run *r, enum method m, cudaStream_t s, double *rel)
{
    long long elems = (long long)r->s.m * r->s.n;
    float *ref = NULL, *c = r->c;
    GS_CUDA_TRY(cudaMalloc((void **)&ref, (size_t)elems * 4));
    r->m = M_CUBLAS;
    r->c = ref;
    gs_status st = one_call(r, s);
    r->c = c;
    r->m = m;
    if (st == GS_SUCCESS)
        st = one_call(r, s);
    if (st == GS_SUCCESS)
        st = gs_relative_difference(r->c, ref, elems, s, rel);
    cudaFree(ref);
    return st;
}


/* `plan`: the tile and slices of a gridsync row (NULL for the peers);
 * `wide`: the slices of the wide tile when the row runs it instead (0). */
static void add_row(gs_table *t, gemm_shape g, enum method m, const gs__sgemm_plan *plan, int wide,
                    const gs_stats *st, double peak_tflops, double peer_us)
{
    double us = st->median, tflops = 2.0 * g.m * (double)g.n * g.k / (us * 1e-6) / 1e12;
    gs_table_add_row(t);
    gs_row_value(t, "m", g.m);
    gs_row_value(t, "n", g.n);
    gs_row_value(t, "k", g.k);
    gs_row_text(t, "method", method_names[m]);
    if (plan) {
        const int splits = wide > 0 ? wide : plan->splits;
        char tile[32];
        if (wide > 0)
            snprintf(tile, sizeof tile, "%dx%d", GS_TUNE_SGEMM_WIDE_TILE_M,
                     GS_TUNE_SGEMM_WIDE_TILE_N);
        else
            snprintf(tile, sizeof tile, "%dx%d", plan->tile, plan->tile);
        gs_row_text(t, "tile", tile);
        gs_row_text(t, "schedule", wide == 0 && plan->streamk ? "stream-k"
                                         : splits > 1               ? "split-k"
                                                                    : "unsplit");
        gs_row_value(t, "splits", splits);
    }
    gs_row_measured(t, "ms_per_call", st, 1e-3);
    gs_row_value(t, "tflop_s", tflops);
    gs_row_value(t, "frac_fp32_peak", tflops / peak_tflops);
    gs_row_value(t, "speedup_vs_peer", peer_us / us);
}

static gs_status time_method(run *r, enum method m, const gs_bench_params *o, cudaStream_t s,
                             gs_stats *us)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    r->m = m;
    return gs_time_calls_stats(one_call, r, r->calls, s, &plan, us);
}

/* Check `m` against cuBLAS (the difference must stay under 1e-5: both are
 * FP32 with different summation orders), then time it. */
static gs_status checked_time(run *r, enum method m, const gs_bench_params *o, cudaStream_t s,
                              gs_stats *us)
{
    double rel = 0.0;
    GS_TRY(cross_check(r, m, s, &rel));
    if (!(rel < 1e-5))
        return gs__fail(GS_ERR_INTERNAL,
                        "bench gemm %dx%dx%d: %s differs from cuBLAS by %.3g (relative "
                        "Frobenius); not timing a wrong result",
                        r->s.m, r->s.n, r->s.k, method_names[m], rel);
    return time_method(r, m, o, s, us);
}

static gs_status bench_shape(run *r, const gs_bench_params *o, cudaStream_t s, double peak,
                             gs_table *t)
{
    const gemm_shape g = r->s;
    size_t na = (size_t)g.m * g.k, nb = (size_t)g.k * g.n, nc = (size_t)g.m * g.n;
    size_t free_b = 0, total_b = 0;
    GS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    if (4 * (na + nb + 2 * nc) + (64u << 20) > free_b) {
        fprintf(stderr, "bench gemm: skipping %dx%dx%d: not enough device memory\n", g.m, g.n, g.k);
        return GS_SUCCESS;
    }
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaMalloc((void **)&r->a, na * 4);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&r->b, nb * 4);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&r->c, nc * 4);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc(bench gemm matrices)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        st = gs_fill_uniform(r->a, (long long)na, -1.0f, 1.0f, 777u + (unsigned int)g.m, s);
        if (st == GS_SUCCESS)
            st = gs_fill_uniform(r->b, (long long)nb, -1.0f, 1.0f, 999u + (unsigned int)g.n, s);
    }
    double flops = 2.0 * g.m * (double)g.n * g.k;
    r->calls = flops < 1e10 ? 10 : flops < 2e11 ? 3 : 1;
    gs_stats ours = {}, peer = {}, tutorial = {}, unsplit = {}, splitk = {};
    const gs__sgemm_plan plan = gs__sgemm_plan_for(g.m, g.n, g.k, r->sms, GS__SGEMM_CHOOSE);
    const gs__sgemm_plan split_plan = gs__sgemm_plan_for(g.m, g.n, g.k, r->sms, GS__SGEMM_SPLIT);
    const int big = GS_TUNE_SGEMM_BIG_TILE; /* the unsplit kernel's choice of tile */
    const long long big_tiles = (long long)((g.m + big - 1) / big) * ((g.n + big - 1) / big);
    const gs__sgemm_plan unsplit_plan = {big_tiles >= r->sms ? big : GS_TUNE_SGEMM_SMALL_TILE, 1,
                                         0};
    const gs__sgemm_args shape_args = {g.m, g.n, g.k, 1.0f, r->a, g.k, r->b, g.n, 0.0f, r->c, g.n};
    const int wide = gs__sgemm_wide_pick(&shape_args, r->sms, r->wide_built, plan);
    const int divided = plan.splits > 1 || plan.streamk; /* gs_sgemm does not run it unsplit */
    if (st == GS_SUCCESS)
        st = checked_time(r, M_GRIDSYNC, o, s, &ours);
    if (st == GS_SUCCESS && divided)
        st = checked_time(r, M_UNSPLIT, o, s, &unsplit);
    if (st == GS_SUCCESS && plan.streamk)
        st = checked_time(r, M_SPLITK, o, s, &splitk);
    if (st == GS_SUCCESS)
        st = time_method(r, M_CUBLAS, o, s, &peer);
    if (st == GS_SUCCESS) {
        int save = r->calls;
        r->calls = 1; /* the tutorial's kernel is ~6x slower */
        st = time_method(r, M_TUTORIAL, o, s, &tutorial);
        r->calls = save;
    }
    if (st == GS_SUCCESS) {
        add_row(t, g, M_GRIDSYNC, &plan, wide, &ours, peak, peer.median);
        if (divided)
            add_row(t, g, M_UNSPLIT, &unsplit_plan, 0, &unsplit, peak, peer.median);
        if (plan.streamk)
            add_row(t, g, M_SPLITK, &split_plan, 0, &splitk, peak, peer.median);
        add_row(t, g, M_CUBLAS, NULL, 0, &peer, peak, peer.median);
        add_row(t, g, M_TUTORIAL, NULL, 0, &tutorial, peak, peer.median);
    }
    cudaFree(r->a);
    cudaFree(r->b);
    cudaFree(r->c);
    r->a = r->b = r->c = NULL;
    return st;
}

/* Shapes measured after the powers of two: tall, wide, deep, odd, and a
 * square whose 128-tiles leave a last wave of 12 on 132 SMs. */
static const gemm_shape extra_shapes[] = {{16384, 512, 4096},  {512, 16384, 4096},
                                          {1024, 1024, 16384}, {3001, 2999, 1537},
                                          {1536, 1536, 1536}};

/* The shapes to measure: n x n x n for each log2 size up to 2^15, then the
 * non-square ones unless --sizes or --quick was given. Returns the count. */
static int shapes_of(const gs_bench_params *o, gemm_shape *shapes, int cap)
{
    int count = 0;
    for (int i = 0; i < o->sizes.count && count < cap; ++i) {
        int k = o->sizes.log2[i];
        if (k > 15)
            fprintf(stderr, "gridsync bench gemm: skipping n = 2^%d (above 2^15)\n", k);
        else
            shapes[count++] = (gemm_shape){1 << k, 1 << k, 1 << k};
    }
    for (int i = 0; !o->sizes_given && o->preset != GS_PRESET_QUICK &&
                    i < GS_COUNT(extra_shapes) && count < cap;
         ++i)
        shapes[count++] = extra_shapes[i];
    return count;
}

static gs_status run_gemm(const gs_bench_params *o, gs_table *t)
{
    if (o->sizes.count < 0 || o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench gemm: bad options");
    gemm_shape shapes[64];
    int steps = shapes_of(o, shapes, GS_COUNT(shapes));
    int dev = 0;
    gs_device_info info;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs_device_query(dev, &info));
    double peak = info.sm_count * 128.0 * 2.0 * info.sm_clock_khz * 1e3 / 1e12;
    cudaStream_t s;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    run r = {};
    r.sms = info.sm_count;
    gs_status st = gs__sgemm_wide_built_for(dev, &r.wide_built);
    if (st == GS_SUCCESS)
        st = blas_status(cublasCreate(&r.blas), "cublasCreate");
    if (st == GS_SUCCESS)
        st = blas_status(cublasSetMathMode(r.blas, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    gs_progress prog;
    if (!o->quiet)
        gs_progress_begin(&prog, "gemm", steps);
    for (int i = 0; i < steps && st == GS_SUCCESS; ++i) {
        r.s = shapes[i];
        if (!o->quiet) {
            char what[64];
            snprintf(what, sizeof what, "%dx%dx%d", r.s.m, r.s.n, r.s.k);
            gs_progress_step(&prog, i, what);
        }
        st = bench_shape(&r, o, s, peak, t);
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    if (r.blas)
        cublasDestroy(r.blas);
    cudaStreamDestroy(s);
    return st;
}

extern "C" const gs_bench_runner gs_runner_gemm = {run_gemm, NULL};
