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
#include "report/markdown.h"
#include "report/rows.h"

/* The rows of one suite that a summary keeps, and how they group. */
typedef struct grouping {
    const gs_bench_suite *suite;
    const gs_summary_spec *spec;
    const cJSON **rows; /* the kept rows */
    int *group;         /* the group of each kept row */
    int *first;         /* the first kept row of each group */
    int nrows, ngroups;
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

/* The group of `row` among the groups so far, or -1 for a new one. */
static int group_of(const grouping *g, const cJSON *row)
{
    if (!g->spec->group_by)
        return -1;
    for (int k = 0; k < g->ngroups; ++k) {
        const cJSON *other = g->rows[g->first[k]];
        int same = 1;
        for (const char *const *c = g->spec->group_by; *c && same; ++c)
            same = gs_same_value(gs_row_field(row, *c), gs_row_field(other, *c));
        if (same)
            return k;
    }
    return -1;
}

static void grouping_free(grouping *g)
{
    free(g->rows);
    free(g->group);
    free(g->first);
}

/* Group the kept rows of `table`; 0 or -1 (out of memory). */
static int group_rows(const gs_bench_suite *suite, const cJSON *table, grouping *g)
{
    const cJSON *rows = gs_row_field(table, "rows"), *r;
    int n = cJSON_GetArraySize(rows);
    memset(g, 0, sizeof *g);
    g->suite = suite;
    g->spec = suite->summary;
    g->rows = calloc((size_t)n + 1, sizeof *g->rows);
    g->group = calloc((size_t)n + 1, sizeof *g->group);
    g->first = calloc((size_t)n + 1, sizeof *g->first);
    if (!g->rows || !g->group || !g->first)
        return -1;
    cJSON_ArrayForEach(r, rows)
    {
        if (!kept(g->spec, r))
            continue;
        g->rows[g->nrows] = r;
        int k = group_of(g, r);
        if (k < 0) {
            k = g->ngroups++;
            g->first[k] = g->nrows;
        }
        g->group[g->nrows++] = k;
    }
    return 0;
}

/* The row of group k whose method is `method` (renamed methods as now
 * named), or NULL. */
static const cJSON *row_of(const grouping *g, int k, const char *method)
{
    for (int i = 0; i < g->nrows; ++i) {
        const cJSON *m = gs_row_field(g->rows[i], g->spec->pivot);
        if (g->group[i] == k && cJSON_IsString(m) &&
            strcmp(gs_bench_method_name(g->suite, m->valuestring), method) == 0)
            return g->rows[i];
    }
    return NULL;
}

/* The method of `best_of` with the smallest `column` in group k, or NULL. */
static const char *best_of(const grouping *g, int k, const char *column)
{
    const char *best = NULL;
    double least = INFINITY;
    for (const char *const *m = g->spec->best_of; m && *m; ++m) {
        const cJSON *v = gs_row_field(row_of(g, k, *m), column);
        if (cJSON_IsNumber(v) && v->valuedouble < least) {
            least = v->valuedouble;
            best = *m;
        }
    }
    return best;
}

/* The column the summary's (first) GS_SUMMARY_BEST column ranks by, or
 * `fallback` where it has none. */
static const char *best_metric(const grouping *g, const char *fallback)
{
    for (int c = 0; c < g->spec->ncolumns; ++c)
        if (g->spec->columns[c].kind == GS_SUMMARY_BEST)
            return g->spec->columns[c].column;
    return fallback;
}

/* `column` of `method` in group k. GS_SUMMARY_BEST_METHOD: the method the
 * GS_SUMMARY_BEST column picks (the best by its metric, whatever `column`
 * shows, so that a row's cells all come from the same method). */
static const cJSON *value_of(const grouping *g, int k, const char *method, const char *column)
{
    if (strcmp(method, GS_SUMMARY_BEST_METHOD) == 0)
        method = best_of(g, k, best_metric(g, column));
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
        best = best_of(g, k, col->column);
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

/* The environment's `key` (text), escaped, or "?". */
static void env_text(FILE *out, const cJSON *env, const char *key, size_t at_most)
{
    const cJSON *v = gs_row_field(env, key);
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)at_most, cJSON_IsString(v) ? v->valuestring : "?");
    gs_md_text(out, buf);
}

/* The sentence above a table, "{run}" as "GPU, CUDA x.y, date (`file`)". */
static void write_intro(FILE *out, const char *intro, const cJSON *env, const char *source)
{
    const char *run = strstr(intro, "{run}");
    fprintf(out, "%.*s", run ? (int)(run - intro) : (int)strlen(intro), intro);
    if (run) {
        char file[1024];
        env_text(out, env, "gpu", 200);
        fputs(", CUDA ", out);
        env_text(out, env, "cuda_runtime", 20);
        fputs(", ", out);
        env_text(out, env, "date", 10); /* the day */
        gs_report_md_escape(source, file, sizeof file);
        for (char *c = file; *c; ++c)
            *c = *c == '`' ? '\'' : *c;
        fprintf(out, " (`%s`)%s", file, run + 5);
    }
    fputs("\n\n", out);
}

/* One suite's summary: the sentence, the header, a row per shown group. */
static int write_table(FILE *out, const gs_bench_suite *suite, const cJSON *table,
                       const cJSON *env, const char *source)
{
    const gs_summary_spec *m = suite->summary;
    grouping g;
    if (group_rows(suite, table, &g) != 0) {
        grouping_free(&g);
        return -1;
    }
    write_intro(out, m->intro, env, source);
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

int gs_summary_write(FILE *out, const cJSON *results, const char *source, char *err,
                     size_t errlen)
{
    const cJSON *schema = gs_row_field(results, "schema"), *suites = gs_row_field(results, "suites");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, GS_RESULTS_SCHEMA) != 0 ||
        !cJSON_IsObject(suites)) {
        snprintf(err, errlen, "not a gridsync results document (schema %s expected)",
                 GS_RESULTS_SCHEMA);
        return -1;
    }
    int written = 0;
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        const cJSON *table = gs_row_field(suites, s->name);
        if (!s->summary || !cJSON_IsObject(table) || !cJSON_IsArray(gs_row_field(table, "rows")))
            continue;
        if (written++)
            fputc('\n', out);
        if (write_table(out, s, table, gs_row_field(results, "environment"), source) != 0) {
            snprintf(err, errlen, "out of memory summarising %s", s->name);
            return -1;
        }
    }
    if (!written)
        snprintf(err, errlen, "no suite of %s has a summary table", source);
    return written ? 0 : -1;
}
