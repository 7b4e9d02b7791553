/*
 * nccl_device_barrier.cu - the peer for gs_multi_sync: NCCL's own device-API
 * barrier, ncclLsaBarrierSession (NCCL 2.28+), inside a persistent kernel on
 * every GPU. Benchmark only.
 *
 * How NCCL's barrier works: each rank's block stores its next epoch into its
 * slot of every peer's inbox (system-scope release with
 * cuda::memory_order_acq_rel) and polls its own inbox for every peer's epoch
 * (acquire): the same one-round exchange gs_multi_sync does. Its wait has no
 * bound: a GPU that never arrives hangs the others, which is why gridsync's
 * own barrier is the peer-flag version with a watchdog, and this one is only
 * measured. The bench launches it only when every GPU has already accepted
 * its launch (cooperative, co-resident), and waits for it with a deadline;
 * past the deadline it reports the hang and ends the process, which frees
 * the GPUs.
 *
 * One process may drive every GPU (one group, comms for each), or each
 * process one GPU (bench multi's two-process rows): then every process runs
 * this on its own rank, and what must be the same everywhere (whether the
 * barrier can run, how many samples) is decided together (gs_together).
 *
 * A whole-grid barrier across GPUs from NCCL's per-block sessions: a grid
 * barrier (cooperative groups, the peer a user would pick), block 0's
 * session, a grid barrier: the composition gs_multi_sync uses, so the two
 * differ only in the cross-GPU step and the grid barrier.
 */
#include <cooperative_groups.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_internal.h"
#include "harness/timer.h"
#include "suites/multi/nccl_calls.h"
#include "suites/multi/nccl_device_barrier.h"

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0) && __has_include(<nccl_device.h>)
#define GS_HAVE_NCCL_DEVICE_API 1
#include <nccl_device.h>
#else
#define GS_HAVE_NCCL_DEVICE_API 0
#endif

extern "C" int gs__nccl_device_api_usable(int library_version, int header_version)
{
    return library_version == header_version && header_version >= NCCL_VERSION(2, 28, 0);
}

#if GS_HAVE_NCCL_DEVICE_API

namespace cg = cooperative_groups;

/* All threads of block 0 (or of the only block) hold one session; it keeps
 * its epoch in NCCL's state between launches. */
static __global__ void nccl_lsa_meet(ncclDevComm comm, int iters)
{
    if (gridDim.x == 1) {
        ncclLsaBarrierSession<ncclCoopCta> bar{ncclCoopCta(), comm, ncclTeamTagLsa(), 0};
        for (int i = 0; i < iters; ++i)
            bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);
        return;
    }
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 0) {
        ncclLsaBarrierSession<ncclCoopCta> bar{ncclCoopCta(), comm, ncclTeamTagLsa(), 0};
        for (int i = 0; i < iters; ++i) {
            grid.sync();
            bar.sync(ncclCoopCta(), cuda::memory_order_acq_rel);
            grid.sync();
        }
    } else {
        for (int i = 0; i < iters; ++i) {
            grid.sync();
            grid.sync();
        }
    }
}

/* Bound on waiting for the other ranks: the barrier's kernels, creating
 * and destroying NCCL's device communicators. */
static const double LSA_LIMIT_S = 30.0;

/* Wait for every local rank's stream, at most `limit` seconds (see the file
 * comment: NCCL's wait is unbounded, so a stuck run ends the process). */
static gs_status wait_all(gs_multi_t m, double limit)
{
    const double deadline = gs_now_seconds() + limit;
    for (int r = 0; r < gs_multi_local_ranks(m); ++r) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
        for (;;) {
            cudaError_t err = cudaStreamQuery(gs_multi_stream(m, r));
            if (err == cudaSuccess)
                break;
            if (err != cudaErrorNotReady)
                return gs__cuda_fail(err, "cudaStreamQuery (NCCL LSA barrier)", __FILE__, __LINE__);
            if (gs_now_seconds() > deadline) {
                fprintf(stderr, "gridsync: bench multi: NCCL's LSA barrier did not finish within "
                                "%.0f s on GPU %d; ending the process to free the GPUs\n",
                        limit, gs_multi_device(m, r));
                exit(EXIT_FAILURE);
            }
        }
    }
    return GS_SUCCESS;
}

static int is_ok(ncclResult_t r) { return r == ncclSuccess || r == ncclInProgress; }

static gs_status create_dev_comms(gs_multi_t m, ncclComm_t *comms, ncclDevComm *dev)
{
    ncclDevCommRequirements reqs;
    memset(&reqs, 0, sizeof reqs);
#ifdef NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER
    reqs = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;
#endif
    reqs.lsaBarrierCount = 1;
    /* collective over the ranks: one group from this one thread (a
     * non-blocking communicator answers ncclInProgress, then settles) */
    ncclResult_t res = ncclGroupStart();
    for (int r = 0; r < gs_multi_local_ranks(m) && is_ok(res); ++r)
        res = ncclDevCommCreate(comms[r], &reqs, &dev[r]);
    ncclResult_t end = ncclGroupEnd();
    if (is_ok(res))
        res = end;
    if (!is_ok(res))
        return gs__fail(GS_ERR_NOT_SUPPORTED, "ncclDevCommCreate: %s (no symmetric memory?)",
                        ncclGetErrorString(res));
    for (int r = 0; r < gs_multi_local_ranks(m); ++r) {
        gs_status st = gs_bench_nccl_settle(comms[r], LSA_LIMIT_S, "ncclDevCommCreate");
        if (st == GS_ERR_CUDA) /* NCCL refused it: a reason to skip, as above */
            return gs__fail(GS_ERR_NOT_SUPPORTED, "%s (no symmetric memory?)",
                            gs_last_error_detail());
        GS_TRY(st);
    }
    return GS_SUCCESS;
}

