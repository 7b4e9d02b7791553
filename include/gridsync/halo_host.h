/*
 * gridsync/halo_host.h - the halo object: the words and epochs a persistent stencil's
 * tiles exchange their edges through (the device side is <gridsync/halo.cuh>,
 * docs/halo.md).
 * Part of the public host API (C17): <gridsync.h> includes it, and it
 * includes <gridsync.h>, so either may be included first.
 */
#ifndef GRIDSYNC_HALO_HOST_H
#define GRIDSYNC_HALO_HOST_H

#include "../gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------------------- halo */

/* The edges of a field's tiles, exchanged between blocks as tagged words
 * (device API and contract: gridsync/halo.cuh; docs/halo.md). A halo holds
 * the words of one decomposition, one block a tile, and each block's epoch
 * (its last tag): created zeroed on the current device, it serves any
 * number of launches and graph replays with no reset. Its waits are watched
 * by the grid barrier the kernel also receives (gs_launch, gs_barrier_check). */
typedef struct gs_halo_object *gs_halo_t;

/* A 1-D field of n cells in `blocks` chunks (1 <= blocks <= n), or a w x h
 * field in gx x gy tiles (1 <= gx <= w, 1 <= gy <= h); `type` GS_FLOAT32 or
 * GS_FLOAT64 (GS_ERR_INVALID_ARGUMENT for others). */
GS_API gs_status gs_halo_create_1d(gs_halo_t *halo, int n, int blocks, gs_dtype type);
GS_API gs_status gs_halo_create_2d(gs_halo_t *halo, int w, int h, int gx, int gy, gs_dtype type);
GS_API gs_status gs_halo_destroy(gs_halo_t halo);

/* The view to pass to kernels, the dynamic shared memory a block needs (two
 * copies of the largest tile with its ring), and the grid (gx * gy blocks). */
GS_API gs_status gs_halo_device(gs_halo_t halo, gs_halo *view);
GS_API gs_status gs_halo_shared_bytes(gs_halo_t halo, size_t *bytes);
GS_API gs_status gs_halo_blocks(gs_halo_t halo, int *blocks);

/* Zero the words and epochs in stream order (a memset: it can be captured):
 * needed only after a launch that timed out or was refused as a misuse. */
GS_API gs_status gs_halo_reset(gs_halo_t halo, cudaStream_t stream);

/* Tiles for at most `blocks` blocks on a w x h field: gx x gy with gx <= w,
 * gy <= h, gx * gy <= blocks, using at least 7/8 of the blocks the field
 * allows, with the smallest tile perimeter (the halo a step exchanges), then
 * the most blocks (132 blocks on a square field: 12 x 11). Pure. */
GS_API gs_status gs_halo_split_2d(int w, int h, int blocks, int *gx, int *gy);

#ifdef __cplusplus
}
#endif

#endif /* GRIDSYNC_HALO_HOST_H */
