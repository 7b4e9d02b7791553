/*
 * tables.h - a suite's results as tables for people and programs: markdown
 * with formatted cells (format.h) and the columns' labels, CSV at full
 * precision; both with the noise and samples of measured rows; and the
 * sentence that says how the figures were timed.
 */
#ifndef GS_REPORT_TABLES_H
#define GS_REPORT_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The columns of a results table that are strings (others are left out). */
int gs_results_ncolumns(const cJSON *table);

/* The table as markdown: a header of the columns' labels, a row per results
 * row with cells formatted and escaped, then "noise" and "samples" columns
 * when rows carry them. `suite` may be NULL (no formats known). A noise
 * above GS_NOISY is marked "(noisy)", a fraction of a ceiling
 * (GS_CELL_PERCENT) above 100% "(above)", and a sentence under the table
 * says what the marks mean. */
void gs_md_results_table(FILE *md, const gs_bench_suite *suite, const cJSON *table);

/* The table as CSV: the columns' names, then noise and samples when rows
 * carry them; numbers at full precision, null empty. With `suite` (not
 * NULL) a first column "suite" holds it on every row, so that tables of
 * several suites can follow each other. 0, or -1 on a write error. */
int gs_csv_results_table(FILE *out, const cJSON *table, const char *suite);

/* How the table's figures were timed, as a sentence: hot or cold (or the
 * host's clock), how many samples, until what noise, the largest noise;
 * for a file from before gridsync recorded it, that it was hot and what is
 * not known. */
void gs_timing_sentence(const cJSON *table, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
