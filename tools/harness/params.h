/*
 * params.h - what a suite's measurement receives from `gridsync bench`
 * (the options that apply to it, its sizes for the preset) and how it is
 * called: its run function and, for a suite of two processes, its part in
 * the other one. A suite's run code (suites/<name>/run.cu) defines a
 * `const gs_bench_runner gs_runner_<name>`; suites/run.h finds it by the
 * suite's name. Its description (what the rows mean, how they read) is the
 * results model's (results/suite.h).
 */
#ifndef GS_HARNESS_PARAMS_H
#define GS_HARNESS_PARAMS_H

#include "gridsync.h"
#include "harness/timer.h"
#include "results/sampling.h"
#include "results/suite.h"
#include "results/table.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Measure and add the rows to `table` (made from the suite's columns: cells
 * are set by column name, results/table.h). A failure may leave the rows
 * measured so far. */
typedef gs_status (*gs_bench_run_fn)(const gs_bench_params *params, gs_table *table);

/* The part of a suite that runs in another process: the suite starts this
 * program again as `gridsync bench NAME --rank-child DIR --devices D ...`
 * (an internal option, in no help), which calls it on GPU `device` with the
 * options the suite passed; the two processes meet through the files of the
 * private folder `dir`. bench multi: rank 1 of the two-process rows. It
 * prints nothing on stdout. */
typedef gs_status (*gs_bench_child_fn)(const gs_bench_params *params, int device,
                                       const char *dir);

/* How a suite measures. */
typedef struct gs_bench_runner {
    gs_bench_run_fn run;          /* NULL: its rows are measured elsewhere (a program of
                                   * its own, Python), never by gridsync bench: it is
                                   * described (its report, plots, README table) but
                                   * runs only when named, to say so */
    gs_bench_child_fn rank_child; /* its part in another process; NULL: none */
} gs_bench_runner;

#ifdef __cplusplus
}
#endif

#endif
