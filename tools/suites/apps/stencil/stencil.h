/*
 * stencil.h - the versions of the 2-D heat stencil (stencil_body.cuh)
 * as the bench (stencil/run.cu) and the GPU test run them: each picks its
 * grid, sets itself up on a field, enqueues one solve (`steps` steps from
 * u0 into out, so every solve gives the same field), and is checked.
 */
#ifndef GS_BENCH_APPS_STENCIL_H
#define GS_BENCH_APPS_STENCIL_H

#include "gridsync.h"
#include "suites/apps/stencil/stencil_body.cuh"

typedef enum gs_stencil_method {
    GS_STENCIL_NEIGHBOUR, /* persistent, gs_neighbour_sync_2d between steps */
    GS_STENCIL_TAGGED,    /* persistent, tiles on chip, edges in tagged words: no barrier */
    GS_STENCIL_HALO,      /* the same pattern written on the public API (gridsync/halo.cuh) */
    GS_STENCIL_GRID_SYNC, /* persistent, cooperative groups grid.sync() between steps */
    GS_STENCIL_GRAPH,     /* a kernel per step, a whole solve captured in one CUDA graph */
    GS_STENCIL_STREAM,    /* a kernel per step, launched on the stream */
    GS_STENCIL_GRAPH_PDL, /* a kernel per step with programmatic dependent launch, in a graph */
    GS_STENCIL_STREAM_PDL, /* the same on the stream */
    GS_STENCIL_NMETHODS
} gs_stencil_method;

/* The method column's strings, by gs_stencil_method. */
extern const char *const gs_stencil_method_names[GS_STENCIL_NMETHODS];

/* Where a persistent version keeps the field. */
enum { GS_STENCIL_AUTO = -1, GS_STENCIL_GLOBAL = 0, GS_STENCIL_ONCHIP = 1 };

typedef struct gs_stencil_run {
    gs_stencil_method method;
    int onchip;          /* persistent: the tiles live in shared memory */
    const void *kernel;
    dim3 grid, block;
    size_t smem;         /* dynamic shared memory per block */
    gs_stencil_field f;
    gs_barrier_t bar;    /* gridsync's versions' (the watchdog); NULL for the peers */
    gs_grid_barrier view;
    gs_halo_t halo;      /* the halo version's (gridsync/halo.cuh); NULL for the others */
    gs_halo halo_view;
} gs_stencil_run;

/* Set up `method` on `field` (w, h, steps >= 1, u0, a, b, out given; the
 * tiles and the halo are filled in here). `blocks`: 0 for the method's own
 * choice (docs/apps-stencil.md), else the persistent grid to use; `mode`:
 * GS_STENCIL_AUTO (on chip when the tiles fit in shared memory), or one
 * forced. GS_ERR_NOT_CORESIDENT when a forced choice cannot be resident;
 * the tagged and halo versions run only on chip (GS_ERR_NOT_CORESIDENT where
 * the tiles do not fit). */
gs_status gs_stencil_setup(gs_stencil_run *run, gs_stencil_method method,
                           const gs_stencil_field *field, int blocks, int mode);

/* One solve on `stream` (a gs_enqueue_fn: `run` is the gs_stencil_run). */
gs_status gs_stencil_enqueue(void *run, cudaStream_t stream);

/* Wait for `stream`; the neighbour version's barrier report (a time-out
 * becomes GS_ERR_BARRIER_TIMEOUT naming the block that never came), the
 * peers' launch errors. */
gs_status gs_stencil_check(gs_stencil_run *run, cudaStream_t stream);

/* Blocks of the persistent grid, or of each relaunched kernel. */
int gs_stencil_blocks(const gs_stencil_run *run);

void gs_stencil_release(gs_stencil_run *run);

#endif
