/*
 * run.cu - `gridsync bench apps`, conjugate gradient: the 2-D Poisson
 * problem (suites/apps/cg/cg.h) solved by gridsync's persistent kernel and
 * by the same iteration on gridsync's task runtime, the grid.sync() design
 * of NVIDIA's CUDA sample, cuBLAS + cuSPARSE a kernel per operation on a
 * stream and in a CUDA graph, and hand-written kernels chained by
 * programmatic dependent launch on a stream and in a CUDA graph
 * (docs/apps.md).
 *
 * For each size, every version first solves once and its answer is
 * checked against the CPU's (FP64) with the stated bound; a version whose
 * answer is outside it gets no row and the run fails. Up to 2^18 unknowns
 * the solve runs to the relative residual 1e-6 and STEPS is its
 * iterations; above, where the CPU would take minutes, every version and
 * the CPU run exactly CG_CHECK_ITERS iterations (STEPS says so). Then the
 * time per iteration: the median over samples of a fixed number of
 * iterations (timed_iters: 512 up to 2^14 unknowns, halved for every
 * factor 4 above), with no convergence test; TOTAL_MS = that times STEPS.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_internal.h"
#include "harness/progress.h"
#include "suites/apps/apps.h"
#include "suites/apps/cg/cg.h"

static const int sizes_quick[] = {12, 16, 22};
static const int sizes_default[] = {10, 12, 14, 16, 18, 20, 22, 24};
static const int sizes_full[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};

enum {
    CG_MIN_LOG2 = 4,        /* --sizes outside [CG_MIN_LOG2, CG_MAX_LOG2] are not CG's */
    CG_MAX_LOG2 = 26,
    CG_SOLVE_MAX_LOG2 = 18, /* up to here: solves to the tolerance; above: fixed iterations */
    CG_CHECK_ITERS = 20,
    CG_GRAPH_MAX = 128      /* iterations captured in one CUDA graph */
};
static const double cg_tol = 1e-6;
/* Fixed-iteration sizes: the bound on ||x - x_cpu|| / ||x_cpu|| after
 * CG_CHECK_ITERS iterations (FP64 rounding in another order; what we see is
 * far below, docs/apps.md). */
static const double cg_fixed_bound = 1e-8;

static const gs_cg_version *const versions[] = {&gs_cg_gridsync,    &gs_cg_tasks,
                                                &gs_cg_sample,      &gs_cg_libs_stream,
                                                &gs_cg_libs_graph,  &gs_cg_pdl_stream,
                                                &gs_cg_pdl_graph};
enum { V_GRIDSYNC, V_TASKS, V_SAMPLE, V_STREAM, V_GRAPH, V_PDL_STREAM, V_PDL_GRAPH, NVERSIONS };

typedef struct problem {
    int log2, nx, ny, solve, max_iters, ref_iters;
    long long n;
    double *b_host, *x_ref, *x_host; /* host */
    double *b, *x;                   /* device */
    double ref_residual, b_norm, x_ref_norm;
} problem;

typedef struct outcome {
    gs_stats st;
    int iterations, ok, blocks; /* blocks: of each kernel, where the version picks them */
    double error;
} outcome;

static int timed_iters(int log2)
{
    int halvings = log2 > 14 ? (log2 - 13) / 2 : 0;
    return 512 >> (halvings < 5 ? halvings : 5);
}

/* 1 if the answer in pb->x_host is within the bound; else 0 and why. */
static int verify(const problem *pb, int iterations, double *error, char *why, size_t len)
{
    *error = gs_cg_rel_diff(pb->x_host, pb->x_ref, pb->n);
    if (!pb->solve) {
        if (iterations == CG_CHECK_ITERS && *error <= cg_fixed_bound)
            return 1;
        snprintf(why, len, "%d iterations, relative difference %.3g to the CPU's (bound %.0e)",
                 iterations, *error, cg_fixed_bound);
        return 0;
    }
    const double res = gs_cg_residual(pb->nx, pb->ny, pb->b_host, pb->x_host);
    const double bound = (res + pb->ref_residual) * pb->b_norm /
                         (gs_cg_lambda_min(pb->nx, pb->ny) * pb->x_ref_norm);
    const int slack = 2 + pb->ref_iters / 100;
    if (abs(iterations - pb->ref_iters) <= slack && res <= 2.0 * cg_tol && *error <= bound)
        return 1;
    snprintf(why, len, "%d iterations (CPU %d), residual %.3g (bound %.0e), difference %.3g "
             "to the CPU's (bound %.3g)", iterations, pb->ref_iters, res, 2.0 * cg_tol, *error,
             bound);
    return 0;
}

