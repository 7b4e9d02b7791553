/*
 * describe.c - `gridsync bench barrier`, described (results/suite.h): per
 * barrier latency of every gridsync method next to cooperative groups
 * grid.sync(), relaunch on a stream and relaunch in a CUDA graph, each
 * also with programmatic dependent launch (PDL); its columns, plots,
 * README table and reading (with the report's table of the fastest method
 * and the best kernel boundary per grid). How it measures: run.cu.
 */
#include <gridsync/barrier_view.h>

#include "results/suite.h"

/* " lock lockfree ...": every method of the registry, for the column's meaning. */
#define GS__METHOD_LISTED(constant, name) " " name
static const gs_column columns[] = {
    {.name = "threads", .unit = "", .meaning = "threads per block"},
    {.name = "blocks", .unit = "", .meaning = "blocks in the grid"},
    {.name = "blocks_per_sm", .unit = "", .decimals = 2, .meaning = "blocks / SMs"},
    {.name = "method", .unit = "",
     .meaning = "gridsync's methods:" GS_BARRIER_METHODS(GS__METHOD_LISTED) "; the peers: cg "
                "grid.sync, relaunch, relaunch graph, relaunch + PDL, relaunch graph + PDL"},
    {.name = "us_per_barrier", .unit = "us", .decimals = 3, .meaning = "median time per barrier"},
    {.name = "min_us", .unit = "us", .decimals = 3, .meaning = "fastest sample, per barrier"},
    {.name = "max_us", .unit = "us", .decimals = 3, .meaning = "slowest sample, per barrier"},
    {.name = "speedup_vs_cg", .unit = "", .decimals = 2, .meaning = "grid.sync() time / this time"},
    {.name = "speedup_vs_graph", .unit = "", .decimals = 2,
     .meaning = "relaunch-graph time / this time"},
    {.name = "speedup_vs_pdl", .unit = "", .decimals = 2,
     .meaning = "relaunch graph + PDL time / this time (none on a GPU without PDL)"},
    {.name = "x_floor", .unit = "", .decimals = 2,
     .meaning = "this time / the one-block lock barrier's"},
    {.name = "errors", .unit = "", .meaning = "wrong values seen by the exchange check; must be 0"},
};

/* gridsync's methods: every method of the registry, as results name them. */
#define GS__METHOD_NAME(constant, name) name,
static const char *const ours[] = {GS_BARRIER_METHODS(GS__METHOD_NAME) NULL};
static const char *const peers[] = {"cg grid.sync", "relaunch", "relaunch graph", "relaunch + PDL",
                                    "relaunch graph + PDL", NULL};
/* The kernel boundaries among them. */
static const char *const boundaries[] = {"relaunch", "relaunch graph", "relaunch + PDL",
                                         "relaunch graph + PDL", NULL};
static const char *const grid[] = {"blocks", NULL};

static const gs_plot_spec plots[] = {
    {
        .facet = "threads",
        .y = "us_per_barrier",
        .series = "method",
        .xlabel = "blocks in the grid",
        .ylabel = "speedup over grid.sync (log scale)",
        .logy = 2,
        .xformat = "%g",
        .name = "speedup",
        .title = "barrier: speedup over cooperative groups grid.sync()",
        .kind = GS_PLOT_RATIO,
        .baseline = "cg grid.sync",
        .style = GS_STYLE_BARS,
        .categories = grid,
        .low = "min_us",
        .high = "max_us",
    },
    {
        .facet = "threads",
        .y = "us_per_barrier",
        .series = "method",
        .xlabel = "blocks in the grid",
        .ylabel = "microseconds per barrier (log scale)",
        .logy = 10,
        .xformat = "%g",
        .name = "time",
        .title = "barrier: time per barrier",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
        .categories = grid,
        .low = "min_us",
        .high = "max_us",
    },
};

static const char *const configuration[] = {"threads", "blocks", NULL};

#define PER_BARRIER(method_)        \
    {                               \
        .header = method_,          \
        .kind = GS_SUMMARY_VALUE,   \
        .column = "us_per_barrier", \
        .method = method_,          \
        .format = "%.3f",           \
    }
