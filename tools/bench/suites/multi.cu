/*
 * multi.cu - `gridsync bench multi`: how long GPUs take to meet, and
 * how fast they reduce together, for 2 .. all local GPUs, driven by one
 * process; then the same for 2 GPUs in two processes (one GPU each).
 *
 * Barrier (microseconds per barrier, host wall clock around a whole run
 * divided by the number of barriers; median of samples):
 *   gridsync p2p     gs_multi_sync in a persistent kernel on every GPU, at
 *                    1 block and 1 block per SM (or --blocks)
 *   nccl lsa barrier NCCL's device-API barrier (ncclLsaBarrierSession, NCCL
 *                    2.28+) in the same kind of kernel, at the same grids
 *                    (nccl_device_barrier.cu); skipped, with the reason on
 *                    stderr, where the NCCL at hand has no device API
 *   nccl allreduce   ncclAllReduce of one float on every GPU, back to back
 *                    (each one is a meeting of all GPUs)
 *   host stream sync an empty kernel on every GPU, then the host waits for
 *                    every stream (the meeting a program without device-side
 *                    synchronisation does; one process only)
 * Reduction (N = 2^28 floats per GPU): gs_multi_reduce_sum over g GPUs
 * against gs_reduce_sum of 2^28 floats on one GPU; GB/s of input read.
 *
 * Two processes (the methods named "..., 2 processes"): this program starts
 * itself again as rank 1 on the second GPU (bench/ranks.h: an argument
 * vector, an id file in a private folder, bounded waits; the hidden option
 * --rank-child), each process forms its rank of a group with
 * gs_multi_create_rank, and both run the same code below (two_process_rows),
 * rank 1 into a table nobody reads. The barrier's flags are mapped across
 * the processes with CUDA IPC; NCCL's peers get a communicator of their own.
 * Every timed call is one call on each rank (a launch and the check, an
 * all-reduce, a reduction), and the ranks take the same samples: after each
 * one, untimed, rank 0's stopping rule decides for both (gs_together), so a
 * sample of rank 0 is the same meetings as one of a single process. Rank 0
 * reports. Where rank 1 cannot start or join, the rows are skipped with a
 * line on stderr; a failure after that fails the suite.
 * Built without NCCL (no gridsync_multi), the suite is described but its
 * run says so.
 */
#include <stdio.h>

#include "gridsync_internal.h"
#include "bench/suite.h"

enum { C_GPUS, C_WHAT, C_METHOD, C_BLOCKS, C_US, C_GBS, C_SPEEDUP, NCOLS };

extern "C" const gs_bench_suite gs_suite_multi; /* rank 1's table takes its columns */

/* The methods; the two-process rows append TWO_PROCESSES. */
#define P2P "gridsync p2p"
#define LSA "nccl lsa barrier (device API)"
#define ALLREDUCE "nccl allreduce 1 word"
#define HOST_SYNC "host stream sync"
#define ONE_GPU "gs_reduce_sum, 1 GPU"
#define MULTI_REDUCE "gs_multi_reduce_sum"
#define TWO_PROCESSES ", 2 processes"
#define BARRIER "barrier"
#define REDUCE "reduce 2^28/GPU"

#ifdef GS_HAVE_MULTI
#include <gridsync/multi.cuh>
#include <nccl.h>

#include <string.h>

#include "bench/fill.h"
#include "bench/peers/nccl_calls.h"
#include "bench/peers/nccl_device_barrier.h"
#include "bench/progress.h"
#include "bench/ranks.h"
#include "bench/timer.h"

/* Two processes: bound on rank 1's start (exec, CUDA), and on every later
 * wait of one process for the other. */
static const double START_S = 60.0, WAIT_S = 30.0;

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
    gs_table_set(t, C_GPUS, gpus);
    gs_table_set_text(t, C_WHAT, what);
    gs_table_set_text(t, C_METHOD, name);
    if (blocks > 0)
        gs_table_set(t, C_BLOCKS, blocks);
    gs_table_set_measured(t, C_US, us, 1.0);
    if (gbs > 0)
        gs_table_set(t, C_GBS, gbs);
    if (speedup > 0)
        gs_table_set(t, C_SPEEDUP, speedup);
}

