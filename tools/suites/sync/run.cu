/*
 * run.cu - `gridsync bench sync`: the scoped synchronization primitives
 * (neighbour barriers, subset barrier, grid all-reduce, grid scan,
 * split-phase barrier) next to the full barriers a CUDA programmer has: gridsync's own
 * (gs_grid_sync), cooperative groups grid.sync() and relaunching a kernel
 * per step: inside a CUDA graph, and with programmatic dependent launch
 * (suites/pdl_peer.cuh) on a stream and inside a graph; and, for the
 * split-phase barrier, cooperative groups' grid.barrier_arrive()/
 * barrier_wait() and the relaunches with the same work in each step's
 * kernel (with PDL: the work, then the trigger and the wait for the last
 * step, so that the next step's work overlaps this step's wait and
 * exchange, as arrive/wait's work overlaps the barrier).
 *
 * Workload (the same for every row): each step the last thread of every
 * block writes its slot (two buffers, even and odd steps), the primitive
 * synchronizes, and thread 0 loads the slot of a block the primitive
 * connects it to (a neighbour, a subset member, the next block), which
 * every step then checks first, before its own slot write and
 * synchronization: warp 0 waits for the load there, so its round trip is
 * part of each step, as in a program that uses what it read from its
 * neighbours before it synchronizes again (a stencil). A wrong value counts
 * as an error. Time per step = kernel time / steps. Each block's slot is a
 * 32-byte sector of its own (the unit in which L2 keeps memory), as a
 * program's per-block data would be: packed 4-byte slots put the stores of
 * 8 blocks in one sector, which on H200 cost the exchanges up to 0.3 us a
 * step (tagged exchange, neighbour barrier, graph relaunch;
 * docs/scoped-sync.md).
 * Split-phase rows put W microseconds of independent work (every thread
 * spins on clock64) between arrive and wait; "work alone" is the same step
 * with no synchronization (the slot write, the work, thread 0's load of the
 * next block's slot, unchecked: nobody orders it), the time the barrier
 * should hide behind.
 *
 * Its description (columns, plots, README table, reading): describe.c.
 */
#include <cooperative_groups.h>

#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/grid_scan.cuh>
#include <gridsync/neighbour.cuh>
#include <gridsync/tagged.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <utility>

#include "gridsync_internal.h"
#include "harness/grids.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"
#include "suites/pdl_peer.cuh"

namespace cg = cooperative_groups;

enum prim {
    K_NEIGHBOUR_1D, K_NEIGHBOUR_2D, K_SUBSET, K_ALLREDUCE_F32, K_ALLREDUCE_F64, K_FULL, K_CG,
    K_GRAPH, K_WORK, K_SPLIT, K_CG_SPLIT, K_TAGGED_1D, K_GRAPH_PDL, K_STREAM_PDL, K_GRID_SCAN
};
enum { SUBSET_SIZE = 8 };
enum { SLOT_BYTES = 32 }; /* a slot a sector: see the workload above */

/* Block b's slot for step `it` (two sets: even and odd steps). */
template <class T>
static __device__ __forceinline__ T *slot(T *slots, int it, unsigned int n, unsigned int b)
{
    return slots + ((size_t)(it & 1) * n + b) * (SLOT_BYTES / sizeof(T));
}

static __device__ __forceinline__ unsigned int step_value(int it, unsigned int block)
{
    return (unsigned int)it * 2654435761u + block + 1u;
}

