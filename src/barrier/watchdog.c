/* watchdog.c - turning a barrier's time-out record into a sentence. */
#include "barrier_internal.h"

#include <gridsync/detail/barrier_layout.h>

#include <stdio.h>
#include <stdlib.h>

#include "../core/error.h"

enum { GS_LIST_MAX = 16 }; /* missing blocks named before "and N more" */

void gs__format_timeout(char *buf, size_t len, unsigned int barrier_no, unsigned int blocks,
                        const unsigned int *where)
{
    unsigned int arrived = 0, missing = 0;
    for (unsigned int i = 0; i < blocks; ++i)
        arrived += where[i] == barrier_no;
    missing = blocks - arrived;

    int n = snprintf(buf, len, "barrier #%u: %u/%u blocks arrived", barrier_no, arrived, blocks);
    if (missing == 0 || n < 0 || (size_t)n >= len)
        return;
    n += snprintf(buf + n, len - (size_t)n, "; missing: block%s", missing == 1 ? "" : "s");
    unsigned int listed = 0;
    for (unsigned int i = 0; i < blocks && listed < GS_LIST_MAX && (size_t)n < len; ++i) {
        if (where[i] == barrier_no)
            continue;
        n += snprintf(buf + n, len - (size_t)n, "%s %u", listed ? "," : "", i);
        ++listed;
    }
    if (missing > listed && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " and %u more", missing - listed);
}

static unsigned long long word64(const unsigned int *lo_hi)
{
    return (unsigned long long)lo_hi[0] | (unsigned long long)lo_hi[1] << 32;
}

void gs__format_misuse(char *buf, size_t len, const unsigned int *rec)
{
    const unsigned int *a = rec + GS_REC_DETAIL + 1u;
    unsigned int block = rec[GS_REC_OBSERVER], no = rec[GS_REC_BARRIER];
    switch (rec[GS_REC_DETAIL]) {
    case GS_MISUSE_NEIGHBOUR_OUTSIDE:
        snprintf(buf, len, "block %u listed neighbour %u at barrier #%u, outside the grid of %u "
                 "blocks", block, a[0], no, a[1]);
        return;
    case GS_MISUSE_NEIGHBOUR_LAUNCH:
        snprintf(buf, len, "block %u found %u blocks counted at its first neighbour barrier, in a "
                 "grid of %u: an earlier launch did not call the neighbour barrier from every "
                 "block (the state was reset)", block, a[0], a[1]);
        return;
    case GS_MISUSE_SUBSET_OUTSIDE:
        snprintf(buf, len, "block %u called a subset barrier (barrier #%u) whose member %u is "
                 "outside the grid of %u blocks", block, no, a[0], a[1]);
        return;
    case GS_MISUSE_SUBSET_NOT_MEMBER:
        snprintf(buf, len, "block %u called the subset barrier of slot %u (barrier #%u) but is "
                 "not in its member list", block, a[0], no);
        return;
    case GS_MISUSE_SUBSET_TWICE:
        snprintf(buf, len, "the member list of subset slot %u lists block %u twice (barrier #%u, "
                 "seen by block %u): its barrier could never complete", a[1], a[0], no, block);
        return;
    case GS_MISUSE_SUBSET_SLOT:
        snprintf(buf, len, "block %u used subset slot %u (barrier #%u), past the barrier's "
                 "capacity %u", block, a[0], no, rec[GS_REC_CAPACITY]);
        return;
    case GS_MISUSE_SUBSET_EMPTY:
        snprintf(buf, len, "block %u called the subset barrier of slot %u (barrier #%u) with an "
                 "empty member list", block, a[0], no);
        return;
    case GS_MISUSE_TOKEN:
        snprintf(buf, len, "block %u called gs_grid_wait at barrier #%u with the token of "
                 "barrier #%u: another barrier of the view ran between gs_grid_arrive and "
                 "gs_grid_wait", block, a[1], a[0]);
        return;
    case GS_MISUSE_SIGNAL_BACKWARDS:
        snprintf(buf, len, "block %u stored %llu into signal %u, below its value %llu: signals "
                 "only grow (the store was ignored)", block, word64(a + 3), a[0], word64(a + 1));
        return;
    case GS_MISUSE_SIGNAL_INDEX:
        snprintf(buf, len, "block %u used signal %u of a set of %u", block, a[0], a[1]);
        return;
    default:
        snprintf(buf, len, "block %u misused a primitive (code %u)", block, rec[GS_REC_DETAIL]);
    }
}

void gs__format_wait_timeout(char *buf, size_t len, const char *what, const unsigned int *rec,
                             double timeout_s)
{
    const unsigned int *a = rec + GS_REC_DETAIL;
    snprintf(buf, len, "%s %u: block %u waited for >= %llu but it stayed at %llu (time-out %.3f "
             "s)", what, a[0], rec[GS_REC_OBSERVER], word64(a + 3), word64(a + 1), timeout_s);
}

void gs__format_tagged_timeout(char *buf, size_t len, const unsigned int *rec, double timeout_s)
{
    const unsigned int *a = rec + GS_REC_DETAIL;
    snprintf(buf, len, "tagged word from block %u: block %u waited for tag %u but saw tag %u "
             "(time-out %.3f s)", a[0], rec[GS_REC_OBSERVER], a[3], a[1], timeout_s);
}