/* What the timed calls of one group of GPUs work on; arrays by local rank
 * (every GPU in one process, this process's one GPU in two). */
typedef struct meeting {
    gs_multi_t m;
    ncclComm_t *comms;   /* the NCCL peers' communicators */
    float **words, **in; /* one word and 2^28 floats per GPU */
    long long n;
    int iterations;      /* meetings per timed call */
    gs_multi_barrier_t bar; /* gridsync p2p: its barrier, grid and arguments */
    int blocks;
    void **args[GS_MULTI_MAX_GPUS];
    const gs_together *together; /* two processes: samples decided together; NULL: one */
    const char *suffix;  /* "" or TWO_PROCESSES */
} meeting;

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

/* The barrier rows of one group: gridsync p2p and NCCL's device-API
 * barrier at each grid, then the all-reduce and (one process) host-sync
 * peers; speedups against the all-reduce. A method that cannot run here is
 * skipped with a line on stderr, on every rank alike. */
static gs_status barrier_rows(meeting *c, const int *grids, int ngrids,
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

/* The reduction rows of one group: one GPU (one process only; its GB/s in
 * *one_gbs) against all of them (two processes: against `one_gbs` of the
 * one-process rows, when known). */
static gs_status reduce_rows(meeting *c, const gs_bench_params *o, gs_table *t, double *one_gbs)
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

/* This process's buffers (local rank r): a word, n floats filled from a
 * seed of the GPU's place in the group. */
static gs_status make_buffers(meeting *c, int r)
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

static void free_buffers(meeting *c)
{
    for (int r = 0; r < gs_multi_local_ranks(c->m); ++r) {
        cudaSetDevice(gs_multi_device(c->m, r));
        cudaFree(c->words[r]);
        cudaFree(c->in[r]);
    }
}

/* The first g GPUs of `devices`: a group, an NCCL communicator, buffers;
 * every row. */
static gs_status bench_group(int g, const int *devices, const int *grids, int ngrids,
                             const gs_bench_params *o, gs_table *t, double *one_gbs)
{
    ncclComm_t comms[GS_MULTI_MAX_GPUS] = {0};
    float *words[GS_MULTI_MAX_GPUS] = {0}, *in[GS_MULTI_MAX_GPUS] = {0};
    meeting c = {NULL, comms, words, in, 1ll << 28, o->iterations, NULL, 0, {0}, NULL, ""};
    GS_TRY(gs_multi_create(&c.m, g, devices));
    ncclResult_t res = ncclCommInitAll(comms, g, devices);
    gs_status st = res == ncclSuccess ? GS_SUCCESS
                                      : gs_bench_nccl_fail(res, "ncclCommInitAll", __FILE__,
                                                           __LINE__);
    for (int r = 0; r < g && st == GS_SUCCESS; ++r)
        st = make_buffers(&c, r);
    if (st == GS_SUCCESS)
        st = barrier_rows(&c, grids, ngrids, o, t);
    if (st == GS_SUCCESS)
        st = reduce_rows(&c, o, t, one_gbs);
    free_buffers(&c);
    for (int r = 0; r < g; ++r)
        if (comms[r])
            ncclCommDestroy(comms[r]);
    gs_multi_destroy(c.m);
    return st;
}

/* ------------------------------------------------------ two processes */

/* gs_together's agreement over the group: the smallest of every rank's
 * value (a host meeting, bounded by the group's time-out). */
static gs_status smallest_everywhere(void *ctx, int *value)
{
    meeting *c = (meeting *)ctx;
    int all[GS_MULTI_MAX_GPUS];
    GS_TRY(gs_multi_allgather(c->m, value, sizeof *value, all));
    for (int r = 0; r < gs_multi_size(c->m); ++r)
        *value = all[r] < *value ? all[r] : *value;
    return GS_SUCCESS;
}

/* The NCCL peers' own communicator of this rank (non-blocking, waited for
 * with a bound): rank 0's unique id to every rank through the group. */
static gs_status peer_comm(gs_multi_t m, ncclComm_t *comm)
{
    ncclUniqueId mine, all[GS_MULTI_MAX_GPUS];
    memset(&mine, 0, sizeof mine);
    if (gs_multi_rank(m, 0) == 0)
        GS_BENCH_NCCL_TRY(ncclGetUniqueId(&mine));
    GS_TRY(gs_multi_allgather(m, &mine, sizeof mine, all));
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, 0)));
    ncclResult_t res = ncclCommInitRankConfig(comm, gs_multi_size(m), all[0], gs_multi_rank(m, 0),
                                              &config);
    if (res != ncclSuccess && res != ncclInProgress) {
        gs_status st = gs_bench_nccl_fail(res, "ncclCommInitRankConfig (the peers' communicator)",
                                          __FILE__, __LINE__);
        if (*comm)
            ncclCommAbort(*comm);
        *comm = NULL;
        return st;
    }
    gs_status st = gs_bench_nccl_settle(*comm, WAIT_S,
                                        "ncclCommInitRankConfig (the peers' communicator)");
    if (st != GS_SUCCESS) {
        ncclCommAbort(*comm);
        *comm = NULL;
    }
    return st;
}

