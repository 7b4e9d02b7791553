/*
 * describe.c - `gridsync bench handoff`, described (results/suite.h): what a
 * dependency between blocks costs, from the post to the waiting task's first
 * instruction: a chain of tasks through the blocks of a grid (task i on
 * block i mod G waits for task i - 1), gridsync's task runtime next to the
 * same chain on gridsync's signals and a chain of kernels in a CUDA graph
 * with programmatic dependent launch (each kernel boundary is the hand-off).
 * How it measures: run.cu.
 */
#include "results/suite.h"

#define TASKS "gridsync tasks"
#define SIGNALS "gridsync signals"
#define GRAPH_PDL "kernels, graph + PDL"

static const gs_column columns[] = {
    {.name = "blocks", .unit = "", .meaning = "blocks of the grid the chain goes through"},
    {.name = "method", .unit = "",
     .meaning = TASKS " (gs_task_next / gs_task_end), " SIGNALS
                " (gs_block_signal_wait / gs_block_signal_store), " GRAPH_PDL
                " (a kernel a hand-off, launch_dependents at its top, griddepcontrol.wait)"},
    {.name = "us_per_handoff", .unit = "us", .decimals = 3,
     .meaning = "median time of the chain / its hand-offs"},
    {.name = "vs_pdl", .unit = "", .decimals = 2,
     .meaning = "the PDL graph's time per hand-off / this one's"},
};

static const char *const by_blocks[] = {"blocks", NULL};
static const gs_plot_spec plots[] = {
    {
        .x = "blocks",
        .y = "us_per_handoff",
        .series = "method",
        .xlabel = "blocks in the grid",
        .ylabel = "us per hand-off",
        .logx = 2,
        .xformat = "%g",
        .name = "latency",
        .title = "handoff: a dependency from one block to the next, post to first instruction",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
    },
};

static const gs_summary_column summary_columns[] = {
    {.header = "blocks", .kind = GS_SUMMARY_FIELD, .column = "blocks", .format = "%.0f"},
    {.header = "tasks us", .kind = GS_SUMMARY_VALUE, .column = "us_per_handoff", .method = TASKS,
     .format = "%.3f"},
    {.header = "signals us", .kind = GS_SUMMARY_VALUE, .column = "us_per_handoff",
     .method = SIGNALS, .format = "%.3f"},
    {.header = "graph + PDL us", .kind = GS_SUMMARY_VALUE, .column = "us_per_handoff",
     .method = GRAPH_PDL, .format = "%.3f"},
    {.header = "tasks vs PDL", .kind = GS_SUMMARY_RATIO, .column = "us_per_handoff",
     .method = GRAPH_PDL, .over = TASKS, .format = "%.2fx"},
};
static const char *const required[] = {TASKS, GRAPH_PDL, NULL};
static const gs_summary_spec summary = {
    .intro = "A dependency hand-off between blocks, post to the waiting task's first "
        "instruction, microseconds (a chain of 8192 through the grid):",
    .group_by = by_blocks,
    .pivot = "method",
    .required = required,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const ours[] = {TASKS, SIGNALS, NULL};
static const char *const peers[] = {GRAPH_PDL, NULL};
static const char *const key[] = {"blocks", "method", NULL};
static const gs_headline headlines[] = {
    {
        .peer = GRAPH_PDL,
        .metric = "us_per_handoff",
        .group_by = by_blocks,
        .describe = by_blocks,
        .noun = "grid sizes",
    },
};
static const gs_column_style styles[] = {
    {.column = "us_per_handoff", .label = "per hand-off", .format = GS_CELL_AUTO},
    {.column = "vs_pdl", .label = "vs graph + PDL", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_handoff",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_handoff = {
    .name = "handoff",
    .help = "a dependency between blocks, post to the waiting task's first instruction, per grid "
        "size: gridsync's task runtime and signals vs a chain of kernels in a CUDA graph with "
        "programmatic dependent launch",
    .title = "handoff: a chain of dependent tasks through the grid, us per hand-off",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
