/*
 * report.c - a results document (bench/results.h) turned into what a person
 * reads: report.md (environment and every suite's table), one CSV per suite
 * at full precision, and the plots each suite describes, rendered by gnuplot
 * (plots.h). Without gnuplot everything but the pictures is still written,
 * and the report says how to get them.
 *
 * A results file is data, never code: nothing read from it (or given as the
 * output folder) reaches a shell or the text of plots.gp. File names come
 * from the registered suites (bench/registry.h); suites not registered are
 * skipped; markdown cells are escaped (markdown.h), CSV fields quoted
 * (common/csv.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "report/report.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/registry.h"
#include "common/csv.h"
#include "common/files.h"
#include "common/spawn.h"
#include "report/markdown.h"
#include "report/plots.h"

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* A column's name; NULL for an entry of `columns` that is not a string
 * (such entries are left out). */
static const char *column(const cJSON *c)
{
    return cJSON_IsString(c) ? c->valuestring : NULL;
}

static int ncolumns(const cJSON *cols)
{
    const cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, cols) n += column(c) != NULL;
    return n;
}

/* " <value as text> |" of a markdown table row. */
static void md_value(FILE *f, const cJSON *v)
{
    char buf[256];
    gs_value_text(v, buf, sizeof buf);
    gs_md_cell(f, buf);
}

static void write_markdown_table(FILE *f, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    fputc('|', f);
    cJSON_ArrayForEach(c, cols) if (column(c)) gs_md_cell(f, c->valuestring);
    fputc('\n', f);
    gs_md_rule(f, ncolumns(cols));
    cJSON_ArrayForEach(r, rows)
    {
        fputc('|', f);
        cJSON_ArrayForEach(c, cols) if (column(c))
            md_value(f, cJSON_GetObjectItemCaseSensitive(r, c->valuestring));
        fputc('\n', f);
    }
}

/* A CSV field of a value: numbers at full precision, null empty. */
static void csv_value(gs_csv_row *row, const cJSON *v)
{
    char buf[256];
    if (cJSON_IsNumber(v))
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
    else
        gs_value_text(v, buf, sizeof buf);
    gs_csv_field(row, cJSON_IsNull(v) ? NULL : buf);
}