/* Finalised and destroyed after a run that went well (bounded), else
 * aborted (a rank may be gone, with NCCL's work in flight). */
static gs_status close_peer_comm(ncclComm_t comm, int healthy)
{
    if (!comm)
        return GS_SUCCESS;
    gs_status st = GS_SUCCESS;
    if (healthy) {
        ncclResult_t res = ncclCommFinalize(comm);
        st = res == ncclSuccess || res == ncclInProgress
                 ? gs_bench_nccl_settle(comm, WAIT_S, "ncclCommFinalize (the peers' communicator)")
                 : gs_bench_nccl_fail(res, "ncclCommFinalize", __FILE__, __LINE__);
        if (st == GS_SUCCESS) {
            res = ncclCommDestroy(comm);
            return res == ncclSuccess ? GS_SUCCESS
                                      : gs_bench_nccl_fail(res, "ncclCommDestroy", __FILE__,
                                                           __LINE__);
        }
    }
    ncclCommAbort(comm);
    return st;
}

/* Both ranks, the same calls in the same order: the peers' communicator,
 * buffers, the barrier rows at `grids`, the reduction row. `one_gbs`: the
 * one-process rows' GB/s of one GPU (0: none). Rank 1's table is not read. */
static gs_status two_process_rows(gs_multi_t m, int leader, const int *grids, int ngrids,
                                  const gs_bench_params *o, double one_gbs, gs_table *t)
{
    ncclComm_t comm = NULL;
    float *word = NULL, *in = NULL;
    meeting c = {m, &comm, &word, &in, 1ll << 28, o->iterations, NULL, 0, {0}, NULL,
                 TWO_PROCESSES};
    gs_together together = {smallest_everywhere, &c, leader};
    c.together = &together;
    gs_status st = gs_multi_set_timeout(m, WAIT_S);
    if (st == GS_SUCCESS)
        st = peer_comm(m, &comm);
    if (st == GS_SUCCESS)
        st = make_buffers(&c, 0);
    /* both ranks are set up before either times anything (a rank that is
     * not says so here, and both stop) */
    int ok = st == GS_SUCCESS;
    gs_status ast = smallest_everywhere(&c, &ok);
    if (st == GS_SUCCESS && ast != GS_SUCCESS)
        st = ast;
    else if (st == GS_SUCCESS && !ok)
        st = gs__fail(GS_ERR_CUDA, "bench multi: the other process could not set up its "
                                   "communicator or buffers (it says why on stderr)");
    if (st == GS_SUCCESS)
        st = barrier_rows(&c, grids, ngrids, o, t);
    if (st == GS_SUCCESS)
        st = reduce_rows(&c, o, t, &one_gbs);
    free_buffers(&c);
    gs_status cst = close_peer_comm(comm, st == GS_SUCCESS);
    return st != GS_SUCCESS ? st : cst;
}

