/* compare.c - two runs side by side (compare.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "results/results.h"
#include "results/table.h"
#include "common/files.h"
#include "common/spawn.h"
#include "report/figure.h"
#include "report/format.h"
#include "report/gnuplot.h"
#include "report/groups.h"
#include "report/markdown.h"
#include "report/outputs.h"
#include "report/rows.h"

/* The row's metric, or NAN when it has none worth dividing. */
static double metric_of(const gs_bench_suite *s, const cJSON *row)
{
    const cJSON *v = gs_row_field(row, s->reading->metric);
    return cJSON_IsObject(row) && cJSON_IsNumber(v) && v->valuedouble > 0 &&
                   isfinite(v->valuedouble)
               ? v->valuedouble
               : NAN;
}

/* The rows of `table` that have the suite's metric, grouped by its key;
 * 0 or -1 (out of memory). */
static int index_rows(const gs_bench_suite *s, const cJSON *table, gs_groups *g)
{
    const cJSON *rows = gs_row_field(table, "rows"), *r;
    const cJSON **measured = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof *measured);
    int n = 0;
    memset(g, 0, sizeof *g);
    if (!measured)
        return -1;
    cJSON_ArrayForEach(r, rows) if (!isnan(metric_of(s, r))) measured[n++] = r;
    if (gs_groups_build(g, s, measured, n, s->reading->key) != 0) {
        gs_groups_free(g);
        free(measured);
        return -1;
    }
    return 0;
}

static void index_free(gs_groups *g)
{
    free((void *)g->rows);
    gs_groups_free(g);
}

int gs_compare_suite(const gs_bench_suite *s, const cJSON *old_table, const cJSON *new_table,
                     gs_comparison **out, int *only_old, int *only_new)
{
    gs_groups old_rows, new_rows;
    int count = 0;
    *out = NULL;
    *only_old = *only_new = 0;
    if (!s->reading || !s->reading->key || !s->reading->metric)
        return 0;
    if (index_rows(s, old_table, &old_rows) != 0)
        return -1;
    gs_comparison *c = NULL;
    if (index_rows(s, new_table, &new_rows) != 0 ||
        !(c = calloc((size_t)new_rows.nrows + 1, sizeof *c))) {
        index_free(&old_rows);
        index_free(&new_rows);
        return -1;
    }
    /* each new row against the first old row of its key (time linear in
     * the rows: groups.h) */
    for (int i = 0; i < new_rows.nrows; ++i) {
        const cJSON *n = new_rows.rows[i];
        int k = gs_groups_find(&old_rows, n);
        if (k < 0) {
            ++*only_new;
            continue;
        }
        const cJSON *match = old_rows.rows[old_rows.first[k]];
        gs_comparison *x = &c[count++];
        x->old_row = match;
        x->new_row = n;
        x->old_value = metric_of(s, match);
        x->new_value = metric_of(s, n);
        x->ratio = s->reading->higher_is_better ? x->new_value / x->old_value
                                                : x->old_value / x->new_value;
        double a = gs_row_noise(match), b = gs_row_noise(n);
        x->noise_known = !isnan(a) && !isnan(b);
        x->threshold = x->noise_known ? (a > b ? a : b) : GS_COMPARE_NOISE;
        x->verdict = fabs(x->ratio - 1.0) <= x->threshold ? GS_SAME
                     : x->ratio > 1.0                     ? GS_FASTER
                                                          : GS_SLOWER;
    }
    for (int i = 0; i < old_rows.nrows; ++i)
        *only_old += gs_groups_find(&new_rows, old_rows.rows[i]) < 0;
    index_free(&old_rows);
    index_free(&new_rows);
    *out = c;
    return count;
}

/* ------------------------------------------------------------- writing */

/* One suite both runs have. */
typedef struct compared {
    const gs_bench_suite *suite;
    gs_comparison *rows;
    int n, only_old, only_new;
    int faster, slower, same, noise_unknown;
    double geomean, lo, hi;
    char picture[96];
} compared;

static void tally(compared *c)
{
    double logsum = 0;
    c->lo = INFINITY;
    c->hi = -INFINITY;
    for (int i = 0; i < c->n; ++i) {
        const gs_comparison *x = &c->rows[i];
        c->faster += x->verdict == GS_FASTER;
        c->slower += x->verdict == GS_SLOWER;
        c->same += x->verdict == GS_SAME;
        c->noise_unknown += !x->noise_known;
        logsum += log(x->ratio);
        c->lo = x->ratio < c->lo ? x->ratio : c->lo;
        c->hi = x->ratio > c->hi ? x->ratio : c->hi;
    }
    c->geomean = c->n ? exp(logsum / c->n) : NAN;
}

