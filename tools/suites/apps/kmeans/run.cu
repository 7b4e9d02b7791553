/*
 * run.cu - k-means clustering in `gridsync bench apps` (apps.h): Lloyd's
 * algorithm on 2^s 2-D points (SIZE_LOG2 = s) in KM_K = 16 well-separated
 * blobs, KM_ITERS iterations a solve (kmeans.cuh). Four versions, one block
 * code, one grid (one block an SM, at most one per 512 points):
 *   gridsync persistent    one launch, the points kept in shared memory
 *                          across iterations (those that fit), one
 *                          gs_grid_sync an iteration;
 *   relaunch graph         one kernel per iteration in a CUDA graph;
 *   relaunch graph + PDL   the same kernels chained by programmatic
 *   relaunch stream + PDL  dependent launch (sm_90; elsewhere plain stream
 *                          order), in a graph or on a stream.
 * A step is one iteration. Each version runs once on poisoned outputs and
 * is checked, is timed, and its last timed answer is checked again: the
 * counts exactly, the centroids within km_bound of the CPU's FP64 Lloyd.
 */
#include <stdio.h>

#include "harness/progress.h"
#include "suites/apps/apps.h"
#include "suites/apps/kmeans/kmeans.cuh"

enum { KM_MIN_LOG2 = 10, KM_MAX_LOG2 = 26, KM_ITERS = 100 };
static const int quick_sizes[] = {16, 20}, default_sizes[] = {14, 16, 18, 20, 22, 24},
                 full_sizes[] = {12, 14, 16, 18, 20, 21, 22, 24};

enum version { V_PERSISTENT, V_GRAPH, V_PDL_GRAPH, V_PDL_STREAM, NVERSIONS };
static const char *const method_names[NVERSIONS] = {
    "gridsync persistent", "relaunch graph", "relaunch graph + PDL", "relaunch stream + PDL"};

typedef struct km_run {
    km_host *w;
    int version, blocks, cap, pdl; /* pdl: the device has programmatic dependent launch */
    gs_barrier_t bar;
    gs_grid_barrier view;
} km_run;

static gs_status enqueue(void *ctx, cudaStream_t stream)
{
    km_run *r = (km_run *)ctx;
    if (r->version == V_PERSISTENT)
        return km_solve_persistent(r->w, r->bar, &r->view, r->blocks, r->cap, stream);
    return km_solve_relaunch(r->w, r->blocks, r->version != V_GRAPH && r->pdl, stream);
}

/* Wait for the solves and collect the barrier's watchdog. */
static gs_status settle(const km_run *r, cudaStream_t stream)
{
    if (r->version == V_PERSISTENT)
        return gs_barrier_check(r->bar, stream);
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}

/* One version: a checked solve on poisoned outputs, the timing (microseconds
 * per solve in `st`), and the check of the last timed solve. */
static gs_status measure(const gs_bench_params *o, km_run *r, cudaStream_t stream, gs_stats *st,
                         double *rel)
{
    GS_TRY(km_poison(r->w, stream));
    GS_TRY(enqueue(r, stream));
    GS_TRY(settle(r, stream));
    GS_TRY(km_check(r->w, method_names[r->version], r->blocks, rel));
    GS_TRY(km_poison(r->w, stream));
    gs_timing_plan plan = gs_bench_plan(o, r->version == V_GRAPH || r->version == V_PDL_GRAPH);
    GS_TRY(gs_time_work(enqueue, r, stream, &plan, st));
    GS_TRY(settle(r, stream));
    return km_check(r->w, method_names[r->version], r->blocks, rel);
}

static void add_rows(gs_table *t, int log2, const km_host *w, int blocks, const gs_stats *st,
                     const double *rel)
{
    for (int v = 0; v < NVERSIONS; ++v) {
        gs_stats per_step = st[v];
        gs_stats_scale(&per_step, 1.0 / w->p.iters);
        gs_table_add_row(t);
        gs_row_text(t, "app", "k-means");
        gs_row_value(t, "size_log2", log2);
        gs_row_value(t, "size", (double)w->p.n);
        gs_row_text(t, "method", method_names[v]);
        gs_row_value(t, "blocks", blocks);
        gs_row_value(t, "steps", w->p.iters);
        gs_row_measured(t, "us_per_step", &per_step, 1.0);
        gs_row_value(t, "total_ms", st[v].median / 1000.0);
        gs_row_value(t, "vs_graph", st[V_GRAPH].median / st[v].median);
        gs_row_value(t, "vs_pdl", st[V_PDL_GRAPH].median / st[v].median);
        gs_row_value(t, "error", rel[v]); /* no vs_full: the persistent version is the one
                                           * full barrier an iteration */
    }
}

/* Every version at one size: 2^log2 points. */
static gs_status run_size(const gs_bench_params *o, int log2, gs_barrier_t bar,
                          cudaStream_t stream, gs_table *t, gs_progress *prog, int *step)
{
    const unsigned long long seed = 0x6b6d65616e73ull + (unsigned long long)log2;
    const long long n = 1ll << log2;
    int blocks = 0, cap = 0;
    GS_TRY(km_grid(n, 0, &blocks, &cap));
    km_host w;
    GS_TRY(km_create(&w, n, KM_K, KM_ITERS, blocks, seed));
    gs_stats st[NVERSIONS];
    double rel[NVERSIONS] = {0.0, 0.0, 0.0, 0.0};
    km_run r = {&w, 0, blocks, cap, 0, bar, {}};
    gs_status s = km_pdl_supported(&r.pdl);
    if (s == GS_SUCCESS)
        s = gs_barrier_device(bar, (unsigned int)blocks, &r.view);
    for (int v = 0; v < NVERSIONS && s == GS_SUCCESS; ++v) {
        char what[128];
        snprintf(what, sizeof what, "k-means 2^%d points (seed %llu, %d of a block's on chip): %s",
                 log2, seed, cap, method_names[v]);
        if (!o->quiet)
            gs_progress_step(prog, (*step)++, what);
        r.version = v;
        s = measure(o, &r, stream, &st[v], &rel[v]);
    }
    if (s == GS_SUCCESS)
        add_rows(t, log2, &w, blocks, st, rel);
    km_destroy(&w);
    return s;
}

extern "C" gs_status gs_apps_kmeans(const gs_bench_params *o, gs_table *table)
{
    if (o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps kmeans: bad options");
    const gs_size_list own[GS_PRESET_COUNT] = {GS_SIZES(default_sizes), GS_SIZES(quick_sizes),
                                               GS_SIZES(full_sizes)};
    int sizes[64];
    const int count = gs_apps_sizes(o, own, KM_MIN_LOG2, KM_MAX_LOG2, sizes, 64);
    if (count == 0)
        return GS_SUCCESS; /* --sizes outside k-means' 2^10 .. 2^26 points */
    cudaStream_t stream = NULL;
    gs_barrier_t bar = NULL;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_status s = gs_barrier_create(&bar, GS_BARRIER_AUTO);
    gs_progress prog;
    int step = 0;
    if (!o->quiet)
        gs_progress_begin(&prog, "bench apps: k-means", count * NVERSIONS);
    for (int i = 0; i < count && s == GS_SUCCESS; ++i)
        s = run_size(o, sizes[i], bar, stream, table, &prog, &step);
    if (!o->quiet)
        gs_progress_end(&prog);
    if (bar)
        gs_barrier_destroy(bar);
    cudaStreamDestroy(stream);
    return s;
}
