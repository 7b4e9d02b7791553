/*
 * spawn.h - run a program with an argument vector, never through a shell:
 * no string given to these functions is ever parsed as a command.
 */
#ifndef GS_BENCH_SPAWN_H
#define GS_BENCH_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The absolute path of the executable `name` in `PATH` (as execvp would
 * find it; a name with a '/' is taken as it is) into `path`. 0 or -1. */
int gs_find_program(const char *name, char *path, size_t len);

/* Start `path` (an absolute path, see gs_find_program) with `argv`, in the
 * directory `dir` (NULL: this one), its stdout on `out_fd` and its stderr on
 * `err_fd` (-1: inherited). The child's pid, or -1. */
pid_t gs_spawn(const char *path, const char *const argv[], const char *dir, int out_fd,
               int err_fd);

/* Wait for a child of gs_spawn: its exit status, or -1 when it was ended by a
 * signal (or could not be waited for). 127: it could not be started. */
int gs_spawn_wait(pid_t pid);

/* Whether a child of gs_spawn has ended, without waiting: 1 (reaped;
 * *status as gs_spawn_wait gives it), 0 while it runs, -1 when it cannot be
 * waited for. */
int gs_spawn_ended(pid_t pid, int *status);

/* gs_spawn_wait for at most `seconds`: past that the child is killed
 * (SIGKILL, this pid only) and reaped, *timed_out is set and -1 returned. */
int gs_spawn_wait_for(pid_t pid, double seconds, int *timed_out);

#ifdef __cplusplus
}
#endif

#endif
