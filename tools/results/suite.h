/*
 * suite.h - a benchmark suite, described once: its name and help, its sizes
 * for each preset, the columns of its table, its plots, its table in the
 * README and how its results read (results/reading.h: gridsync's methods
 * and the peers, the figure compared, how cells print, the summary's
 * sentences). `gridsync bench` (suite names, --list, the presets,
 * --compare), `gridsync help bench`, the report (report.md, CSV files,
 * plots), the README's results section and the tests all read this
 * description. It is host data only: how a suite measures is its run code
 * (harness/params.h, suites/run.h), built apart.
 *
 * A new suite is a folder suites/<name>/ with its description (describe.c,
 * defining a `const gs_bench_suite gs_suite_<name>`) and its measurement
 * (run.cu), and one line in suites/suites.h.
 */
#ifndef GS_BENCH_SUITE_H
#define GS_BENCH_SUITE_H

#include "results/plot_spec.h"
#include "results/reading.h"
#include "results/summary_spec.h"
#include "results/table.h"

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
    const gs_plot_spec *plots;
    int nplots;
    const gs_summary_spec *summary;      /* its table in the README; NULL: none */
    const gs_renamed *renamed;           /* ended by {NULL, NULL}; NULL: none */
    const gs_reading *reading;           /* how its results read (test_registry asks for it) */
} gs_bench_suite;

/* The number of elements of a static array, for the counts above. */
#define GS_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* A gs_size_list of a static array. */
#define GS_SIZES(a) {(a), GS_COUNT(a)}

#ifdef __cplusplus
}
#endif

#endif
