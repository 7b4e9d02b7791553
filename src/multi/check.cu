/*
 * check.cu - gs_multi_barrier_check: wait for the local GPUs, read what
 * their barriers recorded (broken, which ranks never arrived, at which
 * meeting; each GPU's own grid barrier), combine the records of every rank
 * (across processes, in a host meeting), re-arm, and say what happened in
 * one sentence naming the ranks.
 */
#include <gridsync/multi.cuh>

#include <stdio.h>
#include <string.h>

#include "multi_internal.h"

/* Keep the first failure of a sequence of steps that must all run. */
static void keep_first(gs_status *first, char *detail, size_t len, gs_status st)
{
    if (st == GS_SUCCESS || *first != GS_SUCCESS)
        return;
    *first = st;
    snprintf(detail, len, "%s", gs_last_error_detail());
}

/* What the GPUs recorded: broken, which GPUs never arrived, at which epoch. */
typedef struct multi_record {
    int broken, aborted, grid_failed, launch_failed;
    unsigned int missing, epoch;
    gs_status grid_status;
    char grid_detail[512];
    char check_detail[512]; /* processes: the ranks' meeting failed (a rank is gone) */
} multi_record;

static gs_status read_rank(gs_multi_barrier_t b, int r, multi_record *rec)
{
    unsigned int words[8];
    GS_ON_RANK(b->multi, r);
    GS_CUDA_TRY(cudaMemcpy(words, b->state[r], sizeof words, cudaMemcpyDeviceToHost));
    if (words[GS_MULTI_BROKEN]) {
        rec->broken = 1;
        rec->aborted |= words[GS_MULTI_REC_ABORTED] != 0u;
        rec->missing |= words[GS_MULTI_REC_MISSING];
        if (!rec->epoch || words[GS_MULTI_REC_EPOCH] < rec->epoch)
            rec->epoch = words[GS_MULTI_REC_EPOCH];
    }
    gs_status gst = gs_barrier_check(b->grid[r], b->multi->streams[r]);
    if (gst != GS_SUCCESS && rec->grid_status == GS_SUCCESS) {
        rec->grid_status = gst;
        snprintf(rec->grid_detail, sizeof rec->grid_detail, "GPU %d: %s", b->multi->devices[r],
                 gs_last_error_detail());
        rec->grid_failed = 1;
    }
    return GS_SUCCESS;
}

static gs_status rearm_rank(gs_multi_barrier_t b, int r)
{
    GS_ON_RANK(b->multi, r);
    GS_CUDA_TRY(cudaMemset(b->state[r], 0, GS_MULTI_STATE_WORDS * sizeof(unsigned int)));
    GS_CUDA_TRY(cudaDeviceSynchronize());
    return GS_SUCCESS;
}

static gs_status report(gs_multi_barrier_t b, const multi_record *rec)
{
    gs_multi_t m = b->multi;
    char msg[1024] = "";
    size_t len = 0;
    if (rec->broken) {
        len = (size_t)snprintf(msg, sizeof msg, "cross-GPU barrier #%u: ", rec->epoch);
        int listed = 0;
        for (int j = 0; j < m->size && j < GS_MULTI_MAX_GPUS && len < sizeof msg; ++j)
            if (rec->missing & (1u << j)) {
                char name[64];
                gs__multi_rank_name(m, j, name, sizeof name);
                len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", listed++ ? ", " : "",
                                        name);
            }
        if (len < sizeof msg && rec->aborted)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " never arrived (%s)",
                                    b->launch_failure[0] ? b->launch_failure
                                                         : "the meeting was called off");
        else if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " never arrived (time-out %.3f s)",
                                    __atomic_load_n(&b->timeout_ns, __ATOMIC_RELAXED) / 1e9);
    }
    if (rec->grid_status != GS_SUCCESS && len < sizeof msg)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", len ? "; " : "",
                                rec->grid_detail);
    else if (rec->grid_failed && len < sizeof msg)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%sanother rank's own grid barrier "
                                "timed out (its process reports it)", len ? "; " : "");
    if (rec->launch_failed && !b->launch_failure[0] && len < sizeof msg)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%sanother rank's launch failed (its "
                                "process reports it)", len ? "; " : "");
    else if (b->launch_failure[0] && !rec->aborted && len < sizeof msg)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", len ? "; " : "",
                                b->launch_failure);
    if (rec->check_detail[0] && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, "%sthe check itself: %s", len ? "; " : "",
                 rec->check_detail);
    return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s", msg);
}

