/* timer.c - CUDA-event timing with warm-up, samples and optional graphs;
 * host-clock timing of work that waits for itself. */
#define _POSIX_C_SOURCE 200809L
#include "bench/timer.h"

#include <stdlib.h>
#include <time.h>

#include "gridsync_internal.h"

typedef struct timing {
    cudaEvent_t start, stop;
    cudaGraphExec_t exec;
    double *samples;
} timing;

static void timing_release(timing *t)
{
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    if (t->exec)
        cudaGraphExecDestroy(t->exec);
    free(t->samples);
}

static gs_status capture(gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream, int batch,
                         cudaGraphExec_t *exec)
{
    cudaGraph_t graph = NULL;
    GS_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    gs_status st = GS_SUCCESS;
    for (int i = 0; i < batch && st == GS_SUCCESS; ++i)
        st = enqueue(ctx, stream);
    cudaError_t err = cudaStreamEndCapture(stream, &graph);
    if (st != GS_SUCCESS) {
        if (graph)
            cudaGraphDestroy(graph);
        return st;
    }
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaStreamEndCapture(stream, &graph)", __FILE__, __LINE__);
    err = cudaGraphInstantiate(exec, graph, 0);
    cudaGraphDestroy(graph);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaGraphInstantiate(exec, graph, 0)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

static gs_status run_once(gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream,
                          cudaGraphExec_t exec)
{
    if (exec) {
        GS_CUDA_TRY(cudaGraphLaunch(exec, stream));
        return GS_SUCCESS;
    }
    return enqueue(ctx, stream);
}

static gs_status time_all(timing *t, gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream,
                          const gs_timing_plan *plan, gs_stats *stats)
{
    int per_sample = plan->graph_batch > 0 ? plan->graph_batch : 1;
    GS_CUDA_TRY(cudaEventCreate(&t->start));
    GS_CUDA_TRY(cudaEventCreate(&t->stop));
    if (plan->graph_batch > 0)
        GS_TRY(capture(enqueue, ctx, stream, plan->graph_batch, &t->exec));
    for (int i = 0; i < plan->warmup; ++i)
        GS_TRY(run_once(enqueue, ctx, stream, t->exec));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    for (int i = 0; i < plan->samples; ++i) {
        float ms = 0.0f;
        GS_CUDA_TRY(cudaEventRecord(t->start, stream));
        GS_TRY(run_once(enqueue, ctx, stream, t->exec));
        GS_CUDA_TRY(cudaEventRecord(t->stop, stream));
        GS_CUDA_TRY(cudaEventSynchronize(t->stop));
        GS_CUDA_TRY(cudaEventElapsedTime(&ms, t->start, t->stop));
        t->samples[i] = 1e3 * (double)ms / per_sample;
    }
    if (gs_stats_compute(t->samples, (size_t)plan->samples, stats) != 0)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "timing statistics: out of host memory");
    return GS_SUCCESS;
}

gs_status gs_time_work(gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream,
                       const gs_timing_plan *plan, gs_stats *stats)
{
    if (!enqueue || !plan || !stats || plan->samples < 1 || plan->warmup < 0 ||
        plan->graph_batch < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_work: bad timing plan");
    timing t = {0};
    t.samples = calloc((size_t)plan->samples, sizeof *t.samples);
    if (!t.samples)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_time_work: out of host memory");
    gs_status st = time_all(&t, enqueue, ctx, stream, plan, stats);
    timing_release(&t);
    return st;
}

/* What gs_time_calls enqueues: `calls` calls of `call`. */
typedef struct back_to_back {
    gs_call_fn call;
    void *ctx;
    int calls;
} back_to_back;

static gs_status enqueue_calls(void *p, cudaStream_t stream)
{
    const back_to_back *b = p;
    for (int i = 0; i < b->calls; ++i)
        GS_TRY(b->call(b->ctx, stream));
    return GS_SUCCESS;
}

gs_status gs_time_calls(gs_call_fn call, void *ctx, int calls, cudaStream_t stream,
                        const gs_timing_plan *plan, double *us)
{
    if (calls < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_calls: calls must be >= 1");
    back_to_back b = {call, ctx, calls};
    gs_stats stats;
    GS_TRY(gs_time_work(enqueue_calls, &b, stream, plan, &stats));
    *us = stats.median / calls;
    return GS_SUCCESS;
}

double gs_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static gs_status time_host_all(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                               double units, double *samples, gs_stats *stats)
{
    for (int i = 0; i < plan->warmup; ++i)
        GS_TRY(work(ctx));
    for (int i = 0; i < plan->samples; ++i) {
        double t0 = gs_now_seconds();
        GS_TRY(work(ctx));
        samples[i] = (gs_now_seconds() - t0) * 1e6 / units;
    }
    if (gs_stats_compute(samples, (size_t)plan->samples, stats) != 0)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "timing statistics: out of host memory");
    return GS_SUCCESS;
}

gs_status gs_time_host_work(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                            double units, gs_stats *stats)
{
    if (!work || !plan || !stats || plan->samples < 1 || plan->warmup < 0 || !(units > 0))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_host_work: bad timing plan");
    double *samples = calloc((size_t)plan->samples, sizeof *samples);
    if (!samples)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_time_host_work: out of host memory");
    gs_status st = time_host_all(work, ctx, plan, units, samples, stats);
    free(samples);
    return st;
}
