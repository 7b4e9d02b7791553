/*
 * describe.c - `gridsync bench multi`, described (results/suite.h): GPUs
 * meeting (cross-GPU barrier latency against NCCL's device-API barrier, an
 * all-reduce of one word and host stream sync) and reducing together, in
 * one process and in two; its columns, plots, README table and reading.
 * How it measures: run.cu.
 */
#include "results/suite.h"
#include "suites/multi/methods.h"

static const gs_column columns[] = {
    {.name = "gpus", .unit = "", .meaning = "GPUs meeting (0 .. g-1)"},
    {.name = "what", .unit = "", .meaning = "barrier, or reduce 2^28/GPU"},
    {.name = "method", .unit = "",
     .meaning = "one process driving every GPU: gridsync p2p, nccl lsa barrier (device API; "
                "absent where the NCCL has none), nccl allreduce 1 word, host stream sync; "
                "gs_reduce_sum, 1 GPU and gs_multi_reduce_sum. Two processes of one GPU each: "
                "the same names with \", 2 processes\" (no host stream sync, no one-GPU row)"},
    {.name = "blocks_per_gpu", .unit = "", .meaning = "the grid on each GPU (p2p and lsa rows)"},
    {.name = "us", .unit = "us", .decimals = 3, .meaning = "median time per barrier, or per call"},
    {.name = "gb_per_s", .unit = "GB/s", .decimals = 1,
     .meaning = "reduce rows: input read, all GPUs"},
    {.name = "speedup", .unit = "", .decimals = 2,
     .meaning = "barrier: the all-reduce's time (of the same number of processes) / this time; "
                "reduce: against one GPU"},
};

static const gs_summary_column summary_columns[] = {
    {.header = "GPUs", .kind = GS_SUMMARY_FIELD, .column = "gpus", .format = "%.0f"},
    {.header = "what", .kind = GS_SUMMARY_FIELD, .column = "what"},
    {.header = "method", .kind = GS_SUMMARY_FIELD, .column = "method"},
    {.header = "blocks per GPU", .kind = GS_SUMMARY_FIELD, .column = "blocks_per_gpu",
     .format = "%.0f"},
    {.header = "us", .kind = GS_SUMMARY_FIELD, .column = "us", .format = "%.2f"},
    {.header = "GB/s", .kind = GS_SUMMARY_FIELD, .column = "gb_per_s", .format = "%.0f"},
    {.header = "vs peer", .kind = GS_SUMMARY_FIELD, .column = "speedup", .format = "%.2fx"},
};

