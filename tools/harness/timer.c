/* timer.c - CUDA-event timing with warm-up, a stopping rule, optional L2
 * flushes and optional graphs; host-clock timing of work that waits for
 * itself. */
#define _POSIX_C_SOURCE 200809L
#include "harness/timer.h"

#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "harness/l2flush.h"

/* The samples taken so far, as the rule counts them. */
typedef struct sampler {
    gs_sampling rule;
    gs_sample_tally tally;
    double *values;
    int cap;
    double start_s;
    gs_stop_reason stop;
} sampler;

static gs_status sampler_begin(sampler *s, const gs_timing_plan *plan, const char *who)
{
    s->rule = plan->sampling ? *plan->sampling : gs_sampling_fixed(plan->samples);
    if (gs_sampling_valid(&s->rule) != 0 || plan->warmup < 0 || plan->graph_batch < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: bad timing plan", who);
    s->cap = s->rule.max_samples < 64 ? s->rule.max_samples : 64;
    s->values = malloc((size_t)s->cap * sizeof *s->values);
    if (!s->values)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "%s: out of host memory", who);
    s->start_s = gs_now_seconds();
    return GS_SUCCESS;
}

/* Count one sample of `value` (per unit) that took `duration_s`; sets
 * s->stop when the rule says stop. */
static gs_status sampler_add(sampler *s, double value, double duration_s)
{
    if (s->tally.n == s->cap) { /* (a follower may go past its own max_samples) */
        int cap = s->cap * 2 < s->rule.max_samples || s->cap >= s->rule.max_samples
                      ? s->cap * 2
                      : s->rule.max_samples;
        double *v = realloc(s->values, (size_t)cap * sizeof *v);
        if (!v)
            return gs__fail(GS_ERR_OUT_OF_MEMORY, "timing: out of host memory");
        s->values = v;
        s->cap = cap;
    }
    s->values[s->tally.n] = value;
    gs_tally_add(&s->tally, value, duration_s);
    s->stop = gs_sampling_check(&s->rule, &s->tally, gs_now_seconds() - s->start_s);
    return GS_SUCCESS;
}

static gs_status sampler_end(sampler *s, int timing, gs_stats *stats)
{
    int rc = gs_stats_compute(s->values, (size_t)s->tally.n, stats);
    free(s->values);
    s->values = NULL;
    if (rc != 0)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "timing statistics: out of host memory");
    stats->timing = timing;
    stats->stop = s->stop;
    return GS_SUCCESS;
}

typedef struct timing {
    cudaEvent_t start, stop;
    cudaGraphExec_t exec;
} timing;

