/* summary.h - the README's results section from results files: the summary
 * table each registered suite describes (results/summary_spec.h), for the
 * suites the files have, in the registry's order. */
#ifndef GS_REPORT_SUMMARY_H
#define GS_REPORT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "report/sources.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write the summary tables of the `n` results files (report/sources.h: each
 * suite from the last file that has it) to `out` as markdown. A table's
 * sentence names the run it comes from ("{run}": GPU, CUDA version, date
 * and file) where its description asks, and wherever its file is not the
 * run the sentence before it named. 0, or -1 with a sentence in `err` (no
 * suite with a summary). */
int gs_summary_write(FILE *out, const gs_results_source *files, int n, char *err,
                     size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