/* The report of a raised record (the launches have ended); re-arms.
 * `timeout_s`: the barrier's time-out when the check began. */
static gs_status report(gs_barrier_t barrier, const unsigned int *rec, double timeout_s)
{
    unsigned int blocks = rec[GS_REC_BLOCKS];
    const char *late = rec[GS_REC_LATE]
                           ? "; blocks that reached a barrier after the time-out left there "
                             "without passing it (blocks behind the others, or a launch made "
                             "before this check)"
                           : "";
    if (rec[GS_REC_KIND] == GS_REC_KIND_OVERSIZED) {
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "a grid of %u blocks used a barrier that serves at most %u: every block "
                        "left at its first barrier and nothing was synchronized (launch with "
                        "gs_launch, which refuses such grids)",
                        blocks, barrier->capacity);
    }
    if (rec[GS_REC_KIND] == GS_REC_KIND_BAD_METHOD) {
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "a grid of %u blocks passed a view whose method is %d, which this build "
                        "of gridsync does not have: every block left at its first barrier and "
                        "nothing was synchronized (fill views with gs_barrier_device)",
                        blocks, (int)rec[GS_REC_METHOD]);
    }
    if (rec[GS_REC_KIND] == GS_REC_KIND_MISUSE) {
        char msg[512];
        gs__format_misuse(msg, sizeof msg, rec);
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_MISUSE, "%s; the grid left the kernel", msg);
    }
    if (rec[GS_REC_KIND] == GS_REC_KIND_WAIT_TIMEOUT) {
        char msg[512];
        char what[64];
        snprintf(what, sizeof what, "neighbour barrier #%u: the epoch of block",
                 rec[GS_REC_BARRIER]);
        gs__format_wait_timeout(msg, sizeof msg, what, rec, timeout_s);
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s%s", msg, late);
    }
    if (rec[GS_REC_KIND] == GS_REC_KIND_TAGGED_TIMEOUT) {
        char msg[512];
        gs__format_tagged_timeout(msg, sizeof msg, rec, timeout_s);
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s%s", msg, late);
    }
    if (blocks == 0 || blocks > barrier->capacity) {
        GS_TRY(gs__barrier_rearm(barrier));
        return gs__fail(GS_ERR_BARRIER_TIMEOUT, "barrier #%u timed out (grid size unknown)%s",
                        rec[GS_REC_BARRIER], late);
    }
    unsigned int *where = malloc(blocks * sizeof *where);
    if (!where)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_barrier_check: out of host memory");
    cudaError_t err = cudaMemcpy(where, barrier->state + GS_W_WHERE, blocks * sizeof *where,
                                 cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        free(where);
        return gs__cuda_fail(err, "cudaMemcpy(watchdog record)", __FILE__, __LINE__);
    }
    char msg[768];
    gs__format_timeout(msg, sizeof msg, rec[GS_REC_BARRIER], blocks, where);
    free(where);
    GS_TRY(gs__barrier_rearm(barrier));
    return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s (%s barrier, time-out %.3f s)%s", msg,
                    gs_barrier_method_name((gs_barrier_method)rec[GS_REC_METHOD]), timeout_s,
                    late);
}

/* What the check saw of the barrier when it began (under its lock). */
typedef struct check_start {
    int launched, captured;
    double timeout_s;
} check_start;

/* Wait for `stream`, the last direct launch and the last graph replay, then
 * read the record (and report and re-arm). Without the lock: launches are
 * refused meanwhile (`checking`). */
static gs_status wait_and_read(gs_barrier_t barrier, cudaStream_t stream, check_start at)
{
    unsigned int rec[GS_LINE_WORDS];
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    if (at.launched)
        GS_CUDA_TRY(cudaEventSynchronize(barrier->last_launch));
    if (at.captured)
        GS_CUDA_TRY(cudaEventSynchronize(barrier->graph_launch));
    GS_CUDA_TRY(cudaMemcpy(rec, barrier->state, sizeof rec, cudaMemcpyDeviceToHost));
    if (rec[GS_REC_FLAG] == 0)
        return GS_SUCCESS;
    return report(barrier, rec, at.timeout_s);
}

/* The lock is held only to mark the check under way and to read what it
 * needs: a gs_launch meanwhile returns GS_ERR_BUSY at once instead of
 * waiting behind the stream synchronize. */
gs_status gs_barrier_check(gs_barrier_t barrier, cudaStream_t stream)
{
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_check: barrier is NULL");
    pthread_mutex_lock(&barrier->lock);
    const int busy = barrier->checking;
    const check_start at = {barrier->launched, barrier->captured, barrier->timeout_ns / 1e9};
    barrier->checking = 1; /* (already so when busy) */
    pthread_mutex_unlock(&barrier->lock);
    if (busy)
        return gs__fail(GS_ERR_BUSY, "gs_barrier_check: another thread is checking this barrier "
                                     "now; check a barrier from one thread at a time");
    gs_status st = wait_and_read(barrier, stream, at);
    pthread_mutex_lock(&barrier->lock);
    barrier->checking = 0;
    pthread_mutex_unlock(&barrier->lock);
    return st;
}
