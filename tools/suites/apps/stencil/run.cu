/*
 * run.cu - `gridsync bench apps`, the 2-D heat stencil (apps.h):
 * for each size, the versions of stencil.h each solve the same field
 * (`steps` steps from the same initial field), timed one solve per sample;
 * the row gives the time per step, the speedups over the graph relaunch,
 * the graph relaunch with programmatic dependent launch and the grid.sync
 * version measured here, and the final field's
 * difference to the FP64 CPU reference, which must be within
 * gs_stencil_bound (else the run fails: no timing of a wrong answer).
 * Sizes, grids and the bound: docs/apps-stencil.md.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "harness/progress.h"
#include "suites/apps/apps.h"
#include "suites/apps/stencil/stencil.h"
#include "testing/random.h"

/* log2 of the cells: the presets, and what --sizes may ask for (the CPU
 * reference of 2^26 cells holds 1 GiB of doubles). */
static const int quick_sizes[] = {12, 16, 20};
static const int default_sizes[] = {12, 14, 16, 18, 20, 22, 24, 26};
static const int full_sizes[] = {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
enum { MIN_LOG2 = 4, MAX_LOG2 = 26, MAX_SIZES = 32 };

/* Steps of one solve: 1000 up to 2^20 cells; above, 2^30 / cells (the CPU
 * reference costs cells x steps; a solve still lasts milliseconds). */
static int steps_for(int log2) { return log2 <= 20 ? 1000 : 1 << (30 - log2); }

/* One size: the field on the host and the device, the reference. */
typedef struct size_run {
    int log2, steps;
    size_t n;
    gs_stencil_field f;    /* w, h, steps and the device buffers */
    float *u0, *result;    /* host */
    double *x, *y, *ref;   /* the FP64 solve; ref is x or y */
    double bound;
} size_run;

static void size_free(size_run *z)
{
    cudaFree((void *)z->f.u0);
    cudaFree(z->f.a);
    cudaFree(z->f.b);
    cudaFree(z->f.out);
    free(z->u0);
    free(z->result);
    free(z->x);
    free(z->y);
}

/* The field: w x h = 2^log2, w = h or 2h; values in [0, 1) from a fixed
 * seed a size; the FP64 reference and its bound. */
static gs_status size_init(size_run *z, int log2)
{
    z->log2 = log2;
    z->steps = steps_for(log2);
    z->f.w = 1 << ((log2 + 1) / 2);
    z->f.h = 1 << (log2 / 2);
    z->f.steps = z->steps;
    z->n = (size_t)1 << log2;
    z->u0 = (float *)malloc(z->n * sizeof(float));
    z->result = (float *)malloc(z->n * sizeof(float));
    z->x = (double *)malloc(z->n * sizeof(double));
    z->y = (double *)malloc(z->n * sizeof(double));
    if (!z->u0 || !z->result || !z->x || !z->y)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench apps stencil: out of host memory at 2^%d "
                        "cells", log2);
    gs_rng rng = {0x5eed0000ull + (unsigned long long)log2};
    gs_rng_fill(&rng, z->u0, z->n);
    for (size_t i = 0; i < z->n; ++i) /* [-1, 1) to [0, 1), exactly */
        z->u0[i] = 0.5f * (z->u0[i] + 1.0f);
    z->ref = gs_stencil_cpu<double>(z->u0, z->f.w, z->f.h, z->steps, z->x, z->y);
    z->bound = gs_stencil_bound(z->steps, z->u0, z->ref, z->n);
    const size_t bytes = z->n * sizeof(float);
    GS_CUDA_TRY(cudaMalloc((void **)&z->f.u0, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&z->f.a, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&z->f.b, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&z->f.out, bytes));
    GS_CUDA_TRY(cudaMemcpy((void *)z->f.u0, z->u0, bytes, cudaMemcpyHostToDevice));
    return GS_SUCCESS;
}

typedef struct measured {
    gs_stats st; /* per step */
    int skipped; /* a version that does not run at this size */
    int blocks;
    double error;
} measured;

