/* rows.h - reading the rows of a results table: a row's value of a column,
 * lists of names, equal values, the filter of a description (a column
 * whose text must be one of a list). What the summary, the figures, the
 * headlines and --compare share. */
#ifndef GS_REPORT_ROWS_H
#define GS_REPORT_ROWS_H

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The row's value of `column` (NULL when the column is NULL or absent). */
const cJSON *gs_row_field(const cJSON *row, const char *column);

/* The row's relative noise (GS_ROW_NOISE), or NAN without one. */
double gs_row_noise(const cJSON *row);

/* Whether `s` is in the NULL-ended `list` (NULL: an empty list). */
int gs_listed(const char *const *list, const char *s);

/* Equal numbers, equal texts, or both absent or null. */
int gs_same_value(const cJSON *a, const cJSON *b);

/* An object whose `filter` column holds a text of `values` (no filter:
 * any object). */
int gs_row_passes(const cJSON *row, const char *filter, const char *const *values);

#ifdef __cplusplus
}
#endif

#endif
