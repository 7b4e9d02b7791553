/*
 * run.cu - `gridsync bench barrier`: per-barrier latency of every
 * gridsync method next to the peers a CUDA programmer would use instead.
 *
 * Workload (same for everyone): each iteration, thread 0 of every block
 * writes its slot, barrier, reads its neighbour's slot and checks the value,
 * barrier. Time per barrier = kernel time / (2 x iterations). A wrong value
 * counts as an error: a benchmark of a broken barrier is not reported as a
 * result.
 *
 * Peers: cooperative groups grid.sync() (cooperative launch), kernel relaunch
 * on a stream (each barrier becomes a kernel boundary: two kernels per
 * iteration), the same relaunches captured once in a CUDA graph, and both
 * with programmatic dependent launch (suites/pdl_peer.cuh: each kernel
 * lets the next start at its top and waits before it touches the slots,
 * which also keeps a write kernel from overwriting slots the check kernel
 * before it still reads); the PDL rows are left out where the GPU has no
 * PDL (below sm_90).
 *
 * Its description (columns, plots, README table, reading): describe.c.
 */
#include <cooperative_groups.h>

#include <gridsync/barrier.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "harness/grids.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"
#include "suites/pdl_peer.cuh"

namespace cg = cooperative_groups;

static __device__ __forceinline__ unsigned int slot_value(int it, unsigned int block)
{
    return (unsigned int)it * 2654435761u + block + 1u;
}

/* The exchange with a gridsync barrier: one kernel per method of the
 * registry (GS_BARRIER_METHODS), each with its method fixed at compile time,
 * so that each is measured with its own register footprint, as a user who
 * names the method gets it, and a new method is measured with no change
 * here. */
template <int Method>
static __global__ void exchange_method(gs_grid_barrier bar, unsigned int *slots,
                                       unsigned int *errors, int iters)
{
    unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (threadIdx.x == 0)
            slots[b] = slot_value(it, b);
        gs::grid_sync<Method>(&bar);
        if (threadIdx.x == 0)
            bad += slots[next] != slot_value(it, next);
        gs::grid_sync<Method>(&bar);
    }
    if (threadIdx.x == 0 && bad)
        atomicAdd(errors, bad);
}

/* The same exchange with cooperative groups (peer). */
static __global__ void exchange_cg(unsigned int *slots, unsigned int *errors, int iters)
{
    cg::grid_group grid = cg::this_grid();
    unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (threadIdx.x == 0)
            slots[b] = slot_value(it, b);
        grid.sync();
        if (threadIdx.x == 0)
            bad += slots[next] != slot_value(it, next);
        grid.sync();
    }
    if (threadIdx.x == 0 && bad)
        atomicAdd(errors, bad);
}

/* The exchange as two kernels per iteration (peer: relaunch). */
static __global__ void exchange_write(unsigned int *slots, int it)
{
    if (threadIdx.x == 0)
        slots[blockIdx.x] = slot_value(it, blockIdx.x);
}

static __global__ void exchange_check(const unsigned int *slots, unsigned int *errors, int it)
{
    unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    if (threadIdx.x == 0 && slots[next] != slot_value(it, next))
        atomicAdd(errors, 1u);
}

/* The exchange as two kernels chained by PDL (peer: relaunch + PDL). */
static __global__ void exchange_write_pdl(unsigned int *slots, int it)
{
    peer_pdl_trigger();
    peer_pdl_wait(); /* the check kernel before has read every slot */
    if (threadIdx.x == 0)
        slots[blockIdx.x] = slot_value(it, blockIdx.x);
}

static __global__ void exchange_check_pdl(const unsigned int *slots, unsigned int *errors, int it)
{
    unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    peer_pdl_trigger();
    peer_pdl_wait(); /* the write kernel has completed: its slots are visible */
    if (threadIdx.x == 0 && slots[next] != slot_value(it, next))
        atomicAdd(errors, 1u);
}

enum peer { P_GRIDSYNC, P_CG, P_RELAUNCH, P_GRAPH, P_PDL, P_PDL_GRAPH };

typedef struct variant {
    const char *name;
    enum peer kind;
    gs_barrier_method method;
    const void *kernel;
} variant;

#define GS__METHOD_VARIANT(constant, name)                                                   \
    {name, P_GRIDSYNC, constant, (const void *)exchange_method<constant>},
