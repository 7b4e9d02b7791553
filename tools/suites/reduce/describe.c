/*
 * describe.c - `gridsync bench reduce` and `gridsync bench dot`, described
 * (results/suite.h): time per call and bandwidth of gridsync's single-pass
 * reduction and dot product next to CUB DeviceReduce, cuBLAS Sdot and the
 * tutorials' kernels; their columns (one table shape for both), plots,
 * README tables and readings. How they measure: run.cu.
 */
#include "results/suite.h"
#include "suites/reduce/methods.h"

static const gs_column columns[] = {
    {.name = "op", .unit = "",
     .meaning = "sum, min, max (reduce), dot (dot); copy for the bandwidth row"},
    {.name = "n", .unit = "", .meaning = "elements (per vector)"},
    {.name = "method", .unit = "",
     .meaning = "gridsync; the peer: cub (reduce), cublas (dot); the tutorial's kernel: "
                TUTORIAL_SUM " (reduce), " TUTORIAL_DOT " (dot); for reduce's sum also gridsync "
                "grid-barrier (the persistent variant)"},
    {.name = "us_per_call", .unit = "us", .decimals = 3,
     .meaning = "median time per call, back-to-back calls"},
    {.name = "gb_per_s", .unit = "GB/s", .decimals = 1, .meaning = "bytes read / time"},
    {.name = "frac_copy_bw", .unit = "", .decimals = 3,
     .meaning = "this bandwidth over a device-to-device copy's in the same run (read + write); a "
                "pass that only reads can pass 1"},
    {.name = "frac_spec_bw", .unit = "", .decimals = 3, .meaning = "of the datasheet bandwidth"},
    {.name = "speedup_vs_peer", .unit = "", .decimals = 2,
     .meaning = "the peer's time / this time"},
};

static const int sizes_default[] = {10, 13, 16, 19, 22, 25, 28, 30};
static const int sizes_quick[] = {10, 16, 22, 28};
static const int sizes_full[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                 21, 22, 23, 24, 25, 26, 27, 28, 29, 30};

static const char *const reduce_ops[] = {"sum", "min", "max", NULL};
static const char *const only_sum[] = {"sum", NULL};
static const char *const only_dot[] = {"dot", NULL};

/* What both suites plot, of `ops` (and `one` of them for time and
 * bandwidth), against `peer`. */
#define SPEEDUP_PLOT(facet_, ops, peer, xlabel_, title_) \
    {                                                    \
        .facet = facet_,                                 \
        .x = "n",                                        \
        .y = "us_per_call",                              \
        .series = "method",                              \
        .xlabel = xlabel_,                               \
        .ylabel = "speedup over " peer,                  \
        .logx = 2,                                       \
        .xformat = "2^%L",                               \
        .name = "speedup",                               \
        .title = title_,                                 \
        .kind = GS_PLOT_RATIO,                           \
        .baseline = peer,                                \
        .style = GS_STYLE_LINES,                         \
        .filter = "op",                                  \
        .filter_values = ops,                            \
    }
#define LATENCY_PLOT(one, xlabel_, title_) \
    {                                      \
        .x = "n",                          \
        .y = "us_per_call",                \
        .series = "method",                \
        .xlabel = xlabel_,                 \
        .ylabel = "microseconds per call", \
        .logx = 2,                         \
        .xformat = "2^%L",                 \
        .name = "latency",                 \
        .title = title_,                   \
        .kind = GS_PLOT_VALUE,             \
        .style = GS_STYLE_LINES,           \
        .filter = "op",                    \
        .filter_values = one,              \
        .xmax = (double)(1 << 22),         \
    }
#define BANDWIDTH_PLOT(one, xlabel_, title_)               \
    {                                                      \
        .x = "n",                                          \
        .y = "gb_per_s",                                   \
        .series = "method",                                \
        .xlabel = xlabel_,                                 \
        .ylabel = "GB/s read",                             \
        .logx = 2,                                         \
        .xformat = "2^%L",                                 \
        .name = "bandwidth",                               \
        .title = title_,                                   \
        .kind = GS_PLOT_VALUE,                             \
        .y_rate = 1,                                       \
        .style = GS_STYLE_LINES,                           \
        .filter = "op",                                    \
        .filter_values = one,                              \
        .ceiling = COPY_ROW,                               \
        .env_ceiling = "memory_bandwidth_gbs_theoretical", \
        .env_ceiling_label = "datasheet bandwidth",        \
    }

