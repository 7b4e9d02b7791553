/*
 * run.cu - `gridsync bench decode`: batch-1 and batch-4 decode over 16-bit
 * weights read once, every version of kernels.cuh and cuBLAS on the same
 * weights (workload.cuh), each timed as replays of a CUDA graph holding the
 * whole workload (the harness's sampling rule), then checked against FP64 on
 * a fresh run with poisoned outputs (no row times a wrong result: a version
 * whose check fails fails the suite). The read ceiling is measured on the
 * same weights in the same run, per configuration, before the versions and
 * again after them; the faster of the two is the ceiling (a slow reading
 * would flatter every version's fraction of it).
 *
 * Shapes: at batch 1, slabs of 64 KiB, three stages of them per block of the
 * persistent versions, where a block has several tasks a layer (D = 4096 and
 * 8192, the MLP: fewer, larger tasks pay; 2026-11-29, two runs each: the
 * tagged version 0.80 -> 0.83 of the ceiling at D = 4096, 0.60 -> 0.78 on
 * the MLP, the PDL graph within 1%), and of 32 KiB, six stages, at D = 2048
 * (one 64 KiB task a block a layer: no faster for the tasks, 0.64 -> 0.60
 * for the PDL graph); batch 4 runs two blocks per SM (its arithmetic is four
 * times batch 1's), slabs of 32 KiB, three stages (64 KiB at D = 8192, one
 * block per SM). The per-step peer's kernel states a minimum of blocks an
 * SM (launch bounds) only for the bf16 MLP at batch 4: its conversions took
 * 152 registers, one block an SM, so the next step's blocks could not start
 * beside this step's (the PDL graph 56.2 us a layer; 41.2 with two, and 72
 * bytes of spills; f16 36.5). Elsewhere none: the compiler's choice fits two
 * or more already, or (bf16 at D = 8192, batch 4: 168 registers) the
 * bound's spills cost more than the second block gains (47.7 -> 55.9 us);
 * and a stated minimum of one made the compiler take more registers (f16 at
 * D = 8192, batch 4: 124 -> 159). 2026-11-29, H200. Its description:
 * describe.c.
 */
#include <stdio.h>

#include "gridsync_internal.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"
#include "suites/decode/methods.h"
#include "suites/decode/workload.cuh"

