/* report.h - a results document as report.md, CSV files and gnuplot plots. */
#ifndef GS_REPORT_REPORT_H
#define GS_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/results.h"
#include "common/files.h"
#include "report/markdown.h"
#include "report/sources.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write `dir`/report.md, `dir`/<suite>.csv, the plot data and `dir`/plots.gp,
 * and render the plots with gnuplot when `plots` is nonzero and gnuplot is
 * installed. Suites that are not registered (results/registry.h) are skipped
 * with a warning on stderr and a line in report.md. Returns 0, or -1 with a
 * sentence in `err`. */
int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen);

/* report.md without its plots (title, summary, every suite's timing and
 * table, the environment) to `md`: `gridsync bench --md` and `gridsync
 * report --md`. 0, or -1 with a sentence in `err`. */
int gs_report_markdown(FILE *md, const cJSON *results, char *err, size_t errlen);

/* The same of several results files (report/sources.h): each suite from
 * the last file that has it. Where more than one file gives suites, the
 * header says so, each suite's section names its run (GPU, CUDA version,
 * date, file) and the environment section lists each file used with the
 * suites it gave and its environment; where one does, the report is that
 * file's. */
int gs_report_write_files(const gs_results_source *files, int n, const char *dir, int plots,
                          char *err, size_t errlen);
int gs_report_markdown_files(FILE *md, const gs_results_source *files, int n, char *err,
                             size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
