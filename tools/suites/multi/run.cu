/*
 * run.cu - `gridsync bench multi`: how long GPUs take to meet, and
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
 * itself again as rank 1 on the second GPU (harness/ranks.h: an argument
 * vector, an id file in a private folder, bounded waits; the hidden option
 * --rank-child), each process forms its rank of a group with
 * gs_multi_create_rank, and both run the same rows (meeting.cu,
 * two_processes.cu), rank 1 into a table nobody reads. The barrier's flags
 * are mapped across the processes with CUDA IPC; NCCL's peers get a
 * communicator of their own.
 * Every timed call is one call on each rank (a launch and the check, an
 * all-reduce, a reduction), and the ranks take the same samples: after each
 * one, untimed, rank 0's stopping rule decides for both (gs_together), so a
 * sample of rank 0 is the same meetings as one of a single process. Rank 0
 * reports. Where rank 1 cannot start or join, the rows are skipped with a
 * line on stderr; a failure after that fails the suite.
 * Built without NCCL (no gridsync_multi), the suite is described but its
 * run says so.
 *
 * Its description (columns, plots, README table, reading): describe.c.
 */
#include <stdio.h>

#include "gridsync_internal.h"
#include "harness/params.h"

#ifdef GS_HAVE_MULTI
#include "harness/progress.h"
#include "suites/multi/meeting.h"
#include "suites/multi/nccl_calls.h"

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
        st = multi_make_buffers(&c, r);
    if (st == GS_SUCCESS)
        st = multi_barrier_rows(&c, grids, ngrids, o, t);
    if (st == GS_SUCCESS)
        st = multi_reduce_rows(&c, o, t, one_gbs);
    multi_free_buffers(&c);
    for (int r = 0; r < g; ++r)
        if (comms[r])
            ncclCommDestroy(comms[r]);
    gs_multi_destroy(c.m);
    return st;
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
        st = multi_two_processes(devices, grids, ngrids, o, one_gbs, t);
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

#define multi_rank_child NULL

#endif

extern "C" const gs_bench_runner gs_runner_multi = {run_multi, multi_rank_child};
