/*
 * describe.c - the `python` suite, described (results/suite.h): what a
 * Python user gets per call, the float32 scan and sum of the Python package
 * (python/) on torch tensors next to torch.cumsum, cupy.cumsum and
 * torch.sum, and the bare C calls through ctypes (the Python layer's cost
 * is the host time over theirs). Its rows are measured elsewhere, by
 * `python -m gridsync.bench --json FILE` (python/src/gridsync/bench.py,
 * python/README.md "Bench"): gridsync bench does not run it (run.c). The
 * method names below are the texts bench.py writes.
 */
#include "results/suite.h"

#define TORCH_SCAN "torch.cumsum"
#define CUPY_SCAN "cupy.cumsum"
#define GS_SCAN "gridsync.scan"
#define GS_SCAN_OUT "gridsync.scan out="
#define C_SCAN "C gs_scan via ctypes"
#define TORCH_SUM "torch.sum"
#define GS_SUM "gridsync.reduce"
#define GS_SUM_OUT "gridsync.reduce out="
#define C_SUM "C gs_reduce_sum via ctypes"

static const gs_column columns[] = {
    {.name = "op", .unit = "", .meaning = "scan (inclusive float32 prefix sum) or sum"},
    {.name = "n", .unit = "", .meaning = "elements (float32)"},
    {.name = "method", .unit = "",
     .meaning = TORCH_SCAN ", " CUPY_SCAN ", " GS_SCAN " (allocating its output, as cumsum does), "
                GS_SCAN_OUT " (preallocated), " C_SCAN " (the bare C call); " TORCH_SUM ", "
                GS_SUM " (allocating), " GS_SUM_OUT ", " C_SUM},
    {.name = "us_per_call", .unit = "us", .decimals = 3,
     .meaning = "median GPU time per call, back-to-back calls on torch's current stream (CUDA "
                "events)"},
    {.name = "host_us_per_call", .unit = "us", .decimals = 3,
     .meaning = "median host time to issue one call (perf_counter around the same calls)"},
    {.name = "speedup_vs_torch", .unit = "", .decimals = 2,
     .meaning = "torch's time (torch.cumsum or torch.sum, same op and n) / this time"},
    {.name = "overhead_us", .unit = "us", .decimals = 3,
     .meaning = "gridsync rows: host time per call minus the bare C call's, the Python layer's "
                "cost, measured side by side (alternating bursts of each, the median of the "
                "pairs' differences); others: null"},
    {.name = "errors", .unit = "",
     .meaning = "gridsync rows: 1 if the result broke the library's FP32 error bound against "
                "FP64, else 0; peers: null"},
};

static const gs_plot_spec plots[] = {
    {
        .facet = "op",
        .x = "n",
        .y = "us_per_call",
        .series = "method",
        .xlabel = "elements (float32)",
        .ylabel = "us per call (GPU)",
        .logx = 2,
        .logy = 10,
        .xformat = "2^%L",
        .name = "time",
        .title = "python: GPU time per call from Python, back-to-back calls",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
    },
    {
        .facet = "op",
        .x = "n",
        .y = "host_us_per_call",
        .series = "method",
        .xlabel = "elements (float32)",
        .ylabel = "us per call (host, to issue it)",
        .logx = 2,
        .xformat = "2^%L",
        .name = "host",
        .title = "python: host time to issue one call (the Python layer over the bare C call)",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_LINES,
    },
};

