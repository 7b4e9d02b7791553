/* figure_rows.c - how a row of a results table reads in a plot
 * (figure_rows.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/figure_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "results/table.h"
#include "report/format.h"
#include "report/rows.h"

/* A value as a key that tells numbers and texts apart: "n<number>",
 * "s<text>", "-" for anything else. */
void gs_fig_value_key(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsNumber(v))
        snprintf(buf, len, "n%.17g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "s%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

/* A value as a label: a number compact (format.h), a text as it is. */
void gs_fig_value_label(const gs_bench_suite *suite, const char *column, const cJSON *v,
                        char *buf, size_t len)
{
    gs_column_view view;
    gs_column_view_of(suite, column, &view);
    if (cJSON_IsNumber(v))
        gs_format_compact(v->valuedouble, &view, buf, len);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "%s", column && suite->reading && suite->reading->method &&
                                         strcmp(column, suite->reading->method) == 0
                                     ? gs_bench_method_name(suite, v->valuestring)
                                     : v->valuestring);
    else
        snprintf(buf, len, "-");
}

/* The series of a row: its `series` value as a label ("" without one). */
void gs_fig_series_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                      char *buf, size_t len)
{
    if (!spec->series) {
        buf[0] = '\0';
        return;
    }
    gs_fig_value_label(suite, spec->series, gs_row_field(row, spec->series), buf, len);
}

/* The method of a row, for its colour family. */
int gs_fig_row_is_ours(const gs_bench_suite *suite, const cJSON *row)
{
    const char *method = gs_bench_method_column(suite);
    const cJSON *m = gs_row_field(row, method);
    return cJSON_IsString(m) && gs_method_is_ours(suite, m->valuestring);
}

/* A row the plot reads: an object that passes the filter and `same`. */
int gs_fig_kept(const gs_plot_spec *spec, const cJSON *row)
{
    if (!gs_row_passes(row, spec->filter, spec->filter_values))
        return 0;
    const cJSON *first = NULL;
    for (const char *const *c = spec->same; c && *c; ++c) {
        const cJSON *v = gs_row_field(row, *c);
        if (!cJSON_IsNumber(v) || (first && v->valuedouble != first->valuedouble))
            return 0;
        first = v;
    }
    return 1;
}

/* The row's category: a key of its category columns' values, and its label
 * (the values joined by the spec's separator, else the first and the others
 * in parentheses; missing ones left out). 0, or -1 when the first is
 * missing. */
static int category_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                       char *key, char *label)
{
    size_t k = 0, l = 0;
    int rest = 0;
    key[0] = label[0] = '\0';
    for (const char *const *c = spec->categories; *c; ++c) {
        const cJSON *v = gs_row_field(row, *c);
        char part[GS_FIG_TEXT];
        if (c == spec->categories && !cJSON_IsNumber(v) && !cJSON_IsString(v))
            return -1;
        gs_fig_value_key(v, part, sizeof part);
        size_t kat = k < GS_FIG_KEY ? k : GS_FIG_KEY;
        k += (size_t)snprintf(key + kat, GS_FIG_KEY - kat, "%s\x1f", part);
        if (!cJSON_IsNumber(v) && !cJSON_IsString(v))
            continue;
        gs_fig_value_label(suite, *c, v, part, sizeof part);
        size_t at = l < GS_FIG_TEXT ? l : GS_FIG_TEXT;
        if (c == spec->categories)
            l += (size_t)snprintf(label + at, GS_FIG_TEXT - at, "%s", part);
        else if (spec->category_sep)
            l += (size_t)snprintf(label + at, GS_FIG_TEXT - at, "%s%s", spec->category_sep, part);
        else
            l += (size_t)snprintf(label + at, GS_FIG_TEXT - at, "%s%s", rest++ ? ", " : " (",
                                  part);
    }
    if (rest && l + 1 < GS_FIG_TEXT)
        strcat(label, ")");
    return 0;
}

/* The y of a row as a number the axes can show, else NAN. */
double gs_fig_y_of(const gs_plot_spec *spec, const cJSON *row)
{
    const cJSON *v = gs_row_field(row, spec->y);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || (spec->logy && v->valuedouble <= 0))
        return NAN;
    return v->valuedouble;
}

/* The fastest and slowest sample of a row, as y: the spec's columns, else
 * the rows' rel_min/rel_max (a rate's bar runs the other way). */
