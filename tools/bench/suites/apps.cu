/*
 * apps.cu - `gridsync bench apps`: the description of the applications
 * suite (its columns, plots, README table and reading) and its run
 * function, which runs the applications in turn: conjugate gradient
 * (apps_cg.cu), a 2-D heat stencil (apps_stencil.cu), a wavefront
 * (apps_wavefront.cu). Each adds its rows to the one table (apps.h says
 * what a row is); docs/apps.md says what each version does.
 */
#include "gridsync_internal.h"
#include "bench/suites/apps.h"

static gs_status run_apps(const gs_bench_params *params, gs_table *table)
{
    if (params->samples < 1 || params->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps: bad options");
    GS_TRY(gs_apps_cg(params, table));
    GS_TRY(gs_apps_stencil(params, table));
    return gs_apps_wavefront(params, table);
}

static const gs_column columns[GS_APPS_NCOLS] = {
    {"app", "", 0, "the application: cg (2-D Poisson, conjugate gradient), stencil 2-D, "
                   "wavefront"},
    {"size_log2", "", 0, "log2 of the problem size"},
    {"size", "", 0, "the problem size: unknowns (cg) or cells (stencil, wavefront)"},
    {"method", "", 0, "gridsync persistent (cg), gridsync neighbour and gridsync tagged "
                      "halo (stencil; the tagged halo where the tiles fit on chip), gridsync "
                      "signals (wavefront): gridsync's; cg grid.sync sample, cuBLAS+cuSPARSE "
                      "stream / graph, cg grid.sync, full barrier per diagonal, relaunch "
                      "graph / stream: the peers"},
    {"blocks", "", 0, "blocks of the persistent kernel, or of each relaunched kernel (none "
                      "for library calls)"},
    {"steps", "", 0, "steps of one solve (cg: iterations to the relative residual 1e-6 up "
                     "to 2^18 unknowns, a fixed 20 above)"},
    {"us_per_step", "us", 3, "median time per step (cg iteration, stencil step, wavefront "
                             "diagonal)"},
    {"total_ms", "ms", 3, "time of the whole solve: time per step x steps"},
    {"vs_graph", "", 2, "the CUDA-graph relaunch version's time / this time"},
    {"vs_full", "", 2, "the full-barrier version's time / this time (cg: the grid.sync "
                       "sample design; stencil: cg grid.sync; wavefront: a full barrier per "
                       "diagonal)"},
    {"error", "", 3, "difference of the answer to the CPU's FP64 reference, relative "
                     "(docs/apps.md: the norm and the bound of each application)"}};

static const char *const ours[] = {"gridsync persistent", "gridsync neighbour",
                                   "gridsync tagged halo", "gridsync signals", NULL};
static const char *const peers[] = {"cg grid.sync sample", "cuBLAS+cuSPARSE stream",
                                    "cuBLAS+cuSPARSE graph", "cg grid.sync",
                                    "full barrier per diagonal", "relaunch graph",
                                    "relaunch stream", NULL};

#define APP_PLOT(y, ylabel, logy, name, title, rate)                                        \
    {"app", "size", y, "method", "problem size", ylabel, 2, logy, "2^%L", NULL, NULL, name,  \
     title, GS_PLOT_VALUE, NULL, rate, GS_STYLE_LINES, NULL, NULL, NULL, NULL, 0, 0, NULL,  \
     NULL, NULL, NULL, NULL}
static const gs_plot_spec plots[] = {
    APP_PLOT("us_per_step", "microseconds per step (log scale)", 10, "time",
             "apps: time per step (cg iteration, stencil step, wavefront diagonal)", 0),
    APP_PLOT("vs_graph", "speedup over the CUDA-graph version", 0, "vs-graph",
             "apps: speedup over relaunching in a CUDA graph (above 1: faster)", 1),
    APP_PLOT("vs_full", "speedup over the full-barrier version", 0, "vs-full",
             "apps: speedup over the full-barrier design (cg: the grid.sync sample)", 1)};
#undef APP_PLOT

/* README: one row per application and size, gridsync's version against the
 * full-barrier design and the CUDA graph (its own row's ratios). */
static const char *const app_size[] = {"app", "size_log2", NULL};
#define OURS(header, column, format) \
    {header, GS_SUMMARY_VALUE, column, GS_SUMMARY_BEST_METHOD, NULL, format}
static const gs_summary_column summary_columns[] = {
    {"app", GS_SUMMARY_FIELD, "app", NULL, NULL, NULL},
    {"size", GS_SUMMARY_FIELD, "size", NULL, NULL, "2^"},
    {"gridsync version", GS_SUMMARY_BEST, "us_per_step", NULL, NULL, NULL},
    OURS("blocks", "blocks", "%.0f"),
    OURS("steps", "steps", "%.0f"),
    OURS("us per step", "us_per_step", "%.2f"),
    OURS("vs full barrier", "vs_full", "%.2fx"),
    OURS("vs CUDA graph", "vs_graph", "%.2fx")};
#undef OURS
static const gs_summary_spec summary = {
    "Whole programs, microseconds per step (median), {run}. gridsync's version of each "
    "application against the full-barrier design (cg: the grid.sync() sample's; stencil: "
    "grid.sync(); wavefront: a full barrier per diagonal) and against relaunching in a CUDA "
    "graph (cg: cuBLAS + cuSPARSE), same run:",
    app_size, "method", NULL, NULL, NULL, ours, summary_columns, GS_COUNT(summary_columns)};

static const char *const key[] = {"app", "size_log2", "method", NULL};
static const char *const size_only[] = {"size_log2", NULL};
static const char *const cg_app[] = {"cg", NULL};
static const char *const cg_ours[] = {"gridsync persistent", NULL};
static const gs_headline headlines[] = {
    {"cg grid.sync sample", "us_per_step", 0, app_size, size_only, "app", cg_app, "sizes", 0,
     cg_ours, NULL},
    {"cuBLAS+cuSPARSE graph", "us_per_step", 0, app_size, size_only, "app", cg_app, "sizes", 0,
     cg_ours, NULL},
    {"cg grid.sync", "us_per_step", 0, app_size, app_size, NULL, NULL, "sizes", 0, NULL, NULL},
    {"full barrier per diagonal", "us_per_step", 0, app_size, app_size, NULL, NULL, "sizes", 0,
     NULL, NULL},
    {"relaunch graph", "us_per_step", 0, app_size, app_size, NULL, NULL, "sizes", 0, NULL, NULL}};
static const gs_column_style styles[] = {
    {"size", "size", GS_CELL_POW2},
    {"us_per_step", "time per step", GS_CELL_AUTO},
    {"total_ms", "solve", GS_CELL_AUTO},
    {"vs_graph", "vs graph", GS_CELL_RATIO},
    {"vs_full", "vs full barrier", GS_CELL_RATIO},
    {"error", "error", GS_CELL_AUTO}};
static const gs_reading reading = {"method", ours, peers, key, "us_per_step", 0, headlines,
                                   GS_COUNT(headlines), styles, GS_COUNT(styles)};

extern "C" const gs_bench_suite gs_suite_apps = {
    "apps",
    "whole programs, microseconds per step: conjugate gradient on 2-D Poisson (gridsync's "
    "persistent kernel vs NVIDIA's grid.sync() sample design and cuBLAS + cuSPARSE on a "
    "stream and in a CUDA graph; 2^10 .. 2^24 unknowns), a 2-D heat stencil (neighbour "
    "barriers and tagged halos vs grid.sync() and relaunch) and a wavefront (signals vs a "
    "full barrier per diagonal and relaunch); every answer checked against the CPU",
    "apps: microseconds per step (median)",
    columns, GS_APPS_NCOLS,
    {{NULL, 0}, {NULL, 0}, {NULL, 0}},
    1,
    run_apps,
    plots, GS_COUNT(plots),
    &summary,
    NULL,
    &reading,
    NULL};