/* Independent work: every thread spins for `cycles` SM clocks. */
static __device__ __forceinline__ void spin(long long cycles)
{
    if (cycles <= 0)
        return;
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

/* The block whose slot block b checks after a step of primitive P. */
template <int P>
static __device__ __forceinline__ unsigned int partner(unsigned int b, unsigned int n)
{
    if (P == K_NEIGHBOUR_1D)
        return b > 0u ? b - 1u : n > 1u ? 1u : 0u;
    if (P == K_NEIGHBOUR_2D) {
        unsigned int x = blockIdx.x, w = gridDim.x;
        return x > 0u ? b - 1u : w > 1u ? b + 1u : b;
    }
    if (P == K_SUBSET) {
        unsigned int g0 = b / SUBSET_SIZE * SUBSET_SIZE, size = min(SUBSET_SIZE + 0u, n - g0);
        return g0 + (b - g0 + 1u) % size;
    }
    return b + 1u == n ? 0u : b + 1u;
}

/* The tagged exchange's step (gridsync/tagged.cuh): thread 0 puts the
 * block's value for step `it` (plus what its last reads were off by, 0
 * when right: each put depends on the reads of the blocks that read it)
 * and gets both 1-D neighbours' (b - 1 and b + 1 where they exist), then a
 * block barrier: the neighbour barrier's exchange, with the data in the
 * words and no barrier between blocks. 1: the block must leave. */
static __device__ __forceinline__ int tagged_step(const gs_grid_barrier *bar,
                                                  gs_tagged_word *words, unsigned int n,
                                                  unsigned int b, int it, unsigned int tag,
                                                  unsigned int *carry, unsigned int *bad)
{
    int gave_up = 0;
    if (threadIdx.x == 0u) {
        gs_tagged_put_u32(slot(words, it, n, b), step_value(it, b) + *carry, tag);
        unsigned int off = 0u;
        for (int k = 0; k < 2 && !gave_up; ++k) {
            const unsigned int o = k == 0 ? b - 1u : b + 1u;
            unsigned int got = 0u;
            if ((k == 0 && b == 0u) || (k == 1 && b + 1u >= n))
                continue;
            gave_up = !gs_tagged_get_u32(bar, slot(words, it, n, o), tag, o, &got);
            off += got - step_value(it, o);
            *bad += !gave_up && got != step_value(it, o);
        }
        *carry = off;
    }
    return __syncthreads_or(gave_up);
}

/* The tagged exchange's kernel (the same parameters as sync_kernel); at
 * most 32 registers, as the core kernels, so that it runs on the same
 * grids (8 blocks of 256, or 2 of 1024, a SM). __maxnreg__, not
 * __launch_bounds__(1024, 2): Turing holds 1024 threads a SM. */
static __global__ void __maxnreg__(32) tagged_kernel(gs_grid_barrier bar, unsigned int *slots,
                                     const unsigned int *, unsigned int *errors, int iters,
                                     long long, unsigned int tag0)
{
    const unsigned int n = gridDim.x * gridDim.y, b = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned int carry = 0u, bad = 0u;
    for (int it = 0; it < iters; ++it)
        if (tagged_step(&bar, (gs_tagged_word *)slots, n, b, it, tag0 + (unsigned int)it + 1u,
                        &carry, &bad))
            break; /* timed out: gs_barrier_check reports it */
    if (threadIdx.x == 0u && bad)
        atomicAdd(errors, bad);
}

template <int P>
static __global__ void sync_kernel(gs_grid_barrier bar, unsigned int *slots,
                                   const unsigned int *members, unsigned int *errors, int iters,
                                   long long work_cycles, unsigned int tag0)
{
    const unsigned int n = gridDim.x * gridDim.y, b = blockIdx.x + gridDim.x * blockIdx.y;
    const unsigned int t = threadIdx.x, nt = blockDim.x, o = partner<P>(b, n);
    const unsigned int g0 = b / SUBSET_SIZE * SUBSET_SIZE, gsize = min(SUBSET_SIZE + 0u, n - g0);
    unsigned int bad = 0u, seen = 0u, expected = 0u, unchecked = 0u;
    (void)tag0;
    for (int it = 0; it < iters; ++it) {
        /* last step's check: warp 0 waits here for the load (docs/scoped-sync.md,
         * "Neighbour barrier", on what that costs every row) */
        if constexpr (P == K_WORK)
            unchecked += seen;
        else
            bad += seen != expected;
        if (t == nt - 1u)
            *slot(slots, it, n, b) = step_value(it, b);
        if constexpr (P == K_NEIGHBOUR_1D) {
            gs_neighbour_sync_1d(&bar, 0u);
        } else if constexpr (P == K_NEIGHBOUR_2D) {
            gs_neighbour_sync_2d(&bar, 0u);
        } else if constexpr (P == K_SUBSET) {
            gs_subset_sync(&bar, g0, members + g0, gsize);
        } else if constexpr (P == K_ALLREDUCE_F32) {
            bad += gs_grid_allreduce_sum_f32(&bar, 1.0f) != (float)(n * nt);
        } else if constexpr (P == K_ALLREDUCE_F64) {
            bad += gs_grid_allreduce_sum_f64(&bar, 1.0) != (double)(n * nt);
        } else if constexpr (P == K_GRID_SCAN) { /* one a block: its rank, and n */
            unsigned int all;
            bad += gs_grid_exclusive_sum_u32(&bar, 1u, &all) != b;
            bad += all != n;
        } else if constexpr (P == K_FULL) {
            if (n == 1u) /* auto's (tree's) paths up to flat_max blocks, inline */
                __syncthreads();
            else
                gs_grid_sync_flip(&bar);
        } else if constexpr (P == K_CG) {
            cg::this_grid().sync();
        } else if constexpr (P == K_WORK) {
            spin(work_cycles);
            __syncthreads(); /* the block barrier the split rows' wait ends with */
        } else if constexpr (P == K_SPLIT) {
            gs_grid_token token = gs_grid_arrive(&bar);
            spin(work_cycles);
            gs_grid_wait(&bar, token);
        } else if constexpr (P == K_CG_SPLIT) {
            cg::grid_group grid = cg::this_grid();
            auto token = grid.barrier_arrive();
            spin(work_cycles);
            grid.barrier_wait(std::move(token));
        }
        if (t == 0u) {
            seen = *slot(slots, it, n, o);
            expected = step_value(it, o);
        }
    }
    bad += P != K_WORK && seen != expected;
    if (t == 0u && (bad || unchecked == 0x9e3779b9u)) /* keeps work alone's loads */
        atomicAdd(errors, bad);
}

/* A relaunch step's exchange: the slot of step `it`, and the check of
 * the next block's slot of the last step. */
static __device__ __forceinline__ void relaunch_exchange(unsigned int *slots, unsigned int *errors,
                                                         int it)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, o = b + 1u == n ? 0u : b + 1u;
    if (threadIdx.x == blockDim.x - 1u)
        *slot(slots, it, n, b) = step_value(it, b);
    if (threadIdx.x == 0u && it > 0 &&
        *slot(slots, it - 1, n, o) != step_value(it - 1, o))
        atomicAdd(errors, 1u);
}

