/* report.h - a results document as report.md, CSV files and gnuplot plots. */
#ifndef GS_BENCH_REPORT_H
#define GS_BENCH_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write `dir`/report.md, `dir`/<suite>.csv, the plot data and `dir`/plots.gp,
 * and render the plots with gnuplot when `plots` is nonzero and gnuplot is
 * installed. Returns 0, or -1 with a sentence in `err`. */
int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen);

/* Append the gnuplot commands for one suite's table to `script` (data files
 * go to `dir`; the script names files relative to `dir`, where it runs);
 * *nplots receives the number of pictures. 0 or -1. */
int gs_report_plot_script(const cJSON *table, const char *suite, const char *dir, FILE *script,
                          int *nplots);

/* mkdir -p `dir`; 0 or -1 (errno set). */
int gs_make_dirs(const char *dir);

/* Read and parse a results file; NULL with a sentence in `err`. */
cJSON *gs_results_load(const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
