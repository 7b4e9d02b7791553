/*
 * meeting.h - what the multi suite's one-process and two-process rows
 * share (built with NCCL only): a group of GPUs meeting, the bounds on one
 * process waiting for the other, and the rows of one group. One process
 * drives every GPU (run.cu); or two processes of one GPU each, rank 1 the
 * program started again (two_processes.cu). How each row is timed and why:
 * run.cu.
 */
#ifndef GS_SUITES_MULTI_MEETING_H
#define GS_SUITES_MULTI_MEETING_H

#include <nccl.h>

#include "gridsync_multi.h"
#include "harness/params.h"

/* Two processes: bound on rank 1's start (exec, CUDA), and on every later
 * wait of one process for the other. */
static const double START_S = 60.0, WAIT_S = 30.0;

/* What the timed calls of one group of GPUs work on; arrays by local rank
 * (every GPU in one process, this process's one GPU in two). */
typedef struct meeting {
    gs_multi_t m;
    ncclComm_t *comms;   /* the NCCL peers' communicators */
    float **words, **in; /* one word and 2^28 floats per GPU */
    long long n;
    int iterations;      /* meetings per timed call */
    gs_multi_barrier_t bar; /* gridsync p2p: its barrier, grid and arguments */
    int blocks;
    void **args[GS_MULTI_MAX_GPUS];
    const gs_together *together; /* two processes: samples decided together; NULL: one */
    const char *suffix;  /* "" or TWO_PROCESSES */
} meeting;

/* The barrier rows of one group: gridsync p2p and NCCL's device-API
 * barrier at each grid, then the all-reduce and (one process) host-sync
 * peers; speedups against the all-reduce. A method that cannot run here is
 * skipped with a line on stderr, on every rank alike. */
gs_status multi_barrier_rows(meeting *c, const int *grids, int ngrids, const gs_bench_params *o,
                             gs_table *t);

/* The reduction rows of one group: one GPU (one process only; its GB/s in
 * *one_gbs) against all of them (two processes: against `one_gbs` of the
 * one-process rows, when known). */
gs_status multi_reduce_rows(meeting *c, const gs_bench_params *o, gs_table *t, double *one_gbs);

/* This process's buffers (local rank r): a word, n floats filled from a
 * seed of the GPU's place in the group; freed for every local rank. */
gs_status multi_make_buffers(meeting *c, int r);
void multi_free_buffers(meeting *c);

/* Rank 0: start rank 1 on devices[1] (this program again), join on
 * devices[0], measure, wait for rank 1. Skipped, with a line on stderr,
 * when rank 1 cannot start or join. */
gs_status multi_two_processes(const int *devices, const int *grids, int ngrids,
                              const gs_bench_params *o, double one_gbs, gs_table *t);

/* Rank 1 (`gridsync bench multi --rank-child DIR --devices D --blocks ...`):
 * join, then the same rows as rank 0. */
gs_status multi_rank_child(const gs_bench_params *o, int device, const char *dir);

#endif