/* "`file`: GPU, date, commit X" of one run. */
static void describe_run(FILE *md, const char *label, const char *file, const cJSON *doc)
{
    const cJSON *env = gs_row_field(doc, "environment");
    const cJSON *gpu = gs_row_field(env, "gpu"), *commit = gs_row_field(env, "git_commit");
    char day[16], text[512], esc[700];
    gs_format_day(gs_row_field(env, "date"), day, sizeof day);
    snprintf(text, sizeof text, "%s, %s, commit %s", cJSON_IsString(gpu) ? gpu->valuestring : "?",
             day, cJSON_IsString(commit) ? commit->valuestring : "?");
    gs_md_inline_escape(text, esc, sizeof esc);
    fprintf(md, "- %s: ", label);
    gs_md_code(md, file);
    fprintf(md, " (%s)\n", esc);
}

static void write_summary_table(FILE *md, const compared *cs, int n)
{
    fputs("| suite | rows compared | new faster | new slower | within noise | geometric mean "
          "| range |\n",
          md);
    gs_md_rule(md, 7);
    for (int i = 0; i < n; ++i) {
        const compared *c = &cs[i];
        if (c->n)
            fprintf(md, "| [%s](#%s) | %d | %d | %d | %d | %.3fx | %.3fx to %.3fx |\n",
                    c->suite->name, c->suite->name, c->n, c->faster, c->slower, c->same,
                    c->geomean, c->lo, c->hi);
        else
            fprintf(md, "| %s | 0 | - | - | - | - | - |\n", c->suite->name);
    }
    fputc('\n', md);
}

static const char *const verdicts[] = {"same", "faster", "slower"};

/* One suite's rows: its key, OLD, NEW, the ratio, the noise, the verdict. */
static void write_suite_table(FILE *md, const compared *c)
{
    const gs_bench_suite *s = c->suite;
    gs_column_view view, metric;
    char buf[256];
    int ncols = 0;
    gs_column_view_of(s, s->reading->metric, &metric);
    fputc('|', md);
    for (const char *const *k = s->reading->key; *k; ++k, ++ncols) {
        gs_column_view_of(s, *k, &view);
        gs_md_cell(md, view.label);
    }
    snprintf(buf, sizeof buf, "old %s", metric.label);
    gs_md_cell(md, buf);
    snprintf(buf, sizeof buf, "new %s", metric.label);
    gs_md_cell(md, buf);
    gs_md_cell(md, "ratio");
    gs_md_cell(md, "noise (old / new)");
    gs_md_cell(md, "new is");
    fputc('\n', md);
    gs_md_rule(md, ncols + 5);
    for (int i = 0; i < c->n; ++i) {
        const gs_comparison *x = &c->rows[i];
        fputc('|', md);
        for (const char *const *k = s->reading->key; *k; ++k) {
            const cJSON *v = gs_row_field(x->new_row, *k);
            gs_column_view_of(s, *k, &view);
            if (!strcmp(*k, gs_bench_method_column(s)) && cJSON_IsString(v))
                snprintf(buf, sizeof buf, "%s", gs_bench_method_name(s, v->valuestring));
            else
                gs_format_value(v, &view, buf, sizeof buf);
            gs_md_cell(md, buf);
        }
        gs_format_number(x->old_value, &metric, buf, sizeof buf);
        gs_md_cell(md, buf);
        gs_format_number(x->new_value, &metric, buf, sizeof buf);
        gs_md_cell(md, buf);
        snprintf(buf, sizeof buf, "%.3fx", x->ratio);
        gs_md_cell(md, buf);
        if (x->noise_known)
            snprintf(buf, sizeof buf, "%.2f%% / %.2f%%", 100.0 * gs_row_noise(x->old_row),
                     100.0 * gs_row_noise(x->new_row));
        else
            snprintf(buf, sizeof buf, "not recorded");
        gs_md_cell(md, buf);
        gs_md_cell(md, verdicts[x->verdict]);
        fputc('\n', md);
    }
}

