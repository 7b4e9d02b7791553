/*
 * nccl_wait.c - every wait of gridsync_multi for other ranks, bounded: a
 * non-blocking communicator's pending operation (ncclCommGetAsyncError) and
 * the streams that carry NCCL's kernels (cudaStreamQuery), polled against a
 * deadline. On time-out the communicators are aborted (ncclCommAbort, which
 * stops NCCL's kernels and threads: NCCL has no other way to cancel), the
 * group is marked unusable, and the caller gets GS_ERR_BARRIER_TIMEOUT with
 * a sentence. Nothing here waits without a deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../runtime/timeout.h"
#include "multi_internal.h"

enum { SPIN_NS = 2000000, NAP_NS = 50000 }; /* spin 2 ms, then poll every 50 us */

unsigned long long gs__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* A prompt partner costs no sleep; a slow one no CPU. */
static void pause_since(unsigned long long start_ns)
{
    if (gs__now_ns() - start_ns < SPIN_NS) {
        sched_yield();
        return;
    }
    struct timespec nap = {0, NAP_NS};
    nanosleep(&nap, NULL);
}

gs_status gs__nccl_fail(ncclResult_t r, const char *call, const char *file, int line)
{
    const char *last = ncclGetLastError(NULL);
    return gs__fail(GS_ERR_CUDA, "%s failed: %s%s%s%s (%s:%d)", call, ncclGetErrorString(r),
                    last && *last ? " (" : "", last && *last ? last : "",
                    last && *last ? ")" : "", file, line);
}

gs_status gs__multi_timeout(double timeout_s, unsigned long long *timeout_ns)
{
    const char *text = getenv("GRIDSYNC_MULTI_TIMEOUT");
    *timeout_ns = 60000000000ull;
    if (timeout_s > 0.0) { /* the program's own: the variable is not read */
        *timeout_ns = (unsigned long long)(timeout_s * 1e9);
        return GS_SUCCESS;
    }
    if (!text || !*text)
        return GS_SUCCESS;
    if (gs__parse_timeout(text, timeout_ns) != 0 || *timeout_ns == 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "GRIDSYNC_MULTI_TIMEOUT='%.64s' is not a time-out: give seconds (0.001 to "
                        "3600); waits for other ranks cannot be unbounded",
                        text);
    return GS_SUCCESS;
}

gs_status gs__nccl_settle(ncclComm_t comm, unsigned long long deadline_ns, int *timed_out)
{
    unsigned long long start = gs__now_ns();
    for (;;) {
        ncclResult_t state = ncclSuccess;
        ncclResult_t r = ncclCommGetAsyncError(comm, &state);
        if (r != ncclSuccess)
            return gs__nccl_fail(r, "ncclCommGetAsyncError", __FILE__, __LINE__);
        if (state == ncclSuccess)
            return GS_SUCCESS;
        if (state != ncclInProgress)
            return gs__nccl_fail(state, "an NCCL operation (ncclCommGetAsyncError)", __FILE__,
                                 __LINE__);
        if (gs__now_ns() >= deadline_ns) {
            *timed_out = 1;
            return GS_SUCCESS;
        }
        pause_since(start);
    }
}

/* Local rank r's stream has finished, or the deadline passed. */
static gs_status stream_done(gs_multi_t m, int r, unsigned long long deadline_ns, int *timed_out)
{
    unsigned long long start = gs__now_ns();
    GS_ON_RANK(m, r);
    for (;;) {
        cudaError_t q = cudaStreamQuery(m->streams[r]);
        if (q == cudaSuccess)
            return GS_SUCCESS;
        if (q != cudaErrorNotReady)
            return gs__cuda_fail(q, "cudaStreamQuery(the rank's stream)", __FILE__, __LINE__);
        ncclResult_t state = ncclSuccess;
        if (m->comms[r] && ncclCommGetAsyncError(m->comms[r], &state) == ncclSuccess &&
            state != ncclSuccess && state != ncclInProgress)
            return gs__nccl_fail(state, "an NCCL operation (ncclCommGetAsyncError)", __FILE__,
                                 __LINE__);
        if (gs__now_ns() >= deadline_ns) {
            *timed_out = 1;
            return GS_SUCCESS;
        }
        pause_since(start);
    }
}

/* A meeting that cannot finish leaves NCCL's kernels spinning on the
 * streams: abort the communicators (which also frees them), mark the group. */
static void abort_group(gs_multi_t m)
{
    for (int r = 0; r < m->local; ++r) {
        if (m->comms[r])
            (void)ncclCommAbort(m->comms[r]);
        m->comms[r] = NULL;
    }
    m->aborted = 1;
}

gs_status gs__multi_wait(gs_multi_t m, const char *what)
{
    const unsigned long long timeout_ns = __atomic_load_n(&m->timeout_ns, __ATOMIC_RELAXED);
    unsigned long long deadline = gs__now_ns() + timeout_ns;
    int timed_out = 0;
    gs_status st = GS_SUCCESS;
    for (int r = 0; r < m->local && !timed_out && st == GS_SUCCESS; ++r)
        st = gs__nccl_settle(m->comms[r], deadline, &timed_out);
    for (int r = 0; r < m->local && !timed_out && st == GS_SUCCESS; ++r)
        st = stream_done(m, r, deadline, &timed_out);
    if (st == GS_SUCCESS && !timed_out)
        return GS_SUCCESS;
    if (!timed_out) { /* NCCL or CUDA said why (a peer that ended, often) */
        char detail[1024];
        snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
        abort_group(m);
        return gs__fail(st, "%s: %s; the group's NCCL communicator was aborted, so "
                            "gs_multi_destroy is all that is left to call",
                        what, detail);
    }
    abort_group(m);
    return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                    "%s: not every rank took part within %.3f s (a rank ended, was never "
                    "started, or is still busy elsewhere); the group's NCCL communicator was "
                    "aborted, so gs_multi_destroy is all that is left to call",
                    what, timeout_ns / 1e9);
}

gs_status gs__multi_usable(gs_multi_t m, const char *what)
{
    if (m->aborted)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: this group's NCCL communicator was aborted after a time-out; only "
                        "gs_multi_destroy is left to call",
                        what);
    return GS_SUCCESS;
}