/* Relaunch peer: one kernel per step; the kernel boundary is the barrier
 * (split-phase rows: the work first). */
static __global__ void relaunch_step(unsigned int *slots, unsigned int *errors, int it,
                                     long long work_cycles)
{
    spin(work_cycles);
    relaunch_exchange(slots, errors, it);
}

/* Relaunch + PDL peer: the independent work first, then the trigger (the
 * next step may start once every block has done its work), then the wait,
 * then the exchange (the last step has completed: its slot writes are
 * visible and its reads of the slots this step overwrites, two steps back,
 * are done). The next step's work thus overlaps this step's wait and
 * exchange, as arrive/wait's work overlaps its barrier, and no more: with
 * the trigger at the top, every step's work (independent of all steps,
 * here) would pile up in the kernels waiting behind each other and the
 * rows would time less than the work alone. Without work the trigger is at
 * the top. */
static __global__ void relaunch_step_pdl(unsigned int *slots, unsigned int *errors, int it,
                                         long long work_cycles)
{
    spin(work_cycles);
    peer_pdl_trigger();
    peer_pdl_wait();
    relaunch_exchange(slots, errors, it);
}

typedef struct variant {
    const char *name;
    enum prim kind;
    double work_us;
    const void *kernel;
    int core; /* sets the grid sizes (the others are left out where they do not fit) */
} variant;

#define V(name, kind, w) {name, kind, w, (const void *)sync_kernel<kind>, CORE(kind)}
#define CORE(kind) (kind == K_NEIGHBOUR_1D || kind == K_NEIGHBOUR_2D || kind == K_FULL || \
                    kind == K_CG)
