/*
 * run.cu - the wavefront of `gridsync bench apps` (apps.h): the
 * longest common subsequence of two random strings over 4 letters, of
 * 2^floor(s/2) and 2^ceil(s/2) chars for SIZE_LOG2 = s (log2 of the DP's
 * cells), in tiles of 128 x 32 cells (wavefront.cuh). Six versions, one
 * tile code:
 *   gridsync signals           a persistent kernel, one block per band
 *                              (tile row), point-to-point signals;
 *   full barrier per diagonal  a persistent kernel, gs_grid_sync after each
 *                              of the tr + tc - 1 anti-diagonals;
 *   relaunch graph / stream    one kernel per anti-diagonal, captured in a
 *                              CUDA graph or launched on a stream;
 *   relaunch graph / stream + PDL  the same kernels chained by programmatic
 *                              dependent launch (sm_90; elsewhere plain
 *                              stream order).
 * A step is one anti-diagonal of tiles (STEPS = tr + tc - 1 for every
 * version). Each version runs once on poisoned outputs and is checked, is
 * timed, and its last timed answer is checked again: every band's bottom
 * row and every tile column's right column against the CPU's DP, exactly.
 */
#include <math.h>
#include <stdio.h>

#include "harness/progress.h"
#include "suites/apps/apps.h"
#include "suites/apps/wavefront/wavefront.cuh"

enum { WF_MIN_LOG2 = 10, WF_MAX_LOG2 = 30 };
static const int quick_sizes[] = {22, 26}, default_sizes[] = {20, 24, 26, 28, 30},
                 full_sizes[] = {20, 22, 24, 26, 28, 30};

enum version { V_SIGNALS, V_FULL, V_GRAPH, V_STREAM, V_PDL_GRAPH, V_PDL_STREAM, NVERSIONS };
static const char *const method_names[NVERSIONS] = {
    "gridsync signals", "full barrier per diagonal", "relaunch graph", "relaunch stream",
    "relaunch graph + PDL", "relaunch stream + PDL"};

typedef struct wf_run {
    wf_host *w;
    int version, blocks, pdl; /* pdl: the device has programmatic dependent launch */
    wf_signals *sig;
    gs_barrier_t bar;
    gs_grid_barrier view;
} wf_run;

static gs_status enqueue(void *ctx, cudaStream_t stream)
{
    wf_run *r = (wf_run *)ctx;
    if (r->version == V_SIGNALS)
        return wf_solve_signals(r->w, r->sig, r->blocks, stream);
    if (r->version == V_FULL)
        return wf_solve_barrier(r->w, r->bar, &r->view, r->blocks, stream);
    const int pdl = (r->version == V_PDL_GRAPH || r->version == V_PDL_STREAM) && r->pdl;
    return wf_solve_relaunch(r->w, pdl, stream);
}

/* Wait for the solves and collect the watchdog of what they waited on. */
static gs_status settle(const wf_run *r, cudaStream_t stream)
{
    if (r->version == V_SIGNALS)
        return gs_signals_check(r->sig->set, stream);
    if (r->version == V_FULL)
        return gs_barrier_check(r->bar, stream);
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}

/* One version: a checked solve on poisoned outputs, the timing (microseconds
 * per solve in `st`), and the check of the last timed solve. */
static gs_status measure(const gs_bench_params *o, wf_run *r, cudaStream_t stream, gs_stats *st,
                         double *rel)
{
    long long bad = 0;
    GS_TRY(wf_poison(r->w, stream));
    GS_TRY(enqueue(r, stream));
    GS_TRY(settle(r, stream));
    GS_TRY(wf_check(r->w, method_names[r->version], &bad, rel));
    gs_timing_plan plan = gs_bench_plan(o, r->version == V_GRAPH || r->version == V_PDL_GRAPH);
    GS_TRY(gs_time_work(enqueue, r, stream, &plan, st));
    GS_TRY(settle(r, stream));
    return wf_check(r->w, method_names[r->version], &bad, rel);
}

