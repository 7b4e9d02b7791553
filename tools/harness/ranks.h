/*
 * ranks.h - two processes of one GPU each for a bench suite, with no
 * launcher: rank 0 (the suite's own process) starts this program again as
 * rank 1, from an argument vector (never a shell), and the two form a
 * gridsync_multi group (gs_multi_create_rank) from an ncclUniqueId passed
 * through a file of a private folder (mkdtemp). Every wait is bounded: a
 * rank 1 that cannot start, ends early or never joins becomes an error with
 * its sentence, never a hang. Built with gridsync_multi only.
 *
 *   rank 0                                 rank 1 (this program again)
 *   gs_bench_ranks_begin: folder, id file
 *   gs_bench_ranks_start: spawn  -------->  gs_bench_ranks_join_child:
 *     wait for "ready" or its end             CUDA up, read the id, "ready",
 *   gs_bench_ranks_join  <--------------->    join as rank 1
 *   ... the same collective calls on both ...
 *   gs_multi_destroy                        gs_multi_destroy, exit status
 *   gs_bench_ranks_end: wait for it, remove the folder
 */
#ifndef GS_BENCH_RANKS_H
#define GS_BENCH_RANKS_H

#include <limits.h>
#include <sys/types.h>

#include "gridsync_multi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_bench_ranks {
    char dir[PATH_MAX];   /* the private folder: "id" and "ready" in it */
    char self[PATH_MAX];  /* this program (/proc/self/exe) */
    ncclUniqueId id;
    pid_t child;          /* rank 1's process; 0: none (not started, or reaped) */
    int child_status;     /* its exit status once reaped (-1: a signal) */
} gs_bench_ranks;

/* Rank 0: the private folder (under TMPDIR, else /tmp), a unique id for 2
 * ranks written into it, and this program's path. On failure nothing is
 * left behind. */
gs_status gs_bench_ranks_begin(gs_bench_ranks *r);

/* Rank 0: start `argv` (argv[0] is r->self; the rest tells rank 1 what to
 * do and where r->dir is) with its standard output onto this process's
 * standard error (standard output may carry results), and wait until it is
 * ready to join, at most `seconds`. GS_ERR_NOT_SUPPORTED when it could not
 * start, ended first (its exit status said) or was not ready in time (then
 * it is killed). */
gs_status gs_bench_ranks_start(gs_bench_ranks *r, const char *const argv[], double seconds);

/* Rank 0: join the group as rank 0 on GPU `device`, waiting at most
 * `seconds` for rank 1. */
gs_status gs_bench_ranks_join(gs_bench_ranks *r, int device, double seconds, gs_multi_t *m);

/* Rank 0, after gs_multi_destroy: wait for rank 1 to end, at most `seconds`
 * (then it is killed), and remove the folder. GS_SUCCESS when it ended with
 * status 0 (or was never started); else GS_ERR_INTERNAL saying how it
 * ended (its own sentence is on stderr: it reports there). */
gs_status gs_bench_ranks_end(gs_bench_ranks *r, double seconds);

/* Rank 1: on GPU `device`, from the folder `dir` of rank 0: read the id,
 * say it is ready, join as rank 1; every wait at most `seconds`. */
gs_status gs_bench_ranks_join_child(const char *dir, int device, double seconds, gs_multi_t *m);

#ifdef __cplusplus
}
#endif

#endif
