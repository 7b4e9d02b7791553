/*
 * format.h - results values as a person reads them: "2^16 = 65536",
 * "19.63 us", "5.22%", "1.23x", "0.0076"; column headers from the suite's
 * description (results/reading.h) instead of JSON keys. The numbers are
 * formatted here, with formats of this file: nothing of a results file
 * ever becomes a format.
 */
#ifndef GS_REPORT_FORMAT_H
#define GS_REPORT_FORMAT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Noise (a row's relative standard deviation) above which the report
 * calls a figure noisy: its median may move that much from run to run. */
#define GS_NOISY 0.10

/* A column as the report shows it. */
typedef struct gs_column_view {
    const char *name;      /* the results key */
    char label[64];        /* the header */
    const char *unit;      /* "" for none */
    int decimals;
    gs_cell_format format;
} gs_column_view;

/* The view of column `name` of `suite` (NULL: a suite this gridsync does
 * not know, or a column it does not describe: the name as the label, no
 * unit, 3 decimals). The generic row fields (samples, noise) have views of
 * their own: "samples" and "noise" (a percentage). */
void gs_column_view_of(const gs_bench_suite *suite, const char *name, gs_column_view *view);

/* A number as the column prints it, with its unit. */
void gs_format_number(double v, const gs_column_view *view, char *buf, size_t len);

/* A number as an axis tick or a category shows it: a power of two of a
 * POW2 column as "2^16", a ratio as "1.2x", anything else with as few
 * digits as it needs ("132", "0.5"), no unit. */
void gs_format_compact(double v, const gs_column_view *view, char *buf, size_t len);

/* A results value: a number formatted, a text as it is, anything else
 * (null, missing, objects) "-". */
void gs_format_value(const cJSON *value, const gs_column_view *view, char *buf, size_t len);

/* `v` with `significant` significant digits and no exponent ("0.06968",
 * "242.6", "1859"); at most 12 decimals. */
void gs_format_significant(double v, int significant, char *buf, size_t len);

/* The day of an ISO date ("2026-11-22T08:45:19Z" -> "2026-11-22") into buf;
 * "?" when `date` is not a string that starts like one. */
void gs_format_day(const cJSON *date, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
