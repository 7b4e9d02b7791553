/*
 * demo.h - a demo, described once: its name and help, its default number of
 * runs, how to run it. `gridsync demo` (names, defaults, dispatch) and
 * `gridsync help demo` read this description (registry.c lists the demos).
 *
 * A demo runs a tutorial's failure on this GPU next to the correct version
 * and prints what it does, what it observed and what that means; it never
 * reports what it did not observe. A new demo is one file here that defines
 * a `const gs_demo gs_demo_<name>` and one line in registry.c.
 */
#ifndef GS_DEMO_DEMO_H
#define GS_DEMO_DEMO_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What `gridsync demo` was asked for; each demo reads what applies. */
typedef struct gs_demo_opts {
    int device;           /* GPU ordinal */
    long runs;            /* runs per version (the demo's default when not given) */
    long rounds;          /* message-passing rounds per version */
    double time_limit;    /* seconds before a child process is stopped */
    const char *out_dir;  /* where to write images; NULL: nowhere */
} gs_demo_opts;

/* Run the demo. GS_SUCCESS when it ran; *correct then says whether the
 * correct versions were correct (whatever the broken ones showed). `dev` is
 * the selected GPU, NULL for a demo that works in child processes. */
typedef gs_status (*gs_demo_run_fn)(const gs_demo_opts *opts, const gs_device_info *dev,
                                    int *correct);

/* Run one kernel named `kernel` once on the current GPU (what a sanitizer
 * inspects, started by the demo itself with --once). */
typedef gs_status (*gs_demo_once_fn)(const char *kernel);

typedef struct gs_demo {
    const char *name;      /* `gridsync demo NAME` */
    const char *help;      /* one paragraph for `gridsync help demo` */
    long default_runs;     /* --runs when not given; 0: the demo has no runs */
    int in_children;       /* its GPU work runs in child processes: this process must not
                            * touch CUDA first (no GPU is selected, `dev` is NULL) */
    gs_demo_run_fn run;
    gs_demo_once_fn once;  /* --once KERNEL; NULL: none */
} gs_demo;

/* Demos in the order `gridsync help demo` lists them. */
int gs_demo_count(void);
const gs_demo *gs_demo_at(int i);
/* The demo named `name`, or NULL. */
const gs_demo *gs_demo_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