static void write_markdown(FILE *md, const cJSON *old_doc, const cJSON *new_doc,
                           const gs_compare_options *o, const compared *cs, int n, int embed)
{
    fputs("# gridsync comparison: the new run against the old\n\n", md);
    describe_run(md, "old", o->old_name, old_doc);
    describe_run(md, "new", o->new_name, new_doc);
    fprintf(md, "\nRows are matched on each suite's configuration and method. The ratio is the "
                "old run's time over the new one's (for a rate, new over old): above 1.00x the "
                "new run is faster. A difference within the larger noise of the two rows "
                "(%.0f%% where a run recorded none) counts as the same.\n\n",
            100.0 * GS_COMPARE_NOISE);
    write_summary_table(md, cs, n);
    for (int i = 0; i < n; ++i) {
        const compared *c = &cs[i];
        fprintf(md, "## %s\n\n", c->suite->name);
        if (c->only_old || c->only_new)
            fprintf(md, "Not compared: %d rows only in the old run, %d only in the new.\n\n",
                    c->only_old, c->only_new);
        if (c->noise_unknown)
            fprintf(md, "%d of %d rows compared without the noise of both runs (%.0f%% "
                        "assumed).\n\n",
                    c->noise_unknown, c->n, 100.0 * GS_COMPARE_NOISE);
        if (!c->n)
            continue;
        if (embed && c->picture[0])
            fprintf(md, "![%s: the new run's speedup over the old](%s.png)\n\n", c->suite->name,
                    c->picture);
        write_suite_table(md, c);
        fputc('\n', md);
    }
}

/* The suite's comparison as a results table the figure code reads: the
 * key's columns, the method, the ratio. */
static cJSON *ratio_table(const compared *c)
{
    cJSON *t = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(t, "rows");
    for (int i = 0; rows && i < c->n; ++i) {
        cJSON *r = cJSON_CreateObject();
        if (!r)
            break;
        for (const char *const *k = c->suite->reading->key; *k; ++k) {
            const cJSON *v = gs_row_field(c->rows[i].new_row, *k);
            if (v)
                cJSON_AddItemToObject(r, *k, cJSON_Duplicate(v, 1));
        }
        cJSON_AddNumberToObject(r, "ratio", c->rows[i].ratio);
        cJSON_AddItemToArray(rows, r);
    }
    return t;
}

/* Draw the suite's ratios: bars from 1 per configuration, one per method. */
static int plot_suite(compared *c, const cJSON *new_doc, const char *dir, FILE *gp)
{
    const char *categories[16];
    char xlabel[256];
    int nc = 0;
    size_t w = 0;
    xlabel[0] = '\0';
    for (const char *const *k = c->suite->reading->key; *k && nc < 15; ++k) {
        if (strcmp(*k, gs_bench_method_column(c->suite)) == 0)
            continue;
        gs_column_view view; /* the registry's labels: "threads (blocks)" */
        gs_column_view_of(c->suite, *k, &view);
        if (w < sizeof xlabel)
            w += (size_t)snprintf(xlabel + w, sizeof xlabel - w, "%s%s",
                                  nc == 0 ? "" : nc == 1 ? " (" : ", ", view.label);
        categories[nc++] = *k;
    }
    if (nc > 1 && w + 1 < sizeof xlabel)
        strcat(xlabel, ")");
    categories[nc] = NULL;
    const gs_plot_spec spec = {NULL, NULL, "ratio", nc ? gs_bench_method_column(c->suite) : NULL,
                               nc ? xlabel : "method", "speedup of the new run (log scale)", 0, 2,
                               "%g", NULL, NULL, "compare", "", GS_PLOT_VALUE, NULL, 0,
                               GS_STYLE_BARS,
                               nc ? categories : (const char *const[]){"method", NULL}, NULL,
                               NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL};
    cJSON *table = ratio_table(c);
    gs_figure *f = NULL;
    int n = table ? gs_figures_of_spec(c->suite, &spec, table, NULL, &f) : -1;
    cJSON_Delete(table);
    if (n <= 0) {
        free(f);
        return n;
    }
    char title[192], subtitle[512], day_new[16];
    const cJSON *env = gs_row_field(new_doc, "environment");
    gs_format_day(gs_row_field(env, "date"), day_new, sizeof day_new);
    snprintf(title, sizeof title, "%s: the new run's speedup over the old", c->suite->name);
    snprintf(f->title, sizeof f->title, "%s", title);
    snprintf(subtitle, sizeof subtitle,
             "ratio of medians (old time / new time); above 1x the new run (%s) is faster",
             day_new);
    if (f->nlines < GS_FIG_LINES) {
        gs_fig_line *l = &f->lines[f->nlines++];
        snprintf(l->label, sizeof l->label, "old run = 1");
        l->y = 1.0;
        l->kind = GS_LINE_REFERENCE;
        f->ymin = f->ymin < 1.0 ? f->ymin : 1.0;
        f->ymax = f->ymax > 1.0 ? f->ymax : 1.0;
    }
    int rc = gs_figure_write(f, dir, subtitle, gp);
    if (rc == 0)
        snprintf(c->picture, sizeof c->picture, "%s", f->file);
    free(f);
    return rc;
}