#define GS__PER_METHOD(constant, name) PER_BARRIER(name),
static const gs_summary_column summary_columns[] = {
    {.header = "threads", .kind = GS_SUMMARY_FIELD, .column = "threads", .format = "%.0f"},
    {.header = "blocks", .kind = GS_SUMMARY_FIELD, .column = "blocks", .format = "%.0f"},
    GS_BARRIER_METHODS(GS__PER_METHOD) /* every method of the registry, in its order */
    PER_BARRIER("cg grid.sync"),
    PER_BARRIER("relaunch"),
    PER_BARRIER("relaunch graph"),
    PER_BARRIER("relaunch graph + PDL"),
    {.header = "best ours", .kind = GS_SUMMARY_BEST, .column = "us_per_barrier"},
    {.header = "vs grid.sync", .kind = GS_SUMMARY_RATIO, .column = "us_per_barrier",
     .method = "cg grid.sync", .over = GS_SUMMARY_BEST_METHOD, .format = "%.2fx"},
    {.header = "vs graph", .kind = GS_SUMMARY_RATIO, .column = "us_per_barrier",
     .method = "relaunch graph", .over = GS_SUMMARY_BEST_METHOD, .format = "%.2fx"},
    {.header = "vs graph + PDL", .kind = GS_SUMMARY_RATIO, .column = "us_per_barrier",
     .method = "relaunch graph + PDL", .over = GS_SUMMARY_BEST_METHOD, .format = "%.2fx"},
    {.header = "fastest", .kind = GS_SUMMARY_BEST, .column = "us_per_barrier",
     .among = GS_SUMMARY_EVERY},
    {.header = "best boundary", .kind = GS_SUMMARY_BEST, .column = "us_per_barrier",
     .among = boundaries},
};

static const gs_summary_spec summary = {
    .intro = "Grid barrier, microseconds per barrier (median), {run}. Best gridsync method vs. "
        "the peers, same run:",
    .group_by = configuration,
    .pivot = "method",
    .best_of = ours,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const key[] = {"threads", "blocks", "method", NULL};
/* The best of gridsync's methods against `peer_`, grid by grid. */
#define AGAINST(peer_)                  \
    {                                   \
        .peer = peer_,                  \
        .metric = "us_per_barrier",     \
        .group_by = configuration,      \
        .describe = configuration,      \
        .noun = "grids",                \
        .blocks = "blocks",             \
    }
static const gs_headline headlines[] = {
    AGAINST("cg grid.sync"),
    AGAINST("relaunch graph"),
    AGAINST("relaunch graph + PDL"),
};
static const gs_pick picks[] = {
    {.header = "fastest method", .among = NULL},
    {.header = "fastest of gridsync's", .among = ours},
    {.header = "best kernel boundary", .among = boundaries},
};
static const gs_winners winners[] = {
    {
        .title = "Fastest per grid: a kernel boundary or a barrier inside the kernel, whichever "
            "measured faster here (median time per barrier):",
        .group_by = configuration,
        .picks = picks,
        .npicks = GS_COUNT(picks),
    },
};
static const gs_column_style styles[] = {
    {.column = "blocks_per_sm", .label = "blocks/SM", .format = GS_CELL_AUTO},
    {.column = "us_per_barrier", .label = "time per barrier", .format = GS_CELL_AUTO},
    {.column = "min_us", .label = "fastest", .format = GS_CELL_AUTO},
    {.column = "max_us", .label = "slowest", .format = GS_CELL_AUTO},
    {.column = "speedup_vs_cg", .label = "vs grid.sync", .format = GS_CELL_RATIO},
    {.column = "speedup_vs_graph", .label = "vs graph", .format = GS_CELL_RATIO},
    {.column = "speedup_vs_pdl", .label = "vs graph + PDL", .format = GS_CELL_RATIO},
    {.column = "x_floor", .label = "vs 1-block lock", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_barrier",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
    .winners = winners,
    .nwinners = GS_COUNT(winners),
};

const gs_bench_suite gs_suite_barrier = {
    .name = "barrier",
    .help = "microseconds per grid barrier: gridsync's methods vs cooperative groups grid.sync(), "
        "kernel relaunch on a stream and relaunch inside a CUDA graph, each also with "
        "programmatic dependent launch (PDL); the report names the fastest method and the best "
        "kernel boundary per grid",
    .title = "barrier: microseconds per barrier (median)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
