/*
 * run.cu - `gridsync bench handoff`: a chain of 8192 dependent steps through
 * the blocks of a grid (step i on block i mod G, which waits for step i - 1),
 * no work in a step, so the time per step is the hand-off: the post, and the
 * waiting block's wait until its next instruction. Three ways:
 *   - gridsync tasks: a plan of the chain (step i waits for counter i - 1,
 *     posts counter i), one launch (on one block every wait is met by the
 *     block's own previous step: the plan marks it and the block does not
 *     poll, so there the figure is the post and the runtime's own path);
 *   - gridsync signals: one launch, block b waits for signal i - 1 >= 1 and
 *     stores signal i = 1 for its steps (gs_block_signal_wait / _store), after
 *     a reset of the set in the same graph (a 256 KiB memset, ~0.3 ns a step);
 *   - kernels in a CUDA graph with programmatic dependent launch: a kernel of
 *     G blocks per step, each doing launch_dependents then griddepcontrol.wait
 *     (the boundary is the hand-off: the cheapest a user gets between kernels).
 * Each timed as graph replays of the whole chain (the harness's sampling
 * rule); the per-step time is the chain's over its steps. The task and
 * signal chains' watchdogs are checked after the timing. Grid sizes: 1, 2,
 * half the SMs, the SMs, 2, 4 and 8 per SM where they fit (--blocks: those).
 * Its description: describe.c.
 */
#include <gridsync_tasks.h>
#include <gridsync/signal.cuh>
#include <gridsync/tasks.cuh>

#include <stdio.h>
#include <string.h>

#include "gridsync_internal.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"

namespace {

enum { THREADS = 128, STEPS = 8192 };

__global__ void __launch_bounds__(THREADS) task_chain(gs_task_view plan)
{
    extern __shared__ __align__(128) unsigned char smem[];
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t))
        gs_task_end(&r, &t);
}

/* Signal i is 1 once step i has run (the set is reset before each launch). */
__global__ void __launch_bounds__(THREADS) signal_chain(gs_signal_set sig)
{
    const unsigned int g = gridDim.x;
    for (unsigned int i = blockIdx.x; i < STEPS; i += g) {
        if (i > 0)
            gs_block_signal_wait(&sig, i - 1, 1);
        gs_block_signal_store(&sig, i, 1);
    }
}

__global__ void __launch_bounds__(THREADS) pdl_step()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

gs_status replay(void *p, cudaStream_t s)
{
    GS_CUDA_TRY(cudaGraphLaunch(*(cudaGraphExec_t *)p, s));
    return GS_SUCCESS;
}

/* The chain's graph timed; per step. */
gs_status time_chain(cudaGraphExec_t *exec, const gs_bench_params *o, cudaStream_t s, gs_stats *st)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    GS_TRY(gs_time_work(replay, exec, s, &plan, st));
    gs_stats_scale(st, 1.0 / (STEPS - 1));
    return GS_SUCCESS;
}

gs_status instantiate(cudaGraph_t g, cudaGraphExec_t *exec)
{
    cudaError_t err = cudaGraphInstantiate(exec, g, 0);
    cudaGraphDestroy(g);
    GS_CUDA_TRY(err);
    return GS_SUCCESS;
}

gs_status run_tasks(unsigned int blocks, const gs_bench_params *o, cudaStream_t s, gs_stats *st)
{
    gs_task_plan_t plan;
    GS_TRY(gs_task_plan_create(&plan, STEPS));
    gs_status rc = GS_SUCCESS;
    for (unsigned int i = 0; i < STEPS && rc == GS_SUCCESS; ++i) {
        gs_task_desc d;
        memset(&d, 0, sizeof d);
        if (i > 0)
            d.waits[d.nwaits++] = {i - 1, 1};
        d.posts[d.nposts++] = {i, 1};
        d.block = (int)(i % blocks) + 1;
        rc = gs_task_plan_add(plan, &d, NULL);
    }
    if (rc == GS_SUCCESS)
        rc = gs_task_plan_build(plan, blocks);
    gs_task_view view;
    cudaGraphExec_t exec = NULL;
    if (rc == GS_SUCCESS)
        rc = gs_task_plan_device(plan, &view);
    if (rc == GS_SUCCESS) {
        void *args[] = {&view};
        cudaGraph_t g;
        GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        rc = gs_task_plan_launch(plan, (const void *)task_chain, dim3(THREADS),
                                 gs_task_plan_smem_bytes(plan), s, args);
        GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
        if (rc == GS_SUCCESS)
            rc = instantiate(g, &exec);
        else
            cudaGraphDestroy(g);
    }
    if (rc == GS_SUCCESS)
        rc = time_chain(&exec, o, s, st);
    if (rc == GS_SUCCESS)
        rc = gs_task_plan_check(plan, s);
    if (exec)
        cudaGraphExecDestroy(exec);
    gs_task_plan_destroy(plan);
    return rc;
}

