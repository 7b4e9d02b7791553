/*
 * summary.c - summary tables for the README (summary.h): the rows of a
 * suite's results grouped by configuration, one column per method or
 * derived figure, as the suite's summary description says.
 *
 * Everything printed from the results passes through the markdown writer
 * (escaped); numbers are printed with the description's formats, never with
 * anything read from the file.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "results/results.h"
#include "common/files.h"
#include "report/groups.h"
#include "report/markdown.h"
#include "report/rows.h"
#include "report/sources.h"

/* The rows of one suite that a summary keeps, and how they group. */
typedef struct grouping {
    const gs_bench_suite *suite;
    const gs_summary_spec *spec;
    const cJSON **rows; /* the kept rows */
    int nrows, ngroups;
    const int *first;   /* the first kept row of each group */
    const int *next;    /* the next kept row of the same group, -1 after the last */
    gs_groups index;    /* by `group_by` */
    int *alone;         /* without `group_by`: each row a group of its own */
} grouping;

/* A row the summary reads: an object that passes the filter and has a
 * number or a text in every column it is grouped by. */
static int kept(const gs_summary_spec *m, const cJSON *row)
{
    if (!gs_row_passes(row, m->filter, m->filter_values))
        return 0;
    for (const char *const *c = m->group_by; c && *c; ++c) {
        const cJSON *v = gs_row_field(row, *c);
        if (!cJSON_IsNumber(v) && !cJSON_IsString(v))
            return 0;
    }
    return 1;
}

static void grouping_free(grouping *g)
{
    gs_groups_free(&g->index);
    free(g->rows);
    free(g->alone);
}

/* Group the kept rows of `table`, in time linear in its rows; 0 or -1
 * (out of memory). */
static int group_rows(const gs_bench_suite *suite, const cJSON *table, grouping *g)
{
    const cJSON *rows = gs_row_field(table, "rows"), *r;
    int n = cJSON_GetArraySize(rows);
    memset(g, 0, sizeof *g);
    g->suite = suite;
    g->spec = suite->summary;
    g->rows = calloc((size_t)n + 1, sizeof *g->rows);
    if (!g->rows)
        return -1;
    cJSON_ArrayForEach(r, rows) if (kept(g->spec, r)) g->rows[g->nrows++] = r;
    if (g->spec->group_by) {
        if (gs_groups_build(&g->index, suite, g->rows, g->nrows, g->spec->group_by) != 0)
            return -1;
        g->ngroups = g->index.ngroups;
        g->first = g->index.first;
        g->next = g->index.next;
        return 0;
    }
    g->alone = calloc(2 * (size_t)g->nrows + 1, sizeof *g->alone);
    if (!g->alone)
        return -1;
    for (int i = 0; i < g->nrows; ++i) {
        g->alone[i] = i;
        g->alone[g->nrows + i] = -1;
    }
    g->ngroups = g->nrows;
    g->first = g->alone;
    g->next = g->alone + g->nrows;
    return 0;
}

/* The row of group k whose method is `method` (renamed methods as now
 * named), or NULL. */
static const cJSON *row_of(const grouping *g, int k, const char *method)
{
    for (int i = g->first[k]; i >= 0; i = g->next[i]) {
        const cJSON *m = gs_row_field(g->rows[i], g->spec->pivot);
        if (cJSON_IsString(m) &&
            strcmp(gs_bench_method_name(g->suite, m->valuestring), method) == 0)
            return g->rows[i];
    }
    return NULL;
}

/* The method with the smallest `column` in group k among `among`: NULL
 * for the summary's best_of, GS_SUMMARY_EVERY for any method the group
 * has; NULL when none has a number there. */
static const char *best_of(const grouping *g, int k, const char *column,
                           const char *const *among)
{
    const char *best = NULL;
    double least = INFINITY;
    int every = among && among[0] && strcmp(among[0], GS_SUMMARY_EVERY_NAME) == 0;
    if (every) {
        for (int i = g->first[k]; i >= 0; i = g->next[i]) {
            const cJSON *m = gs_row_field(g->rows[i], g->spec->pivot);
            const cJSON *v = gs_row_field(g->rows[i], column);
            if (cJSON_IsString(m) && cJSON_IsNumber(v) && v->valuedouble < least) {
                least = v->valuedouble;
                best = gs_bench_method_name(g->suite, m->valuestring);
            }
        }
        return best;
    }
    for (const char *const *m = among ? among : g->spec->best_of; m && *m; ++m) {
        const cJSON *v = gs_row_field(row_of(g, k, *m), column);
        if (cJSON_IsNumber(v) && v->valuedouble < least) {
            least = v->valuedouble;
            best = *m;
        }
    }
    return best;
}

/* The column the summary's first GS_SUMMARY_BEST column of best_of (no
 * `among`) ranks by, or `fallback` where it has none. */
static const char *best_metric(const grouping *g, const char *fallback)
{
    for (int c = 0; c < g->spec->ncolumns; ++c)
        if (g->spec->columns[c].kind == GS_SUMMARY_BEST && !g->spec->columns[c].among)
            return g->spec->columns[c].column;
    return fallback;
}

/* `column` of `method` in group k. GS_SUMMARY_BEST_METHOD: the method the
 * GS_SUMMARY_BEST column picks (the best by its metric, whatever `column`
 * shows, so that a row's cells all come from the same method). */
static const cJSON *value_of(const grouping *g, int k, const char *method, const char *column)
{
    if (strcmp(method, GS_SUMMARY_BEST_METHOD) == 0)
        method = best_of(g, k, best_metric(g, column), NULL);
    return method ? gs_row_field(row_of(g, k, method), column) : NULL;
}

