/*
 * check.h - a self-test of the GPU, described once: its name, its help, how
 * to run it. `gridsync check` runs every check in the registry's order and
 * prints one line each, PASS or FAIL with the figure behind the verdict;
 * `gridsync help check` lists them (registry.c).
 *
 * A new check is one file here that defines a `const gs_check
 * gs_check_<name>` and one line in registry.c.
 */
#ifndef GS_CHECK_CHECK_H
#define GS_CHECK_CHECK_H

#include <stddef.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The GPU the checks run on (selected, current). */
typedef struct gs_check_env {
    const gs_device_info *dev;
    int max_blocks; /* co-resident blocks of 256 threads of a grid-barrier kernel */
} gs_check_env;

/* Run the check: 1 when it passes, else 0; `figure` receives the sentence
 * behind the verdict (what was measured, or what failed). */
typedef int (*gs_check_fn)(const gs_check_env *env, char *figure, size_t len);

typedef struct gs_check {
    const char *name; /* on its line of output */
    const char *help; /* one paragraph for `gridsync help check` */
    gs_check_fn run;
} gs_check;

/* The checks in the order `gridsync check` runs them. */
int gs_check_count(void);
const gs_check *gs_check_at(int i);

#ifdef __cplusplus
}
#endif

#endif