gs_status run_signals(unsigned int blocks, const gs_bench_params *o, cudaStream_t s, gs_stats *st)
{
    gs_signals_t set;
    gs_signal_set sig;
    cudaGraphExec_t exec = NULL;
    GS_TRY(gs_signals_create(&set, STEPS));
    gs_status rc = gs_signals_device(set, &sig);
    if (rc == GS_SUCCESS) {
        void *args[] = {&sig};
        cudaGraph_t g;
        GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        rc = gs_signals_reset(set, s);
        if (rc == GS_SUCCESS)
            rc = gs_launch((const void *)signal_chain, dim3(blocks), dim3(THREADS), 0, s, args,
                           NULL);
        GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
        if (rc == GS_SUCCESS)
            rc = instantiate(g, &exec);
        else
            cudaGraphDestroy(g);
    }
    if (rc == GS_SUCCESS)
        rc = time_chain(&exec, o, s, st);
    if (rc == GS_SUCCESS)
        rc = gs_signals_check(set, s);
    if (exec)
        cudaGraphExecDestroy(exec);
    gs_signals_destroy(set);
    return rc;
}

gs_status run_pdl(unsigned int blocks, const gs_bench_params *o, cudaStream_t s, gs_stats *st)
{
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(THREADS);
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    cudaGraph_t g;
    cudaGraphExec_t exec;
    GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < STEPS && err == cudaSuccess; ++i)
        err = cudaLaunchKernelEx(&cfg, pdl_step);
    GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
    if (err != cudaSuccess)
        cudaGraphDestroy(g);
    GS_CUDA_TRY(err);
    GS_TRY(instantiate(g, &exec));
    gs_status rc = time_chain(&exec, o, s, st);
    cudaGraphExecDestroy(exec);
    return rc;
}

gs_status run_handoff(const gs_bench_params *o, gs_table *t)
{
    int sms = 0, dev = 0, per_sm = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_TRY(gs_max_coresident_blocks((const void *)task_chain, THREADS, 4096, &per_sm));
    per_sm /= sms;
    unsigned int grids[8];
    int n = 0;
    if (o->blocks) {
        for (int i = 0; i < o->nblocks && n < 8; ++i)
            grids[n++] = (unsigned int)o->blocks[i];
    } else {
        const unsigned int cand[] = {1, 2, (unsigned)sms / 2, (unsigned)sms, 2u * sms, 4u * sms,
                                     8u * sms};
        for (unsigned int c : cand)
            if (c >= 1 && c <= (unsigned int)(per_sm * sms) && (n == 0 || grids[n - 1] != c))
                grids[n++] = c;
        if (o->preset == GS_PRESET_QUICK)
            n = n > 4 ? 4 : n;
    }
    cudaStream_t s;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    gs_progress prog;
    gs_progress_begin(&prog, "handoff", n);
    gs_status st = GS_SUCCESS;
    const char *names[3] = {"gridsync tasks", "gridsync signals", "kernels, graph + PDL"};
    for (int k = 0; k < n && st == GS_SUCCESS; ++k) {
        if (!o->quiet) {
            char what[48];
            snprintf(what, sizeof what, "%u blocks", grids[k]);
            gs_progress_step(&prog, k, what);
        }
        gs_stats m[3] = {};
        st = run_tasks(grids[k], o, s, &m[0]);
        if (st == GS_SUCCESS)
            st = run_signals(grids[k], o, s, &m[1]);
        if (st == GS_SUCCESS)
            st = run_pdl(grids[k], o, s, &m[2]);
        for (int v = 0; v < 3 && st == GS_SUCCESS; ++v) {
            gs_table_add_row(t);
            gs_row_value(t, "blocks", grids[k]);
            gs_row_text(t, "method", names[v]);
            gs_row_measured(t, "us_per_handoff", &m[v], 1.0);
            gs_row_value(t, "vs_pdl", m[2].median / m[v].median);
        }
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    cudaStreamDestroy(s);
    return st;
}

} // namespace

extern "C" const gs_bench_runner gs_runner_handoff = {run_handoff, NULL};