void gs_fig_band_of(const gs_plot_spec *spec, const cJSON *row, double y, double *lo, double *hi)
{
    const cJSON *a = gs_row_field(row, spec->low), *b = gs_row_field(row, spec->high);
    *lo = *hi = NAN;
    if (spec->low && spec->high) {
        if (cJSON_IsNumber(a) && cJSON_IsNumber(b)) {
            *lo = a->valuedouble;
            *hi = b->valuedouble;
        }
        return;
    }
    a = gs_row_field(row, GS_ROW_REL_MIN);
    b = gs_row_field(row, GS_ROW_REL_MAX);
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !(a->valuedouble > 0) ||
        !(b->valuedouble > 0))
        return;
    *lo = spec->y_rate ? y / b->valuedouble : y * a->valuedouble;
    *hi = spec->y_rate ? y / a->valuedouble : y * b->valuedouble;
}

/* Where a row stands on x: its category (key, label) or its number; 0, or
 * -1 when it has no place. */
int gs_fig_place_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                    gs_fig_raw_point *out)
{
    if (spec->categories) {
        if (category_of(suite, spec, row, out->cat, out->cat_label) != 0)
            return -1;
        const cJSON *first = gs_row_field(row, spec->categories[0]);
        out->catnum = cJSON_IsNumber(first) ? first->valuedouble : NAN;
        return 0;
    }
    const cJSON *x = gs_row_field(row, spec->x);
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || (spec->logx && x->valuedouble <= 0) ||
        (spec->xmin != 0 && x->valuedouble < spec->xmin) ||
        (spec->xmax != 0 && x->valuedouble > spec->xmax))
        return -1;
    out->p.x = x->valuedouble;
    return 0;
}

static int cmp_place(const gs_fig_raw_point *x, const gs_fig_raw_point *y)
{
    int c = strcmp(x->cat, y->cat);
    return c ? c : (x->p.x > y->p.x) - (x->p.x < y->p.x);
}

static int cmp_baseline(const void *a, const void *b)
{
    const gs_fig_raw_point *x = a, *y = b;
    int c = cmp_place(x, y);
    return c ? c : (x->series > y->series) - (x->series < y->series);
}

/* The baseline's rows of facet `facet` with a y, sorted by place, then by
 * their order in the table (the first one counts). 0, or -1 (out of
 * memory). */
int gs_fig_baseline_of(const gs_bench_suite *suite, const gs_plot_spec *spec,
                       const cJSON *const *rows, int nrows, const char *facet, gs_fig_baseline *b)
{
    b->n = 0;
    b->at = calloc((size_t)nrows + 1, sizeof *b->at);
    if (!b->at)
        return -1;
    for (int i = 0; i < nrows; ++i) {
        const cJSON *r = rows[i];
        char name[GS_FIG_TEXT], fk[GS_FIG_KEY];
        gs_fig_raw_point *at = &b->at[b->n];
        memset(at, 0, sizeof *at);
        gs_fig_series_of(suite, spec, r, name, sizeof name);
        gs_fig_value_key(gs_row_field(r, spec->facet), fk, sizeof fk);
        if (strcmp(name, spec->baseline) != 0 || (spec->facet && strcmp(fk, facet) != 0) ||
            gs_fig_place_of(suite, spec, r, at) != 0 || !(gs_fig_y_of(spec, r) > 0))
            continue;
        at->p.y = gs_fig_y_of(spec, r);
        at->series = i;
        b->n++;
    }
    qsort(b->at, (size_t)b->n, sizeof *b->at, cmp_baseline);
    return 0;
}

/* The baseline's y at the place of `pt`, or NAN (a binary search). */
double gs_fig_baseline_at(const gs_fig_baseline *b, const gs_fig_raw_point *pt)
{
    int lo = 0, hi = b->n; /* the first entry not before pt's place */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cmp_place(&b->at[mid], pt) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->n && cmp_place(&b->at[lo], pt) == 0 ? b->at[lo].p.y : NAN;
}

int gs_fig_timing_of(const cJSON *v)
{
    if (!cJSON_IsString(v))
        return -1;
    return strcmp(v->valuestring, "hot") == 0    ? 0
           : strcmp(v->valuestring, "cold") == 0 ? 1
           : strcmp(v->valuestring, "host") == 0 ? 2
                                                 : -1;
}