/* compare.md, compare.gp and the plots in o->dir. */
static int write_folder(const cJSON *old_doc, const cJSON *new_doc, const gs_compare_options *o,
                        compared *cs, int n, char *err, size_t errlen)
{
    char path[1024], shown[GS_SHOWN_SIZE];
    gs_shown(o->dir, shown, sizeof shown);
    if (gs_make_dirs(o->dir) != 0) {
        gs_errorf(err, errlen, "cannot create %s: %s", shown, strerror(errno));
        return -1;
    }
    if (gs_path_of(path, sizeof path, "%s/compare.md", o->dir) != 0) {
        gs_errorf(err, errlen, "cannot write in %s: path too long", shown);
        return -1;
    }
    FILE *gp = gs_path_of(path, sizeof path, "%s/compare.gp", o->dir) == 0
                   ? gs_open_output(path, err, errlen)
                   : NULL;
    if (!gp)
        return -1;
    int pictures = 0, rc = 0;
    for (int i = 0; i < n; ++i)
        if (cs[i].n) {
            if (plot_suite(&cs[i], new_doc, o->dir, gp) < 0) {
                gs_errorf(err, errlen, "cannot write plot data in %s", shown);
                rc = -1;
            }
            pictures += cs[i].picture[0] != '\0';
        }
    int closed = fclose(gp) == 0, warned = 0;
    char gnuplot[PATH_MAX];
    int rendered = closed && o->plots && pictures &&
                   gs_find_program("gnuplot", gnuplot, sizeof gnuplot) == 0 &&
                   gs_plots_render(o->dir, gnuplot, "compare.gp", &warned);
    gs_path_of(path, sizeof path, "%s/compare.md", o->dir); /* fits: checked above */
    FILE *md = gs_open_output(path, err, errlen);
    if (!md)
        return -1;
    write_markdown(md, old_doc, new_doc, o, cs, n, rendered);
    if (!rendered && pictures)
        fputs("Plots were not drawn: run `gnuplot compare.gp` in this folder (gnuplot-nox on "
              "Debian).\n",
              md);
    if (fclose(md) != 0 || !closed) {
        gs_errorf(err, errlen, "cannot write in %s: %s", shown, strerror(errno));
        rc = -1;
    }
    return rc;
}

int gs_compare_write(const cJSON *old_doc, const cJSON *new_doc, const gs_compare_options *o,
                     char *err, size_t errlen)
{
    if (gs_results_check(old_doc, o->old_name, err, errlen) != 0 ||
        gs_results_check(new_doc, o->new_name, err, errlen) != 0)
        return -1;
    int total = gs_bench_suite_count(), n = 0, rc = 0;
    compared *cs = calloc((size_t)total + 1, sizeof *cs);
    if (!cs) {
        gs_errorf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < total && rc == 0; ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        const cJSON *a = gs_results_suite(old_doc, s->name), *b = gs_results_suite(new_doc, s->name);
        if (!cJSON_IsObject(a) || !cJSON_IsObject(b))
            continue;
        compared *c = &cs[n++];
        c->suite = s;
        c->n = gs_compare_suite(s, a, b, &c->rows, &c->only_old, &c->only_new);
        if (c->n < 0) {
            gs_errorf(err, errlen, "out of memory comparing %s", s->name);
            rc = -1;
        }
        tally(c);
    }
    if (rc == 0 && n == 0) {
        gs_errorf(err, errlen, "the two results files have no suite in common");
        rc = -1;
    }
    if (rc == 0 && o->dir)
        rc = write_folder(old_doc, new_doc, o, cs, n, err, errlen);
    if (rc == 0 && o->md) {
        FILE *f = gs_output_open(o->md, err, errlen);
        if (!f)
            rc = -1;
        else {
            write_markdown(f, old_doc, new_doc, o, cs, n, 0);
            if (gs_output_close(o->md, f) != 0) {
                char shown[GS_SHOWN_SIZE];
                gs_errorf(err, errlen, "cannot write %s", gs_shown(o->md, shown, sizeof shown));
                rc = -1;
            }
        }
    }
    for (int i = 0; i < n; ++i)
        free(cs[i].rows);
    free(cs);
    return rc;
}
