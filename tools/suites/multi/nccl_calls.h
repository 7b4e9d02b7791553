/*
 * nccl_calls.h - the bench's own NCCL calls (the peers' communicators),
 * checked and bounded: a failed call is reported with its text and NCCL's
 * error name, and what a communicator has in flight (a non-blocking one's
 * pending operation, its kernels on a stream) is waited for with a deadline,
 * so that a peer process that ended becomes an error, never a hang.
 */
#ifndef GS_BENCH_NCCL_CALLS_H
#define GS_BENCH_NCCL_CALLS_H

#include <nccl.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Record "CALL failed: <ncclGetErrorString> (<ncclGetLastError>)" and
 * return GS_ERR_CUDA. */
gs_status gs_bench_nccl_fail(ncclResult_t r, const char *call, const char *file, int line);

/* An NCCL call that may also answer ncclInProgress (a non-blocking
 * communicator): anything else but success is a failure. */
#define GS_BENCH_NCCL_TRY(call)                                                           \
    do {                                                                                  \
        ncclResult_t gs_nccl_r_ = (call);                                                 \
        if (gs_nccl_r_ != ncclSuccess && gs_nccl_r_ != ncclInProgress)                    \
            return gs_bench_nccl_fail(gs_nccl_r_, #call, __FILE__, __LINE__);             \
    } while (0)

/* Wait until `comm` has nothing in progress (ncclCommGetAsyncError), at
 * most `seconds`: GS_ERR_BARRIER_TIMEOUT naming `what` past that (the
 * caller aborts the communicator), GS_ERR_CUDA with NCCL's error when its
 * operation failed. */
gs_status gs_bench_nccl_settle(ncclComm_t comm, double seconds, const char *what);

/* Wait until `stream` (carrying `comm`'s kernels) is done, at most
 * `seconds`, watching `comm` for asynchronous errors on the way; the
 * current device must be the stream's. As gs_bench_nccl_settle. */
gs_status gs_bench_nccl_stream_wait(ncclComm_t comm, cudaStream_t stream, double seconds,
                                    const char *what);

#ifdef __cplusplus
}
#endif

#endif
