/* launch.c - launching a kernel on a task plan (co-resident, one launch of
 * the plan at a time) and collecting its watchdog's report. */
#include "tasks_internal.h"

#include <stdlib.h>
#include <string.h>

#include "gridsync/detail/barrier/barrier_layout.h"
#include "../core/error.h"

/* Everything that must hold before a launch on `stream` (lock held). */
static gs_status check_launch(struct gs_task_plan *p, size_t smem, cudaStream_t stream,
                              int capturing, unsigned long long *stream_id)
{
    int dev = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    if (dev != p->device)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_launch: the plan belongs to device %d but device %d is "
                        "current",
                        p->device, dev);
    if (smem < p->smem_bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_launch: %zu bytes of dynamic shared memory, but the "
                        "plan's stages need %zu (gs_task_plan_smem_bytes)",
                        smem, p->smem_bytes);
    if (*p->host_flag)
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "gs_task_plan_launch: an earlier launch of this plan timed out and its "
                        "report has not been collected: call gs_task_plan_check (which reports "
                        "it and re-arms the plan) before launching again");
    if (capturing)
        return GS_SUCCESS;
    GS_CUDA_TRY(cudaStreamGetId(stream, stream_id));
    if (!p->launched || p->last_stream == *stream_id)
        return GS_SUCCESS;
    cudaError_t done = cudaEventQuery(p->last_launch);
    if (done == cudaErrorNotReady)
        return gs__fail(GS_ERR_BUSY,
                        "gs_task_plan_launch: this plan's previous launch, on another stream, "
                        "is still running; two launches of one plan would mix their counters. "
                        "Launch on the same stream, or wait for it (gs_task_plan_check)");
    if (done != cudaSuccess)
        return gs__cuda_fail(done, "cudaEventQuery(last launch)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs_task_plan_launch_func(gs_task_plan_t p, cudaFunction_t func, dim3 block,
                                   size_t dynamic_smem, cudaStream_t stream, void **args)
{
    if (!p)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_launch: plan is NULL");
    if (!p->built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_launch: build the plan first (gs_task_plan_build)");
    int capturing = 0;
    unsigned long long stream_id = 0;
    dim3 grid = {p->blocks, 1, 1};
    GS_TRY(gs__is_capturing(stream, &capturing));
    pthread_mutex_lock(&p->lock);
    gs_status st = check_launch(p, dynamic_smem, stream, capturing, &stream_id);
    if (st == GS_SUCCESS)
        st = gs_launch_func(func, grid, block, dynamic_smem, stream, args, NULL);
    if (st == GS_SUCCESS && !capturing) {
        cudaError_t err = cudaEventRecord(p->last_launch, stream);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaEventRecord(last launch)", __FILE__, __LINE__);
        else {
            p->last_stream = stream_id;
            p->launched = 1;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return st;
}

/* The report of a launch whose record is raised; re-arms the plan. */
static gs_status report(struct gs_task_plan *p, const unsigned int *rec)
{
    if (rec[GS_REC_KIND] == GS_REC_KIND_MISUSE && rec[GS_REC_DETAIL] == GS_MISUSE_TASK_GRID) {
        GS_TRY(gs__task_rearm(p));
        return gs__fail(GS_ERR_MISUSE,
                        "a kernel walked the task plan with a grid of %u blocks, but its lists "
                        "were built for %u: launch it with gs_task_plan_launch",
                        rec[GS_REC_DETAIL + 1], rec[GS_REC_DETAIL + 2]);
    }
    size_t state_words = (size_t)p->blocks * GS_TASK_BLOCK_WORDS;
    size_t counter_words = (size_t)p->ncounters * GS_TASK_COUNTER_STRIDE;
    unsigned int *state = malloc(state_words * sizeof *state);
    unsigned int *raw = malloc(counter_words * sizeof *raw);
    unsigned int *counters = malloc((size_t)p->ncounters * sizeof *counters);
    if (!state || !raw || !counters) {
        free(state);
        free(raw);
        free(counters);
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_task_plan_check: out of host memory");
    }
    cudaError_t err = cudaMemcpy(state, p->view.block_state, state_words * sizeof *state,
                                 cudaMemcpyDeviceToHost);
    if (err == cudaSuccess)
        err = cudaMemcpy(raw, p->view.counters, counter_words * sizeof *raw,
                         cudaMemcpyDeviceToHost);
    gs_status st = GS_SUCCESS;
    if (err != cudaSuccess) {
        st = gs__cuda_fail(err, "cudaMemcpy(task plan state)", __FILE__, __LINE__);
    } else {
        /* the launch's count: blocks that finished it have counted it already */
        unsigned int epoch = ~0u;
        for (unsigned int b = 0; b < p->blocks; ++b)
            if (state[(size_t)b * GS_TASK_BLOCK_WORDS + GS_TB_EPOCH] < epoch)
                epoch = state[(size_t)b * GS_TASK_BLOCK_WORDS + GS_TB_EPOCH];
        for (unsigned int c = 0; c < p->ncounters; ++c)
            counters[c] = raw[(size_t)c * GS_TASK_COUNTER_STRIDE] - epoch * p->period[c];
        gs__task_snapshot snap = {rec, state, counters};
        char msg[2048];
        gs__task_cause(p, &snap, msg, sizeof msg);
        st = gs__task_rearm(p);
        if (st == GS_SUCCESS)
            st = gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s", msg);
    }
    free(state);
    free(raw);
    free(counters);
    return st;
}

gs_status gs_task_plan_check(gs_task_plan_t p, cudaStream_t stream)
{
    if (!p)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_check: plan is NULL");
    if (!p->built)
        return GS_SUCCESS;
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    /* the last launch, possibly on another stream; waited for without the
     * lock, so that a launch meanwhile answers GS_ERR_BUSY, not blocks */
    pthread_mutex_lock(&p->lock);
    int launched = p->launched;
    pthread_mutex_unlock(&p->lock);
    if (launched)
        GS_CUDA_TRY(cudaEventSynchronize(p->last_launch));
    if (!*p->host_flag)
        return GS_SUCCESS;
    unsigned int rec[GS_LINE_WORDS];
    GS_CUDA_TRY(cudaMemcpy(rec, p->view.record, sizeof rec, cudaMemcpyDeviceToHost));
    pthread_mutex_lock(&p->lock);
    gs_status st = report(p, rec);
    pthread_mutex_unlock(&p->lock);
    return st;
}
