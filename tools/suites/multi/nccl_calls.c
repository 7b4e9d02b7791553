/* nccl_calls.c - the bench's NCCL calls checked and bounded (nccl_calls.h). */
#define _POSIX_C_SOURCE 200809L
#include "suites/multi/nccl_calls.h"

#include <sched.h>

#include "gridsync_internal.h"
#include "harness/timer.h"

gs_status gs_bench_nccl_fail(ncclResult_t r, const char *call, const char *file, int line)
{
    const char *last = ncclGetLastError(NULL);
    return gs__fail(GS_ERR_CUDA, "%s failed: %s%s%s%s (%s:%d)", call, ncclGetErrorString(r),
                    last && *last ? " (" : "", last && *last ? last : "", last && *last ? ")" : "",
                    file, line);
}

/* NCCL's state of `comm`: GS_SUCCESS with *busy set while an operation is
 * in progress, or the failure. */
static gs_status comm_state(ncclComm_t comm, int *busy)
{
    ncclResult_t state = ncclSuccess;
    ncclResult_t r = ncclCommGetAsyncError(comm, &state);
    if (r != ncclSuccess)
        return gs_bench_nccl_fail(r, "ncclCommGetAsyncError", __FILE__, __LINE__);
    if (state != ncclSuccess && state != ncclInProgress)
        return gs_bench_nccl_fail(state, "an NCCL operation (ncclCommGetAsyncError)", __FILE__,
                                  __LINE__);
    *busy = state == ncclInProgress;
    return GS_SUCCESS;
}

static gs_status timed_out(const char *what, double seconds)
{
    return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                    "%s: not done within %.0f s (did the other process end?)", what, seconds);
}

gs_status gs_bench_nccl_settle(ncclComm_t comm, double seconds, const char *what)
{
    const double deadline = gs_now_seconds() + seconds;
    for (;;) {
        int busy = 0;
        GS_TRY(comm_state(comm, &busy));
        if (!busy)
            return GS_SUCCESS;
        if (gs_now_seconds() > deadline)
            return timed_out(what, seconds);
        sched_yield();
    }
}

gs_status gs_bench_nccl_stream_wait(ncclComm_t comm, cudaStream_t stream, double seconds,
                                    const char *what)
{
    const double deadline = gs_now_seconds() + seconds;
    for (;;) {
        cudaError_t q = cudaStreamQuery(stream);
        if (q == cudaSuccess)
            return GS_SUCCESS;
        if (q != cudaErrorNotReady)
            return gs__cuda_fail(q, "cudaStreamQuery (NCCL's stream)", __FILE__, __LINE__);
        int busy = 0;
        GS_TRY(comm_state(comm, &busy));
        if (gs_now_seconds() > deadline)
            return timed_out(what, seconds);
    }
}