static const variant variants[] = {
    GS_BARRIER_METHODS(GS__METHOD_VARIANT) /* every gridsync method, in registry order */
    {"cg grid.sync", P_CG, GS_BARRIER_AUTO, (const void *)exchange_cg},
    {"relaunch", P_RELAUNCH, GS_BARRIER_AUTO, NULL},
    {"relaunch graph", P_GRAPH, GS_BARRIER_AUTO, NULL},
    {"relaunch + PDL", P_PDL, GS_BARRIER_AUTO, NULL},
    {"relaunch graph + PDL", P_PDL_GRAPH, GS_BARRIER_AUTO, NULL},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

typedef struct run_ctx {
    const variant *v;
    unsigned int blocks;
    int threads;
    int iters;
    gs_barrier_t bar;
    gs_grid_barrier view;
    unsigned int *slots, *errors;
} run_ctx;

static gs_status enqueue(void *p, cudaStream_t stream)
{
    run_ctx *c = (run_ctx *)p;
    dim3 grid(c->blocks), block((unsigned int)c->threads);
    switch (c->v->kind) {
    case P_GRIDSYNC: {
        void *args[] = {&c->view, &c->slots, &c->errors, &c->iters};
        return gs_launch(c->v->kernel, grid, block, 0, stream, args, c->bar);
    }
    case P_CG: {
        void *args[] = {&c->slots, &c->errors, &c->iters};
        GS_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)exchange_cg, grid, block, args, 0,
                                                stream));
        return GS_SUCCESS;
    }
    case P_RELAUNCH:
    case P_GRAPH:
        for (int it = 0; it < c->iters; ++it) {
            exchange_write<<<grid, block, 0, stream>>>(c->slots, it);
            exchange_check<<<grid, block, 0, stream>>>(c->slots, c->errors, it);
        }
        GS_CUDA_TRY(cudaGetLastError());
        return GS_SUCCESS;
    case P_PDL:
    case P_PDL_GRAPH:
        for (int it = 0; it < c->iters; ++it) {
            void *write_args[] = {&c->slots, &it};
            void *check_args[] = {&c->slots, &c->errors, &it};
            GS_TRY(peer_pdl_launch((const void *)exchange_write_pdl, grid, block, stream,
                                   write_args, 1));
            GS_TRY(peer_pdl_launch((const void *)exchange_check_pdl, grid, block, stream,
                                   check_args, 1));
        }
        return GS_SUCCESS;
    }
    return gs__fail(GS_ERR_INTERNAL, "barrier bench: unknown variant");
}


typedef struct measured {
    gs_stats st;
    unsigned int errors;
    int skipped; /* a PDL row on a GPU without PDL */
} measured;

static int is_graph(enum peer k) { return k == P_GRAPH || k == P_PDL_GRAPH; }
static int is_pdl(enum peer k) { return k == P_PDL || k == P_PDL_GRAPH; }

static gs_status measure(run_ctx *c, const gs_bench_params *o, cudaStream_t stream,
                         measured *m)
{
    gs_timing_plan plan = gs_bench_plan(o, is_graph(c->v->kind) ? 1 : 0);
    if (c->v->kind == P_GRIDSYNC) {
        GS_TRY(gs_barrier_create(&c->bar, c->v->method));
        GS_TRY(gs_barrier_set_tree_params(c->bar, o->tree_flat_max, o->tree_group));
        GS_TRY(gs_barrier_device(c->bar, c->blocks, &c->view));
    }
    GS_CUDA_TRY(cudaMemsetAsync(c->errors, 0, sizeof(unsigned int), stream));
    gs_status st = gs_time_work(enqueue, c, stream, &plan, &m->st);
    if (st == GS_SUCCESS && c->bar)
        st = gs_barrier_check(c->bar, stream);
    if (st == GS_SUCCESS) {
        cudaError_t err = cudaMemcpy(&m->errors, c->errors, sizeof m->errors,
                                     cudaMemcpyDeviceToHost);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMemcpy(errors)", __FILE__, __LINE__);
    }
    if (c->bar) {
        gs_barrier_destroy(c->bar);
        c->bar = NULL;
    }
    gs_stats_scale(&m->st, 1.0 / (2.0 * c->iters)); /* per barrier */
    return st;
}

/* The largest grid every persistent kernel of the comparison can hold. */
static gs_status coresident_max(int threads, int *max_blocks)
{
    *max_blocks = 1 << 30;
    for (int v = 0; v < NVARIANTS; ++v) {
        int fit = 0;
        if (!variants[v].kernel)
            continue;
        GS_TRY(gs_max_coresident_blocks(variants[v].kernel, threads, 0, &fit));
        if (fit < *max_blocks)
            *max_blocks = fit;
    }
    return GS_SUCCESS;
}

static void add_row(gs_table *t, int threads, unsigned int blocks, int sms, const char *name,
                    const measured *m, double cg_us, double graph_us, double pdl_us,
                    double floor_us)
{
    if (m->skipped)
        return;
    gs_table_add_row(t);
    gs_row_value(t, "threads", threads);
    gs_row_value(t, "blocks", blocks);
    gs_row_value(t, "blocks_per_sm", (double)blocks / sms);
    gs_row_text(t, "method", name);
    gs_row_measured(t, "us_per_barrier", &m->st, 1.0);
    gs_row_value(t, "min_us", m->st.min);
    gs_row_value(t, "max_us", m->st.max);
    gs_row_value(t, "speedup_vs_cg", cg_us / m->st.median);
    gs_row_value(t, "speedup_vs_graph", graph_us / m->st.median);
    gs_row_ratio(t, "speedup_vs_pdl", pdl_us, m->st.median);
    gs_row_value(t, "x_floor", m->st.median / floor_us);
    gs_row_value(t, "errors", m->errors);
}

