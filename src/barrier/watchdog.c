/* watchdog.c - turning a barrier's time-out record into a sentence. */
#include "barrier_internal.h"

#include <gridsync/detail/barrier/barrier_layout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

enum { GS_LIST_MAX = 16 }; /* blocks named before "and N more" */

/* Append " i, j, ..." naming the `count` blocks below `blocks` that
 * pick(ctx, i) picks, the first GS_LIST_MAX of them, then " and N more";
 * `n`: what buf holds so far. Returns the new length (as snprintf would:
 * possibly past `len`, never written past it). */
static int append_blocks(char *buf, size_t len, int n, unsigned int blocks, unsigned int count,
                         int (*pick)(const void *ctx, unsigned int i), const void *ctx)
{
    unsigned int listed = 0;
    for (unsigned int i = 0; i < blocks && listed < GS_LIST_MAX && n >= 0 && (size_t)n < len;
         ++i) {
        if (!pick(ctx, i))
            continue;
        n += snprintf(buf + n, len - (size_t)n, "%s %u", listed ? "," : "", i);
        ++listed;
    }
    if (count > listed && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " and %u more", count - listed);
    return n;
}

typedef struct where_at {
    const unsigned int *where;
    unsigned int barrier_no;
} where_at;

static int not_at(const void *ctx, unsigned int i)
{
    const where_at *w = ctx;
    return w->where[i] != w->barrier_no;
}

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
    const where_at w = {where, barrier_no};
    append_blocks(buf, len, n, blocks, missing, not_at, &w);
}

static unsigned long long word64(const unsigned int *lo_hi)
{
    return (unsigned long long)lo_hi[0] | (unsigned long long)lo_hi[1] << 32;
}

/* Neighbour barriers a block arrived at in the launch of `generation`: its
 * epoch's low half, or 0 for an epoch of an earlier launch (a block that
 * never called the barrier in this one). */
static unsigned int steps_of(unsigned long long epoch, unsigned int generation)
{
    return (unsigned int)(epoch >> 32) == generation ? (unsigned int)epoch : 0u;
}

typedef struct steps_at {
    const unsigned long long *epochs;
    unsigned int generation, steps;
} steps_at;

static int at_steps(const void *ctx, unsigned int i)
{
    const steps_at *s = ctx;
    return steps_of(s->epochs[i], s->generation) == s->steps;
}

void gs__format_neighbour_timeout(char *buf, size_t len, const unsigned int *rec,
                                  const unsigned long long *epochs, unsigned int blocks,
                                  double timeout_s)
{
    char what[64], wait[256];
    unsigned int counts[GS_LINE_WORDS]; /* the record with epochs as counts of this launch */
    /* the launch's generation: the high half of the epoch waited for */
    const unsigned int generation = rec[GS_REC_DETAIL + 4u];
    memcpy(counts, rec, sizeof counts);
    counts[GS_REC_DETAIL + 1u] = steps_of(word64(rec + GS_REC_DETAIL + 1u), generation);
    counts[GS_REC_DETAIL + 2u] = counts[GS_REC_DETAIL + 4u] = 0u;
    snprintf(what, sizeof what, "neighbour barrier #%u: the epoch of block", rec[GS_REC_BARRIER]);
    gs__format_wait_timeout(wait, sizeof wait, what, counts, timeout_s);
    unsigned int least = ~0u, most = 0u, behind = 0u, next = ~0u;
    for (unsigned int i = 0; i < blocks; ++i) {
        const unsigned int k = steps_of(epochs[i], generation);
        least = k < least ? k : least;
        most = k > most ? k : most;
    }
    for (unsigned int i = 0; i < blocks; ++i) {
        const unsigned int k = steps_of(epochs[i], generation);
        behind += k == least;
        next = k > least && k < next ? k : next;
    }
    if (blocks == 0u || least == most) { /* nobody behind the others: the wait alone */
        snprintf(buf, len, "%s", wait);
        return;
    }
    int n = snprintf(buf, len, "neighbour barrier: block%s", behind == 1u ? "" : "s");
    const steps_at at = {epochs, generation, least};
    n = append_blocks(buf, len, n, blocks, behind, at_steps, &at);
    if (n < 0 || (size_t)n >= len)
        return;
    char others[32];
    if (next == most)
        snprintf(others, sizeof others, "%u", most);
    else
        snprintf(others, sizeof others, "%u to %u", next, most);
    snprintf(buf + n, len - (size_t)n,
             " fell behind: %s arrived at %u neighbour barrier%s of this launch, the other %u "
             "block%s at %s; the wait that timed out: %s",
             behind == 1u ? "it" : "they", least, least == 1u ? "" : "s", blocks - behind,
             blocks - behind == 1u ? "" : "s", others, wait);
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
    case GS_MISUSE_HALO_GRID:
        snprintf(buf, len, "block %u ran a halo exchange on a grid of %u blocks, but the halo "
                 "was made for %u tiles (one block a tile)", block, a[0], a[1]);
        return;
    case GS_MISUSE_HALO_TYPE:
        snprintf(buf, len, "block %u exchanged %u-byte values on a halo made for %u-byte values",
                 block, a[0], a[1]);
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

/* A neighbour barrier's time-out, from the record and every block's epoch
 * (one 64-bit word at the start of each block's line). */
static gs_status neighbour_report(gs_barrier_t barrier, const unsigned int *rec,
                                  double timeout_s, char *msg, size_t len)
{
    unsigned int blocks = rec[GS_REC_BLOCKS];
    blocks = blocks > barrier->capacity ? 0u : blocks; /* not a grid of the state: no epochs */
    unsigned int *lines = malloc(((size_t)blocks + 1) * GS_LINE_WORDS * sizeof *lines);
    unsigned long long *epochs = malloc(((size_t)blocks + 1) * sizeof *epochs);
    cudaError_t err = lines && epochs ? cudaSuccess : cudaErrorMemoryAllocation;
    if (err == cudaSuccess && blocks)
        err = cudaMemcpy(lines, barrier->state + GS_W_EPOCHS(barrier->capacity),
                         (size_t)blocks * GS_LINE_WORDS * sizeof *lines, cudaMemcpyDeviceToHost);
    for (unsigned int i = 0; err == cudaSuccess && i < blocks; ++i)
        epochs[i] = word64(lines + (size_t)i * GS_LINE_WORDS);
    if (err == cudaSuccess)
        gs__format_neighbour_timeout(msg, len, rec, epochs, blocks, timeout_s);
    free(lines);
    free(epochs);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaMemcpy(neighbour epochs)", __FILE__, __LINE__);
    return GS_SUCCESS;
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
    if (rec[GS_REC_KIND] == GS_REC_KIND_WAIT_TIMEOUT) { /* a neighbour barrier's */
        char msg[768];
        GS_TRY(neighbour_report(barrier, rec, timeout_s, msg, sizeof msg));
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
