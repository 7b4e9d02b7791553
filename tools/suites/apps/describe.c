/*
 * describe.c - `gridsync bench apps`, described (results/suite.h): whole
 * programs (conjugate gradient, a 2-D heat stencil, a wavefront, k-means),
 * each written the ways CUDA programmers write it today and with gridsync; the
 * columns every application's rows have (apps.h), the plots, README table
 * and reading. How they measure: run.cu and one folder per application.
 */
#include "results/suite.h"

static const gs_column columns[] = {
    {.name = "app", .unit = "",
     .meaning = "the application: cg (2-D Poisson, conjugate gradient), stencil 2-D, wavefront, "
                "k-means (Lloyd, 16 clusters of 2-D points)"},
    {.name = "size_log2", .unit = "", .meaning = "log2 of the problem size"},
    {.name = "size", .unit = "",
     .meaning = "the problem size: unknowns (cg), cells (stencil, wavefront) or points (k-means)"},
    {.name = "method", .unit = "",
     .meaning = "gridsync persistent (cg, k-means), gridsync tasks (cg on the task runtime), "
                "gridsync neighbour, gridsync tagged halo and gridsync "
                "halo (stencil; the halos where the tiles fit on chip; gridsync halo: the "
                "public gridsync/halo.cuh API), gridsync signals (wavefront): gridsync's; cg "
                "grid.sync sample, cuBLAS+cuSPARSE stream / graph, kernels, stream + PDL / "
                "graph + PDL (cg), cg grid.sync, full barrier per diagonal, relaunch graph / "
                "stream, relaunch graph + PDL / stream + PDL (k-means: no relaunch stream): the "
                "peers"},
    {.name = "blocks", .unit = "",
     .meaning = "blocks of the persistent kernel, or of each relaunched kernel (none for library "
                "calls)"},
    {.name = "steps", .unit = "",
     .meaning = "steps of one solve (cg: iterations to the relative residual 1e-6 up to 2^18 "
                "unknowns, a fixed 20 above; k-means: a fixed 100 iterations)"},
    {.name = "us_per_step", .unit = "us", .decimals = 3,
     .meaning = "median time per step (cg iteration, stencil step, wavefront diagonal, k-means "
                "iteration)"},
    {.name = "total_ms", .unit = "ms", .decimals = 3,
     .meaning = "time of the whole solve: time per step x steps"},
    {.name = "vs_graph", .unit = "", .decimals = 2,
     .meaning = "the CUDA-graph relaunch version's time / this time"},
    {.name = "vs_pdl", .unit = "", .decimals = 2,
     .meaning = "the version with a kernel per step in a CUDA graph with programmatic dependent "
                "launch (cg: a kernel per operation; stencil: a kernel per step; wavefront: a "
                "kernel per diagonal; k-means: a kernel per iteration): its time / this time"},
    {.name = "vs_full", .unit = "", .decimals = 2,
     .meaning = "the full-barrier version's time / this time (cg: the grid.sync sample design; "
                "stencil: cg grid.sync; wavefront: a full barrier per diagonal; k-means: none, its "
                "persistent version is the full-barrier design)"},
    {.name = "vs_persistent", .unit = "", .decimals = 2,
     .meaning = "cg, gridsync tasks only: the hand-written persistent version's time (gridsync "
                "persistent) / this time"},
    {.name = "error", .unit = "", .decimals = 3,
     .meaning = "difference of the answer to the CPU's FP64 reference, relative (docs/apps.md: "
                "the norm and the bound of each application)"},
};

static const char *const ours[] = {"gridsync persistent", "gridsync tasks", "gridsync neighbour",
                                   "gridsync tagged halo", "gridsync halo", "gridsync signals",
                                   NULL};
static const char *const peers[] = {"cg grid.sync sample", "cuBLAS+cuSPARSE stream",
                                    "cuBLAS+cuSPARSE graph", "kernels, stream + PDL",
                                    "kernels, graph + PDL", "cg grid.sync",
                                    "full barrier per diagonal", "relaunch graph",
                                    "relaunch stream", "relaunch graph + PDL",
                                    "relaunch stream + PDL", NULL};

#define APP_PLOT(y_, ylabel_, logy_, name_, title_, rate) \
    {                                                     \
        .facet = "app",                                   \
        .x = "size",                                      \
        .y = y_,                                          \
        .series = "method",                               \
        .xlabel = "problem size",                         \
        .ylabel = ylabel_,                                \
        .logx = 2,                                        \
        .logy = logy_,                                    \
        .xformat = "2^%L",                                \
        .name = name_,                                    \
        .title = title_,                                  \
        .kind = GS_PLOT_VALUE,                            \
        .y_rate = rate,                                   \
        .style = GS_STYLE_LINES,                          \
    }
static const gs_plot_spec plots[] = {
    APP_PLOT("us_per_step", "microseconds per step (log scale)", 10, "time",
             "apps: time per step (cg iteration, stencil step, wavefront diagonal, k-means "
             "iteration)", 0),
    APP_PLOT("vs_graph", "speedup over the CUDA-graph version", 0, "vs-graph",
             "apps: speedup over relaunching in a CUDA graph (above 1: faster)", 1),
    APP_PLOT("vs_full", "speedup over the full-barrier version", 0, "vs-full",
             "apps: speedup over the full-barrier design (cg: the grid.sync sample)", 1),
    APP_PLOT("vs_pdl", "speedup over the CUDA graph + PDL version", 0, "vs-pdl",
             "apps: speedup over kernels chained by PDL in a CUDA graph (above 1: faster)", 1),
};
#undef APP_PLOT