static const gs_plot_spec reduce_plots[] = {
    SPEEDUP_PLOT("op", reduce_ops, "cub", "elements (float32)",
                 "reduce: speedup over CUB DeviceReduce"),
    LATENCY_PLOT(only_sum, "elements (float32)", "reduce (sum): time per call up to 2^22"),
    BANDWIDTH_PLOT(only_sum, "elements (float32)",
                   "reduce (sum): bandwidth, with the copy's measured ceiling"),
};
static const gs_plot_spec dot_plots[] = {
    SPEEDUP_PLOT(NULL, only_dot, "cublas", "elements per vector (float32)",
                 "dot: speedup over cuBLAS Sdot"),
    LATENCY_PLOT(only_dot, "elements per vector (float32)", "dot: time per call up to 2^22"),
    BANDWIDTH_PLOT(only_dot, "elements per vector (float32)",
                   "dot: bandwidth, with the copy's measured ceiling"),
};

/* README: the sum (dot) rows per size, ours against the peer and the tutorial. */
static const char *const by_size[] = {"n", NULL};
static const char *const sum_and_dot[] = {"sum", "dot", NULL};
static const char *const reduce_pair[] = {"gridsync", "cub", NULL};
static const char *const dot_pair[] = {"gridsync", "cublas", NULL};