/* "1,132": the grids for rank 1's command line. */
static void grid_list(const int *grids, int ngrids, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < ngrids && n < len; ++i)
        n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "", grids[i]);
}

/* Rank 0: start rank 1 on devices[1] (this program again), join on
 * devices[0], measure, wait for rank 1. Skipped, with a line on stderr,
 * when rank 1 cannot start or join. */
static gs_status two_processes(const int *devices, const int *grids, int ngrids,
                               const gs_bench_params *o, double one_gbs, gs_table *t)
{
    gs_bench_ranks r;
    gs_multi_t m = NULL;
    char device[16], blocks[16 * 12], iterations[16];
    snprintf(device, sizeof device, "%d", devices[1]);
    grid_list(grids, ngrids, blocks, sizeof blocks);
    snprintf(iterations, sizeof iterations, "%d", o->iterations);
    gs_status st = gs_bench_ranks_begin(&r);
    if (st == GS_SUCCESS) {
        const char *const argv[] = {r.self, "bench", "multi", "--rank-child", r.dir,
                                    "--devices", device, "--blocks", blocks,
                                    "--iterations", iterations, "--quiet", NULL};
        st = gs_bench_ranks_start(&r, argv, START_S);
    }
    if (st == GS_SUCCESS)
        st = gs_bench_ranks_join(&r, devices[0], WAIT_S, &m);
    if (st != GS_SUCCESS) {
        fprintf(stderr, "gridsync: bench multi: the two-process rows are skipped: %s\n",
                gs_last_error_detail());
        gs_bench_ranks_end(&r, 0.0); /* stops rank 1 if it runs */
        return GS_SUCCESS;
    }
    st = two_process_rows(m, 1, grids, ngrids, o, one_gbs, t);
    char detail[1024];
    snprintf(detail, sizeof detail, "%s", st != GS_SUCCESS ? gs_last_error_detail() : "");
    gs_multi_destroy(m);
    /* rank 1 ends on its own after the last call. After a failure: if it
     * failed first, it has ended already (with its reason on stderr); if
     * this rank did, it would only wait for its time-out: a short grace. */
    gs_status end = gs_bench_ranks_end(&r, st == GS_SUCCESS ? WAIT_S : 2.0);
    if (st != GS_SUCCESS)
        return gs__fail(st, "%s", detail);
    return end;
}

/* Rank 1 (`gridsync bench multi --rank-child DIR --devices D --blocks ...`):
 * join, then the same rows as rank 0. */
static gs_status run_rank_child(const gs_bench_params *o, int device, const char *dir)
{
    gs_multi_t m = NULL;
    if (!o->blocks || o->nblocks < 1 || o->iterations < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench multi --rank-child needs --blocks and "
                                                 "--iterations (rank 0 passes them)");
    gs_status st = gs_bench_ranks_join_child(dir, device, WAIT_S, &m);
    gs_table *scratch = gs_table_new_columns("rank 1", NCOLS, gs_suite_multi.columns);
    if (st == GS_SUCCESS && !scratch)
        st = gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st == GS_SUCCESS)
        st = two_process_rows(m, 0, o->blocks, o->nblocks, o, 0.0, scratch);
    char detail[1024];
    snprintf(detail, sizeof detail, "%s", st != GS_SUCCESS ? gs_last_error_detail() : "");
    gs_table_free(scratch);
    gs_multi_destroy(m);
    if (st != GS_SUCCESS)
        return gs__fail(st, "bench multi, rank 1 (GPU %d): %s", device, detail);
    return GS_SUCCESS;
}

