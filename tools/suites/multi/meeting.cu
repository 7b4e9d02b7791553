/*
 * meeting.cu - the rows of one group of GPUs meeting and reducing together
 * (meeting.h), the same code for one process driving every GPU and for
 * each of two processes: the persistent kernel of gridsync p2p, NCCL's
 * peers (nccl_device_barrier.cu, nccl_calls.h), the host-sync peer, the
 * reductions; each call host-timed (the rule of the command line, samples
 * decided together in two processes).
 */
#include <gridsync/multi.cuh>

#include <stdio.h>

#include "gridsync_internal.h"
#include "harness/fill.h"
#include "harness/timer.h"
#include "suites/multi/meeting.h"
#include "suites/multi/methods.h"
#include "suites/multi/nccl_calls.h"
#include "suites/multi/nccl_device_barrier.h"

static __global__ void meet(gs_multi_view v, int iters)
{
    for (int i = 0; i < iters; ++i)
        gs_multi_sync(&v);
}

static __global__ void empty_kernel(void) {}

static void add_row(gs_table *t, int gpus, const char *what, const char *method,
                    const char *suffix, int blocks, const gs_stats *us, double gbs,
                    double speedup)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", method, suffix);
    gs_table_add_row(t);
    gs_row_value(t, "gpus", gpus);
    gs_row_text(t, "what", what);
    gs_row_text(t, "method", name);
    if (blocks > 0)
        gs_row_value(t, "blocks_per_gpu", blocks);
    gs_row_measured(t, "us", us, 1.0);
    if (gbs > 0)
        gs_row_value(t, "gb_per_s", gbs);
    if (speedup > 0)
        gs_row_value(t, "speedup", speedup);
}

/* Notes on stderr come from rank 0 alone. */
static int speaks(const meeting *c) { return !c->together || c->together->leader; }

/* Host-timed calls of `work` after one untimed one, as the command line's
 * rule says, in microseconds per unit (`units` per call). */
static gs_status median_us(gs_host_work_fn work, meeting *c, const gs_bench_params *o,
                           double units, gs_stats *us)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    plan.warmup = 1;
    return gs_time_host_work_together(work, c, &plan, units, c->together, us);
}

static gs_status sync_all(gs_multi_t m)
{
    for (int r = 0; r < gs_multi_local_ranks(m); ++r) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
        GS_CUDA_TRY(cudaStreamSynchronize(gs_multi_stream(m, r)));
    }
    return GS_SUCCESS;
}

/* gs_multi_sync, c->iterations times in one persistent kernel per GPU. The
 * check follows even a failed launch (it is collective: the other ranks'
 * checks wait for this one, and it tells them). */
static gs_status p2p_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    gs_status st =
        gs_multi_launch(c->bar, (const void *)meet, dim3(c->blocks), dim3(256), 0, c->args);
    gs_status cst = gs_multi_barrier_check(c->bar);
    return st != GS_SUCCESS ? st : cst;
}

/* Whether `blocks` blocks of `meet` are co-resident on every local GPU. */
static gs_status p2p_fits(const meeting *c, int blocks)
{
    for (int r = 0; r < gs_multi_local_ranks(c->m); ++r) {
        int per_sm = 0, sms = 0, d = gs_multi_device(c->m, r);
        GS_CUDA_TRY(cudaSetDevice(d));
        GS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, meet, 256, 0));
        GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        if ((long long)per_sm * sms < blocks)
            return gs__fail(GS_ERR_NOT_CORESIDENT, "%d blocks do not fit on GPU %d (%d per SM, "
                                                   "%d SMs)",
                            blocks, d, per_sm, sms);
    }
    return GS_SUCCESS;
}

/* GS_ERR_NOT_CORESIDENT where the grid does not fit (on any rank), and
 * GS_ERR_NOT_SUPPORTED (with the reason) where the ranks meet on the host
 * path (two processes without peer access): no kernel meets there. */