/* Across processes: every rank's record to every rank (an all-reduce of
 * flags, max = or), so all report the same failure; if any rank broke, all
 * re-arm, then meet again, so that no rank's next kernel writes its epoch
 * into flags another rank is still zeroing. (When nothing broke every rank
 * passed the same meetings, and the epochs simply go on.) A rank that never
 * comes (its process ended) times the meeting out: this rank re-arms alone
 * and reports what it saw; the group is then aborted (nccl_wait.c). */
static gs_status merge_ranks(gs_multi_barrier_t b, multi_record *rec)
{
    enum { BROKEN, ABORTED, EPOCH, LAUNCH, GRID, MISSING, WORDS = MISSING + GS_MULTI_MAX_GPUS };
    int mine[WORDS] = {0}, all[WORDS] = {0};
    mine[BROKEN] = rec->broken;
    mine[ABORTED] = rec->aborted;
    mine[EPOCH] = (int)rec->epoch;
    mine[LAUNCH] = rec->launch_failed;
    mine[GRID] = rec->grid_failed;
    for (int j = 0; j < GS_MULTI_MAX_GPUS; ++j)
        mine[MISSING + j] = (rec->missing >> j) & 1u;
    gs_status st = gs__multi_allreduce_ints(b->multi, mine, WORDS, ncclMax, all,
                                            "gs_multi_barrier_check (the ranks' records)");
    if (st != GS_SUCCESS) {
        snprintf(rec->check_detail, sizeof rec->check_detail, "%s", gs_last_error_detail());
        return rearm_rank(b, 0);
    }
    rec->broken = all[BROKEN];
    rec->aborted = all[ABORTED];
    rec->epoch = (unsigned int)all[EPOCH];
    rec->launch_failed = all[LAUNCH];
    rec->grid_failed = all[GRID];
    for (int j = 0; j < GS_MULTI_MAX_GPUS; ++j)
        rec->missing |= all[MISSING + j] ? 1u << j : 0u;
    if (!rec->broken && !rec->launch_failed && !rec->grid_failed)
        return GS_SUCCESS;
    GS_TRY(rearm_rank(b, 0));
    int one = 1, count = 0;
    st = gs__multi_allreduce_ints(b->multi, &one, 1, ncclSum, &count,
                                  "gs_multi_barrier_check (re-arming together)");
    if (st != GS_SUCCESS)
        snprintf(rec->check_detail, sizeof rec->check_detail, "%s", gs_last_error_detail());
    return GS_SUCCESS;
}

/* Wait, read every GPU's record, and after a failure re-arm every GPU: each
 * step runs on every rank even when an earlier one failed, so the barrier is
 * never left half re-armed; the first failure is returned. */
static gs_status check_all(gs_multi_barrier_t b)
{
    gs_multi_t m = b->multi;
    multi_record rec;
    gs_status first = GS_SUCCESS;
    char detail[1024] = "";
    memset(&rec, 0, sizeof rec);
    for (int r = 0; r < m->local; ++r) {
        cudaError_t err = cudaSetDevice(m->devices[r]);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(m->streams[r]);
        if (err != cudaSuccess)
            keep_first(&first, detail, sizeof detail,
                       gs__cuda_fail(err, "cudaStreamSynchronize(rank's stream)", __FILE__, __LINE__));
    }
    for (int r = 0; r < m->local; ++r)
        keep_first(&first, detail, sizeof detail, read_rank(b, r, &rec));
    if (m->processes) {
        rec.launch_failed = b->launch_failure[0] != '\0';
        keep_first(&first, detail, sizeof detail, merge_ranks(b, &rec));
    } else {
        /* Re-arm only after a failure: after meetings that all completed,
         * every GPU holds the same epoch and its counter is back at a
         * meeting's start, so the next launch goes on from there (zeroing
         * cost a memset and a device synchronization per GPU every check). */
        const int failed = first != GS_SUCCESS || rec.broken || rec.grid_failed;
        for (int r = 0; r < m->local && failed; ++r)
            keep_first(&first, detail, sizeof detail, rearm_rank(b, r));
    }
    *b->abort = 0u;
    if (first != GS_SUCCESS)
        return gs__fail(first, "%s", detail);
    if (!rec.broken && !rec.grid_failed && !rec.launch_failed && !rec.check_detail[0])
        return GS_SUCCESS;
    return report(b, &rec);
}

extern "C" gs_status gs_multi_barrier_check(gs_multi_barrier_t b)
{
    int caller = 0;
    if (!b)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_check: NULL barrier");
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, check_all(b));
}
