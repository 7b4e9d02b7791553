/* nccl_device_barrier.h - NCCL's device-API barrier (ncclLsaBarrierSession)
 * timed as a peer of gs_multi_sync in `gridsync bench multi`. */
#ifndef GS_NCCL_DEVICE_BARRIER_H
#define GS_NCCL_DEVICE_BARRIER_H

#include <nccl.h>

#include "gridsync_multi.h"
#include "harness/timer.h"

/* Microseconds per barrier of NCCL's LSA barrier in a persistent kernel on
 * every local GPU of `m` (comms: one NCCL communicator per local rank), at
 * `blocks` blocks per GPU: with one block, the session alone; with more, a
 * grid barrier (cooperative groups), block 0's session, a grid barrier.
 * Timed on the host's clock as `plan` says (samples per barrier in `us`).
 * With one rank per process every process calls it, with `together` (NULL:
 * one process drives every GPU): they skip together and take the same
 * samples. GS_ERR_NOT_SUPPORTED, with the reason in gs_last_error_detail(),
 * when the NCCL at hand has no device API (older than 2.28, or a library
 * whose version differs from the header's) or no symmetric-memory support;
 * GS_ERR_NOT_CORESIDENT when the grid does not fit; GS_ERR_BARRIER_TIMEOUT
 * when another process stopped taking part. */
/* Whether headers of NCCL `header_version` (NCCL_VERSION_CODE) may drive a
 * library of `library_version` (ncclGetVersion) through the device API: only
 * the very same version, 2.28 or later. Pure; for tests. */
#ifdef __cplusplus
extern "C"
#endif
int gs__nccl_device_api_usable(int library_version, int header_version);

gs_status gs__time_nccl_lsa_barrier(gs_multi_t m, ncclComm_t *comms, int blocks, int iterations,
                                    const gs_timing_plan *plan, const gs_together *together,
                                    gs_stats *us);

#endif
