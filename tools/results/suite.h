/*
 * suite.h - a benchmark suite, described once: its name and help, its sizes
 * for each preset, how to run it, the columns of its table, its plots, its
 * table in the README and how its results read (results/reading.h: gridsync's
 * methods and the peers, the figure compared, how cells print, the summary's
 * sentences). `gridsync bench` (suite names, --list, the presets,
 * --compare), `gridsync help bench`, the report (report.md, CSV files,
 * plots), the README's results section and the tests all read this
 * description.
 *
 * A new suite is one file in suites/ that defines a `const gs_bench_suite
 * gs_suite_<name>` and one line in registry.c.
 */
#ifndef GS_BENCH_SUITE_H
#define GS_BENCH_SUITE_H

#include "gridsync.h"
#include "results/plot_spec.h"
#include "results/reading.h"
#include "results/summary_spec.h"
#include "results/sampling.h"
#include "results/table.h"
#include "harness/timer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_preset {
    GS_PRESET_DEFAULT = 0,
    GS_PRESET_QUICK = 1, /* --quick: a short run (under 15 s on an H100/H200) */
    GS_PRESET_FULL = 2,  /* --full: every size */
    GS_PRESET_COUNT = 3
} gs_preset;

/* log2 of the sizes a suite sweeps (lengths, square matrix sizes). */
typedef struct gs_size_list {
    const int *log2;
    int count;
} gs_size_list;

/* What `gridsync bench` was asked for; each suite reads what applies. */
typedef struct gs_bench_params {
    int iterations;      /* barriers (meetings) per timed kernel */
    int samples;         /* timed samples per configuration without a rule (the median is
                          * reported); see `sampling` */
    int warmup;          /* untimed runs first */
    const int *threads;  /* block sizes */
    int nthreads;
    const int *blocks;   /* grid sizes; NULL: the suite's own */
    int nblocks;
    gs_size_list sizes;  /* --sizes, else the suite's sizes for the preset */
    int sizes_given;     /* --sizes was given */
    gs_preset preset;
    unsigned int tree_flat_max, tree_group; /* tree barrier tuning; 0: library default */
    int quiet;           /* no progress lines on stderr */
    gs_sampling sampling; /* how many samples, hot or cold (--repeat, --min-samples,
                           * --min-time, --max-noise, --timeout, --cold): every timed
                           * measurement of a suite takes it through gs_bench_plan */
    const int *devices;  /* --devices: the GPUs a suite of several GPUs uses (NULL: all) */
    int ndevices;
} gs_bench_params;

/* The timing plan of a measurement of a suite: its warm-up, the sampling
 * rule of the command line, and `graph_batch` (timer.h). */
static inline gs_timing_plan gs_bench_plan(const gs_bench_params *params, int graph_batch)
{
    gs_timing_plan plan = {params->warmup, params->samples, graph_batch, &params->sampling};
    return plan;
}

/* Measure and add the rows to `table` (made from the suite's columns). A
 * failure may leave the rows measured so far. */
typedef gs_status (*gs_bench_run_fn)(const gs_bench_params *params, gs_table *table);

/* The part of a suite that runs in another process: the suite starts this
 * program again as `gridsync bench NAME --rank-child DIR --devices D ...`
 * (an internal option, in no help), which calls it on GPU `device` with the
 * options the suite passed; the two processes meet through the files of the
 * private folder `dir`. bench multi: rank 1 of the two-process rows. It
 * prints nothing on stdout. */
typedef gs_status (*gs_bench_child_fn)(const gs_bench_params *params, int device,
                                       const char *dir);

/* A method renamed since older results files were written. */
typedef struct gs_renamed {
    const char *old_name, *name;
} gs_renamed;

typedef struct gs_bench_suite {
    const char *name;                    /* `gridsync bench NAME`, the results key, file names */
    const char *help;                    /* one paragraph: `gridsync help bench`, --list */
    const char *title;                   /* the table's title */
    const gs_column *columns;
    int ncolumns;
    gs_size_list sizes[GS_PRESET_COUNT]; /* per preset; empty: the suite sweeps no sizes */
    int min_gpus;                        /* run without being named only with this many GPUs */
    gs_bench_run_fn run;
    const gs_plot_spec *plots;
    int nplots;
    const gs_summary_spec *summary;      /* its table in the README; NULL: none */
    const gs_renamed *renamed;           /* ended by {NULL, NULL}; NULL: none */
    const gs_reading *reading;           /* how its results read (test_registry asks for it) */
    gs_bench_child_fn rank_child;        /* its part in another process; NULL: none */
} gs_bench_suite;

/* The number of elements of a static array, for the counts above. */
#define GS_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* A gs_size_list of a static array. */
#define GS_SIZES(a) {(a), GS_COUNT(a)}

#ifdef __cplusplus
}
#endif

#endif
