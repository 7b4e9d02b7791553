/*
 * table.h - a benchmark result table: named columns, rows of text or
 * numbers. Printed as an aligned table, written as CSV, or converted to JSON
 * (cJSON) with numbers kept as numbers.
 *
 * A row may carry how its figure was measured (gs_table_set_measured): the
 * number of samples, their relative noise, the fastest and slowest sample
 * against the median, and the timing (hot, cold, host clock). Every suite
 * gets these the same way: the printed table and the CSV add a noise and a
 * samples column, the JSON row the fields GS_ROW_* below.
 */
#ifndef GS_BENCH_TABLE_H
#define GS_BENCH_TABLE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/sampling.h"
#include "results/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_table gs_table;

/* A column as a suite describes it. */
typedef struct gs_column {
    const char *name;    /* the JSON key and the CSV and table header */
    const char *unit;    /* "us", "GB/s", ... ; "" for counts, names and ratios */
    int decimals;        /* digits after the point in the printed and CSV forms */
    const char *meaning; /* one phrase, for docs/results-schema.md */
} gs_column;

/* The fields a measured row carries besides its columns (JSON keys, and the
 * headers of the extra columns of the printed table and the CSV). */
#define GS_ROW_SAMPLES "samples" /* samples taken */
#define GS_ROW_NOISE "noise"     /* their relative standard deviation (0.01 = 1%) */
#define GS_ROW_REL_MIN "rel_min" /* the fastest sample / the median (<= 1) */
#define GS_ROW_REL_MAX "rel_max" /* the slowest sample / the median (>= 1) */
#define GS_ROW_TIMING "timing"   /* "hot", "cold" or "host" (gs_stats.timing) */

/* "hot", "cold", "host" for GS_TIMING_*. */
const char *gs_timing_name(int timing);

/* A table of `ncols` columns named `cols` (copied). NULL if out of memory. */
gs_table *gs_table_new(const char *title, int ncols, const char *const *cols);
/* A table of the described columns (names copied; decimals kept for
 * gs_table_set). NULL if out of memory. */
gs_table *gs_table_new_columns(const char *title, int ncols, const gs_column *cols);
void gs_table_free(gs_table *t);

/* Start a new row; the cells of the row are then set by column index.
 * Unset cells print as "-" and are null in JSON. Return 0 or -1 (memory). */
int gs_table_add_row(gs_table *t);
int gs_table_set_text(gs_table *t, int col, const char *text);
/* `decimals` digits after the point in the printed and CSV forms. */
int gs_table_set_number(gs_table *t, int col, double value, int decimals);
/* A number with its column's decimals (gs_table_new_columns; else 3). */
int gs_table_set(gs_table *t, int col, double value);

/* Set column `col` of the row to the median of `stats` times `scale` (the
 * column's decimals), and record on the row how it was measured. */
int gs_table_set_measured(gs_table *t, int col, const gs_stats *stats, double scale);

/* The cells of the current row by their column's name (the description's,
 * the JSON key): what a suite's run code sets, so that its columns are
 * declared once, in its description. A name the table lacks sets nothing:
 * -1, and the table keeps the first such name (gs_table_unknown_column),
 * which fails the suite's run (suites/run.h). */
int gs_row_text(gs_table *t, const char *column, const char *text);
/* With the column's decimals (gs_table_set). */
int gs_row_value(gs_table *t, const char *column, double value);
/* `column` = num / den where both sides were measured (finite, den > 0);
 * else the cell stays unset ("-", null in JSON) and 0 is returned. */
int gs_row_ratio(gs_table *t, const char *column, double num, double den);
/* gs_table_set_measured. */
int gs_row_measured(gs_table *t, const char *column, const gs_stats *stats, double scale);
/* The first name a gs_row_* call gave that the table has no column of;
 * NULL: none. */
const char *gs_table_unknown_column(const gs_table *t);

/* The stopping rule the table's measurements followed (copied), for the
 * JSON ("sampling"); NULL: none recorded. */
void gs_table_set_sampling(gs_table *t, const gs_sampling *rule);

int gs_table_rows(const gs_table *t);
const char *gs_table_title(const gs_table *t);

void gs_table_print(const gs_table *t, FILE *out);
/* The table as CSV (common/csv.h), cells in their printed form. */
int gs_table_write_csv(const gs_table *t, FILE *out);
/* {"title":..., "columns":[...], "rows":[{col: value, ...}, ...]}, with the
 * GS_ROW_* fields on measured rows and "sampling": {"mode": "hot" | "cold",
 * "min_samples", "max_samples", "min_time_s", "max_noise", "timeout_s"} when
 * the rule was set. */
cJSON *gs_table_to_json(const gs_table *t);

#ifdef __cplusplus
}
#endif

#endif
