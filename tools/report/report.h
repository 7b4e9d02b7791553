/* report.h - a results document as report.md, CSV files and gnuplot plots. */
#ifndef GS_BENCH_REPORT_H
#define GS_BENCH_REPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "bench/results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest results file gs_results_load reads. */
#define GS_RESULTS_MAX_BYTES ((size_t)64 << 20)

/* Write `dir`/report.md, `dir`/<suite>.csv, the plot data and `dir`/plots.gp,
 * and render the plots with gnuplot when `plots` is nonzero and gnuplot is
 * installed. Suites that are not known (docs/results-schema.md) are skipped
 * with a warning on stderr and a line in report.md. Returns 0, or -1 with a
 * sentence in `err`. */
int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen);

/* `in` as text for report.md that stays in its table cell and on its line:
 * '|' as "\|", control characters (line breaks too) as spaces; truncated
 * to fit `len` bytes with the terminating NUL. */
void gs_report_md_escape(const char *in, char *out, size_t len);

/* mkdir -p `dir`; 0 or -1 (errno set). */
int gs_make_dirs(const char *dir);

/* Read and parse a results file of at most GS_RESULTS_MAX_BYTES; NULL with
 * a sentence in `err`. */
cJSON *gs_results_load(const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