static gs_status run_multi(const gs_bench_params *o, gs_table *t)
{
    int count = 0, devices[GS_MULTI_MAX_GPUS];
    if (o->iterations < 1 || o->samples < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench multi: bad options");
    GS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (o->devices)
        count = o->ndevices;
    if (count < 2)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "bench multi needs 2 or more GPUs; %s %d",
                        o->devices ? "--devices names" : "found", count);
    count = count < GS_MULTI_MAX_GPUS ? count : GS_MULTI_MAX_GPUS;
    for (int i = 0; i < count; ++i)
        devices[i] = o->devices ? o->devices[i] : i;
    int sms = 0;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, devices[0]));
    /* the grids per GPU: --blocks, else 1 block and 1 block per SM */
    const int standard[2] = {1, sms};
    const int *grids = o->blocks ? o->blocks : standard;
    const int ngrids = o->blocks ? o->nblocks : 2;
    gs_progress prog;
    if (!o->quiet)
        gs_progress_begin(&prog, "multi", count);
    gs_status st = GS_SUCCESS;
    double one_gbs = 0.0;
    for (int g = 2; g <= count && st == GS_SUCCESS; ++g) {
        double gbs = 0.0;
        if (!o->quiet) {
            char what[32];
            snprintf(what, sizeof what, "%d GPUs", g);
            gs_progress_step(&prog, g - 2, what);
        }
        st = bench_group(g, devices, grids, ngrids, o, t, &gbs);
        if (g == 2)
            one_gbs = gbs; /* the first GPU alone, for the two-process row */
    }
    if (st == GS_SUCCESS) {
        if (!o->quiet)
            gs_progress_step(&prog, count - 1, "2 processes");
        st = two_processes(devices, grids, ngrids, o, one_gbs, t);
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    return st;
}

#else /* built without NCCL */

static gs_status run_multi(const gs_bench_params *o, gs_table *t)
{
    (void)o, (void)t;
    return gs__fail(GS_ERR_NOT_SUPPORTED,
                    "bench multi: this gridsync was built without NCCL (gridsync_multi)");
}

#define run_rank_child NULL

#endif

/* ------------------------------------------------------ the description */

static const gs_column columns[NCOLS] = {
    {"gpus", "", 0, "GPUs meeting (0 .. g-1)"},
    {"what", "", 0, "barrier, or reduce 2^28/GPU"},
    {"method", "", 0, "one process driving every GPU: gridsync p2p, nccl lsa barrier (device "
                      "API; absent where the NCCL has none), nccl allreduce 1 word, host stream "
                      "sync; gs_reduce_sum, 1 GPU and gs_multi_reduce_sum. Two processes of one "
                      "GPU each: the same names with \", 2 processes\" (no host stream sync, no "
                      "one-GPU row)"},
    {"blocks_per_gpu", "", 0, "the grid on each GPU (p2p and lsa rows)"},
    {"us", "us", 3, "median time per barrier, or per call"},
    {"gb_per_s", "GB/s", 1, "reduce rows: input read, all GPUs"},
    {"speedup", "", 2, "barrier: the all-reduce's time (of the same number of processes) / this "
                       "time; reduce: against one GPU"}};

static const gs_summary_column summary_columns[] = {
    {"GPUs", GS_SUMMARY_FIELD, "gpus", NULL, NULL, "%.0f"},
    {"what", GS_SUMMARY_FIELD, "what", NULL, NULL, NULL},
    {"method", GS_SUMMARY_FIELD, "method", NULL, NULL, NULL},
    {"blocks per GPU", GS_SUMMARY_FIELD, "blocks_per_gpu", NULL, NULL, "%.0f"},
    {"us", GS_SUMMARY_FIELD, "us", NULL, NULL, "%.2f"},
    {"GB/s", GS_SUMMARY_FIELD, "gb_per_s", NULL, NULL, "%.0f"},
    {"vs peer", GS_SUMMARY_FIELD, "speedup", NULL, NULL, "%.2fx"}};

static const gs_summary_spec summary = {
    "Across GPUs (NCCL for the peers; the methods ending in \"2 processes\" ran in two processes "
    "of one GPU each, the others in one process driving every GPU; barrier rows in microseconds "
    "per barrier, reduction rows in microseconds per call at 2^28 floats per GPU):",
    NULL, "method", NULL, NULL, NULL, NULL, summary_columns, GS_COUNT(summary_columns)};

