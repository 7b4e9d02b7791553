/*
 * describe.c - `gridsync bench decode`, described (results/suite.h):
 * batch-1 and batch-4 decode, chains of dependent matrix-vector products
 * over 16-bit weights read once, and Llama's gated MLP stacked to 1.5 GiB;
 * gridsync's task runtime (with counters, and with tagged activations) next
 * to a persistent kernel with a grid barrier per step, per-step kernels in
 * a CUDA graph with and without programmatic dependent launch, and cuBLAS
 * per step in a graph; the figure is the fraction of the read bandwidth
 * measured in the same run. How it measures: run.cu.
 */
#include "results/suite.h"
#include "suites/decode/methods.h"

static const gs_column columns[] = {
    {.name = "workload", .unit = "",
     .meaning = "chain (y = W_l x_l, x_{l+1} = y, D x D layers) or mlp (per layer: gate and up, "
                "F x D each, h = SiLU(W_g x) (W_u x), then down, D x F, x + W_d h; F = 4 D)"},
    {.name = "dtype", .unit = "", .meaning = "weights and activations: f16 or bf16; fp32 sums"},
    {.name = "d", .unit = "", .meaning = "hidden size D"},
    {.name = "batch", .unit = "", .meaning = "vectors per step (1: batch-1 decode)"},
    {.name = "layers", .unit = "", .meaning = "layers (the chain: one step each; mlp: two)"},
    {.name = "method", .unit = "",
     .meaning = TASKS ", " TAGGED ", " BARRIER ", " GRAPH ", " GRAPH_PDL ", " CUBLAS "; "
                READ " is the read ceiling (every weight byte read once by a plain kernel; the faster "
                "of a reading before the versions and one after them, each after 20 ms of "
                "warm-up reads)"},
    {.name = "us_per_layer", .unit = "us", .decimals = 3,
     .meaning = "median time of the whole workload / layers"},
    {.name = "gb_per_s", .unit = "GB/s", .decimals = 1,
     .meaning = "weight bytes / time (each weight is read once)"},
    {.name = "frac_read_bw", .unit = "", .decimals = 3,
     .meaning = "gb_per_s / the read ceiling measured in the same run"},
    {.name = "vs_pdl", .unit = "", .decimals = 2,
     .meaning = "the PDL graph's time / this time (the strongest relaunch peer)"},
    {.name = "vs_cublas", .unit = "", .decimals = 2, .meaning = "cuBLAS's time / this time"},
    {.name = "check", .unit = "", .decimals = 3,
     .meaning = "largest error / bound of the 128 random rows checked per step against FP64 "
                "(<= 1; every output checked written)"},
};

static const char *const config[] = {"workload", "dtype", "d", "batch", NULL};
static const char *const ours[] = {TASKS, TAGGED, NULL};
static const char *const peers[] = {BARRIER, GRAPH, GRAPH_PDL, CUBLAS, READ, NULL};
static const char *const compared[] = {TASKS, TAGGED, BARRIER, GRAPH, GRAPH_PDL, CUBLAS, NULL};
static const gs_plot_spec plots[] = {
    {
        .y = "frac_read_bw",
        .series = "method",
        .xlabel = "workload, dtype, D, batch",
        .ylabel = "fraction of the measured read bandwidth",
        .xformat = "%g",
        .name = "bandwidth",
        .title = "decode: fraction of the read bandwidth (weights read once)",
        .kind = GS_PLOT_VALUE,
        .style = GS_STYLE_BARS,
        .categories = config,
        .category_sep = " ",
        .filter = "method",
        .filter_values = compared,
    },
};

static const gs_summary_column summary_columns[] = {
    {.header = "workload", .kind = GS_SUMMARY_FIELD, .column = "workload"},
    {.header = "dtype", .kind = GS_SUMMARY_FIELD, .column = "dtype"},
    {.header = "D", .kind = GS_SUMMARY_FIELD, .column = "d", .format = "%.0f"},
    {.header = "batch", .kind = GS_SUMMARY_FIELD, .column = "batch", .format = "%.0f"},
    {.header = "tasks", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw", .method = TASKS,
     .format = "%.2f"},
    {.header = "tasks, tagged", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw",
     .method = TAGGED, .format = "%.2f"},
    {.header = "grid barrier", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw",
     .method = BARRIER, .format = "%.2f"},
    {.header = "graph", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw", .method = GRAPH,
     .format = "%.2f"},
    {.header = "graph + PDL", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw",
     .method = GRAPH_PDL, .format = "%.2f"},
    {.header = "cuBLAS", .kind = GS_SUMMARY_VALUE, .column = "frac_read_bw", .method = CUBLAS,
     .format = "%.2f"},
    {.header = "best gridsync vs PDL", .kind = GS_SUMMARY_RATIO, .column = "us_per_layer",
     .method = GRAPH_PDL, .over = GS_SUMMARY_BEST_METHOD, .format = "%.2fx"},
};
static const char *const required[] = {TASKS, GRAPH_PDL, NULL};
static const gs_summary_spec summary = {
    .intro = "Decode, fraction (0 to 1) of the read bandwidth measured in the same run (each weight read "
        "once; chains: 8 MiB (D = 2048), 32 MiB (4096) and 128 MiB (8192) layers; the gated MLP: "
        "D = 2048, F = 8192, 16 layers, 1.5 GiB); the last column: the PDL graph's time over the "
        "faster gridsync version's:",
    .group_by = config,
    .pivot = "method",
    .required = required,
    .columns = summary_columns,
    .ncolumns = GS_COUNT(summary_columns),
    .best_of = ours,
};

static const char *const key[] = {"workload", "dtype", "d", "batch", "method", NULL};
static const gs_headline headlines[] = {
    {
        .peer = GRAPH_PDL,
        .metric = "us_per_layer",
        .group_by = config,
        .describe = config,
        .noun = "configurations",
    },
    {
        .peer = CUBLAS,
        .metric = "us_per_layer",
        .group_by = config,
        .describe = config,
        .noun = "configurations",
    },
};
static const gs_column_style styles[] = {
    {.column = "us_per_layer", .label = "time per layer", .format = GS_CELL_AUTO},
    {.column = "gb_per_s", .label = "weights read", .format = GS_CELL_AUTO},
    {.column = "frac_read_bw", .label = "of the read ceiling", .format = GS_CELL_PERCENT},
    {.column = "vs_pdl", .label = "vs graph + PDL", .format = GS_CELL_RATIO},
    {.column = "vs_cublas", .label = "vs cuBLAS", .format = GS_CELL_RATIO},
};
static const gs_reading reading = {
    .method = "method",
    .ours = ours,
    .peers = peers,
    .key = key,
    .metric = "us_per_layer",
    .headlines = headlines,
    .nheadlines = GS_COUNT(headlines),
    .styles = styles,
    .nstyles = GS_COUNT(styles),
};

const gs_bench_suite gs_suite_decode = {
    .name = "decode",
    .help = "batch-1 and batch-4 decode over 16-bit weights read once (chains of D x D layers, "
        "D = 2048, 4096, 8192; Llama's gated MLP, 1.5 GiB), fraction of the read bandwidth: "
        "gridsync's task runtime (counters; tagged activations) vs a persistent kernel with a "
        "grid barrier per step, per-step kernels in a CUDA graph with and without PDL, and cuBLAS",
    .title = "decode: dependent matrix-vector products over weights read once, time per layer",
    .columns = columns,
    .ncolumns = GS_COUNT(columns),
    .min_gpus = 1,
    .plots = plots,
    .nplots = GS_COUNT(plots),
    .summary = &summary,
    .reading = &reading,
};