/* Solve once and check, then time; the run's buffers live only here. */
static gs_status measure(const gs_cg_version *v, const problem *pb, const gs_cg_grid *grid,
                         const gs_bench_params *params, cudaStream_t stream, outcome *out,
                         char *why, size_t len)
{
    gs_cg_run run;
    memset(&run, 0, sizeof run);
    run.nx = pb->nx;
    run.ny = pb->ny;
    run.n = pb->n;
    run.b = pb->b;
    run.x = pb->x;
    run.tol = pb->solve ? cg_tol : -1.0;
    run.max_iters = pb->max_iters;
    run.timed_iters = timed_iters(pb->log2);
    run.grid = *grid;
    const size_t bytes = (size_t)pb->n * sizeof(double);
    out->ok = 0;
    gs_status st = v->create(&run);
    cudaError_t err = cudaSuccess;
    if (st == GS_SUCCESS && (err = cudaMemsetAsync(pb->x, 0xff, bytes, stream)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemsetAsync(x, NaN)", __FILE__, __LINE__);
    out->blocks = run.kernel_blocks;
    if (st == GS_SUCCESS)
        st = v->solve(&run, stream);
    if (st == GS_SUCCESS &&
        (err = cudaMemcpy(pb->x_host, pb->x, bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemcpy(x)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        out->iterations = run.iterations;
        out->ok = verify(pb, run.iterations, &out->error, why, len);
    }
    if (st == GS_SUCCESS && out->ok) {
        if (v->graph && run.timed_iters > CG_GRAPH_MAX)
            run.timed_iters = CG_GRAPH_MAX;
        gs_timing_plan plan = gs_bench_plan(params, v->graph ? run.timed_iters : 0);
        st = gs_time_work(v->enqueue, &run, stream, &plan, &out->st);
        if (st == GS_SUCCESS && v->check)
            st = v->check(&run, stream);
        if (!v->graph) /* per iteration (a graph's figure is per enqueue already) */
            gs_stats_scale(&out->st, 1.0 / run.timed_iters);
    }
    v->destroy(&run);
    return st;
}

static void set_ratio(gs_table *t, const char *column, const outcome *peer, double us)
{
    if (peer->ok && us > 0.0)
        gs_row_value(t, column, peer->st.median / us);
}

static void add_rows(gs_table *t, const problem *pb, const gs_cg_grid *grid, const outcome *o)
{
    for (int v = 0; v < NVERSIONS; ++v) {
        if (!o[v].ok)
            continue;
        const double us = o[v].st.median;
        gs_table_add_row(t);
        gs_row_text(t, "app", "cg");
        gs_row_value(t, "size_log2", pb->log2);
        gs_row_value(t, "size", (double)pb->n);
        gs_row_text(t, "method", versions[v]->method);
        if (v == V_GRIDSYNC || v == V_TASKS || v == V_SAMPLE)
            gs_row_value(t, "blocks", grid->blocks);
        else if (o[v].blocks > 0)
            gs_row_value(t, "blocks", o[v].blocks);
        gs_row_value(t, "steps", o[v].iterations);
        gs_row_measured(t, "us_per_step", &o[v].st, 1.0);
        gs_row_value(t, "total_ms", us * o[v].iterations / 1000.0);
        set_ratio(t, "vs_graph", &o[V_GRAPH], us);
        set_ratio(t, "vs_pdl", &o[V_PDL_GRAPH], us);
        set_ratio(t, "vs_full", &o[V_SAMPLE], us);
        if (v == V_TASKS)
            set_ratio(t, "vs_persistent", &o[V_GRIDSYNC], us);
        gs_row_value(t, "error", o[v].error);
    }
}

static void free_problem(problem *pb)
{
    free(pb->b_host);
    cudaFree(pb->b);
    cudaFree(pb->x);
}

/* The problem of 2^log2 unknowns (nx = 2^ceil(log2/2) columns), its CPU
 * answer and the norms the bound needs. */
static gs_status make_problem(int log2, problem *pb)
{
    memset(pb, 0, sizeof *pb);
    pb->log2 = log2;
    pb->nx = 1 << ((log2 + 1) / 2);
    pb->ny = 1 << (log2 / 2);
    pb->n = (long long)pb->nx * pb->ny;
    pb->solve = log2 <= CG_SOLVE_MAX_LOG2;
    pb->max_iters = pb->solve ? 10 * (pb->nx + pb->ny) + 100 : CG_CHECK_ITERS;
    const size_t bytes = (size_t)pb->n * sizeof(double);
    pb->b_host = (double *)malloc(3 * bytes);
    if (!pb->b_host)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench apps cg: out of host memory (2^%d)", log2);
    pb->x_ref = pb->b_host + pb->n;
    pb->x_host = pb->x_ref + pb->n;
    gs_cg_rhs(pb->b_host, pb->n);
    pb->ref_iters = gs_cg_reference(pb->nx, pb->ny, pb->b_host, pb->solve ? cg_tol : -1.0,
                                    pb->max_iters, pb->x_ref);
    if (pb->ref_iters < 0)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench apps cg: out of host memory (2^%d)", log2);
    if (pb->solve && pb->ref_iters >= pb->max_iters)
        return gs__fail(GS_ERR_INTERNAL, "bench apps cg: the CPU reference did not reach %g "
                        "in %d iterations (2^%d)", cg_tol, pb->max_iters, log2);
    pb->ref_residual = pb->solve ? gs_cg_residual(pb->nx, pb->ny, pb->b_host, pb->x_ref) : 0.0;
    double bb = 0.0, xx = 0.0;
    for (long long i = 0; i < pb->n; ++i) {
        bb += pb->b_host[i] * pb->b_host[i];
        xx += pb->x_ref[i] * pb->x_ref[i];
    }
    pb->b_norm = sqrt(bb);
    pb->x_ref_norm = sqrt(xx);
    GS_CUDA_TRY(cudaMalloc((void **)&pb->b, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&pb->x, bytes));
    GS_CUDA_TRY(cudaMemcpy(pb->b, pb->b_host, bytes, cudaMemcpyHostToDevice));
    return GS_SUCCESS;
}

static gs_status run_size(int log2, const gs_bench_params *params, cudaStream_t stream,
                          gs_table *table, gs_progress *prog, int *step, int *failures,
                          char *first_failure, size_t len)
{
    int dev = 0, sms = 0, smem_optin = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    problem pb;
    gs_status st = make_problem(log2, &pb);
    const gs_cg_grid grid = gs_cg_pick_grid(pb.nx, pb.ny, sms, (size_t)smem_optin);
    outcome o[NVERSIONS];
    memset(o, 0, sizeof o);
    for (int v = 0; v < NVERSIONS && st == GS_SUCCESS; ++v) {
        char what[96], why[256];
        snprintf(what, sizeof what, "cg 2^%d: %s", log2, versions[v]->method);
        if (!params->quiet)
            gs_progress_step(prog, (*step)++, what);
        st = measure(versions[v], &pb, &grid, params, stream, &o[v], why, sizeof why);
        if (st == GS_SUCCESS && !o[v].ok && (*failures)++ == 0)
            snprintf(first_failure, len, "cg 2^%d, %s: %s", log2, versions[v]->method, why);
    }
    if (st == GS_SUCCESS)
        add_rows(table, &pb, &grid, o);
    free_problem(&pb);
    return st;
}

extern "C" gs_status gs_apps_cg(const gs_bench_params *params, gs_table *table)
{
    const gs_size_list own[GS_PRESET_COUNT] = {GS_SIZES(sizes_default), GS_SIZES(sizes_quick),
                                               GS_SIZES(sizes_full)};
    int list[64];
    const int count = gs_apps_sizes(params, own, CG_MIN_LOG2, CG_MAX_LOG2, list, 64);
    cudaStream_t stream = NULL;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_progress prog;
    int step = 0, failures = 0;
    char first_failure[384] = "";
    gs_progress_begin(&prog, "bench apps cg", count * NVERSIONS);
    gs_status st = GS_SUCCESS;
    for (int i = 0; i < count && st == GS_SUCCESS; ++i)
        st = run_size(list[i], params, stream, table, &prog, &step, &failures, first_failure,
                      sizeof first_failure);
    if (!params->quiet)
        gs_progress_end(&prog);
    cudaStreamDestroy(stream);
    if (st == GS_SUCCESS && failures)
        st = gs__fail(GS_ERR_INTERNAL, "bench apps: %d CG answer%s outside the bound; %s",
                      failures, failures == 1 ? " was" : "s were", first_failure);
    return st;
}