static void timing_release(timing *t)
{
    if (t->start)
        cudaEventDestroy(t->start);
    if (t->stop)
        cudaEventDestroy(t->stop);
    if (t->exec)
        cudaGraphExecDestroy(t->exec);
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

/* Warm-up, then samples until the rule stops them. Each sample: (cold: the
 * L2 flush), start event, the work, stop event, wait for it. The wait per
 * sample lets the rule look at every sample; a cold sample starts behind
 * its flush, so the GPU never waits for the host inside the events. */
static gs_status time_all(timing *t, sampler *s, gs_enqueue_fn enqueue, void *ctx,
                          cudaStream_t stream, const gs_timing_plan *plan)
{
    int per_sample = plan->graph_batch > 0 ? plan->graph_batch : 1;
    GS_CUDA_TRY(cudaEventCreate(&t->start));
    GS_CUDA_TRY(cudaEventCreate(&t->stop));
    if (plan->graph_batch > 0)
        GS_TRY(capture(enqueue, ctx, stream, plan->graph_batch, &t->exec));
    for (int i = 0; i < plan->warmup; ++i)
        GS_TRY(run_once(enqueue, ctx, stream, t->exec));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    s->start_s = gs_now_seconds();
    while (s->stop == GS_STOP_NOT_YET) {
        float ms = 0.0f;
        if (s->rule.cold)
            GS_TRY(gs_l2_flush(stream));
        GS_CUDA_TRY(cudaEventRecord(t->start, stream));
        GS_TRY(run_once(enqueue, ctx, stream, t->exec));
        GS_CUDA_TRY(cudaEventRecord(t->stop, stream));
        GS_CUDA_TRY(cudaEventSynchronize(t->stop));
        GS_CUDA_TRY(cudaEventElapsedTime(&ms, t->start, t->stop));
        GS_TRY(sampler_add(s, 1e3 * (double)ms / per_sample, 1e-3 * (double)ms));
    }
    return GS_SUCCESS;
}

gs_status gs_time_work(gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream,
                       const gs_timing_plan *plan, gs_stats *stats)
{
    if (!enqueue || !plan || !stats)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_work: bad timing plan");
    sampler s = {0};
    GS_TRY(sampler_begin(&s, plan, "gs_time_work"));
    timing t = {0};
    gs_status st = time_all(&t, &s, enqueue, ctx, stream, plan);
    timing_release(&t);
    if (st != GS_SUCCESS) {
        free(s.values);
        return st;
    }
    return sampler_end(&s, s.rule.cold ? GS_TIMING_COLD : GS_TIMING_HOT, stats);
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

gs_status gs_time_calls_stats(gs_call_fn call, void *ctx, int calls, cudaStream_t stream,
                              const gs_timing_plan *plan, gs_stats *stats)
{
    if (calls < 1 || !call || !plan)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_calls: calls must be >= 1");
    int cold = plan->sampling && plan->sampling->cold;
    back_to_back b = {call, ctx, cold ? 1 : calls};
    GS_TRY(gs_time_work(enqueue_calls, &b, stream, plan, stats));
    gs_stats_scale(stats, 1.0 / b.calls);
    return GS_SUCCESS;
}

gs_status gs_time_calls(gs_call_fn call, void *ctx, int calls, cudaStream_t stream,
                        const gs_timing_plan *plan, double *us)
{
    gs_stats stats;
    GS_TRY(gs_time_calls_stats(call, ctx, calls, stream, plan, &stats));
    *us = stats.median;
    return GS_SUCCESS;
}

/* After a sample, untimed: the leader's decision, for every process. A
 * follower told to stop records why as the count rule (its own rule was
 * not asked). */
static gs_status decide_together(const gs_together *together, sampler *s)
{
    int value = together->leader ? s->stop != GS_STOP_NOT_YET : 1;
    GS_TRY(together->agree(together->ctx, &value));
    if (!value)
        s->stop = GS_STOP_NOT_YET;
    else if (!together->leader)
        s->stop = GS_STOP_COUNT;
    return GS_SUCCESS;
}

static gs_status time_host_all(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                               double units, const gs_together *together, sampler *s)
{
    for (int i = 0; i < plan->warmup; ++i)
        GS_TRY(work(ctx));
    s->start_s = gs_now_seconds();
    while (s->stop == GS_STOP_NOT_YET) {
        double t0 = gs_now_seconds();
        GS_TRY(work(ctx));
        double seconds = gs_now_seconds() - t0;
        GS_TRY(sampler_add(s, seconds * 1e6 / units, seconds));
        if (together)
            GS_TRY(decide_together(together, s));
    }
    return GS_SUCCESS;
}

gs_status gs_together_verdict(const gs_together *together, gs_status mine, gs_status elsewhere,
                              const char *what)
{
    if (!together)
        return mine;
    char detail[1024] = "";
    if (mine != GS_SUCCESS)
        snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    int ok = mine == GS_SUCCESS;
    GS_TRY(together->agree(together->ctx, &ok));
    if (mine != GS_SUCCESS)
        return gs__fail(mine, "%s", detail);
    if (!ok)
        return gs__fail(elsewhere, "%s: another process cannot run it", what);
    return GS_SUCCESS;
}

gs_status gs_time_host_work(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                            double units, gs_stats *stats)
{
    return gs_time_host_work_together(work, ctx, plan, units, NULL, stats);
}

gs_status gs_time_host_work_together(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                                     double units, const gs_together *together, gs_stats *stats)
{
    if (!work || !plan || !stats || !(units > 0) || (together && !together->agree))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_time_host_work: bad timing plan");
    sampler s = {0};
    GS_TRY(sampler_begin(&s, plan, "gs_time_host_work"));
    gs_status st = time_host_all(work, ctx, plan, units, together, &s);
    if (st != GS_SUCCESS) {
        free(s.values);
        return st;
    }
    return sampler_end(&s, GS_TIMING_HOST, stats);
}