static const gs_summary_spec summary = {
    .intro = "Across GPUs (NCCL for the peers; the methods ending in \"2 processes\" ran in two "
        "processes of one GPU each, the others in one process driving every GPU; barrier rows in "
        "microseconds per barrier, reduction rows in microseconds per call at 2^28 floats per "
        "GPU):",
    .pivot = "method",
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const ours[] = {P2P, ONE_GPU, MULTI_REDUCE, P2P TWO_PROCESSES,
                                   MULTI_REDUCE TWO_PROCESSES, NULL};
static const char *const peers[] = {LSA, ALLREDUCE, HOST_SYNC, LSA TWO_PROCESSES,
                                    ALLREDUCE TWO_PROCESSES, NULL};
static const char *const key[] = {"gpus", "what", "method", "blocks_per_gpu", NULL};
static const char *const barrier_what[] = {BARRIER, NULL};
static const char *const reduce_what[] = {REDUCE, NULL};
static const char *const group[] = {"gpus", "what", NULL};
static const char *const group_grid[] = {"gpus", "what", "blocks_per_gpu", NULL};
static const char *const where_barrier[] = {"gpus", "blocks_per_gpu", NULL};
static const char *const where_reduce[] = {"gpus", NULL};
static const char *const p2p[] = {P2P, NULL};
static const char *const p2p_two[] = {P2P TWO_PROCESSES, NULL};
static const char *const all_gpus[] = {MULTI_REDUCE, MULTI_REDUCE TWO_PROCESSES, NULL};
static const char *const method_and_grid[] = {"method", "blocks_per_gpu", NULL};
static const char *const method_only[] = {"method", NULL};
static const gs_headline headlines[] = {
    {
        .peer = ALLREDUCE,
        .metric = "us",
        .group_by = group,
        .describe = where_barrier,
        .filter = "what",
        .filter_values = barrier_what,
        .noun = "grids",
        .each = 1,
        .ours = p2p,
    },
    {
        .peer = ALLREDUCE TWO_PROCESSES,
        .metric = "us",
        .group_by = group,
        .describe = where_barrier,
        .filter = "what",
        .filter_values = barrier_what,
        .noun = "grids",
        .each = 1,
        .ours = p2p_two,
    },
    /* what a second process costs the same barrier, grid by grid */
    {
        .peer = P2P,
        .metric = "us",
        .group_by = group_grid,
        .describe = where_barrier,
        .filter = "what",
        .filter_values = barrier_what,
        .noun = "grids",
        .each = 1,
        .ours = p2p_two,
    },
    {
        .peer = ONE_GPU,
        .metric = "gb_per_s",
        .higher_is_better = 1,
        .group_by = group,
        .describe = where_reduce,
        .filter = "what",
        .filter_values = reduce_what,
        .noun = "GPU counts",
        .each = 1,
        .ours = all_gpus,
    },
};
static const gs_column_style styles[] = {
    {.column = "gpus", .label = "GPUs", .format = GS_CELL_AUTO},
    {.column = "blocks_per_gpu", .label = "blocks/GPU", .format = GS_CELL_AUTO},
    {.column = "us", .label = "time", .format = GS_CELL_AUTO},
    {.column = "gb_per_s", .label = "bandwidth", .format = GS_CELL_AUTO},
    {.column = "speedup", .label = "vs peer", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

static const gs_plot_spec plots[] = {
    /* how each method grows with the GPU count, a picture per grid (the
     * methods without a grid, NCCL's all-reduce and the host's sync, are in
     * the table and the per-GPU-count pictures) */
    {
        .facet = "blocks_per_gpu",
        .x = "gpus",
        .y = "us",
        .series = "method",
        .xlabel = "GPUs",
        .ylabel = "microseconds per barrier (log scale)",
        .logy = 10,
        .xformat = "%g",
        .name = "barrier-scaling",
        .title = "multi: time for all GPUs to meet, by GPU count",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
        .filter = "what",
        .filter_values = barrier_what,
    },
    {
        .x = "gpus",
        .y = "gb_per_s",
        .series = "method",
        .xlabel = "GPUs",
        .ylabel = "GB/s read, all GPUs",
        .xformat = "%g",
        .name = "reduce-scaling",
        .title = "multi: sum of 2^28 floats per GPU, by GPU count",
        .kind = GS_PLOT_VALUE,
        .y_rate = 1,
        .style = GS_STYLE_LINES,
        .filter = "what",
        .filter_values = reduce_what,
    },
    {
        .facet = "gpus",
        .y = "us",
        .xlabel = "method (blocks per GPU)",
        .ylabel = "microseconds per barrier",
        .xformat = "%g",
        .name = "barrier",
        .title = "multi: time for all GPUs to meet",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_BARS,
        .categories = method_and_grid,
        .filter = "what",
        .filter_values = barrier_what,
    },
    {
        .facet = "gpus",
        .y = "gb_per_s",
        .xlabel = "method",
        .ylabel = "GB/s read, all GPUs",
        .xformat = "%g",
        .name = "reduce",
        .title = "multi: sum of 2^28 floats per GPU",
        .kind = GS_PLOT_VALUE,
        .y_rate = 1,
        .style = GS_STYLE_BARS,
        .categories = method_only,
        .filter = "what",
        .filter_values = reduce_what,
    },
};

const gs_bench_suite gs_suite_multi = {
    .name = "multi",
    .help = "several GPUs (2 or more; built with NCCL): cross-GPU barrier latency vs NCCL's "
        "device-API barrier, an NCCL all-reduce of one word and host-side stream sync; reduction "
        "bandwidth of 2^28 floats per GPU vs one GPU; one process driving every GPU, then two "
        "processes of one GPU each (the program starts itself again as the second)",
    .title = "multi: GPUs meeting (us per barrier) and reducing together (2^28 floats per GPU)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 2,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