static void add_rows(gs_table *t, int log2, const wf_host *w, const int *blocks,
                     const gs_stats *st, const double *rel)
{
    const int steps = w->p.tr + w->p.tc - 1;
    for (int v = 0; v < NVERSIONS; ++v) {
        gs_stats per_step = st[v];
        gs_stats_scale(&per_step, 1.0 / steps);
        gs_table_add_row(t);
        gs_row_text(t, "app", "wavefront");
        gs_row_value(t, "size_log2", log2);
        gs_row_value(t, "size", (double)w->p.m * w->p.n);
        gs_row_text(t, "method", method_names[v]);
        gs_row_value(t, "blocks", blocks[v]);
        gs_row_value(t, "steps", steps);
        gs_row_measured(t, "us_per_step", &per_step, 1.0);
        gs_row_value(t, "total_ms", st[v].median / 1000.0);
        gs_row_value(t, "vs_graph", st[V_GRAPH].median / st[v].median);
        gs_row_value(t, "vs_pdl", st[V_PDL_GRAPH].median / st[v].median);
        gs_row_value(t, "vs_full", st[V_FULL].median / st[v].median);
        gs_row_value(t, "error", rel[v]);
    }
}

/* Every version at one size: 2^floor(s/2) x 2^ceil(s/2) cells. */
static gs_status run_size(const gs_bench_params *o, int log2, wf_signals *sig, gs_barrier_t bar,
                          cudaStream_t stream, gs_table *t, gs_progress *prog, int *step)
{
    wf_host w;
    GS_TRY(wf_create(&w, 1 << (log2 / 2), 1 << (log2 - log2 / 2), 0x1cecafeull + (unsigned)log2));
    int sb = 0, bb = 0;
    gs_status s = wf_grids(&w.p, &sb, &bb);
    const int longest = w.p.tr < w.p.tc ? w.p.tr : w.p.tc;
    const int blocks[NVERSIONS] = {sb, bb, longest, longest, longest, longest};
    gs_stats st[NVERSIONS];
    double rel[NVERSIONS] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    wf_run r = {&w, 0, 0, 0, sig, bar, {}};
    if (s == GS_SUCCESS)
        s = wf_pdl_supported(&r.pdl);
    if (s == GS_SUCCESS)
        s = gs_barrier_device(bar, (unsigned int)bb, &r.view);
    for (int v = 0; v < NVERSIONS && s == GS_SUCCESS; ++v) {
        char what[96];
        snprintf(what, sizeof what, "wavefront 2^%d cells: %s", log2, method_names[v]);
        if (!o->quiet)
            gs_progress_step(prog, (*step)++, what);
        r.version = v;
        r.blocks = blocks[v];
        s = measure(o, &r, stream, &st[v], &rel[v]);
    }
    if (s == GS_SUCCESS)
        add_rows(t, log2, &w, blocks, st, rel);
    wf_destroy(&w);
    return s;
}

extern "C" gs_status gs_apps_wavefront(const gs_bench_params *o, gs_table *table)
{
    if (o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps wavefront: bad options");
    const gs_size_list own[GS_PRESET_COUNT] = {GS_SIZES(default_sizes), GS_SIZES(quick_sizes),
                                               GS_SIZES(full_sizes)};
    int sizes[64];
    const int count = gs_apps_sizes(o, own, WF_MIN_LOG2, WF_MAX_LOG2, sizes, 64);
    if (count == 0)
        return GS_SUCCESS; /* --sizes outside the wavefront's 2^10 .. 2^30 cells */
    cudaStream_t stream = NULL;
    wf_signals sig = {NULL, {}, 0ull};
    gs_barrier_t bar = NULL;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_status s = gs_signals_create(&sig.set, 1u << 16);
    if (s == GS_SUCCESS)
        s = gs_signals_device(sig.set, &sig.view);
    if (s == GS_SUCCESS)
        s = gs_barrier_create(&bar, GS_BARRIER_AUTO);
    gs_progress prog;
    int step = 0;
    if (!o->quiet)
        gs_progress_begin(&prog, "bench apps: wavefront", count * NVERSIONS);
    for (int i = 0; i < count && s == GS_SUCCESS; ++i)
        s = run_size(o, sizes[i], &sig, bar, stream, table, &prog, &step);
    if (!o->quiet)
        gs_progress_end(&prog);
    if (bar)
        gs_barrier_destroy(bar);
    if (sig.set)
        gs_signals_destroy(sig.set);
    cudaStreamDestroy(stream);
    return s;
}