static const variant variants[] = {
    V("neighbour 1-D", K_NEIGHBOUR_1D, 0.0),
    V("neighbour 2-D", K_NEIGHBOUR_2D, 0.0),
    {"tagged exchange 1-D", K_TAGGED_1D, 0.0, (const void *)tagged_kernel, 0},
    V("subset of 8", K_SUBSET, 0.0),
    V("all-reduce f32", K_ALLREDUCE_F32, 0.0),
    V("all-reduce f64", K_ALLREDUCE_F64, 0.0),
    V("grid scan u32", K_GRID_SCAN, 0.0),
    V("full barrier", K_FULL, 0.0),
    V("cg grid.sync", K_CG, 0.0),
    {"relaunch graph", K_GRAPH, 0.0, NULL, 0},
    {"relaunch + PDL", K_STREAM_PDL, 0.0, NULL, 0},
    {"relaunch graph + PDL", K_GRAPH_PDL, 0.0, NULL, 0},
    V("arrive/wait", K_SPLIT, 0.0),
    V("cg arrive/wait", K_CG_SPLIT, 0.0),
    V("work alone, 0.5 us", K_WORK, 0.5),
    V("arrive/wait, 0.5 us work", K_SPLIT, 0.5),
    V("cg arrive/wait, 0.5 us work", K_CG_SPLIT, 0.5),
    {"relaunch graph, 0.5 us work", K_GRAPH, 0.5, NULL, 0},
    {"relaunch graph + PDL, 0.5 us work", K_GRAPH_PDL, 0.5, NULL, 0},
    V("work alone, 1 us", K_WORK, 1.0),
    V("arrive/wait, 1 us work", K_SPLIT, 1.0),
    V("cg arrive/wait, 1 us work", K_CG_SPLIT, 1.0),
    {"relaunch graph, 1 us work", K_GRAPH, 1.0, NULL, 0},
    {"relaunch graph + PDL, 1 us work", K_GRAPH_PDL, 1.0, NULL, 0},
    V("work alone, 2 us", K_WORK, 2.0),
    V("arrive/wait, 2 us work", K_SPLIT, 2.0),
    V("cg arrive/wait, 2 us work", K_CG_SPLIT, 2.0),
    {"relaunch graph, 2 us work", K_GRAPH, 2.0, NULL, 0},
    {"relaunch graph + PDL, 2 us work", K_GRAPH_PDL, 2.0, NULL, 0},
};
#undef V
#undef CORE
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

typedef struct run_ctx {
    const variant *v;
    dim3 grid;
    int threads, iters;
    long long work_cycles;
    unsigned int tag0; /* the tagged exchange: the last tag used on `slots` */
    gs_barrier_t bar;
    gs_grid_barrier view;
    unsigned int *slots, *members, *errors;
    size_t slots_bytes;
} run_ctx;

static int uses_cg(enum prim k) { return k == K_CG || k == K_CG_SPLIT; }
static int is_pdl(enum prim k) { return k == K_GRAPH_PDL || k == K_STREAM_PDL; }
static int in_graph(enum prim k) { return k == K_GRAPH || k == K_GRAPH_PDL; }

static gs_status enqueue(void *p, cudaStream_t stream)
{
    run_ctx *c = (run_ctx *)p;
    dim3 block((unsigned int)c->threads);
    if (c->v->kind == K_GRAPH) {
        for (int it = 0; it < c->iters; ++it)
            relaunch_step<<<c->grid, block, 0, stream>>>(c->slots, c->errors, it, c->work_cycles);
        GS_CUDA_TRY(cudaGetLastError());
        return GS_SUCCESS;
    }
    if (is_pdl(c->v->kind)) {
        for (int it = 0; it < c->iters; ++it) {
            void *args[] = {&c->slots, &c->errors, &it, &c->work_cycles};
            GS_TRY(peer_pdl_launch((const void *)relaunch_step_pdl, c->grid, block, stream,
                                   args, 1));
        }
        return GS_SUCCESS;
    }
    if (c->v->kind == K_TAGGED_1D && c->tag0 > 0xffffffffu - (unsigned int)c->iters) {
        /* before the tags wrap, the words go back to tag 0 */
        GS_CUDA_TRY(cudaMemsetAsync(c->slots, 0, c->slots_bytes, stream));
        c->tag0 = 0u;
    }
    unsigned int tag0 = c->tag0; /* the tagged exchange: this launch's tags follow it */
    void *args[] = {&c->view,  &c->slots,        &c->members, &c->errors,
                    &c->iters, &c->work_cycles, &tag0};
    if (uses_cg(c->v->kind)) {
        GS_CUDA_TRY(cudaLaunchCooperativeKernel(c->v->kernel, c->grid, block, args, 0, stream));
        return GS_SUCCESS;
    }
    gs_status st = gs_launch(c->v->kernel, c->grid, block, 0, stream, args, c->bar);
    if (c->v->kind == K_TAGGED_1D)
        c->tag0 += (unsigned int)c->iters;
    return st;
}

typedef struct measured {
    gs_stats st;
    unsigned int errors;
    int skipped; /* the kernel cannot hold this grid (more registers than the core's) */
} measured;

