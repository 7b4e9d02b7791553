/*
 * plots.c - a suite's plots (plots.h): per picture, a data file of one block
 * per series and the gnuplot commands that draw it, then gnuplot run on the
 * script from an argument vector.
 *
 * A results file is data, never code: file names and script lines come from
 * the registered suites and their plot descriptions (bench/suite.h) and from
 * facet values only when they are plain names; series names travel in the
 * data files, as quoted column headers.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/plots.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "common/spawn.h"
#include "report/markdown.h"

/* A row that `spec` keeps: every column of spec->same holds one value. */
static int kept(const gs_plot_spec *spec, const cJSON *row)
{
    const cJSON *first = NULL;
    for (const char *const *c = spec->same; c && *c; ++c) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, *c);
        if (!cJSON_IsNumber(v) || (first && v->valuedouble != first->valuedouble))
            return 0;
        first = v;
    }
    return 1;
}

static const char *row_key(const cJSON *row, const char *col, char *buf, size_t len)
{
    gs_value_text(cJSON_GetObjectItemCaseSensitive(row, col), buf, len);
    return buf;
}

/* Distinct values of `col` over the rows, in first-seen order (at most max). */
static int distinct(const cJSON *rows, const char *col, char vals[][64], int max)
{
    const cJSON *r;
    int n = 0;
    cJSON_ArrayForEach(r, rows)
    {
        char buf[64];
        row_key(r, col, buf, sizeof buf);
        int seen = 0;
        for (int i = 0; i < n; ++i)
            seen |= strcmp(vals[i], buf) == 0;
        if (!seen && n < max && strcmp(buf, "-") != 0)
            snprintf(vals[n++], 64, "%s", buf);
    }
    return n;
}

/* A value that may stand in a file name and the script as it is:
 * 1 to 48 of [A-Za-z0-9._-]. */
static int plain_name(const char *s)
{
    size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
    return n > 0 && n <= 48 && s[n] == '\0';
}

/* A series name as a quoted gnuplot column header: its quotes become ' and
 * its control characters spaces, so it stays one string of data. */
static void dat_label(FILE *d, const char *s)
{
    fputc('"', d);
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch == '"' ? '\'' : ch < 0x20 || ch == 0x7f ? ' ' : ch, d);
    }
    fputs("\"\n", d);
}

/* `path`: one block per series (its name, then x y of the rows of `facet`
 * (NULL: all)); the number of points, or -1 if it cannot be written. */
static int write_plot_data(const gs_plot_spec *spec, const cJSON *rows, const char *facet,
                           char series[][64], int ns, const char *path)
{
    FILE *d = fopen(path, "w");
    if (!d)
        return -1;
    int written = 0;
    for (int s = 0; s < ns; ++s) {
        const cJSON *r;
        dat_label(d, series[s]);
        cJSON_ArrayForEach(r, rows)
        {
            char fk[64], sk[64];
            const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, spec->x);
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(r, spec->y);
            if ((facet && strcmp(row_key(r, spec->facet, fk, sizeof fk), facet)) ||
                !kept(spec, r) ||
                strcmp(row_key(r, spec->series, sk, sizeof sk), series[s]) ||
                !cJSON_IsNumber(x) || !cJSON_IsNumber(y))
                continue;
            fprintf(d, "%.17g %.17g\n", x->valuedouble, y->valuedouble);
            ++written;
        }
        fputs("\n\n", d);
    }
    return fclose(d) == 0 ? written : -1;
}

/* The gnuplot commands of one picture, <suite>-<name>.png from
 * <suite>-<name>.dat; `suite` and the spec's texts are the registry's,
 * `name` and `title` plain (checked) text. */
static void write_plot_commands(FILE *gp, const char *suite, const gs_plot_spec *spec,
                                const char *name, const char *title, int ns)
{
    fprintf(gp,
            "set terminal pngcairo size 900,560 noenhanced\n"
            "set output '%s-%s.png'\n"
            "set title '%s'\n"
            "set xlabel '%s'\nset ylabel '%s'\n",
            suite, name, title, spec->xlabel, spec->ylabel);
    if (spec->logx)
        fprintf(gp, "set logscale x %d\n", spec->logx);
    fprintf(gp, "set format x '%s'\n", spec->xformat);
    if (spec->logy)
        fprintf(gp, spec->logy == 10 ? "set logscale y\n" : "set logscale y %d\n", spec->logy);
    fprintf(gp,
            "set key outside right\nset grid\n"
            "plot for [i=0:%d] '%s-%s.dat' index i using 1:2 with linespoints title "
            "columnheader(1)\n"
            "unset logscale\nset format x '%%g'\n\n",
            ns - 1, suite, name);
}

/* The plots of one known suite: a picture per facet value, named by the
 * value when every value is a plain name, else by its index from 1 (and
 * report.md says which value that is). 0 or -1. */
static int plot_one(const char *suite, const gs_plot_spec *spec, const cJSON *table,
                    gs_plot_out *o)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    char facets[16][64], series[32][64];
    int nf = spec->facet ? distinct(rows, spec->facet, facets, 16) : 1;
    if (!spec->facet)
        snprintf(facets[0], sizeof facets[0], "all");
    int by_index = 0;
    for (int f = 0; f < nf; ++f)
        by_index |= !plain_name(facets[f]);
    int ns = distinct(rows, spec->series, series, 32);
    for (int f = 0; f < nf; ++f) {
        char name[64], dat[1024], title[192];
        snprintf(name, sizeof name, "%.48s", facets[f]);
        if (by_index)
            snprintf(name, sizeof name, "%d", f + 1);
        if (gs_path_of(dat, sizeof dat, "%s/%s-%s.dat", o->dir, suite, name) != 0)
            return -1;
        int points = write_plot_data(spec, rows, spec->facet ? facets[f] : NULL, series, ns, dat);
        if (points < 0)
            return -1;
        if (!points)
            continue;
        if (!spec->facet)
            snprintf(title, sizeof title, "%s%s%s", suite, spec->subset ? ": " : "",
                     spec->subset ? spec->subset : "");
        else if (by_index)
            snprintf(title, sizeof title, "%s: %s #%d (see report.md)", suite, spec->facet, f + 1);
        else
            snprintf(title, sizeof title, "%s: %s = %.48s", suite, spec->facet, facets[f]);
        write_plot_commands(o->gp, suite, spec, name, title, ns);
        if (by_index) {
            fprintf(o->md, "\nPlot `%s-%s.png`: %s = ", suite, name, spec->facet);
            gs_md_text(o->md, facets[f]);
            fputc('\n', o->md);
        }
        ++o->nplots;
    }
    return 0;
}

int gs_plots_render(const char *dir, const char *gnuplot)
{
    char log[1024];
    if (gs_path_of(log, sizeof log, "%s/gnuplot.log", dir) != 0)
        return 0;
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return 0;
    const char *const argv[] = {"gnuplot", "plots.gp", NULL};
    pid_t pid = gs_spawn(gnuplot, argv, dir, -1, fd);
    close(fd);
    int ok = pid > 0 && gs_spawn_wait(pid) == 0;
    if (ok)
        remove(log); /* kept only when gnuplot failed */
    return ok;
}


int gs_plot_suite(const gs_bench_suite *suite, const cJSON *table, gs_plot_out *o)
{
    for (int i = 0; i < suite->nplots; ++i)
        if (plot_one(suite->name, &suite->plots[i], table, o) != 0)
            return -1;
    return 0;
}
