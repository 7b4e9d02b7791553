/* figure.c - the figures of a plot description (figure.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "results/table.h"
#include "report/figure_rows.h"
#include "report/format.h"
#include "report/rows.h"

/* Rows a plot reads at most (the tables show them all). */
enum { MAX_ROWS = 8192 };


int gs_method_is_ours(const gs_bench_suite *suite, const char *method)
{
    const gs_reading *r = suite->reading;
    return r && gs_listed(r->ours, gs_bench_method_name(suite, method));
}

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
    gs_fig_raw_point pts[GS_FIG_SERIES * GS_FIG_POINTS];
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
        if (p->nrows == MAX_ROWS || !gs_fig_kept(p->spec, r))
            continue;
        p->rows[p->nrows++] = r;
        char name[GS_FIG_TEXT];
        gs_fig_series_of(p->suite, p->spec, r, name, sizeof name);
        if (is_special(p->spec, name))
            continue;
        int seen = 0;
        for (int i = 0; i < n && !seen; ++i)
            seen = strcmp(names[i], name) == 0;
        if (!seen && n < GS_FIG_SERIES) {
            snprintf(names[n], sizeof names[n], "%s", name);
            ours[n] = p->spec->series ? gs_fig_row_is_ours(p->suite, r) : 1;
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

/* The place of the row's method in its family, first seen first: the
 * colour of its bar when the plot has no series. */
static int method_colour(plot *p, const cJSON *row, int ours)
{
    char m[GS_FIG_TEXT];
    const char *method = gs_bench_method_column(p->suite);
    gs_fig_value_label(p->suite, method, gs_row_field(row, method), m, sizeof m);
    for (int i = 0; i < p->nmethods[ours]; ++i)
        if (strcmp(p->methods[ours][i], m) == 0)
            return i;
    if (p->nmethods[ours] == GS_FIG_SERIES)
        return 0;
    snprintf(p->methods[ours][p->nmethods[ours]], GS_FIG_TEXT, "%s", m);
    return p->nmethods[ours]++;
}

/* The points of facet `facet` (a value key; ignored without a facet).
 * 0, or -1 (out of memory). */
static int points_of(plot *p, const char *facet)
{
    const gs_plot_spec *spec = p->spec;
    gs_fig_baseline base = {NULL, 0};
    p->npts = 0;
    if (spec->kind == GS_PLOT_RATIO &&
        gs_fig_baseline_of(p->suite, spec, p->rows, p->nrows, facet, &base) != 0)
        return -1;
    for (int i = 0; i < p->nrows && p->npts < GS_FIG_SERIES * GS_FIG_POINTS; ++i) {
        const cJSON *r = p->rows[i];
        char name[GS_FIG_TEXT], fk[GS_FIG_KEY];
        gs_fig_raw_point *pt = &p->pts[p->npts];
        memset(pt, 0, sizeof *pt);
        gs_fig_value_key(gs_row_field(r, spec->facet), fk, sizeof fk);
        if (spec->facet && strcmp(fk, facet) != 0)
            continue;
        gs_fig_series_of(p->suite, spec, r, name, sizeof name);
        if (is_special(spec, name) || (pt->series = series_index(p, name)) < 0 ||
            gs_fig_place_of(p->suite, spec, r, pt) != 0)
            continue;
        double y = gs_fig_y_of(spec, r), lo, hi;
        if (isnan(y))
            continue;
        gs_fig_band_of(spec, r, y, &lo, &hi);
        if (spec->kind == GS_PLOT_RATIO) {
            double b = gs_fig_baseline_at(&base, pt);
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
        pt->p.ours = gs_fig_row_is_ours(p->suite, r);
        pt->p.colour = method_colour(p, r, pt->p.ours);
        const cJSON *n = gs_row_field(r, GS_ROW_SAMPLES);
        pt->samples = cJSON_IsNumber(n) ? n->valuedouble : 0;
        pt->timing = gs_fig_timing_of(gs_row_field(r, GS_ROW_TIMING));
        p->npts++;
    }
    free(base.at);
    return 0;
}

static int cmp_cat(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The categories of the points, in order, and each point's index. */
static void place_categories(plot *p, gs_figure *f)
{
    char keys[GS_FIG_CATS][GS_FIG_KEY];
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
    double ceiling = NAN;
    cJSON_ArrayForEach(r, rows)
    {
        /* the ceiling's rows, wherever they are (not subject to the filter):
         * the best of them, where the ceiling is one (a copy of 2^10
         * elements measures a launch, not the memory) */
        char name[GS_FIG_TEXT];
        gs_fig_series_of(p->suite, spec, r, name, sizeof name);
        const cJSON *y = gs_row_field(r, spec->y);
        if (strcmp(name, spec->ceiling) != 0 || !cJSON_IsNumber(y) || !(y->valuedouble > 0) ||
            !isfinite(y->valuedouble))
            continue;
        if (isnan(ceiling) || (spec->y_rate ? y->valuedouble > ceiling : y->valuedouble < ceiling))
            ceiling = y->valuedouble;
    }
    if (!isnan(ceiling)) {
        gs_format_number(ceiling, &view, num, sizeof num);
        snprintf(label, sizeof label, "%s: %s", spec->ceiling, num);
        add_line(f, GS_LINE_MEASURED, ceiling, label);
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
        gs_fig_raw_point *rp = &p->pts[i];
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
        gs_fig_value_label(p->suite, spec->facet, facet_value, value, sizeof value);
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
    char keys[GS_FIG_FACETS][GS_FIG_KEY];
    const cJSON *values[GS_FIG_FACETS];
    int nf = 0;
    for (int i = 0; i < p->nrows && (p->spec->facet || nf == 0); ++i) {
        const cJSON *v = gs_row_field(p->rows[i], p->spec->facet);
        char k[GS_FIG_KEY];
        if (p->spec->facet && !cJSON_IsNumber(v) && !cJSON_IsString(v))
            continue;
        gs_fig_value_key(v, k, sizeof k);
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
        if (points_of(p, keys[f]) != 0) {
            free(p);
            free(out);
            return -1;
        }
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
