/*
 * describe.c - `gridsync bench sync`, described (results/suite.h): time per
 * step of the scoped primitives (neighbour and subset barriers, tagged
 * exchange, grid all-reduce, grid scan, split arrive/wait with independent work) next
 * to grid.sync(), cooperative groups' arrive/wait and relaunch (in a CUDA
 * graph, and with programmatic dependent launch on a stream and in a
 * graph; for the split-phase rows with the same work in each step); its
 * columns, plots, README table and reading (with the report's tables of the
 * fastest method and the best kernel boundary per grid and per step
 * length). How it measures: run.cu.
 */
#include "results/suite.h"

static const gs_column columns[] = {
    {.name = "threads", .unit = "", .meaning = "threads per block"},
    {.name = "blocks", .unit = "", .meaning = "blocks in the grid"},
    {.name = "primitive", .unit = "",
     .meaning = "neighbour 1-D / 2-D, tagged exchange 1-D (a word with each 1-D neighbour, "
                "gridsync/tagged.cuh), subset of 8, all-reduce f32 / f64, grid scan u32 (one "
                "value a block: its offset and the total), full barrier "
                "(gs_grid_sync_flip: tree's path up to 2048 blocks), arrive/wait, work alone "
                "(gridsync's and the baseline); cg grid.sync, cg arrive/wait, relaunch graph, "
                "relaunch + PDL, relaunch graph + PDL, and the relaunches with W us of work "
                "(the peers)"},
    {.name = "work_us", .unit = "us", .decimals = 1,
     .meaning = "independent work between arrive and wait (split-phase rows)"},
    {.name = "us_per_step", .unit = "us", .decimals = 3, .meaning = "median time per step"},
    {.name = "min_us", .unit = "us", .decimals = 3, .meaning = "fastest sample, per step"},
    {.name = "max_us", .unit = "us", .decimals = 3, .meaning = "slowest sample, per step"},
    {.name = "speedup_vs_cg", .unit = "", .decimals = 2,
     .meaning = "the cooperative-groups counterpart's time / this time (grid.sync, or "
                "arrive/wait with the same work)"},
    {.name = "speedup_vs_graph", .unit = "", .decimals = 2,
     .meaning = "relaunch-graph time (with the same work, split-phase rows) / this time"},
    {.name = "speedup_vs_pdl", .unit = "", .decimals = 2,
     .meaning = "relaunch graph + PDL time (with the same work, split-phase rows) / this time; "
                "none on a GPU without PDL"},
    {.name = "x_full_barrier", .unit = "", .decimals = 2,
     .meaning = "this time / gridsync's full barrier's"},
    {.name = "x_work", .unit = "", .decimals = 2,
     .meaning = "this time / the work alone (split-phase rows)"},
    {.name = "errors", .unit = "", .meaning = "wrong values seen by the exchange check; must be 0"},
};

static const char *const ours[] = {"neighbour 1-D", "neighbour 2-D", "tagged exchange 1-D",
                                   "subset of 8",
                                   "all-reduce f32", "all-reduce f64", "grid scan u32",
                                   "full barrier",
                                   "arrive/wait", "arrive/wait, 0.5 us work",
                                   "arrive/wait, 1 us work", "arrive/wait, 2 us work", NULL};
static const char *const peers[] = {"cg grid.sync", "relaunch graph", "relaunch + PDL",
                                    "relaunch graph + PDL", "cg arrive/wait",
                                    "cg arrive/wait, 0.5 us work", "cg arrive/wait, 1 us work",
                                    "cg arrive/wait, 2 us work", "relaunch graph, 0.5 us work",
                                    "relaunch graph + PDL, 0.5 us work",
                                    "relaunch graph, 1 us work", "relaunch graph + PDL, 1 us work",
                                    "relaunch graph, 2 us work", "relaunch graph + PDL, 2 us work",
                                    NULL};
/* The kernel boundaries: without work, and with W us of work a step. */
static const char *const boundaries[] = {"relaunch graph", "relaunch + PDL",
                                         "relaunch graph + PDL", NULL};
static const char *const boundaries_work[] = {
    "relaunch graph, 0.5 us work", "relaunch graph + PDL, 0.5 us work",
    "relaunch graph, 1 us work",   "relaunch graph + PDL, 1 us work",
    "relaunch graph, 2 us work",   "relaunch graph + PDL, 2 us work", NULL};
/* The split-phase rows that synchronize with W > 0 us of work (the work
 * alone does not synchronize: it is the floor, not a method to pick). */
