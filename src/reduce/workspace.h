/* workspace.h - per-stream scratch memory of the single-pass reduction
 * (internal): block partials, the ticket counter, and a result slot. */
#ifndef GS_REDUCE_WORKSPACE_H
#define GS_REDUCE_WORKSPACE_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most blocks a single-pass reduction launches (partials slots). */
#define GS_REDUCE_MAX_BLOCKS 2048

typedef struct gs__reduce_ws {
    int device;
    cudaStream_t stream;
    void *partials;        /* GS_REDUCE_MAX_BLOCKS x 8 bytes */
    unsigned int *ticket;  /* zero between calls */
    void *result;          /* 8 bytes, for results that go to host memory */
} gs__reduce_ws;

/* The workspace of (current device, stream), allocated on first use. Calls
 * on one stream are ordered by the stream, so they can share it. */
gs_status gs__reduce_workspace(cudaStream_t stream, gs__reduce_ws **ws);

#ifdef __cplusplus
}
#endif

#endif