static const gs_summary_column reduce_summary_columns[] = {
    {.header = "n", .kind = GS_SUMMARY_FIELD, .column = "n", .format = "2^"},
    {.header = "gridsync us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = "gridsync", .format = "%.2f"},
    {.header = "cub us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = "cub",
     .format = "%.2f"},
    {.header = "tutorial us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = TUTORIAL_SUM, .format = "%.2f"},
    {.header = "gridsync GB/s", .kind = GS_SUMMARY_VALUE, .column = "gb_per_s",
     .method = "gridsync", .format = "%.0f"},
    {.header = "vs cub", .kind = GS_SUMMARY_RATIO, .column = "us_per_call", .method = "cub",
     .over = "gridsync", .format = "%.2fx"},
};
static const gs_summary_column dot_summary_columns[] = {
    {.header = "n", .kind = GS_SUMMARY_FIELD, .column = "n", .format = "2^"},
    {.header = "gridsync us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = "gridsync", .format = "%.2f"},
    {.header = "cublas us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = "cublas",
     .format = "%.2f"},
    {.header = "tutorial us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = TUTORIAL_DOT, .format = "%.2f"},
    {.header = "gridsync GB/s", .kind = GS_SUMMARY_VALUE, .column = "gb_per_s",
     .method = "gridsync", .format = "%.0f"},
    {.header = "vs cublas", .kind = GS_SUMMARY_RATIO, .column = "us_per_call", .method = "cublas",
     .over = "gridsync", .format = "%.2fx"},
};

/* What results files before the tutorials had names called them. */
static const gs_renamed reduce_renamed[] = {
    {.old_name = "seed 001", .name = TUTORIAL_SUM},
    {},
};
static const gs_renamed dot_renamed[] = {
    {.old_name = "seed 004 (host sum)", .name = TUTORIAL_DOT},
    {},
};

static const gs_summary_spec reduce_summary = {
    .intro = "Float32 sum, microseconds per call (back-to-back calls), CUB DeviceReduce::Sum and "
        "the __threadfence() tutorial's single pass:",
    .group_by = by_size,
    .pivot = "method",
    .filter = "op",
    .filter_values = sum_and_dot,
    .required = reduce_pair,
    .columns = reduce_summary_columns,
    .ncolumns = GS_COUNT(reduce_summary_columns),
};
static const gs_summary_spec dot_summary = {
    .intro = "Float32 dot product, microseconds per call, cuBLAS Sdot and CUDA by Example's dot "
        "(32 blocks, host sum):",
    .group_by = by_size,
    .pivot = "method",
    .filter = "op",
    .filter_values = sum_and_dot,
    .required = dot_pair,
    .columns = dot_summary_columns,
    .ncolumns = GS_COUNT(dot_summary_columns),
};

static const char *const reduce_ours[] = {"gridsync", "gridsync grid-barrier", NULL};
static const char *const dot_ours[] = {"gridsync", NULL};
static const char *const the_call[] = {"gridsync", NULL};
static const char *const reduce_peers[] = {"cub", TUTORIAL_SUM, NULL};
static const char *const dot_peers[] = {"cublas", TUTORIAL_DOT, NULL};
static const char *const op_and_size[] = {"op", "n", NULL};
static const char *const size_only[] = {"n", NULL};
static const char *const key[] = {"op", "n", "method", NULL};
static const gs_headline reduce_headlines[] = {
    {
        .peer = "cub",
        .metric = "us_per_call",
        .group_by = op_and_size,
        .describe = size_only,
        .filter = "op",
        .filter_values = only_sum,
        .noun = "sizes",
        .ours = the_call,
    },
};
static const gs_headline dot_headlines[] = {
    {
        .peer = "cublas",
        .metric = "us_per_call",
        .group_by = op_and_size,
        .describe = size_only,
        .filter = "op",
        .filter_values = only_dot,
        .noun = "sizes",
        .ours = the_call,
    },
};
static const gs_column_style styles[] = {
    {.column = "n", .label = "n", .format = GS_CELL_POW2},
    {.column = "us_per_call", .label = "time per call", .format = GS_CELL_AUTO},
    {.column = "gb_per_s", .label = "bandwidth", .format = GS_CELL_AUTO},
    {.column = "frac_copy_bw", .label = "of D2D copy", .format = GS_CELL_PERCENT},
    {.column = "frac_spec_bw", .label = "of datasheet", .format = GS_CELL_PERCENT},
    {.column = "speedup_vs_peer", .label = "vs peer", .format = GS_CELL_RATIO},
};
static const gs_reading reduce_reading = {
    .method = "method",
    .ours = reduce_ours,
    .peers = reduce_peers,
    .key = key,
    .metric = "us_per_call",
    .headlines = reduce_headlines,
    .nheadlines = GS_COUNT(reduce_headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};
static const gs_reading dot_reading = {
    .method = "method",
    .ours = dot_ours,
    .peers = dot_peers,
    .key = key,
    .metric = "us_per_call",
    .headlines = dot_headlines,
    .nheadlines = GS_COUNT(dot_headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_reduce = {
    .name = "reduce",
    .help = "float32 sum/min/max per call and GB/s: gridsync vs CUB DeviceReduce and the "
        "__threadfence() tutorial's single-pass sum",
    .title = "reduce: float32, microseconds per call (median of back-to-back calls)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .sizes = {
        [GS_PRESET_DEFAULT] = GS_SIZES(sizes_default),
        [GS_PRESET_QUICK] = GS_SIZES(sizes_quick),
        [GS_PRESET_FULL] = GS_SIZES(sizes_full),
    },
    .min_gpus = 1,
    .plots = reduce_plots,
    .nplots = GS_COUNT(reduce_plots),
    .summary = &reduce_summary,
    .renamed = reduce_renamed,
    .reading = &reduce_reading,
};

const gs_bench_suite gs_suite_dot = {
    .name = "dot",
    .help = "float32 dot product: gridsync vs cuBLAS Sdot and CUDA by Example's dot (32 blocks, "
        "the host adds their sums)",
    .title = "dot: float32, microseconds per call (median of back-to-back calls)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .sizes = {
        [GS_PRESET_DEFAULT] = GS_SIZES(sizes_default),
        [GS_PRESET_QUICK] = GS_SIZES(sizes_quick),
        [GS_PRESET_FULL] = GS_SIZES(sizes_full),
    },
    .min_gpus = 1,
    .plots = dot_plots,
    .nplots = GS_COUNT(dot_plots),
    .summary = &dot_summary,
    .renamed = dot_renamed,
    .reading = &dot_reading,
};