static const char *const with_work[] = {
    "arrive/wait, 0.5 us work",    "cg arrive/wait, 0.5 us work",
    "relaunch graph, 0.5 us work", "relaunch graph + PDL, 0.5 us work",
    "arrive/wait, 1 us work",      "cg arrive/wait, 1 us work",
    "relaunch graph, 1 us work",   "relaunch graph + PDL, 1 us work",
    "arrive/wait, 2 us work",      "cg arrive/wait, 2 us work",
    "relaunch graph, 2 us work",   "relaunch graph + PDL, 2 us work", NULL};
static const char *const configuration[] = {"threads", "blocks", NULL};
static const char *const grid[] = {"blocks", NULL};
static const char *const no_work[] = {"neighbour 1-D", "neighbour 2-D", "tagged exchange 1-D",
                                      "subset of 8",
                                      "all-reduce f32", "all-reduce f64", "grid scan u32",
                                   "full barrier",
                                      "cg grid.sync", "relaunch graph", "relaunch + PDL",
                                      "relaunch graph + PDL", NULL};
static const char *const split_rows[] = {"work alone, 1 us", "arrive/wait, 1 us work",
                                         "cg arrive/wait, 1 us work", "relaunch graph, 1 us work",
                                         "relaunch graph + PDL, 1 us work", "work alone, 2 us",
                                         "arrive/wait, 2 us work", "cg arrive/wait, 2 us work",
                                         "relaunch graph, 2 us work",
                                         "relaunch graph + PDL, 2 us work", NULL};

static const gs_plot_spec plots[] = {
    {
        .facet = "threads",
        .y = "us_per_step",
        .series = "primitive",
        .xlabel = "blocks in the grid",
        .ylabel = "speedup over grid.sync (log scale)",
        .logy = 2,
        .xformat = "%g",
        .name = "speedup",
        .title = "sync: speedup over cooperative groups grid.sync()",
        .kind = GS_PLOT_RATIO,
        .baseline = "cg grid.sync",
        .style = GS_STYLE_BARS,
        .categories = grid,
        .filter = "primitive",
        .filter_values = no_work,
        .low = "min_us",
        .high = "max_us",
    },
    {
        .facet = "threads",
        .y = "us_per_step",
        .series = "primitive",
        .xlabel = "blocks in the grid",
        .ylabel = "microseconds per step (log scale)",
        .logy = 10,
        .xformat = "%g",
        .name = "time",
        .title = "sync: time per step",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
        .categories = grid,
        .filter = "primitive",
        .filter_values = no_work,
        .low = "min_us",
        .high = "max_us",
    },
    {
        .facet = "threads",
        .y = "us_per_step",
        .series = "primitive",
        .xlabel = "blocks in the grid",
        .ylabel = "microseconds per step",
        .xformat = "%g",
        .name = "split",
        .title = "sync: arrive + W us of work + wait, against the work alone",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_BARS,
        .categories = grid,
        .filter = "primitive",
        .filter_values = split_rows,
        .low = "min_us",
        .high = "max_us",
    },
};

#define PER_STEP(name)            \
    {                             \
        .header = name,           \
        .kind = GS_SUMMARY_VALUE, \
        .column = "us_per_step",  \
        .method = name,           \
        .format = "%.3f",         \
    }
static const gs_summary_column summary_columns[] = {
    {.header = "threads", .kind = GS_SUMMARY_FIELD, .column = "threads", .format = "%.0f"},
    {.header = "blocks", .kind = GS_SUMMARY_FIELD, .column = "blocks", .format = "%.0f"},
    PER_STEP("neighbour 1-D"),
    PER_STEP("neighbour 2-D"),
    PER_STEP("tagged exchange 1-D"),
    PER_STEP("subset of 8"),
    PER_STEP("all-reduce f64"),
    PER_STEP("full barrier"),
    PER_STEP("cg grid.sync"),
    PER_STEP("relaunch graph"),
    PER_STEP("relaunch graph + PDL"),
    {.header = "neighbour vs grid.sync", .kind = GS_SUMMARY_RATIO, .column = "us_per_step",
     .method = "cg grid.sync", .over = "neighbour 1-D", .format = "%.2fx"},
    {.header = "neighbour vs graph", .kind = GS_SUMMARY_RATIO, .column = "us_per_step",
     .method = "relaunch graph", .over = "neighbour 1-D", .format = "%.2fx"},
    {.header = "neighbour vs graph + PDL", .kind = GS_SUMMARY_RATIO, .column = "us_per_step",
     .method = "relaunch graph + PDL", .over = "neighbour 1-D", .format = "%.2fx"},
    {.header = "all-reduce / barrier", .kind = GS_SUMMARY_RATIO, .column = "us_per_step",
     .method = "all-reduce f64", .over = "full barrier", .format = "%.2fx"},
    {.header = "fastest", .kind = GS_SUMMARY_BEST, .column = "us_per_step",
     .among = GS_SUMMARY_EVERY},
    {.header = "best boundary", .kind = GS_SUMMARY_BEST, .column = "us_per_step",
     .among = boundaries},
};