static const char *const ours[] = {P2P, ONE_GPU, MULTI_REDUCE, P2P TWO_PROCESSES,
                                   MULTI_REDUCE TWO_PROCESSES, NULL};
static const char *const peers[] = {LSA, ALLREDUCE, HOST_SYNC, LSA TWO_PROCESSES,
                                    ALLREDUCE TWO_PROCESSES, NULL};
static const char *const key[] = {"gpus", "what", "method", "blocks_per_gpu", NULL};
static const char *const barrier_what[] = {BARRIER, NULL};
static const char *const reduce_what[] = {REDUCE, NULL};
static const char *const group[] = {"gpus", "what", NULL};
static const char *const group_grid[] = {"gpus", "what", "blocks_per_gpu", NULL};
static const char *const where_barrier[] = {"gpus", "blocks_per_gpu", NULL};
static const char *const where_reduce[] = {"gpus", NULL};
static const char *const p2p[] = {P2P, NULL};
static const char *const p2p_two[] = {P2P TWO_PROCESSES, NULL};
static const char *const all_gpus[] = {MULTI_REDUCE, MULTI_REDUCE TWO_PROCESSES, NULL};
static const char *const method_and_grid[] = {"method", "blocks_per_gpu", NULL};
static const char *const method_only[] = {"method", NULL};
static const gs_headline headlines[] = {
    {ALLREDUCE, "us", 0, group, where_barrier, "what", barrier_what, "grids", 1, p2p, NULL},
    {ALLREDUCE TWO_PROCESSES, "us", 0, group, where_barrier, "what", barrier_what, "grids", 1,
     p2p_two, NULL},
    /* what a second process costs the same barrier, grid by grid */
    {P2P, "us", 0, group_grid, where_barrier, "what", barrier_what, "grids", 1, p2p_two, NULL},
    {ONE_GPU, "gb_per_s", 1, group, where_reduce, "what", reduce_what, "GPU counts", 1,
     all_gpus, NULL}};
static const gs_column_style styles[] = {
    {"gpus", "GPUs", GS_CELL_AUTO},
    {"blocks_per_gpu", "blocks/GPU", GS_CELL_AUTO},
    {"us", "time", GS_CELL_AUTO},
    {"gb_per_s", "bandwidth", GS_CELL_AUTO},
    {"speedup", "vs peer", GS_CELL_RATIO}};
static const gs_reading reading = {"method", ours, peers, key, "us", 0, headlines,
                                   GS_COUNT(headlines), styles, GS_COUNT(styles)};

static const gs_plot_spec plots[] = {
    {"gpus", NULL, "us", NULL, "method (blocks per GPU)", "microseconds per barrier", 0, 0, "%g",
     NULL, NULL, "barrier", "multi: time for all GPUs to meet", GS_PLOT_VALUE, NULL, 0,
     GS_STYLE_BARS, method_and_grid, NULL, "what", barrier_what, 0, 0, NULL, NULL, NULL, NULL,
     NULL},
    {"gpus", NULL, "gb_per_s", NULL, "method", "GB/s read, all GPUs", 0, 0, "%g", NULL, NULL,
     "reduce", "multi: sum of 2^28 floats per GPU", GS_PLOT_VALUE, NULL, 1, GS_STYLE_BARS,
     method_only, NULL, "what", reduce_what, 0, 0, NULL, NULL, NULL, NULL, NULL}};

extern "C" const gs_bench_suite gs_suite_multi = {
    "multi",
    "several GPUs (2 or more; built with NCCL): cross-GPU barrier latency vs NCCL's device-API "
    "barrier, an NCCL all-reduce of one word and host-side stream sync; reduction bandwidth of "
    "2^28 floats per GPU vs one GPU; one process driving every GPU, then two processes of one "
    "GPU each (the program starts itself again as the second)",
    "multi: GPUs meeting (us per barrier) and reducing together (2^28 floats per GPU)",
    columns, NCOLS,
    {{NULL, 0}, {NULL, 0}, {NULL, 0}},
    2,
    run_multi,
    plots, GS_COUNT(plots),
    &summary,
    NULL,
    &reading,
    run_rank_child};