/* Time one version (buffers poisoned first), then check its field. */
static gs_status measure(const gs_bench_params *params, size_run *z, gs_stencil_method m,
                         cudaStream_t stream, measured *out)
{
    gs_stencil_run run;
    gs_status set = gs_stencil_setup(&run, m, &z->f, 0, GS_STENCIL_AUTO);
    if (set == GS_ERR_NOT_CORESIDENT && (m == GS_STENCIL_TAGGED || m == GS_STENCIL_HALO)) {
        out->skipped = 1; /* the tiles do not fit on chip: no row */
        return GS_SUCCESS;
    }
    GS_TRY(set);
    const size_t bytes = z->n * sizeof(float);
    gs_timing_plan plan =
        gs_bench_plan(params, m == GS_STENCIL_GRAPH || m == GS_STENCIL_GRAPH_PDL ? 1 : 0);
    cudaError_t err = cudaSuccess;
    float *poison[] = {z->f.a, z->f.b, z->f.out};
    for (int i = 0; i < 3 && err == cudaSuccess; ++i)
        err = cudaMemsetAsync(poison[i], 0xff, bytes, stream);
    gs_status st = err == cudaSuccess
                       ? gs_time_work(gs_stencil_enqueue, &run, stream, &plan, &out->st)
                       : gs__cuda_fail(err, "cudaMemsetAsync(poison)", __FILE__, __LINE__);
    gs_status checked = gs_stencil_check(&run, stream); /* also after a failed timing */
    st = st != GS_SUCCESS ? st : checked;
    out->blocks = gs_stencil_blocks(&run);
    gs_stencil_release(&run);
    GS_TRY(st);
    GS_CUDA_TRY(cudaMemcpy(z->result, z->f.out, bytes, cudaMemcpyDeviceToHost));
    out->error = gs_stencil_error(z->result, z->ref, z->n);
    gs_stats_scale(&out->st, 1.0 / z->steps);
    if (!(out->error <= z->bound))
        return gs__fail(GS_ERR_INTERNAL,
                        "bench apps stencil: %s on %d x %d cells (%d steps): the field differs "
                        "from the FP64 reference by %.3g (relative), over the bound %.3g",
                        gs_stencil_method_names[m], z->f.w, z->f.h, z->steps, out->error,
                        z->bound);
    return GS_SUCCESS;
}

static gs_status add_rows(gs_table *t, const size_run *z, const measured *m)
{
    const double graph = m[GS_STENCIL_GRAPH].st.median, full = m[GS_STENCIL_GRID_SYNC].st.median;
    const double graph_pdl = m[GS_STENCIL_GRAPH_PDL].st.median;
    for (int i = 0; i < GS_STENCIL_NMETHODS; ++i) {
        const double us = m[i].st.median;
        if (m[i].skipped)
            continue;
        if (gs_table_add_row(t) != 0)
            return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench apps stencil: out of host memory");
        gs_row_text(t, "app", "stencil 2-D");
        gs_row_value(t, "size_log2", z->log2);
        gs_row_value(t, "size", (double)z->n);
        gs_row_text(t, "method", gs_stencil_method_names[i]);
        gs_row_value(t, "blocks", m[i].blocks);
        gs_row_value(t, "steps", z->steps);
        gs_row_measured(t, "us_per_step", &m[i].st, 1.0);
        gs_row_value(t, "total_ms", us * z->steps / 1e3);
        gs_row_value(t, "vs_graph", graph / us);
        gs_row_value(t, "vs_pdl", graph_pdl / us);
        gs_row_value(t, "vs_full", full / us);
        gs_row_value(t, "error", m[i].error);
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_apps_stencil(const gs_bench_params *params, gs_table *table)
{
    if (!params || !table || params->samples < 1 || params->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps stencil: bad options");
    const gs_size_list own[GS_PRESET_COUNT] = {GS_SIZES(default_sizes), GS_SIZES(quick_sizes),
                                               GS_SIZES(full_sizes)};
    int sizes[MAX_SIZES], step = 0;
    const int nsizes = gs_apps_sizes(params, own, MIN_LOG2, MAX_LOG2, sizes, MAX_SIZES);
    cudaStream_t stream = NULL;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_progress prog;
    if (!params->quiet)
        gs_progress_begin(&prog, "bench apps stencil", nsizes * GS_STENCIL_NMETHODS);
    gs_status st = GS_SUCCESS;
    for (int i = 0; i < nsizes && st == GS_SUCCESS; ++i) {
        size_run z = {};
        measured m[GS_STENCIL_NMETHODS] = {};
        st = size_init(&z, sizes[i]);
        for (int k = 0; k < GS_STENCIL_NMETHODS && st == GS_SUCCESS; ++k) {
            char what[96];
            snprintf(what, sizeof what, "stencil 2-D, %d x %d: %s", z.f.w, z.f.h,
                     gs_stencil_method_names[k]);
            if (!params->quiet)
                gs_progress_step(&prog, step++, what);
            st = measure(params, &z, (gs_stencil_method)k, stream, &m[k]);
        }
        if (st == GS_SUCCESS)
            st = add_rows(table, &z, m);
        size_free(&z);
    }
    if (!params->quiet)
        gs_progress_end(&prog);
    cudaStreamDestroy(stream);
    return st;
}