/* README: issue 46's table, and the ratios its targets are stated in. */
static const char *const by_size[] = {"n", NULL};
static const char *const required[] = {TORCH_SCAN, GS_SCAN, TORCH_SUM, GS_SUM, NULL};
static const gs_summary_column summary_columns[] = {
    {.header = "n (f32)", .kind = GS_SUMMARY_FIELD, .column = "n", .format = "2^"},
    {.header = TORCH_SCAN, .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = TORCH_SCAN, .format = "%.1f"},
    {.header = CUPY_SCAN, .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = CUPY_SCAN,
     .format = "%.1f"},
    {.header = GS_SCAN, .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = GS_SCAN,
     .format = "%.1f"},
    {.header = "C gs_scan", .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = C_SCAN,
     .format = "%.1f"},
    {.header = TORCH_SUM, .kind = GS_SUMMARY_VALUE, .column = "us_per_call", .method = TORCH_SUM,
     .format = "%.1f"},
    {.header = "gridsync.reduce sum", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = GS_SUM, .format = "%.1f"},
    {.header = "C gs_reduce_sum", .kind = GS_SUMMARY_VALUE, .column = "us_per_call",
     .method = C_SUM, .format = "%.1f"},
    {.header = "scan / cumsum", .kind = GS_SUMMARY_RATIO, .column = "us_per_call",
     .method = GS_SCAN, .over = TORCH_SCAN, .format = "%.2fx"},
    {.header = "reduce / sum", .kind = GS_SUMMARY_RATIO, .column = "us_per_call",
     .method = GS_SUM, .over = TORCH_SUM, .format = "%.2fx"},
    {.header = "Python layer us, scan", .kind = GS_SUMMARY_VALUE, .column = "overhead_us",
     .method = GS_SCAN, .format = "%.2f"},
    {.header = "Python layer us, reduce", .kind = GS_SUMMARY_VALUE, .column = "overhead_us",
     .method = GS_SUM, .format = "%.2f"},
};
static const gs_summary_spec summary = {
    .intro = "From Python (`python -m gridsync.bench`), float32 on torch tensors, microseconds per "
        "call (GPU time, back-to-back calls), {run}. gridsync's calls allocate their output as "
        "torch's do; the C columns are the bare library calls through ctypes; the ratios are "
        "gridsync's time over torch's (below 1: faster), the Python layer the host time per call "
        "over the bare C call's, measured side by side (at 2^28, with the GPU busy 250-550 us a "
        "call, a noisy figure):",
    .group_by = by_size,
    .pivot = "method",
    .required = required,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
};

static const char *const ours[] = {GS_SCAN, GS_SCAN_OUT, C_SCAN, GS_SUM, GS_SUM_OUT, C_SUM, NULL};
static const char *const peers[] = {TORCH_SCAN, CUPY_SCAN, TORCH_SUM, NULL};
static const char *const key[] = {"op", "n", "method", NULL};
static const char *const op_and_size[] = {"op", "n", NULL};
static const char *const size_only[] = {"n", NULL};
static const char *const scans[] = {"scan", NULL};
static const char *const sums[] = {"sum", NULL};
static const char *const python_scan[] = {GS_SCAN, NULL};
static const char *const python_sum[] = {GS_SUM, NULL};
/* The Python call (as a user writes it: allocating) against torch's, per size. */
#define AGAINST_TORCH(peer_, ops, ours_)  \
    {                                     \
        .peer = peer_,                    \
        .metric = "us_per_call",          \
        .group_by = op_and_size,          \
        .describe = size_only,            \
        .filter = "op",                   \
        .filter_values = ops,             \
        .noun = "sizes",                  \
        .ours = ours_,                    \
    }
static const gs_headline headlines[] = {
    AGAINST_TORCH(TORCH_SCAN, scans, python_scan),
    AGAINST_TORCH(TORCH_SUM, sums, python_sum),
};
static const gs_column_style styles[] = {
    {.column = "n", .label = "n", .format = GS_CELL_POW2},
    {.column = "us_per_call", .label = "time per call", .format = GS_CELL_AUTO},
    {.column = "host_us_per_call", .label = "host time per call", .format = GS_CELL_AUTO},
    {.column = "speedup_vs_torch", .label = "vs torch", .format = GS_CELL_RATIO},
    {.column = "overhead_us", .label = "Python layer", .format = GS_CELL_AUTO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_call",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_python = {
    .name = "python",
    .help = "float32 scan and sum from Python on torch tensors, per call: gridsync.scan and "
        "gridsync.reduce (and the bare C calls through ctypes) vs torch.cumsum, cupy.cumsum and "
        "torch.sum, with the Python layer's host cost; measured by the Python package, not by "
        "gridsync bench: python -m gridsync.bench --json FILE (python/README.md)",
    .title = "python: float32 scan and sum from Python, microseconds per call (median of "
        "back-to-back calls)",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
