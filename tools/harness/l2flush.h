/*
 * l2flush.h - evicting the L2 cache before a cold sample (`gridsync bench
 * --cold`), as NVBench does: a cudaMemsetAsync over a scratch buffer of
 * twice the L2's size on the timed stream, before the sample's start event.
 * The write leaves the L2 full of the scratch buffer's lines, so the sample
 * finds none of its own data there (its inputs, its workspace, the barrier's
 * counters). The memset also keeps the GPU busy while the host enqueues the
 * sample, so a short sample is not stretched by the host's launch latency.
 */
#ifndef GS_BENCH_L2FLUSH_H
#define GS_BENCH_L2FLUSH_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue the flush on `stream` (the current device's scratch buffer,
 * allocated on first use and kept). */
gs_status gs_l2_flush(cudaStream_t stream);

/* Free the scratch buffers of every device (after a suite). */
void gs_l2_flush_release(void);

#ifdef __cplusplus
}
#endif

#endif
