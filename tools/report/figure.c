/* figure.c - the figures of a plot description (figure.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "results/table.h"
#include "report/format.h"
#include "report/rows.h"

/* Rows a plot reads at most (the tables show them all). */
enum { MAX_ROWS = 8192, KEY = 192 };


int gs_method_is_ours(const gs_bench_suite *suite, const char *method)
{
    const gs_reading *r = suite->reading;
    return r && gs_listed(r->ours, gs_bench_method_name(suite, method));
}

/* A value as a key that tells numbers and texts apart: "n<number>",
 * "s<text>", "-" for anything else. */
static void value_key(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsNumber(v))
        snprintf(buf, len, "n%.17g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "s%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

/* A value as a label: a number compact (format.h), a text as it is. */
static void value_label(const gs_bench_suite *suite, const char *column, const cJSON *v,
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
static void series_of(const gs_bench_suite *suite, const gs_plot_spec *spec, const cJSON *row,
                      char *buf, size_t len)
{
    if (!spec->series) {
        buf[0] = '\0';
        return;
    }
    value_label(suite, spec->series, gs_row_field(row, spec->series), buf, len);
}

/* The method of a row, for its colour family. */
static int row_is_ours(const gs_bench_suite *suite, const cJSON *row)
{
    const char *method = suite->reading ? suite->reading->method : "method";
    const cJSON *m = gs_row_field(row, method);
    return cJSON_IsString(m) && gs_method_is_ours(suite, m->valuestring);
}

/* A row the plot reads: an object that passes the filter and `same`. */
static int kept(const gs_plot_spec *spec, const cJSON *row)
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
        value_key(v, part, sizeof part);
        k += (size_t)snprintf(key + (k < KEY ? k : KEY), KEY - (k < KEY ? k : KEY), "%s\x1f",
                              part);
        if (!cJSON_IsNumber(v) && !cJSON_IsString(v))
            continue;
        value_label(suite, *c, v, part, sizeof part);
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

/* A point before it finds its series and category. */
typedef struct raw_point {
    int series;
    char cat[KEY];
    char cat_label[GS_FIG_TEXT];
    double catnum; /* the first category value, when numeric */
    gs_fig_point p;
    double samples;
    int timing;
} raw_point;

/* Everything one plot needs across its facets. */
typedef struct plot {
    const gs_bench_suite *suite;
    const gs_plot_spec *spec;
    const cJSON *table;
    char methods[2][GS_FIG_SERIES][GS_FIG_TEXT]; /* per family, first-seen: bar colours */
    int nmethods[2];
    const cJSON *rows[MAX_ROWS];
    int nrows;
    char names[GS_FIG_SERIES][GS_FIG_TEXT]; /* every series, first-seen order */
    int ours[GS_FIG_SERIES], colour[GS_FIG_SERIES];
    int nseries;
    raw_point pts[GS_FIG_SERIES * GS_FIG_POINTS];
    int npts;
} plot;

static int is_special(const gs_plot_spec *spec, const char *series)
{
    return (spec->ceiling && strcmp(series, spec->ceiling) == 0) ||
           (spec->kind == GS_PLOT_RATIO && spec->baseline && strcmp(series, spec->baseline) == 0);
}

/* The kept rows and every series, ours first, with their colours. */
static void collect(plot *p, const cJSON *table)
{
    const cJSON *r;
    int order[GS_FIG_SERIES], n = 0;
    char names[GS_FIG_SERIES][GS_FIG_TEXT];
    int ours[GS_FIG_SERIES];
    cJSON_ArrayForEach(r, gs_row_field(table, "rows"))
    {
        if (p->nrows == MAX_ROWS || !kept(p->spec, r))
            continue;
        p->rows[p->nrows++] = r;
        char name[GS_FIG_TEXT];
        series_of(p->suite, p->spec, r, name, sizeof name);
        if (is_special(p->spec, name))
            continue;
        int seen = 0;
        for (int i = 0; i < n && !seen; ++i)
            seen = strcmp(names[i], name) == 0;
        if (!seen && n < GS_FIG_SERIES) {
            snprintf(names[n], sizeof names[n], "%s", name);
            ours[n] = p->spec->series ? row_is_ours(p->suite, r) : 1;
            order[n] = n;
            ++n;
        }
    }
    /* ours first, each family in first-seen order; colours by place in family */
    int k = 0, in_family[2] = {0, 0};
    for (int family = 1; family >= 0; --family)
        for (int i = 0; i < n; ++i)
            if (ours[order[i]] == family) {
                snprintf(p->names[k], sizeof p->names[k], "%s", names[i]);
                p->ours[k] = family;
                p->colour[k] = in_family[family]++;
                ++k;
            }
    p->nseries = k;
}

static int series_index(const plot *p, const char *name)
{
    for (int i = 0; i < p->nseries; ++i)
        if (strcmp(p->names[i], name) == 0)
            return i;
    return -1;
}

/* The y of a row as a number the axes can show, else NAN. */
static double y_of(const gs_plot_spec *spec, const cJSON *row)
{
    const cJSON *v = gs_row_field(row, spec->y);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || (spec->logy && v->valuedouble <= 0))
        return NAN;
    return v->valuedouble;
}

/* The fastest and slowest sample of a row, as y: the spec's columns, else
 * the rows' rel_min/rel_max (a rate's bar runs the other way). */
static void band_of(const gs_plot_spec *spec, const cJSON *row, double y, double *lo, double *hi)
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

/* The place of the row's method in its family, first seen first: the
 * colour of its bar when the plot has no series. */
static int method_colour(plot *p, const cJSON *row, int ours)
{
    char m[GS_FIG_TEXT];
    const char *method = p->suite->reading ? p->suite->reading->method : "method";
    value_label(p->suite, method, gs_row_field(row, method), m, sizeof m);
    for (int i = 0; i < p->nmethods[ours]; ++i)
        if (strcmp(p->methods[ours][i], m) == 0)
            return i;
    if (p->nmethods[ours] == GS_FIG_SERIES)
        return 0;
    snprintf(p->methods[ours][p->nmethods[ours]], GS_FIG_TEXT, "%s", m);
    return p->nmethods[ours]++;
}

/* Where a row stands on x: its category (key, label) or its number; 0, or
 * -1 when it has no place. */
static int place_of(const plot *p, const cJSON *row, raw_point *out)
{
    const gs_plot_spec *spec = p->spec;
    if (spec->categories) {
        if (category_of(p->suite, spec, row, out->cat, out->cat_label) != 0)
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

static int same_place(const plot *p, const raw_point *a, const raw_point *b)
{
    return p->spec->categories ? strcmp(a->cat, b->cat) == 0 : a->p.x == b->p.x;
}

/* The baseline's y at the place of `pt` in facet `facet`, or NAN. */
static double baseline_at(const plot *p, const char *facet, const raw_point *pt)
{
    for (int i = 0; i < p->nrows; ++i) {
        const cJSON *r = p->rows[i];
        char name[GS_FIG_TEXT], fk[KEY];
        raw_point at;
        series_of(p->suite, p->spec, r, name, sizeof name);
        value_key(gs_row_field(r, p->spec->facet), fk, sizeof fk);
        if (strcmp(name, p->spec->baseline) != 0 || (p->spec->facet && strcmp(fk, facet) != 0) ||
            place_of(p, r, &at) != 0 || !same_place(p, &at, pt))
            continue;
        double y = y_of(p->spec, r);
        if (y > 0)
            return y;
    }
    return NAN;
}

static int timing_code(const cJSON *v)
{
    if (!cJSON_IsString(v))
        return -1;
    return strcmp(v->valuestring, "hot") == 0    ? 0
           : strcmp(v->valuestring, "cold") == 0 ? 1
           : strcmp(v->valuestring, "host") == 0 ? 2
                                                 : -1;
}

/* The points of facet `facet` (a value key; ignored without a facet). */
static void points_of(plot *p, const char *facet)
{
    const gs_plot_spec *spec = p->spec;
    p->npts = 0;
    for (int i = 0; i < p->nrows && p->npts < GS_FIG_SERIES * GS_FIG_POINTS; ++i) {
        const cJSON *r = p->rows[i];
        char name[GS_FIG_TEXT], fk[KEY];
        raw_point *pt = &p->pts[p->npts];
        memset(pt, 0, sizeof *pt);
        value_key(gs_row_field(r, spec->facet), fk, sizeof fk);
        if (spec->facet && strcmp(fk, facet) != 0)
            continue;
        series_of(p->suite, spec, r, name, sizeof name);
        if (is_special(spec, name) || (pt->series = series_index(p, name)) < 0 ||
            place_of(p, r, pt) != 0)
            continue;
        double y = y_of(spec, r), lo, hi;
        if (isnan(y))
            continue;
        band_of(spec, r, y, &lo, &hi);
        if (spec->kind == GS_PLOT_RATIO) {
            double b = baseline_at(p, facet, pt);
            if (isnan(b))
                continue;
            double ratio = spec->y_rate ? y / b : b / y;
            double rlo = spec->y_rate ? lo / b : b / hi, rhi = spec->y_rate ? hi / b : b / lo;
            y = ratio, lo = rlo, hi = rhi;
        }
        if (!(isfinite(lo) && isfinite(hi) && lo > 0 && hi > 0))
            lo = hi = NAN;
        pt->p.y = y;
        pt->p.lo = lo;
        pt->p.hi = hi;
        pt->p.ours = row_is_ours(p->suite, r);
        pt->p.colour = method_colour(p, r, pt->p.ours);
        const cJSON *n = gs_row_field(r, GS_ROW_SAMPLES);
        pt->samples = cJSON_IsNumber(n) ? n->valuedouble : 0;
        pt->timing = timing_code(gs_row_field(r, GS_ROW_TIMING));
        p->npts++;
    }
}

static int cmp_cat(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The categories of the points, in order, and each point's index. */
static void place_categories(plot *p, gs_figure *f)
{
    char keys[GS_FIG_CATS][KEY];
    double nums[GS_FIG_CATS][2]; /* value, first-seen index */
    int all_numeric = 1, n = 0;
    for (int i = 0; i < p->npts; ++i) {
        int seen = 0;
        for (int k = 0; k < n && !seen; ++k)
            seen = strcmp(keys[k], p->pts[i].cat) == 0;
        if (seen || n == GS_FIG_CATS)
            continue;
        snprintf(keys[n], sizeof keys[n], "%s", p->pts[i].cat);
        snprintf(f->cats[n], sizeof f->cats[n], "%s", p->pts[i].cat_label);
        nums[n][0] = p->pts[i].catnum;
        nums[n][1] = n;
        all_numeric &= !isnan(p->pts[i].catnum) && p->spec->categories[1] == NULL;
        ++n;
    }
    int order[GS_FIG_CATS]; /* order[place] = first-seen index */
    for (int k = 0; k < n; ++k)
        order[k] = k;
    if (all_numeric) {
        qsort(nums, (size_t)n, sizeof nums[0], cmp_cat);
        for (int k = 0; k < n; ++k)
            order[k] = (int)nums[k][1];
    }
    char labels[GS_FIG_CATS][GS_FIG_TEXT];
    memcpy(labels, f->cats, sizeof labels);
    for (int k = 0; k < n; ++k)
        memcpy(f->cats[k], labels[order[k]], sizeof f->cats[k]);
    for (int i = 0; i < p->npts; ++i) {
        p->pts[i].p.x = -1;
        for (int k = 0; k < n; ++k)
            if (strcmp(keys[order[k]], p->pts[i].cat) == 0)
                p->pts[i].p.x = k;
    }
    f->ncats = n;
}

static int cmp_point(const void *a, const void *b)
{
    double x = ((const gs_fig_point *)a)->x, y = ((const gs_fig_point *)b)->x;
    return (x > y) - (x < y);
}

static void add_line(gs_figure *f, gs_fig_line_kind kind, double y, const char *label)
{
    if (f->nlines == GS_FIG_LINES || !isfinite(y) || (f->spec->logy && y <= 0))
        return;
    gs_fig_line *l = &f->lines[f->nlines++];
    l->kind = kind;
    l->y = y;
    snprintf(l->label, sizeof l->label, "%s", label);
}

/* The ratio's 1.0 and the ceilings. */
static void add_lines(const plot *p, gs_figure *f, const cJSON *env)
{
    const gs_plot_spec *spec = p->spec;
    gs_column_view view;
    char num[64], label[GS_FIG_TEXT];
    gs_column_view_of(p->suite, spec->y, &view);
    if (spec->kind == GS_PLOT_RATIO) {
        snprintf(label, sizeof label, "%s = 1", spec->baseline);
        add_line(f, GS_LINE_REFERENCE, 1.0, label);
    }
    const cJSON *r, *rows = spec->ceiling ? gs_row_field(p->table, "rows") : NULL;
    cJSON_ArrayForEach(r, rows)
    {
        /* the ceiling's row, wherever it is: not subject to the filter */
        char name[GS_FIG_TEXT];
        series_of(p->suite, spec, r, name, sizeof name);
        const cJSON *y = gs_row_field(r, spec->y);
        if (strcmp(name, spec->ceiling) != 0 || !cJSON_IsNumber(y) || !(y->valuedouble > 0))
            continue;
        gs_format_number(y->valuedouble, &view, num, sizeof num);
        snprintf(label, sizeof label, "%s: %s", name, num);
        add_line(f, GS_LINE_MEASURED, y->valuedouble, label);
        break;
    }
    const cJSON *e = gs_row_field(env, spec->env_ceiling);
    if (spec->env_ceiling && cJSON_IsNumber(e)) {
        gs_format_number(e->valuedouble, &view, num, sizeof num);
        snprintf(label, sizeof label, "%s: %s", spec->env_ceiling_label, num);
        add_line(f, GS_LINE_DATASHEET, e->valuedouble, label);
    }
}

static void widen(gs_figure *f, double y)
{
    if (!isfinite(y))
        return;
    f->ymin = y < f->ymin ? y : f->ymin;
    f->ymax = y > f->ymax ? y : f->ymax;
}

/* Build figure `f` of one facet from p->pts; 0 when it has no point. */
static int assemble(plot *p, gs_figure *f, const cJSON *env)
{
    if (p->npts == 0)
        return 0;
    f->categorical = p->spec->categories != NULL;
    if (f->categorical)
        place_categories(p, f);
    int map[GS_FIG_SERIES];
    for (int s = 0; s < GS_FIG_SERIES; ++s)
        map[s] = -1;
    f->xmin = f->ymin = INFINITY;
    f->xmax = f->ymax = -INFINITY;
    double samples = -1;
    int timing = -2;
    for (int i = 0; i < p->npts; ++i) {
        raw_point *rp = &p->pts[i];
        if (rp->p.x < 0 && f->categorical)
            continue;
        if (map[rp->series] < 0) {
            gs_fig_series *s = &f->series[f->nseries];
            snprintf(s->name, sizeof s->name, "%s", p->names[rp->series]);
            s->ours = p->ours[rp->series];
            s->colour = p->colour[rp->series];
            map[rp->series] = f->nseries++;
        }
        gs_fig_series *s = &f->series[map[rp->series]];
        if (s->npoints == GS_FIG_POINTS)
            continue;
        s->points[s->npoints++] = rp->p;
        f->xmin = rp->p.x < f->xmin ? rp->p.x : f->xmin;
        f->xmax = rp->p.x > f->xmax ? rp->p.x : f->xmax;
        widen(f, rp->p.y);
        if (!isnan(rp->p.lo)) {
            f->bars = 1;
            widen(f, rp->p.lo);
            widen(f, rp->p.hi);
        }
        samples = samples < 0 || samples == rp->samples ? rp->samples : 0;
        timing = timing == -2 || timing == rp->timing ? rp->timing : -1;
    }
    /* ours first, as collected: order the series by their place in p */
    for (int a = 0; a < f->nseries; ++a)
        for (int b = a + 1; b < f->nseries; ++b)
            if (series_index(p, f->series[b].name) < series_index(p, f->series[a].name)) {
                gs_fig_series t = f->series[a];
                f->series[a] = f->series[b];
                f->series[b] = t;
            }
    for (int s = 0; s < f->nseries; ++s)
        qsort(f->series[s].points, (size_t)f->series[s].npoints, sizeof(gs_fig_point),
              cmp_point);
    add_lines(p, f, env);
    for (int l = 0; l < f->nlines; ++l)
        widen(f, f->lines[l].y);
    f->samples = samples > 0 ? samples : 0;
    f->timing = timing < -1 ? -1 : timing;
    return f->nseries > 0;
}

/* A facet value that may name a file: a whole number. */
static int whole(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
           fabs(v->valuedouble) < 1e9;
}

/* The facet's part of the file name: the value when every facet value of
 * the plot is a whole number, else its index from 1 (a text of the results
 * never names a file). */
static void facet_file_part(const cJSON *v, int index, int by_value, char *buf, size_t len)
{
    if (by_value)
        snprintf(buf, len, "%.0f", v->valuedouble);
    else
        snprintf(buf, len, "%d", index + 1);
}

static void name_figure(const plot *p, int index, gs_figure *f, const cJSON *facet_value,
                        int facet_index, int by_value)
{
    const gs_plot_spec *spec = p->spec;
    char name[48], part[32];
    if (spec->name)
        snprintf(name, sizeof name, "%s", spec->name);
    else
        snprintf(name, sizeof name, "plot%d", index + 1);
    if (spec->facet) {
        facet_file_part(facet_value, facet_index, by_value, part, sizeof part);
        snprintf(f->file, sizeof f->file, "%s-%s-%s", p->suite->name, name, part);
        gs_column_view view;
        char value[GS_FIG_TEXT];
        gs_column_view_of(p->suite, spec->facet, &view);
        value_label(p->suite, spec->facet, facet_value, value, sizeof value);
        size_t a = strlen(view.label), b = strlen(value);
        if (a + 3 + b >= sizeof f->facet)
            b = sizeof f->facet - a - 4; /* a label is under 64 bytes */
        memcpy(f->facet, view.label, a);
        memcpy(f->facet + a, " = ", 3);
        memcpy(f->facet + a + 3, value, b);
        f->facet[a + 3 + b] = '\0';
    } else {
        snprintf(f->file, sizeof f->file, "%s-%s", p->suite->name, name);
    }
    const char *title = spec->title ? spec->title : p->suite->title;
    if (f->facet[0])
        snprintf(f->title, sizeof f->title, "%s (%s)", title, f->facet);
    else if (spec->subset && !spec->title)
        snprintf(f->title, sizeof f->title, "%s: %s", title, spec->subset);
    else
        snprintf(f->title, sizeof f->title, "%s", title);
}

static int build(const gs_bench_suite *suite, const gs_plot_spec *spec, int index,
                 const cJSON *table, const cJSON *env, gs_figure **figures)
{
    plot *p = calloc(1, sizeof *p);
    gs_figure *out = calloc(GS_FIG_FACETS, sizeof *out);
    if (!p || !out) {
        free(p);
        free(out);
        return -1;
    }
    p->suite = suite;
    p->spec = spec;
    p->table = table;
    collect(p, table);
    /* the facet values, first seen first */
    char keys[GS_FIG_FACETS][KEY];
    const cJSON *values[GS_FIG_FACETS];
    int nf = 0;
    for (int i = 0; i < p->nrows && (p->spec->facet || nf == 0); ++i) {
        const cJSON *v = gs_row_field(p->rows[i], p->spec->facet);
        char k[KEY];
        if (p->spec->facet && !cJSON_IsNumber(v) && !cJSON_IsString(v))
            continue;
        value_key(v, k, sizeof k);
        int seen = 0;
        for (int j = 0; j < nf && !seen; ++j)
            seen = strcmp(keys[j], k) == 0;
        if (!seen && nf < GS_FIG_FACETS) {
            snprintf(keys[nf], sizeof keys[nf], "%s", k);
            values[nf++] = v;
        }
    }
    int n = 0, by_value = 1;
    for (int f = 0; f < nf; ++f)
        by_value &= whole(values[f]);
    for (int f = 0; f < nf; ++f) {
        gs_figure *fig = &out[n];
        memset(fig, 0, sizeof *fig);
        fig->spec = p->spec;
        points_of(p, keys[f]);
        if (!assemble(p, fig, env))
            continue;
        name_figure(p, index, fig, values[f], f, by_value);
        ++n;
    }
    free(p);
    if (n == 0) {
        free(out);
        return 0;
    }
    *figures = out;
    return n;
}

int gs_figures_build(const gs_bench_suite *suite, int index, const cJSON *table,
                     const cJSON *env, gs_figure **figures)
{
    *figures = NULL;
    if (index < 0 || index >= suite->nplots)
        return 0;
    return build(suite, &suite->plots[index], index, table, env, figures);
}

int gs_figures_of_spec(const gs_bench_suite *suite, const gs_plot_spec *spec,
                       const cJSON *table, const cJSON *env, gs_figure **figures)
{
    *figures = NULL;
    return build(suite, spec, 0, table, env, figures);
}
