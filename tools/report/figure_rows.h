/*
 * figure_rows.h - how a row of a results table reads in a plot (figure.h):
 * the keys and labels of its values, its series, whether the plot keeps it,
 * its category or x, its y and the band of its samples, its timing; and the
 * baseline a ratio divides by, found by place in time logarithmic in the
 * rows. Internal to the report's figures.
 */
#ifndef GS_REPORT_FIGURE_ROWS_H
#define GS_REPORT_FIGURE_ROWS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "results/suite.h"
#include "report/figure.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GS_FIG_KEY = 192 /* bytes of a value key */ };

/* A point before it finds its series and category. */
typedef struct gs_fig_raw_point {
    int series;
    char cat[GS_FIG_KEY];
    char cat_label[GS_FIG_TEXT];
    double catnum; /* the first category value, when numeric */
    gs_fig_point p;
    double samples;
    int timing;
} gs_fig_raw_point;

/* The baseline's rows of one facet, by place: what a ratio divides by. */
typedef struct gs_fig_baseline {
    gs_fig_raw_point *at; /* cat or p.x: the place (the other "" or 0); p.y: the baseline's
                           * y there; series: its row's place in the table */
    int n;
} gs_fig_baseline;

/* A value as a key that tells numbers and texts apart: "n<number>",
 * "s<text>", "-" for anything else. */
void gs_fig_value_key(const cJSON *v, char *buf, size_t len);

/* A value as a label: a number compact (format.h), a text as it is (a
 * method by its current name). */
void gs_fig_value_label(const gs_bench_suite *suite, const char *column, const cJSON *v,
                        char *buf, size_t len);

/* The series of a row: its `series` value as a label ("" without one). */
void gs_fig_series_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                      char *buf, size_t len);

/* Whether the row's method is gridsync's (its colour family). */
int gs_fig_row_is_ours(const gs_bench_suite *suite, const cJSON *row);

/* A row the plot reads: an object that passes the filter and `same`. */
int gs_fig_kept(const gs_plot_spec *spec, const cJSON *row);

/* The y of a row as a number the axes can show, else NAN. */
double gs_fig_y_of(const gs_plot_spec *spec, const cJSON *row);

/* The fastest and slowest sample of a row as y (NAN: none recorded). */
void gs_fig_band_of(const gs_plot_spec *spec, const cJSON *row, double y, double *lo,
                    double *hi);

/* Where a row stands on x: its category (key, label) or its number into
 * `out`; 0, or -1 when it has no place. */
int gs_fig_place_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                    gs_fig_raw_point *out);

/* The baseline's rows among `rows` in facet `facet` (a value key; ignored
 * without a facet), sorted by place (b->at malloc'ed: free it). 0, or -1
 * when out of memory. */
int gs_fig_baseline_of(const gs_bench_suite *suite, const gs_plot_spec *spec,
                       const cJSON *const *rows, int nrows, const char *facet, gs_fig_baseline *b);

/* The baseline's y at the place of `pt` (its first row there), or NAN. */
double gs_fig_baseline_at(const gs_fig_baseline *b, const gs_fig_raw_point *pt);

/* A row's timing: 0 hot, 1 cold, 2 host, -1 not recorded. */
int gs_fig_timing_of(const cJSON *v);

#ifdef __cplusplus
}
#endif

#endif
