/*
 * two_processes.cu - the multi suite's rows of two processes of one GPU
 * each (meeting.h): rank 0 starts this program again as rank 1
 * (harness/ranks.h), both form their rank of a group, get the NCCL peers a
 * communicator of their own, and run the same rows, the samples decided by
 * rank 0's rule (gs_together); rank 1's table is not read.
 */
#include <stdio.h>
#include <string.h>

#include "gridsync_internal.h"
#include "harness/ranks.h"
#include "suites/multi/meeting.h"
#include "suites/multi/methods.h"
#include "suites/multi/nccl_calls.h"

extern "C" const gs_bench_suite gs_suite_multi; /* rank 1's table takes its columns */

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
        st = multi_make_buffers(&c, 0);
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
        st = multi_barrier_rows(&c, grids, ngrids, o, t);
    if (st == GS_SUCCESS)
        st = multi_reduce_rows(&c, o, t, &one_gbs);
    multi_free_buffers(&c);
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

gs_status multi_two_processes(const int *devices, const int *grids, int ngrids,
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

gs_status multi_rank_child(const gs_bench_params *o, int device, const char *dir)
{
    gs_multi_t m = NULL;
    if (!o->blocks || o->nblocks < 1 || o->iterations < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench multi --rank-child needs --blocks and "
                                                 "--iterations (rank 0 passes them)");
    gs_status st = gs_bench_ranks_join_child(dir, device, WAIT_S, &m);
    gs_table *scratch =
        gs_table_new_columns("rank 1", gs_suite_multi.ncolumns, gs_suite_multi.columns);
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