static gs_status destroy_dev_comms(gs_multi_t m, ncclComm_t *comms, const ncclDevComm *dev)
{
    GS_BENCH_NCCL_TRY(ncclGroupStart());
    for (int r = 0; r < gs_multi_local_ranks(m); ++r)
        GS_BENCH_NCCL_TRY(ncclDevCommDestroy(comms[r], &dev[r]));
    GS_BENCH_NCCL_TRY(ncclGroupEnd());
    for (int r = 0; r < gs_multi_local_ranks(m); ++r)
        GS_TRY(gs_bench_nccl_settle(comms[r], LSA_LIMIT_S, "ncclDevCommDestroy"));
    return GS_SUCCESS;
}

/* One timed call: the LSA barrier kernel on every GPU, then waiting for all. */
typedef struct lsa_run {
    gs_multi_t m;
    ncclDevComm dev[GS_MULTI_MAX_GPUS];
    int iterations, blocks;
} lsa_run;

static gs_status lsa_meet_everywhere(void *ctx)
{
    lsa_run *c = (lsa_run *)ctx;
    gs_status st = GS_SUCCESS;
    for (int r = 0; r < gs_multi_local_ranks(c->m) && st == GS_SUCCESS; ++r) {
        void *args[] = {&c->dev[r], &c->iterations};
        cudaError_t err = cudaSetDevice(gs_multi_device(c->m, r));
        if (err == cudaSuccess)
            err = cudaLaunchCooperativeKernel((const void *)nccl_lsa_meet, dim3(c->blocks),
                                              dim3(256), args, 0, gs_multi_stream(c->m, r));
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaLaunchCooperativeKernel (NCCL LSA barrier)", __FILE__,
                               __LINE__);
    }
    /* a rank whose launch failed leaves the others waiting: the deadline in
     * wait_all covers that too */
    gs_status wst = wait_all(c->m, LSA_LIMIT_S);
    return st != GS_SUCCESS ? st : wst;
}

/* Whether this process can run the barrier at `blocks` blocks on each of
 * its GPUs: the NCCL version, and co-residency. */
static gs_status runs_here(gs_multi_t m, int blocks)
{
    int version = 0;
    /* The device API is inlined from the headers: its layout must be the
     * library's exactly, patch level included (2.28.9 headers with a 2.28.3
     * library crashed with an illegal address). */
    if (ncclGetVersion(&version) != ncclSuccess ||
        !gs__nccl_device_api_usable(version, NCCL_VERSION_CODE))
        return gs__fail(GS_ERR_NOT_SUPPORTED,
                        "NCCL device API: the library is version %d but gridsync was built "
                        "with the headers of %d; rebuild against the NCCL you run",
                        version, NCCL_VERSION_CODE);
    for (int r = 0; r < gs_multi_local_ranks(m); ++r) { /* the whole grid must be co-resident */
        int per_sm = 0, sms = 0;
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
        GS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nccl_lsa_meet, 256, 0));
        GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                           gs_multi_device(m, r)));
        if ((long long)per_sm * sms < blocks)
            return gs__fail(GS_ERR_NOT_CORESIDENT, "NCCL LSA barrier: %d blocks do not fit", blocks);
    }
    return GS_SUCCESS;
}

gs_status gs__time_nccl_lsa_barrier(gs_multi_t m, ncclComm_t *comms, int blocks, int iterations,
                                    const gs_timing_plan *plan, const gs_together *together,
                                    gs_stats *us)
{
    GS_TRY(gs_together_verdict(together, runs_here(m, blocks), GS_ERR_NOT_SUPPORTED,
                               "NCCL LSA barrier"));
    lsa_run run = {m, {}, iterations, blocks};
    gs_status st = create_dev_comms(m, comms, run.dev);
    if (st == GS_ERR_BARRIER_TIMEOUT) /* the other ranks are gone: nothing to agree with */
        return st;
    GS_TRY(gs_together_verdict(together, st, GS_ERR_NOT_SUPPORTED, "NCCL LSA barrier"));
    st = gs_time_host_work_together(lsa_meet_everywhere, &run, plan, iterations, together, us);
    gs_status dst = destroy_dev_comms(m, comms, run.dev);
    return st != GS_SUCCESS ? st : dst;
}

#else /* no device API in this NCCL */

gs_status gs__time_nccl_lsa_barrier(gs_multi_t m, ncclComm_t *comms, int blocks, int iterations,
                                    const gs_timing_plan *plan, const gs_together *together,
                                    gs_stats *us)
{
    (void)m, (void)comms, (void)blocks, (void)iterations, (void)plan, (void)together, (void)us;
    return gs__fail(GS_ERR_NOT_SUPPORTED, "NCCL %d has no device API (needs 2.28 or later)",
                    NCCL_VERSION_CODE);
}

#endif