/* README: one row per application and size, gridsync's version against the
 * full-barrier design, the CUDA graph and the CUDA graph with PDL (its own
 * row's ratios). */
static const char *const app_size[] = {"app", "size_log2", NULL};
#define OURS(header_, column_, format_)   \
    {                                     \
        .header = header_,                \
        .kind = GS_SUMMARY_VALUE,         \
        .column = column_,                \
        .method = GS_SUMMARY_BEST_METHOD, \
        .format = format_,                \
    }
static const gs_summary_column summary_columns[] = {
    {.header = "app", .kind = GS_SUMMARY_FIELD, .column = "app"},
    {.header = "size", .kind = GS_SUMMARY_FIELD, .column = "size", .format = "2^"},
    {.header = "gridsync version", .kind = GS_SUMMARY_BEST, .column = "us_per_step"},
    OURS("blocks", "blocks", "%.0f"),
    OURS("steps", "steps", "%.0f"),
    OURS("us per step", "us_per_step", "%.2f"),
    OURS("vs full barrier", "vs_full", "%.2fx"),
    OURS("vs CUDA graph", "vs_graph", "%.2fx"),
    OURS("vs graph + PDL", "vs_pdl", "%.2fx"),
};
#undef OURS
static const gs_summary_spec summary = {
    .intro = "Whole programs, microseconds per step (median), {run}. gridsync's version of each "
        "application against the full-barrier design (cg: the grid.sync() sample's; stencil: "
        "grid.sync(); wavefront: a full barrier per diagonal; k-means: none), against relaunching in a CUDA "
        "graph (cg: cuBLAS + cuSPARSE) and against kernels chained by programmatic dependent "
        "launch in a CUDA graph (cg: hand-written kernels, two an iteration), same run:",
    .group_by = app_size,
    .pivot = "method",
    .best_of = ours,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const key[] = {"app", "size_log2", "method", NULL};
static const char *const size_only[] = {"size_log2", NULL};
static const char *const cg_app[] = {"cg", NULL};
static const char *const cg_ours[] = {"gridsync persistent", "gridsync tasks", NULL};
#define CG_HEADLINE(peer_)            \
    {                                 \
        .peer = peer_,                \
        .metric = "us_per_step",      \
        .group_by = app_size,         \
        .describe = size_only,        \
        .filter = "app",              \
        .filter_values = cg_app,      \
        .noun = "sizes",              \
        .ours = cg_ours,              \
    }
#define APP_HEADLINE(peer_)           \
    {                                 \
        .peer = peer_,                \
        .metric = "us_per_step",      \
        .group_by = app_size,         \
        .describe = app_size,         \
        .noun = "sizes",              \
    }
static const gs_headline headlines[] = {
    CG_HEADLINE("cg grid.sync sample"),
    CG_HEADLINE("cuBLAS+cuSPARSE graph"),
    CG_HEADLINE("kernels, graph + PDL"),
    APP_HEADLINE("cg grid.sync"),
    APP_HEADLINE("full barrier per diagonal"),
    APP_HEADLINE("relaunch graph"),
    APP_HEADLINE("relaunch graph + PDL"),
};
#undef CG_HEADLINE
#undef APP_HEADLINE
static const gs_column_style styles[] = {
    {.column = "size", .label = "size", .format = GS_CELL_POW2},
    {.column = "us_per_step", .label = "time per step", .format = GS_CELL_AUTO},
    {.column = "total_ms", .label = "solve", .format = GS_CELL_AUTO},
    {.column = "vs_graph", .label = "vs graph", .format = GS_CELL_RATIO},
    {.column = "vs_pdl", .label = "vs graph + PDL", .format = GS_CELL_RATIO},
    {.column = "vs_full", .label = "vs full barrier", .format = GS_CELL_RATIO},
    {.column = "vs_persistent", .label = "vs gridsync persistent", .format = GS_CELL_RATIO},
    {.column = "error", .label = "error", .format = GS_CELL_AUTO},
};
/* per application and size, which version was fastest: the report's
 * advice, from the rows measured */
static const gs_pick picks[] = {
    {.header = "fastest version", .among = NULL},
    {.header = "fastest of gridsync's", .among = ours},
    {.header = "fastest peer", .among = peers},
};
static const gs_winners winners[] = {
    {
        .title = "Fastest per application and size: gridsync's persistent version or a peer "
            "(relaunches with and without programmatic dependent launch, libraries, a full "
            "barrier), whichever measured faster here (median time per step):",
        .group_by = app_size,
        .picks = picks,
        .npicks = GS_COUNT(picks),
    },
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_step",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .winners = winners,
    .nwinners = GS_COUNT(winners),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_apps = {
    .name = "apps",
    .help = "whole programs, microseconds per step: conjugate gradient on 2-D Poisson (gridsync's "
        "persistent kernel vs NVIDIA's grid.sync() sample design and cuBLAS + cuSPARSE on a "
        "stream and in a CUDA graph and hand-written kernels chained by PDL; 2^10 .. 2^24 "
        "unknowns), a 2-D heat stencil (neighbour barriers and tagged halos, also through the "
        "public halo API, vs grid.sync() and relaunch in a graph or on a stream, with and "
        "without PDL), a wavefront (signals vs a full barrier per diagonal and relaunch, "
        "with and without PDL) and k-means (a persistent kernel keeping the points on chip vs "
        "a kernel per iteration in a graph, with and without PDL); every answer checked "
        "against the CPU",
    .title = "apps: microseconds per step (median)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