static gs_status time_p2p(meeting *c, int blocks, const gs_bench_params *o, gs_stats *us)
{
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][2];
    const char *reason = "";
    GS_TRY(gs_together_verdict(c->together, p2p_fits(c, blocks), GS_ERR_NOT_CORESIDENT, P2P));
    GS_TRY(gs_multi_barrier_create(c->m, &c->bar));
    c->blocks = blocks;
    gs_status st = GS_SUCCESS;
    if (gs_multi_barrier_path(c->bar, &reason) != GS_MULTI_PATH_DEVICE)
        st = gs__fail(GS_ERR_NOT_SUPPORTED, "the barrier takes the host path: %s", reason);
    for (int r = 0; r < gs_multi_local_ranks(c->m) && st == GS_SUCCESS; ++r) {
        st = gs_multi_barrier_device(c->bar, r, (unsigned int)blocks, &views[r]);
        argv[r][0] = &views[r];
        argv[r][1] = &c->iterations;
        c->args[r] = argv[r];
    }
    if (st == GS_SUCCESS)
        st = median_us(p2p_meet, c, o, c->iterations, us);
    gs_status dst = gs_multi_barrier_destroy(c->bar);
    c->bar = NULL;
    return st != GS_SUCCESS ? st : dst;
}

/* c->iterations NCCL all-reduces of one word on every GPU, back to back;
 * two processes wait for them with a bound. (A non-blocking communicator,
 * two processes', may answer ncclInProgress: it settles before the next
 * call, as NCCL asks; after the first calls it answers at once.) */
static gs_status nccl_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    const int local = gs_multi_local_ranks(c->m);
    for (int i = 0; i < c->iterations; ++i) {
        GS_BENCH_NCCL_TRY(ncclGroupStart());
        for (int r = 0; r < local; ++r)
            GS_BENCH_NCCL_TRY(ncclAllReduce(c->words[r], c->words[r], 1, ncclFloat32, ncclSum,
                                            c->comms[r], gs_multi_stream(c->m, r)));
        ncclResult_t end = ncclGroupEnd();
        if (end != ncclSuccess && end != ncclInProgress)
            return gs_bench_nccl_fail(end, "ncclGroupEnd (ncclAllReduce of one word)", __FILE__,
                                      __LINE__);
        for (int r = 0; r < local && end == ncclInProgress; ++r)
            GS_TRY(gs_bench_nccl_settle(c->comms[r], WAIT_S, "ncclAllReduce of one word"));
    }
    if (!c->together)
        return sync_all(c->m);
    for (int r = 0; r < local; ++r) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(c->m, r)));
        GS_TRY(gs_bench_nccl_stream_wait(c->comms[r], gs_multi_stream(c->m, r), WAIT_S,
                                         "ncclAllReduce of one word"));
    }
    return GS_SUCCESS;
}

/* Host-side meetings per timed call: a tenth of the device-side ones (each
 * costs a host round trip), at least 10. */
static int host_meetings(const meeting *c)
{
    return c->iterations / 10 > 10 ? c->iterations / 10 : 10;
}

/* host_meetings() times: an empty kernel on every GPU, then the host waits
 * for every stream. */
static gs_status host_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    for (int i = 0; i < host_meetings(c); ++i) {
        for (int r = 0; r < gs_multi_local_ranks(c->m); ++r) {
            GS_CUDA_TRY(cudaSetDevice(gs_multi_device(c->m, r)));
            empty_kernel<<<1, 32, 0, gs_multi_stream(c->m, r)>>>();
            GS_CUDA_TRY(cudaGetLastError());
        }
        GS_TRY(sync_all(c->m));
    }
    return GS_SUCCESS;
}

/* gs_reduce_sum of the first GPU's n floats, on that GPU alone. */
static gs_status reduce_one_gpu(void *ctx)
{
    meeting *c = (meeting *)ctx;
    float result = 0.0f;
    GS_CUDA_TRY(cudaSetDevice(gs_multi_device(c->m, 0)));
    return gs_reduce_sum(GS_FLOAT32, c->in[0], c->n, &result, gs_multi_stream(c->m, 0));
}

/* gs_multi_reduce_sum of n floats on every GPU. */
static gs_status reduce_all_gpus(void *ctx)
{
    meeting *c = (meeting *)ctx;
    const void *ins[GS_MULTI_MAX_GPUS];
    float result = 0.0f;
    for (int r = 0; r < gs_multi_local_ranks(c->m); ++r)
        ins[r] = c->in[r];
    return gs_multi_reduce_sum(c->m, GS_FLOAT32, ins, c->n, &result);
}

