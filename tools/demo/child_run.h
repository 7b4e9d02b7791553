/*
 * child_run.h - run a function in a child process under a time limit.
 *
 * For demonstrations that may hang the GPU (a __syncthreads() in a divergent
 * branch): the child does the work and exits; if it has not finished within
 * the limit the parent kills it. Killing the process ends its GPU context, so
 * the GPU is usable again and the caller never hangs.
 */
#ifndef GS_DEMO_CHILD_RUN_H
#define GS_DEMO_CHILD_RUN_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_child_outcome {
    GS_CHILD_EXITED = 0,   /* finished; exit_code holds its status */
    GS_CHILD_TIMED_OUT = 1,/* still running at the limit: killed */
    GS_CHILD_CRASHED = 2,  /* ended by a signal of its own */
    GS_CHILD_FAILED = 3    /* could not be started */
} gs_child_outcome;

typedef struct gs_child_result {
    gs_child_outcome outcome;
    int exit_code;   /* GS_CHILD_EXITED */
    int signal;      /* GS_CHILD_CRASHED */
    double seconds;  /* how long it ran */
} gs_child_result;

/* Run fn(arg) in a forked child; its return value is the exit code. Waits at
 * most `limit_s` seconds, then kills the child (SIGKILL). */
gs_child_result gs_child_run(int (*fn)(void *), void *arg, double limit_s);

/* Select GPU `device` in a child process (waiting at most `limit_s`), for a
 * process that must not touch CUDA before it forks its own children:
 * GS_SUCCESS when the GPU is usable, else the child's status with its
 * detail (gs_last_error_detail). */
gs_status gs_child_select_device(int device, double limit_s);

#ifdef __cplusplus
}
#endif

#endif