static const gs_summary_spec summary = {
    .intro = "Scoped synchronization, microseconds per step (median), {run}. The neighbour "
        "barrier against the full barriers, the all-reduce against gridsync's full barrier, same "
        "run:",
    .group_by = configuration,
    .pivot = "primitive",
    .filter = "primitive",
    .filter_values = no_work,
    .best_of = ours,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const key[] = {"threads", "blocks", "primitive", NULL};
static const char *const neighbours[] = {"neighbour 1-D", "neighbour 2-D", NULL};
/* The neighbour barriers against `peer_`, steps without work. */
#define AGAINST(peer_)                  \
    {                                   \
        .peer = peer_,                  \
        .metric = "us_per_step",        \
        .group_by = configuration,      \
        .describe = configuration,      \
        .filter = "primitive",          \
        .filter_values = no_work,       \
        .noun = "grids",                \
        .blocks = "blocks",             \
        .ours = neighbours,             \
    }
static const gs_headline headlines[] = {
    AGAINST("cg grid.sync"),
    AGAINST("relaunch graph"),
    AGAINST("relaunch graph + PDL"),
};
static const char *const step_length[] = {"threads", "blocks", "work_us", NULL};
static const gs_pick picks[] = {
    {.header = "fastest method", .among = NULL},
    {.header = "fastest of gridsync's", .among = ours},
    {.header = "best kernel boundary", .among = boundaries},
};
static const gs_pick picks_work[] = {
    {.header = "fastest method", .among = NULL},
    {.header = "fastest of gridsync's", .among = ours},
    {.header = "best kernel boundary", .among = boundaries_work},
};
static const gs_winners winners[] = {
    {
        .title = "Fastest per grid, steps without independent work: a kernel boundary or "
            "synchronization inside the kernel, whichever measured faster here (median time "
            "per step):",
        .group_by = configuration,
        .filter = "primitive",
        .filter_values = no_work,
        .picks = picks,
        .npicks = GS_COUNT(picks),
    },
    {
        .title = "Fastest per grid and step length, steps with W us of independent work "
            "(split arrive/wait, or a kernel boundary with the work in each step's kernel; "
            "with PDL the work, then the trigger and the wait, so that it overlaps the last "
            "step's end):",
        .group_by = step_length,
        .filter = "primitive",
        .filter_values = with_work,
        .picks = picks_work,
        .npicks = GS_COUNT(picks_work),
    },
};
static const gs_column_style styles[] = {
    {.column = "work_us", .label = "work", .format = GS_CELL_AUTO},
    {.column = "us_per_step", .label = "time per step", .format = GS_CELL_AUTO},
    {.column = "min_us", .label = "fastest", .format = GS_CELL_AUTO},
    {.column = "max_us", .label = "slowest", .format = GS_CELL_AUTO},
    {.column = "speedup_vs_cg", .label = "vs cg", .format = GS_CELL_RATIO},
    {.column = "speedup_vs_graph", .label = "vs graph", .format = GS_CELL_RATIO},
    {.column = "speedup_vs_pdl", .label = "vs graph + PDL", .format = GS_CELL_RATIO},
    {.column = "x_full_barrier", .label = "/ full barrier", .format = GS_CELL_RATIO},
    {.column = "x_work", .label = "/ work alone", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "primitive",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_step",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
    .winners = winners,
    .nwinners = GS_COUNT(winners),
};

const gs_bench_suite gs_suite_sync = {
    .name = "sync",
    .help = "microseconds per step of the scoped primitives (neighbour 1-D and 2-D, a tagged-word "
        "exchange with the 1-D neighbours, subset, grid all-reduce, grid scan of block values, split arrive/wait with 0-2 us "
        "of work between) vs gridsync's full barrier, cooperative groups grid.sync() and "
        "barrier_arrive/wait, and relaunch in a CUDA graph, with programmatic dependent launch "
        "(PDL) on a stream and in a graph; the report names the fastest method and the best "
        "kernel boundary per grid and step length",
    .title = "sync: microseconds per step (median)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