gs_status multi_barrier_rows(meeting *c, const int *grids, int ngrids,
                             const gs_bench_params *o, gs_table *t)
{
    const int g = gs_multi_size(c->m);
    gs_stats us = {}, nccl = {}, host = {};
    GS_TRY(median_us(nccl_meet, c, o, o->iterations, &nccl));
    if (!c->together)
        GS_TRY(median_us(host_meet, c, o, host_meetings(c), &host));
    for (int i = 0; i < ngrids; ++i) {
        gs_status st = time_p2p(c, grids[i], o, &us);
        if (st == GS_ERR_NOT_SUPPORTED || st == GS_ERR_NOT_CORESIDENT) {
            if (speaks(c))
                fprintf(stderr, "gridsync: bench multi: " P2P "%s at %d blocks skipped: %s\n",
                        c->suffix, grids[i], gs_last_error_detail());
            if (st == GS_ERR_NOT_SUPPORTED)
                break; /* the host path: no grid meets */
            continue;
        }
        GS_TRY(st);
        add_row(t, g, BARRIER, P2P, c->suffix, grids[i], &us, 0, nccl.median / us.median);
    }
    for (int i = 0; i < ngrids; ++i) {
        gs_timing_plan plan = gs_bench_plan(o, 0);
        plan.warmup = 1;
        gs_status st = gs__time_nccl_lsa_barrier(c->m, c->comms, grids[i], o->iterations,
                                                 &plan, c->together, &us);
        if (st == GS_SUCCESS)
            add_row(t, g, BARRIER, LSA, c->suffix, grids[i], &us, 0, nccl.median / us.median);
        else if (st == GS_ERR_NOT_SUPPORTED || st == GS_ERR_NOT_CORESIDENT) {
            if (speaks(c))
                fprintf(stderr, "gridsync: bench multi: NCCL device-API barrier%s at %d blocks "
                                "skipped: %s\n",
                        c->suffix, grids[i], gs_last_error_detail());
        } else
            return st;
    }
    add_row(t, g, BARRIER, ALLREDUCE, c->suffix, 0, &nccl, 0, 1.0);
    if (!c->together)
        add_row(t, g, BARRIER, HOST_SYNC, c->suffix, 0, &host, 0, nccl.median / host.median);
    return GS_SUCCESS;
}

gs_status multi_reduce_rows(meeting *c, const gs_bench_params *o, gs_table *t, double *one_gbs)
{
    const int g = gs_multi_size(c->m);
    const double bytes = c->n * 4.0;
    gs_stats one = {}, all = {};
    if (!c->together) {
        GS_TRY(median_us(reduce_one_gpu, c, o, 1.0, &one));
        *one_gbs = bytes / one.median / 1e3;
        add_row(t, g, REDUCE, ONE_GPU, c->suffix, 0, &one, *one_gbs, 1.0);
    }
    GS_TRY(median_us(reduce_all_gpus, c, o, 1.0, &all));
    const double gbs = g * bytes / all.median / 1e3;
    add_row(t, g, REDUCE, MULTI_REDUCE, c->suffix, 0, &all, gbs,
            *one_gbs > 0 ? gbs / *one_gbs : 0.0);
    return GS_SUCCESS;
}

gs_status multi_make_buffers(meeting *c, int r)
{
    cudaError_t err = cudaSetDevice(gs_multi_device(c->m, r));
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&c->words[r], 4);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&c->in[r], (size_t)c->n * 4);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "bench multi: buffers (cudaMalloc)", __FILE__, __LINE__);
    GS_TRY(gs_fill_uniform(c->in[r], c->n, -0.5f, 0.5f, 17u + (unsigned int)gs_multi_rank(c->m, r),
                           0));
    GS_CUDA_TRY(cudaDeviceSynchronize());
    return GS_SUCCESS;
}

void multi_free_buffers(meeting *c)
{
    for (int r = 0; r < gs_multi_local_ranks(c->m); ++r) {
        cudaSetDevice(gs_multi_device(c->m, r));
        cudaFree(c->words[r]);
        cudaFree(c->in[r]);
    }
}