static gs_status measure(run_ctx *c, const gs_bench_params *o, cudaStream_t stream, measured *m)
{
    gs_timing_plan plan = gs_bench_plan(o, in_graph(c->v->kind) ? 1 : 0);
    unsigned int blocks = c->grid.x * c->grid.y;
    gs_status st = GS_SUCCESS;
    if (c->v->kernel && !uses_cg(c->v->kind)) {
        GS_TRY(gs_barrier_create(&c->bar, GS_BARRIER_AUTO));
        st = gs_barrier_device(c->bar, blocks, &c->view);
    }
    cudaError_t err = cudaMemsetAsync(c->errors, 0, sizeof(unsigned int), stream);
    if (err == cudaSuccess && c->v->kind == K_TAGGED_1D) { /* the others' slots: tag 0 again */
        err = cudaMemsetAsync(c->slots, 0, c->slots_bytes, stream);
        c->tag0 = 0u;
    }
    if (st == GS_SUCCESS && err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemsetAsync(errors)", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = gs_time_work(enqueue, c, stream, &plan, &m->st);
    if (st == GS_SUCCESS && c->bar)
        st = gs_barrier_check(c->bar, stream);
    if (st == GS_SUCCESS) {
        err = cudaMemcpy(&m->errors, c->errors, sizeof m->errors,
                                     cudaMemcpyDeviceToHost);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMemcpy(errors)", __FILE__, __LINE__);
    }
    if (c->bar) {
        gs_barrier_destroy(c->bar);
        c->bar = NULL;
    }
    gs_stats_scale(&m->st, 1.0 / c->iters); /* per step */
    return st;
}


/* The largest grid the core kernels (the neighbour barriers, the full
 * barrier, grid.sync) can all hold: it sets the grid sizes. */
static gs_status coresident_max(int threads, int *max_blocks)
{
    *max_blocks = 1 << 30;
    for (int v = 0; v < NVARIANTS; ++v) {
        int fit = 0;
        if (!variants[v].kernel || !variants[v].core)
            continue;
        GS_TRY(gs_max_coresident_blocks(variants[v].kernel, threads, 0, &fit));
        *max_blocks = fit < *max_blocks ? fit : *max_blocks;
    }
    return GS_SUCCESS;
}

/* The most nearly square w x h = blocks, for the 2-D neighbour barrier. */
static dim3 grid_2d(unsigned int blocks)
{
    unsigned int h = 1u;
    for (unsigned int d = 1u; d * d <= blocks; ++d)
        if (blocks % d == 0u)
            h = d;
    return dim3(blocks / h, h);
}

static double find(const measured *m, enum prim kind, double work_us)
{
    for (int v = 0; v < NVARIANTS; ++v)
        if (variants[v].kind == kind && variants[v].work_us == work_us)
            return m[v].st.median;
    return NAN;
}

static void add_rows(gs_table *t, int threads, unsigned int blocks, const measured *m)
{
    for (int v = 0; v < NVARIANTS; ++v) {
        const variant *x = &variants[v];
        if (m[v].skipped)
            continue;
        double us = m[v].st.median;
        int split = x->kind == K_SPLIT || x->kind == K_CG_SPLIT || x->kind == K_WORK ||
                    x->work_us > 0.0;
        gs_table_add_row(t);
        gs_row_value(t, "threads", threads);
        gs_row_value(t, "blocks", blocks);
        gs_row_text(t, "primitive", x->name);
        if (split)
            gs_row_value(t, "work_us", x->work_us);
        gs_row_measured(t, "us_per_step", &m[v].st, 1.0);
        gs_row_value(t, "min_us", m[v].st.min);
        gs_row_value(t, "max_us", m[v].st.max);
        if (!split) {
            gs_row_ratio(t, "speedup_vs_cg", find(m, K_CG, 0.0), us);
            gs_row_ratio(t, "speedup_vs_graph", find(m, K_GRAPH, 0.0), us);
            gs_row_ratio(t, "speedup_vs_pdl", find(m, K_GRAPH_PDL, 0.0), us);
            gs_row_ratio(t, "x_full_barrier", us, find(m, K_FULL, 0.0));
        } else if (x->kind != K_WORK) {
            gs_row_ratio(t, "speedup_vs_cg", find(m, K_CG_SPLIT, x->work_us), us);
            if (x->work_us > 0.0) {
                gs_row_ratio(t, "speedup_vs_graph", find(m, K_GRAPH, x->work_us), us);
                gs_row_ratio(t, "speedup_vs_pdl", find(m, K_GRAPH_PDL, x->work_us), us);
                gs_row_ratio(t, "x_work", us, find(m, K_WORK, x->work_us));
            }
        }
        gs_row_value(t, "errors", m[v].errors);
    }
}

static gs_status run_config(const gs_bench_params *o, int threads, unsigned int blocks,
                            double clock_ghz, run_ctx *base, cudaStream_t stream, gs_table *t,
                            gs_progress *prog, int *step, int *failures)
{
    measured m[NVARIANTS];
    int pdl = 0;
    GS_TRY(gs_pdl_overlaps((const void *)relaunch_step_pdl, &pdl));
    for (int v = 0; v < NVARIANTS; ++v) {
        run_ctx c = *base;
        c.v = &variants[v];
        c.threads = threads;
        c.grid = variants[v].kind == K_NEIGHBOUR_2D ? grid_2d(blocks) : dim3(blocks);
        c.work_cycles = (long long)(variants[v].work_us * 1e3 * clock_ghz);
        char what[96];
        snprintf(what, sizeof what, "%d threads x %u blocks: %s", threads, blocks,
                 variants[v].name);
        if (!o->quiet)
            gs_progress_step(prog, (*step)++, what);
        int fit = 1 << 30;
        m[v].skipped = 0;
        if (variants[v].kernel)
            GS_TRY(gs_max_coresident_blocks(variants[v].kernel, threads, 0, &fit));
        if ((unsigned int)fit < blocks || (is_pdl(variants[v].kind) && !pdl)) {
            m[v].skipped = 1;
            m[v].st.median = NAN;
            continue;
        }
        GS_TRY(measure(&c, o, stream, &m[v]));
        *failures += m[v].errors != 0u;
    }
    add_rows(t, threads, blocks, m);
    return GS_SUCCESS;
}

static gs_status bench_all(const gs_bench_params *o, gs_table *t, run_ctx *base,
                           cudaStream_t stream, int *failures)
{
    int dev = 0, sms = 0, clock_khz = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
    static const int per_sm[] = {1, 2, 4}; /* and one block, and the maximum */
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
    gs_progress_begin(&prog, "bench sync", total);
    for (int i = 0; i < o->nthreads; ++i)
        for (int j = 0; j < ngrids[i]; ++j)
            GS_TRY(run_config(o, o->threads[i], (unsigned int)grids[i][j], clock_khz / 1e6, base,
                              stream, t, &prog, &step, failures));
    if (!o->quiet)
        gs_progress_end(&prog);
    return GS_SUCCESS;
}

static gs_status run_sync(const gs_bench_params *o, gs_table *table)
{
    if (o->nthreads < 1 || o->nthreads > 16 || o->iterations < 1 || o->samples < 1 ||
        o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench sync: bad options");
    run_ctx base = {};
    base.iters = o->iterations;
    cudaStream_t stream = NULL;
    int failures = 0, dev = 0, sms = 0, per_sm = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    const size_t most = (size_t)sms * per_sm;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gs_status st = GS_SUCCESS;
    unsigned int *members = (unsigned int *)malloc(most * sizeof *members);
    cudaError_t err = members ? cudaSuccess : cudaErrorMemoryAllocation;
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&base.slots, base.slots_bytes = 2 * most * SLOT_BYTES);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&base.members, most * sizeof(unsigned int));
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&base.errors, sizeof(unsigned int));
    if (err == cudaSuccess) { /* groups of SUBSET_SIZE consecutive ranks, in order */
        for (size_t i = 0; i < most; ++i)
            members[i] = (unsigned int)i;
        err = cudaMemcpy(base.members, members, most * sizeof *members, cudaMemcpyHostToDevice);
    }
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc/cudaMemcpy(bench buffers)", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = bench_all(o, table, &base, stream, &failures);
    free(members);
    cudaFree(base.slots);
    cudaFree(base.members);
    cudaFree(base.errors);
    cudaStreamDestroy(stream);
    if (st == GS_SUCCESS && failures)
        st = gs__fail(GS_ERR_INTERNAL, "%d sync configuration%s saw wrong values in the check",
                      failures, failures == 1 ? "" : "s");
    return st;
}

extern "C" const gs_bench_runner gs_runner_sync = {run_sync, NULL};