static int write_csv(const char *path, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    gs_csv_row row;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    gs_csv_row_begin(&row, f);
    cJSON_ArrayForEach(c, cols) if (column(c)) gs_csv_field(&row, c->valuestring);
    gs_csv_row_end(&row);
    cJSON_ArrayForEach(r, rows)
    {
        gs_csv_row_begin(&row, f);
        cJSON_ArrayForEach(c, cols) if (column(c))
            csv_value(&row, cJSON_GetObjectItemCaseSensitive(r, c->valuestring));
        gs_csv_row_end(&row);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* Why a suite of the results is not reported (NULL: it is). */
static const char *skip_reason(const cJSON *suites, const cJSON *suite,
                               const gs_bench_suite *known)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(suite, "columns");
    if (!known)
        return "not a suite this gridsync knows";
    if (cJSON_GetObjectItemCaseSensitive(suites, known->name) != suite)
        return "a second suite of the same name";
    if (!cJSON_IsArray(cols) || !ncolumns(cols))
        return "not a table with columns";
    return NULL;
}

/* One suite of the results: its section of report.md, <suite>.csv and its
 * plots. A suite skipped (skip_reason) gets a warning and no files. */
static int write_suite(const cJSON *suites, const cJSON *suite, gs_plot_out *o, char *err,
                       size_t errlen)
{
    const gs_bench_suite *known = gs_bench_suite_find(suite->string);
    const char *why = skip_reason(suites, suite, known);
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(suite, "title");
    char path[1024], shown[80];
    fputs("## ", o->md);
    gs_md_text(o->md, suite->string);
    fputs("\n\n", o->md);
    if (why) {
        gs_report_md_escape(suite->string, shown, sizeof shown);
        fprintf(stderr, "gridsync: warning: results suite '%s' skipped: %s\n", shown, why);
        fprintf(o->md, "Skipped: %s (no table, CSV or plot).\n\n", why);
        return 0;
    }
    if (cJSON_IsString(title)) {
        gs_md_text(o->md, title->valuestring);
        fputs("\n\n", o->md);
    }
    write_markdown_table(o->md, suite);
    int rc = 0;
    if (gs_path_of(path, sizeof path, "%s/%s.csv", o->dir, known->name) != 0 ||
        write_csv(path, suite) != 0) {
        set_err(err, errlen, "cannot write %s", path);
        rc = -1;
    }
    if (gs_plot_suite(known, suite, o) != 0) {
        set_err(err, errlen, "cannot write plot data in %s", o->dir);
        rc = -1;
    }
    fputc('\n', o->md);
    return rc;
}

static void write_environment(FILE *f, const cJSON *env)
{
    const cJSON *item;
    fputs("| | |\n|---|---|\n", f);
    cJSON_ArrayForEach(item, env)
    {
        fputs("| ", f);
        gs_md_text(f, item->string);
        fputs(" |", f);
        md_value(f, item);
        fputc('\n', f);
    }
}

/* The top of report.md: title and environment. */
static void write_header(FILE *md, const cJSON *env)
{
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(env, "gpu");
    fputs("# gridsync benchmark report", md);
    if (cJSON_IsString(gpu)) {
        fputs(": ", md);
        gs_md_text(md, gpu->valuestring);
    }
    fputs("\n\n", md);
    if (cJSON_IsObject(env)) {
        fputs("## Environment\n\n", md);
        write_environment(md, env);
        fputc('\n', md);
    }
}

/* The closing section of report.md: whether and how the plots were drawn. */
static void write_plots_section(FILE *md, int nplots, int plots, int gnuplot_found, int rendered)
{
    fputs("## Plots\n\n", md);
    if (!nplots)
        fputs("No suite in these results has a plot.\n", md);
    else if (rendered)
        fprintf(md, "%d plots rendered by gnuplot from `plots.gp`: the `*.png` files beside "
                    "this report.\n",
                nplots);
    else
        fprintf(md, "Plots were not rendered (%s). Install gnuplot (Debian: gnuplot-nox, or "
                    "run scripts/install-deps) and run `gnuplot plots.gp` in this folder, or "
                    "`gridsync report` again.\n",
                !plots ? "--no-plots" : gnuplot_found ? "gnuplot failed: see gnuplot.log"
                                                      : "gnuplot is not installed");
}

int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(results, "schema");
    const cJSON *suites = cJSON_GetObjectItemCaseSensitive(results, "suites");
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(results, "environment");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, GS_RESULTS_SCHEMA) != 0 ||
        !cJSON_IsObject(suites)) {
        set_err(err, errlen, "not a gridsync results document (schema %s expected)",
                GS_RESULTS_SCHEMA);
        return -1;
    }
    if (gs_make_dirs(dir) != 0) {
        set_err(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[1024];
    gs_plot_out o = {dir, NULL, NULL, 0};
    o.md = gs_path_of(path, sizeof path, "%s/report.md", dir) == 0 ? fopen(path, "w") : NULL;
    o.gp = gs_path_of(path, sizeof path, "%s/plots.gp", dir) == 0 ? fopen(path, "w") : NULL;
    if (!o.md || !o.gp) {
        set_err(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        if (o.md)
            fclose(o.md);
        if (o.gp)
            fclose(o.gp);
        return -1;
    }
    write_header(o.md, env);
    int rc = 0;
    const cJSON *suite;
    cJSON_ArrayForEach(suite, suites) rc |= write_suite(suites, suite, &o, err, errlen);
    int closed = fclose(o.gp) == 0;
    char gnuplot[PATH_MAX];
    int found = gs_find_program("gnuplot", gnuplot, sizeof gnuplot) == 0;
    int rendered = closed && plots && o.nplots && found && gs_plots_render(dir, gnuplot);
    write_plots_section(o.md, o.nplots, plots, found, rendered);
    if (fclose(o.md) != 0 || !closed) {
        set_err(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        rc = -1;
    }
    return rc;
}