static gs_status run_config(const gs_bench_params *o, int threads, unsigned int blocks,
                            int sms, double floor_us, run_ctx *base, cudaStream_t stream,
                            gs_table *t, gs_progress *prog, int *step, int *failures)
{
    measured m[NVARIANTS];
    double cg_us = 0.0, graph_us = 0.0, pdl_us = NAN;
    int pdl = 0;
    GS_TRY(gs_pdl_overlaps((const void *)exchange_write_pdl, &pdl));
    for (int v = 0; v < NVARIANTS; ++v) {
        run_ctx c = *base;
        c.v = &variants[v];
        c.blocks = blocks;
        c.threads = threads;
        char what[96];
        snprintf(what, sizeof what, "%d threads x %u blocks: %s", threads, blocks, c.v->name);
        if (!o->quiet)
            gs_progress_step(prog, (*step)++, what);
        m[v].skipped = is_pdl(variants[v].kind) && !pdl;
        if (m[v].skipped)
            continue;
        GS_TRY(measure(&c, o, stream, &m[v]));
        if (variants[v].kind == P_CG)
            cg_us = m[v].st.median;
        if (variants[v].kind == P_GRAPH)
            graph_us = m[v].st.median;
        if (variants[v].kind == P_PDL_GRAPH)
            pdl_us = m[v].st.median;
        *failures += m[v].errors != 0u;
    }
    for (int v = 0; v < NVARIANTS; ++v)
        add_row(t, threads, blocks, sms, variants[v].name, &m[v], cg_us, graph_us, pdl_us,
                floor_us);
    return GS_SUCCESS;
}

/* The floor: one block, lock method = one atomic and one poll round trip. */
static gs_status measure_floor(const gs_bench_params *o, int threads, run_ctx *base,
                               cudaStream_t stream, double *floor_us)
{
    static const variant lock = {"floor", P_GRIDSYNC, GS_BARRIER_LOCK,
                                 (const void *)exchange_method<GS_BARRIER_LOCK>};
    run_ctx c = *base;
    measured m;
    c.v = &lock;
    c.blocks = 1;
    c.threads = threads;
    GS_TRY(measure(&c, o, stream, &m));
    *floor_us = m.st.median;
    return GS_SUCCESS;
}

static gs_status bench_all(const gs_bench_params *o, gs_table *t, run_ctx *base,
                           cudaStream_t stream, int *failures)
{
    int dev = 0, sms = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));

    static const int per_sm[] = {1, 2}; /* and one block, and the maximum */
    int grids[16][GS_BENCH_MAX_GRIDS], ngrids[16], total = 0;
    for (int i = 0; i < o->nthreads; ++i) {
        int max_blocks = 0;
        GS_TRY(coresident_max(o->threads[i], &max_blocks));
        GS_TRY(gs_bench_grids(o, o->threads[i], sms, max_blocks, per_sm, GS_COUNT(per_sm),
                              grids[i], &ngrids[i]));
        total += ngrids[i] * NVARIANTS;
    }

    gs_progress prog;
    int step = 0;
    gs_progress_begin(&prog, "bench barrier", total);
    for (int i = 0; i < o->nthreads; ++i) {
        double floor_us = 0.0;
        GS_TRY(measure_floor(o, o->threads[i], base, stream, &floor_us));
        for (int j = 0; j < ngrids[i]; ++j)
            GS_TRY(run_config(o, o->threads[i], (unsigned int)grids[i][j], sms, floor_us, base,
                              stream, t, &prog, &step, failures));
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    return GS_SUCCESS;
}

static gs_status run_barrier(const gs_bench_params *o, gs_table *table)
{
    if (o->nthreads < 1 || o->nthreads > 16 || o->iterations < 1 || o->samples < 1 ||
        o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench barrier: bad options");

    run_ctx base = {};
    base.iters = o->iterations;
    cudaStream_t stream = NULL;
    int failures = 0;
    int dev = 0, sms = 0, per_sm = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaMalloc((void **)&base.slots, (size_t)sms * per_sm * sizeof(unsigned int));
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&base.errors, sizeof(unsigned int));
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc(bench buffers)", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = bench_all(o, table, &base, stream, &failures);
    cudaFree(base.slots);
    cudaFree(base.errors);
    cudaStreamDestroy(stream);
    if (st == GS_SUCCESS && failures)
        st = gs__fail(GS_ERR_INTERNAL,
                      "%d barrier configuration%s saw wrong values in the exchange check",
                      failures, failures == 1 ? "" : "s");
    return st;
}

extern "C" const gs_bench_runner gs_runner_barrier = {run_barrier, NULL};
