/*
 * describe.c - `gridsync bench scan`, described (results/suite.h): time per
 * call and bandwidth of gridsync's single-pass scan next to CUB DeviceScan
 * and a device-to-device copy; its columns, plots, README table and
 * reading. How it measures: run.cu.
 */
#include "results/suite.h"

static const gs_column columns[] = {
    {.name = "kind", .unit = "",
     .meaning = "inclusive or exclusive sum; copy for the bandwidth row"},
    {.name = "n", .unit = "", .meaning = "elements (float32)"},
    {.name = "method", .unit = "",
     .meaning = "gridsync (gs_scan), cub (DeviceScan::InclusiveSum / ExclusiveSum, temporary "
                "storage allocated once), cudaMemcpy D2D (the same bytes)"},
    {.name = "us_per_call", .unit = "us", .decimals = 3,
     .meaning = "median time per call, back-to-back calls"},
    {.name = "gb_per_s", .unit = "GB/s", .decimals = 1,
     .meaning = "bytes read + written / time (8 bytes per element)"},
    {.name = "frac_copy_bw", .unit = "", .decimals = 3,
     .meaning = "the copy's time / this time: the fraction of copy speed"},
    {.name = "speedup_vs_cub", .unit = "", .decimals = 2,
     .meaning = "CUB's time / this time, same kind"},
};

static const int sizes_default[] = {10, 13, 16, 19, 22, 25, 28, 30};
static const int sizes_quick[] = {10, 16, 22, 28};
static const int sizes_full[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                 21, 22, 23, 24, 25, 26, 27, 28, 29, 30};

static const char *const scan_kinds[] = {"inclusive", "exclusive", NULL};
static const char *const inclusive_only[] = {"inclusive", "copy", NULL};
static const gs_plot_spec scan_plots[] = {
    {
        .facet = "kind",
        .x = "n",
        .y = "us_per_call",
        .series = "method",
        .xlabel = "elements (float32)",
        .ylabel = "speedup over cub",
        .logx = 2,
        .xformat = "2^%L",
        .name = "speedup",
        .title = "scan: speedup over CUB DeviceScan",
        .kind = GS_PLOT_RATIO,
        .baseline = "cub",
        .style = GS_STYLE_LINES,
        .filter = "kind",
        .filter_values = scan_kinds,
    },
    {
        .x = "n",
        .y = "gb_per_s",
        .series = "method",
        .xlabel = "elements (float32)",
        .ylabel = "GB/s read + written",
        .logx = 2,
        .xformat = "2^%L",
        .name = "bandwidth",
        .title = "scan (inclusive sum): bandwidth, with the copy's measured ceiling",
        .kind = GS_PLOT_VALUE,
        .y_rate = 1,
        .style = GS_STYLE_LINES,
        .filter = "kind",
        .filter_values = inclusive_only,
        .ceiling = "cudaMemcpy D2D",
        .env_ceiling = "memory_bandwidth_gbs_theoretical",
        .env_ceiling_label = "datasheet bandwidth",
    },
};

/* README: the inclusive sum per size, against CUB and the copy. */
static const char *const by_size[] = {"n", NULL};
static const char *const inclusive_and_copy[] = {"inclusive", "copy", NULL};
static const char *const scan_trio[] = {"gridsync", "cub", "cudaMemcpy D2D", NULL};
static const gs_summary_column scan_summary_columns[] = {
    {.header = "n", .kind = GS_SUMMARY_FIELD, .column = "n", .format = "2^"},
    {.header = "gridsync us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = "gridsync", .format = "%.2f"},
    {.header = "cub us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = "cub",
     .format = "%.2f"},
    {.header = "copy us", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = "cudaMemcpy D2D", .format = "%.2f"},
    {.header = "gridsync GB/s", .kind = GS_SUMMARY_VALUE, .column = "gb_per_s",
     .method = "gridsync", .format = "%.0f"},
    {.header = "vs cub", .kind = GS_SUMMARY_RATIO, .column = "us_per_call", .method = "cub",
     .over = "gridsync", .format = "%.2fx"},
    {.header = "of copy", .kind = GS_SUMMARY_VALUE, .column = "frac_copy_bw", .method = "gridsync",
     .format = "%.2f"},
};
static const gs_summary_spec scan_summary = {
    .intro = "Float32 inclusive prefix sum, microseconds per call (back-to-back calls), CUB "
        "DeviceScan::InclusiveSum and a device-to-device copy of the same bytes (GB/s counts read "
        "+ write):",
    .group_by = by_size,
    .pivot = "method",
    .filter = "kind",
    .filter_values = inclusive_and_copy,
    .required = scan_trio,
    .columns = scan_summary_columns,
    .ncolumns = GS_COUNT(scan_summary_columns),
};

static const char *const scan_ours[] = {"gridsync", NULL};
static const char *const scan_peers[] = {"cub", "cudaMemcpy D2D", NULL};
static const char *const kind_and_size[] = {"kind", "n", NULL};
static const char *const size_only[] = {"n", NULL};
static const char *const scan_key[] = {"kind", "n", "method", NULL};
static const gs_headline scan_headlines[] = {
    {
        .peer = "cub",
        .metric = "us_per_call",
        .group_by = kind_and_size,
        .describe = size_only,
        .filter = "kind",
        .filter_values = scan_kinds,
        .noun = "sizes",
    },
};
static const gs_column_style scan_styles[] = {
    {.column = "n", .label = "n", .format = GS_CELL_POW2},
    {.column = "us_per_call", .label = "time per call", .format = GS_CELL_AUTO},
    {.column = "gb_per_s", .label = "bandwidth", .format = GS_CELL_AUTO},
    {.column = "frac_copy_bw", .label = "of D2D copy", .format = GS_CELL_PERCENT},
    {.column = "speedup_vs_cub", .label = "vs cub", .format = GS_CELL_RATIO},
};
static const gs_reading scan_reading = {
    .method = "method",
    .ours = scan_ours,
    .peers = scan_peers,
    .key = scan_key,
    .metric = "us_per_call",
    .headlines = scan_headlines,
    .nheadlines = GS_COUNT(scan_headlines),
    .styles = scan_styles,
    .nstyles = GS_COUNT(scan_styles),
};

const gs_bench_suite gs_suite_scan = {
    .name = "scan",
    .help = "float32 inclusive and exclusive prefix sums per call and GB/s (read + write): "
        "gridsync's single pass vs CUB DeviceScan and a device-to-device copy of the same bytes",
    .title = "scan: float32 prefix sums, microseconds per call (median of back-to-back calls)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .sizes = {
        [GS_PRESET_DEFAULT] = GS_SIZES(sizes_default),
        [GS_PRESET_QUICK] = GS_SIZES(sizes_quick),
        [GS_PRESET_FULL] = GS_SIZES(sizes_full),
    },
    .min_gpus = 1,
    .plots = scan_plots,
    .nplots = GS_COUNT(scan_plots),
    .summary = &scan_summary,
    .reading = &scan_reading,
};
