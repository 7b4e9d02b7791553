/*
 * describe.c - `gridsync bench gemm`, described (results/suite.h): FP32
 * matrix multiply, gridsync's kernels next to cuBLAS; its columns, plots,
 * README table and reading. How it measures: run.cu.
 */
#include "results/suite.h"
#include "suites/gemm/methods.h"

static const gs_column columns[] = {
    {.name = "m", .unit = "", .meaning = "rows of A and C"},
    {.name = "n", .unit = "", .meaning = "columns of B and C"},
    {.name = "k", .unit = "", .meaning = "columns of A, rows of B"},
    {.name = "method", .unit = "",
     .meaning = "gridsync, cublas, " TUTORIAL ", " UNSPLIT " (where gridsync splits k), " SPLITK
                " (where gridsync takes stream-k)"},
    {.name = "tile", .unit = "",
     .meaning = "gridsync's block tile of C, rows x columns (128x256: the wide tile)"},
    {.name = "schedule", .unit = "",
     .meaning = "gridsync's schedule: unsplit, split-k or stream-k"},
    {.name = "splits", .unit = "", .meaning = "gridsync's k slices (1: unsplit or stream-k)"},
    {.name = "ms_per_call", .unit = "ms", .decimals = 4, .meaning = "median time per call"},
    {.name = "tflop_s", .unit = "TFLOP/s", .decimals = 2, .meaning = "2mnk / time"},
    {.name = "frac_fp32_peak", .unit = "", .decimals = 3,
     .meaning = "of SMs x 128 x 2 x the maximum SM clock"},
    {.name = "speedup_vs_peer", .unit = "", .decimals = 2, .meaning = "cuBLAS time / this time"},
};

static const int sizes_default[] = {9, 10, 11, 12, 13};
static const int sizes_quick[] = {10, 12};
static const int sizes_full[] = {8, 9, 10, 11, 12, 13, 14};

static const char *const shape[] = {"m", "n", "k", NULL};

static const gs_plot_spec plots[] = {
    {
        .y = "tflop_s",
        .series = "method",
        .xlabel = "m x n x k",
        .ylabel = "throughput relative to cuBLAS",
        .xformat = "%g",
        .name = "speedup",
        .title = "gemm: throughput relative to cuBLAS (pedantic FP32)",
        .kind = GS_PLOT_RATIO,
        .baseline = "cublas",
        .y_rate = 1,
        .style = GS_STYLE_BARS,
        .categories = shape,
        .category_sep = "x",
    },
    {
        .x = "n",
        .y = "tflop_s",
        .series = "method",
        .xlabel = "square size n (m = n = k)",
        .ylabel = "TFLOP/s (FP32)",
        .logx = 2,
        .xformat = "2^%L",
        .same = shape,
        .subset = "square shapes",
        .name = "tflops",
        .title = "gemm: TFLOP/s on square shapes",
        .kind = GS_PLOT_VALUE,
        .y_rate = 1,
        .style = GS_STYLE_LINES,
    },
};

static const char *const pair[] = {"gridsync", "cublas", NULL};
static const gs_summary_column summary_columns[] = {
    {.header = "m x n x k", .kind = GS_SUMMARY_SHAPE},
    {.header = "gridsync", .kind = GS_SUMMARY_VALUE, .column = "tflop_s", .method = "gridsync",
     .format = "%.2f"},
    {.header = "cuBLAS", .kind = GS_SUMMARY_VALUE, .column = "tflop_s", .method = "cublas",
     .format = "%.2f"},
    {.header = "tutorial 16x16", .kind = GS_SUMMARY_VALUE, .column = "tflop_s", .method = TUTORIAL,
     .format = "%.2f"},
    {.header = "vs cuBLAS", .kind = GS_SUMMARY_RATIO, .column = "tflop_s", .method = "gridsync",
     .over = "cublas", .format = "%.2fx"},
};

/* What results files before the tutorials had names called it. */
static const gs_renamed renamed[] = {
    {.old_name = "seed tiled16", .name = TUTORIAL},
    {},
};

static const gs_summary_spec summary = {
    .intro = "FP32 matrix multiply, TFLOP/s (cuBLAS SGEMM in pedantic FP32 mode, no TF32; the "
        "tiled matrix-multiply tutorial's 16x16 kernel):",
    .group_by = shape,
    .pivot = "method",
    .required = pair,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const ours[] = {"gridsync", UNSPLIT, SPLITK, NULL};
static const char *const ours_auto[] = {"gridsync", NULL};
static const char *const peers[] = {"cublas", TUTORIAL, NULL};
static const char *const key[] = {"m", "n", "k", "method", NULL};
static const gs_headline headlines[] = {
    {
        .peer = "cublas",
        .metric = "tflop_s",
        .higher_is_better = 1,
        .group_by = shape,
        .describe = shape,
        .noun = "shapes",
        .ours = ours_auto,
    },
};
static const gs_column_style styles[] = {
    {.column = "ms_per_call", .label = "time per call", .format = GS_CELL_AUTO},
    {.column = "tflop_s", .label = "throughput", .format = GS_CELL_AUTO},
    {.column = "splits", .label = "k slices", .format = GS_CELL_AUTO},
    {.column = "frac_fp32_peak", .label = "of FP32 peak", .format = GS_CELL_PERCENT},
    {.column = "speedup_vs_peer", .label = "vs cuBLAS", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "ms_per_call",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_gemm = {
    .name = "gemm",
    .help = "FP32 matrix multiply, TFLOP/s: gridsync vs cuBLAS SGEMM (pedantic FP32, no TF32) and "
        "the tiled matrix-multiply tutorial's 16x16 kernel, on square shapes (n up to 2^15) and, "
        "unless --sizes or --quick is given, four non-square ones and 1536^3; where gridsync "
        "splits k or takes stream-k, its unsplit kernel too, and where it takes stream-k, its "
        "best split",
    .title = "gemm: FP32 C = A B (row-major), TFLOP/s; cuBLAS in pedantic FP32 mode",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .sizes = {
        [GS_PRESET_DEFAULT] = GS_SIZES(sizes_default),
        [GS_PRESET_QUICK] = GS_SIZES(sizes_quick),
        [GS_PRESET_FULL] = GS_SIZES(sizes_full),
    },
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .renamed = renamed,
    .reading = &reading,
};