namespace {

using namespace decode;

const char *const method_of[V_COUNT] = {TASKS, TAGGED, BARRIER, GRAPH, GRAPH_PDL, CUBLAS};

/* One configuration: every version's row, and the read ceiling's. */
template <class S>
gs_status run_config(const gs_bench_params *o, gs_table *t, int layers, int stages, int per_sm)
{
    typedef typename S::T T;
    const char *dtype = std::is_same<T, __half>::value ? "f16" : "bf16";
    const char *name = S::MLP ? "mlp" : "chain";
    workload<S> wl;
    wl.o = {layers, stages, per_sm, 0x9e3779b97f4a7c15ull ^ (S::D * 131 + S::B * 7 + S::MLP),
            gs_bench_plan(o, 0)};
    gs_status st = wl.setup();
    const double bytes = (double)wl.weights() * sizeof(T);
    double read_gbs = 0.0;
    if (st == GS_SUCCESS)
        st = read_ceiling(wl.w, wl.weights() * sizeof(T), wl.s, 9, &read_gbs);
    gs_stats measured[V_COUNT] = {};
    double worst[V_COUNT] = {};
    int right[V_COUNT] = {};
    for (int v = 0; v < V_COUNT && st == GS_SUCCESS; ++v) {
        outcome oc = {};
        st = wl.run(v, &oc);
        if (st != GS_SUCCESS) {
            st = gs__fail(st, "bench decode: %s %s D = %d batch %d, %s: %s", name, dtype, S::D,
                          S::B, method_of[v], gs_last_error_detail());
        } else if (oc.bad) { /* no row times a wrong result: this version gets none */
            fprintf(stderr,
                    "bench decode: %s %s D = %d batch %d, %s: WRONG: %lld outputs unwritten or "
                    "beyond the bound (largest error / bound %.3g), the first in step %d; no row\n",
                    name, dtype, S::D, S::B, method_of[v], oc.bad, oc.worst,
                    oc.first_bad < 0 ? wl.steps - 1 : oc.first_bad);
        } else {
            right[v] = 1;
        }
        measured[v] = oc.t;
        worst[v] = oc.worst;
    }
    double read_after = 0.0;
    if (st == GS_SUCCESS)
        st = read_ceiling(wl.w, wl.weights() * sizeof(T), wl.s, 9, &read_after);
    if (read_after > read_gbs)
        read_gbs = read_after;
    wl.teardown();
    GS_TRY(st);
    const double pdl = right[V_GRAPH_PDL] ? measured[V_GRAPH_PDL].median : 0.0;
    const double cublas = right[V_CUBLAS] ? measured[V_CUBLAS].median : 0.0;
    for (int v = 0; v <= V_COUNT; ++v) {
        if (v < V_COUNT && !right[v])
            continue;
        gs_table_add_row(t);
        gs_row_text(t, "workload", name);
        gs_row_text(t, "dtype", dtype);
        gs_row_value(t, "d", S::D);
        gs_row_value(t, "batch", S::B);
        gs_row_value(t, "layers", layers);
        if (v == V_COUNT) { /* the ceiling */
            gs_row_text(t, "method", READ);
            gs_row_value(t, "gb_per_s", read_gbs);
            gs_row_value(t, "frac_read_bw", 1.0);
            continue;
        }
        const double us = measured[v].median;
        gs_row_text(t, "method", method_of[v]);
        gs_row_measured(t, "us_per_layer", &measured[v], 1.0 / layers);
        gs_row_value(t, "gb_per_s", bytes / (us * 1e3));
        gs_row_value(t, "frac_read_bw", bytes / (us * 1e3) / read_gbs);
        if (pdl > 0.0)
            gs_row_value(t, "vs_pdl", pdl / us);
        if (cublas > 0.0)
            gs_row_value(t, "vs_cublas", cublas / us);
        gs_row_value(t, "check", worst[v]);
    }
    return GS_SUCCESS;
}

typedef gs_status (*config_fn)(const gs_bench_params *, gs_table *, int, int, int);
struct config {
    config_fn run;
    int layers, stages, per_sm;
    int quick; /* in --quick */
    const char *what;
};

/* The chains (8 MiB, 32 MiB, 128 MiB layers, 512 MiB to 1 GiB in all) and the
 * MLP (Llama 3.2 1B's: D = 2048, F = 8192, 16 layers, 1.5 GiB). */
const config configs[] = {
    {run_config<shape<__half, 2048, 2048, 1, false>>, 64, 6, 1, 1, "chain f16 D = 2048 batch 1"},
    {run_config<shape<__half, 2048, 8192, 1, true, 65536>>, 16, 3, 1, 1, "mlp f16 batch 1"},
    {run_config<shape<__half, 4096, 4096, 1, false, 65536>>, 32, 3, 1, 0, "chain f16 D = 4096 batch 1"},
    {run_config<shape<__half, 8192, 8192, 1, false, 65536>>, 8, 3, 1, 0, "chain f16 D = 8192 batch 1"},
    {run_config<shape<__nv_bfloat16, 2048, 2048, 1, false>>, 64, 6, 1, 0, "chain bf16 D = 2048 batch 1"},
    {run_config<shape<__nv_bfloat16, 2048, 8192, 1, true, 65536>>, 16, 3, 1, 0, "mlp bf16 batch 1"},
    {run_config<shape<__nv_bfloat16, 4096, 4096, 1, false, 65536>>, 32, 3, 1, 0, "chain bf16 D = 4096 batch 1"},
    {run_config<shape<__nv_bfloat16, 8192, 8192, 1, false, 65536>>, 8, 3, 1, 0, "chain bf16 D = 8192 batch 1"},
    {run_config<shape<__half, 2048, 2048, 4, false>>, 64, 3, 2, 0, "chain f16 D = 2048 batch 4"},
    {run_config<shape<__half, 2048, 8192, 4, true>>, 16, 3, 2, 0, "mlp f16 batch 4"},
    {run_config<shape<__half, 4096, 4096, 4, false>>, 32, 3, 2, 0, "chain f16 D = 4096 batch 4"},
    {run_config<shape<__half, 8192, 8192, 4, false, 65536>>, 8, 3, 1, 0, "chain f16 D = 8192 batch 4"},
    {run_config<shape<__nv_bfloat16, 2048, 2048, 4, false>>, 64, 3, 2, 0, "chain bf16 D = 2048 batch 4"},
    {run_config<shape<__nv_bfloat16, 2048, 8192, 4, true, 32768, 2>>, 16, 3, 2, 0, "mlp bf16 batch 4"},
    {run_config<shape<__nv_bfloat16, 4096, 4096, 4, false>>, 32, 3, 2, 0, "chain bf16 D = 4096 batch 4"},
    {run_config<shape<__nv_bfloat16, 8192, 8192, 4, false, 65536>>, 8, 3, 1, 0, "chain bf16 D = 8192 batch 4"},
};

gs_status run_decode(const gs_bench_params *o, gs_table *t)
{
    if (o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench decode: bad options");
    size_t free_b = 0, total_b = 0;
    GS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    if (free_b < (size_t)2 << 30)
        return gs__fail(GS_ERR_OUT_OF_MEMORY,
                        "bench decode: %zu MiB of device memory free; the workloads need 2 GiB",
                        free_b >> 20);
    const int n = (int)(sizeof configs / sizeof configs[0]);
    int count = 0;
    for (int i = 0; i < n; ++i)
        count += o->preset != GS_PRESET_QUICK || configs[i].quick;
    gs_progress prog;
    gs_progress_begin(&prog, "decode", count);
    gs_status st = GS_SUCCESS;
    for (int i = 0, k = 0; i < n && st == GS_SUCCESS; ++i) {
        if (o->preset == GS_PRESET_QUICK && !configs[i].quick)
            continue;
        if (!o->quiet)
            gs_progress_step(&prog, k++, configs[i].what);
        st = configs[i].run(o, t, configs[i].layers, configs[i].stages, configs[i].per_sm);
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    return st;
}

} // namespace

extern "C" const gs_bench_runner gs_runner_decode = {run_decode, NULL};