/* A number as `format` says: "2^" a power of two as 2^k, NULL "%g". */
static void number_text(double v, const char *format, char *buf, size_t len)
{
    if (format && strcmp(format, "2^") == 0) {
        int k = 0;
        double m = frexp(v, &k); /* v = m 2^k, m in [0.5, 1) */
        if (m == 0.5 && k >= 1)
            snprintf(buf, len, "2^%d", k - 1);
        else
            snprintf(buf, len, "%.0f", v);
        return;
    }
    snprintf(buf, len, format ? format : "%g", v);
}

/* A value as the column shows it: a number formatted, a text as it is. */
static void value_text(const cJSON *v, const char *format, char *buf, size_t len)
{
    if (cJSON_IsNumber(v))
        number_text(v->valuedouble, format, buf, len);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

/* The group's values of `group_by` joined by 'x'. */
static void shape_text(const grouping *g, int k, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *const *c = g->spec->group_by; *c && n < len; ++c) {
        char part[64];
        value_text(gs_row_field(g->rows[g->first[k]], *c), "%.0f", part, sizeof part);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", c == g->spec->group_by ? "" : "x", part);
    }
}

/* Cell `col` of the summary row of group k. */
static void cell_text(const grouping *g, int k, const gs_summary_column *col, char *buf,
                      size_t len)
{
    const cJSON *num, *den;
    const char *best;
    switch (col->kind) {
    case GS_SUMMARY_FIELD:
        value_text(gs_row_field(g->rows[g->first[k]], col->column), col->format, buf, len);
        return;
    case GS_SUMMARY_SHAPE: shape_text(g, k, buf, len); return;
    case GS_SUMMARY_VALUE:
        value_text(value_of(g, k, col->method, col->column), col->format, buf, len);
        return;
    case GS_SUMMARY_BEST:
        best = best_of(g, k, col->column, col->among);
        snprintf(buf, len, "%s", best ? best : "-");
        return;
    case GS_SUMMARY_RATIO:
        num = value_of(g, k, col->method, col->column);
        den = value_of(g, k, col->over, col->column);
        if (cJSON_IsNumber(num) && cJSON_IsNumber(den) && den->valuedouble != 0.0)
            number_text(num->valuedouble / den->valuedouble, col->format, buf, len);
        else
            snprintf(buf, len, "-");
        return;
    }
    snprintf(buf, len, "-");
}

/* A group the summary shows: it has a row of every required method. */
static int complete(const grouping *g, int k)
{
    for (const char *const *m = g->spec->required; m && *m; ++m)
        if (!row_of(g, k, *m))
            return 0;
    return 1;
}

/* The sentence above a table, "{run}" as "GPU, CUDA x.y, date (`file`)".
 * `*named`: the file whose run the sentences so far named last (-1: none);
 * a sentence without "{run}" after another file's run names its own (as
 * "; run: ..." before its closing colon), so that every table says which
 * run it shows. */
static void write_intro(FILE *out, const char *intro, const gs_results_source *file, int f,
                        int *named)
{
    const char *run = strstr(intro, "{run}");
    size_t len = strlen(intro);
    if (run) {
        fprintf(out, "%.*s", (int)(run - intro), intro);
        gs_md_run(out, gs_row_field(file->doc, "environment"), file->path);
        fputs(run + 5, out);
    } else if (f != *named) {
        int colon = len > 0 && intro[len - 1] == ':';
        fprintf(out, "%.*s%s", (int)(len - (size_t)colon), intro, colon ? "; run: " : " Run: ");
        gs_md_run(out, gs_row_field(file->doc, "environment"), file->path);
        fputs(colon ? ":" : ".", out);
    } else {
        fputs(intro, out);
    }
    *named = f;
    fputs("\n\n", out);
}

/* One suite's summary: the sentence, the header, a row per shown group. */
static int write_table(FILE *out, const gs_bench_suite *suite, const cJSON *table,
                       const gs_results_source *file, int f, int *named)
{
    const gs_summary_spec *m = suite->summary;
    grouping g;
    if (group_rows(suite, table, &g) != 0) {
        grouping_free(&g);
        return -1;
    }
    write_intro(out, m->intro, file, f, named);
    fputc('|', out);
    for (int c = 0; c < m->ncolumns; ++c)
        gs_md_cell(out, m->columns[c].header);
    fputc('\n', out);
    gs_md_rule(out, m->ncolumns);
    for (int k = 0; k < g.ngroups; ++k) {
        if (!complete(&g, k))
            continue;
        fputc('|', out);
        for (int c = 0; c < m->ncolumns; ++c) {
            char buf[256];
            cell_text(&g, k, &m->columns[c], buf, sizeof buf);
            gs_md_cell(out, buf);
        }
        fputc('\n', out);
    }
    grouping_free(&g);
    return 0;
}

int gs_summary_write(FILE *out, const gs_results_source *files, int n, char *err,
                     size_t errlen)
{
    /* one file: its run, whether or not the first table names it */
    int written = 0, named = n == 1 ? 0 : -1;
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        int f = gs_source_of(files, n, s->name);
        const cJSON *table = f >= 0 ? gs_results_suite(files[f].doc, s->name) : NULL;
        if (!s->summary || !cJSON_IsObject(table) || !cJSON_IsArray(gs_row_field(table, "rows")))
            continue;
        if (written++)
            fputc('\n', out);
        if (write_table(out, s, table, &files[f], f, &named) != 0) {
            snprintf(err, errlen, "out of memory summarising %s", s->name);
            return -1;
        }
    }
    char shown[GS_SHOWN_SIZE];
    if (!written)
        gs_errorf(err, errlen, "no suite of %s has a summary table",
                  n == 1 ? gs_shown(files[0].path, shown, sizeof shown) : "these results files");
    return written ? 0 : -1;
}
