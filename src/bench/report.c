/*
 * report.c - a results document (results.h) turned into what a person reads:
 * report.md (environment and every suite's table), one CSV per suite, and
 * plots rendered by gnuplot (PNG): per-barrier latency against grid size for
 * each method and peer, and reduction / dot bandwidth against length.
 * Without gnuplot everything but the pictures is still written, and the
 * report says how to get them.
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What each suite plots: one picture per value of `facet` (one picture when
 * NULL), x against y, one line per value of `series`; `square` keeps only
 * rows with m == n == k. */
typedef struct plot_spec {
    const char *suite, *facet, *x, *y, *series, *xlabel, *ylabel;
    int logy, square;
    const char *xformat; /* gnuplot format of the x tics ("2^%L": powers of 2) */
} plot_spec;

static const plot_spec plot_specs[] = {
    {"barrier", "threads", "blocks", "us_per_barrier", "method", "blocks in the grid",
     "microseconds per barrier (log scale)", 1, 0, "%g"},
    {"reduce", "op", "n", "gb_per_s", "method", "elements (float32)", "GB/s read (log scale)", 1, 0,
     "2^%L"},
    {"dot", "op", "n", "gb_per_s", "method", "elements per vector (float32)",
     "GB/s read (log scale)", 1, 0, "2^%L"},
    {"gemm", NULL, "n", "tflop_s", "method", "square size n (m = n = k)", "TFLOP/s (FP32)", 0, 1,
     "%g"},
};

/* A gemm row of a square shape. */
static int is_square(const cJSON *row)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(row, "m");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(row, "n");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(row, "k");
    return cJSON_IsNumber(m) && cJSON_IsNumber(n) && cJSON_IsNumber(k) &&
           m->valuedouble == n->valuedouble && n->valuedouble == k->valuedouble;
}

static void set_err(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* Format a path; -1 if it does not fit. */
static int path_of(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int gs_make_dirs(const char *dir)
{
    char path[1024];
    if (path_of(path, sizeof path, "%s", dir) != 0)
        return -1;
    for (char *p = path + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* A cell as text: numbers with up to 4 significant decimals, null as "-". */
static void cell_text(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsNumber(v))
        snprintf(buf, len, "%.4g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

static void write_markdown_table(FILE *f, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    char buf[256];
    fputc('|', f);
    cJSON_ArrayForEach(c, cols) fprintf(f, " %s |", c->valuestring);
    fputs("\n|", f);
    cJSON_ArrayForEach(c, cols) fputs("---|", f);
    fputc('\n', f);
    cJSON_ArrayForEach(r, rows)
    {
        fputc('|', f);
        cJSON_ArrayForEach(c, cols)
        {
            cell_text(cJSON_GetObjectItemCaseSensitive(r, c->valuestring), buf, sizeof buf);
            fprintf(f, " %s |", buf);
        }
        fputc('\n', f);
    }
}

static int write_csv(const char *path, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    char buf[256];
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int first = 1;
    cJSON_ArrayForEach(c, cols)
    {
        fprintf(f, "%s%s", first ? "" : ",", c->valuestring);
        first = 0;
    }
    fputc('\n', f);
    cJSON_ArrayForEach(r, rows)
    {
        first = 1;
        cJSON_ArrayForEach(c, cols)
        {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, c->valuestring);
            cell_text(v, buf, sizeof buf);
            if (cJSON_IsNumber(v))
                snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
            fprintf(f, "%s%s", first ? "" : ",", cJSON_IsNull(v) ? "" : buf);
            first = 0;
        }
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

static const char *row_key(const cJSON *row, const char *col, char *buf, size_t len)
{
    cell_text(cJSON_GetObjectItemCaseSensitive(row, col), buf, len);
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

int gs_report_plot_script(const cJSON *table, const char *suite, const char *dir, FILE *script,
                          int *nplots)
{
    const plot_spec *spec = NULL;
    for (size_t i = 0; i < sizeof plot_specs / sizeof plot_specs[0]; ++i)
        if (strcmp(plot_specs[i].suite, suite) == 0)
            spec = &plot_specs[i];
    *nplots = 0;
    if (!spec)
        return 0;
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    char facets[16][64], series[32][64];
    int nf = spec->facet ? distinct(rows, spec->facet, facets, 16) : 1;
    if (!spec->facet)
        snprintf(facets[0], sizeof facets[0], "all");
    int ns = distinct(rows, spec->series, series, 32);
    for (int f = 0; f < nf; ++f) {
        char dat[1024];
        if (path_of(dat, sizeof dat, "%s/%s-%s.dat", dir, suite, facets[f]) != 0)
            return -1;
        FILE *d = fopen(dat, "w");
        if (!d)
            return -1;
        int written = 0;
        for (int s = 0; s < ns; ++s) {
            const cJSON *r;
            fprintf(d, "\"%s\"\n", series[s]);
            cJSON_ArrayForEach(r, rows)
            {
                char fk[64], sk[64];
                const cJSON *x = cJSON_GetObjectItemCaseSensitive(r, spec->x);
                const cJSON *y = cJSON_GetObjectItemCaseSensitive(r, spec->y);
                if ((spec->facet && strcmp(row_key(r, spec->facet, fk, sizeof fk), facets[f])) ||
                    (spec->square && !is_square(r)) ||
                    strcmp(row_key(r, spec->series, sk, sizeof sk), series[s]) ||
                    !cJSON_IsNumber(x) || !cJSON_IsNumber(y))
                    continue;
                fprintf(d, "%.17g %.17g\n", x->valuedouble, y->valuedouble);
                ++written;
            }
            fputs("\n\n", d);
        }
        fclose(d);
        if (!written)
            continue;
        char title[192];
        if (spec->facet)
            snprintf(title, sizeof title, "%.60s: %.60s = %.60s", suite, spec->facet, facets[f]);
        else
            snprintf(title, sizeof title, "%.60s%s", suite, spec->square ? ": square shapes" : "");
        fprintf(script,
                "set terminal pngcairo size 900,560 noenhanced\n"
                "set output '%s-%s.png'\n"
                "set title '%s'\n"
                "set xlabel '%s'\nset ylabel '%s'\n"
                "set logscale x 2\nset format x '%s'\n%s"
                "set key outside right\nset grid\n"
                "plot for [i=0:%d] '%s-%s.dat' index i using 1:2 with linespoints title "
                "columnheader(1)\n"
                "unset logscale\nset format x '%%g'\n\n",
                suite, facets[f], title, spec->xlabel, spec->ylabel, spec->xformat,
                spec->logy ? "set logscale y\n" : "", ns - 1, suite, facets[f]);
        ++*nplots;
    }
    return 0;
}

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void write_environment(FILE *f, const cJSON *env)
{
    const cJSON *item;
    fputs("| | |\n|---|---|\n", f);
    cJSON_ArrayForEach(item, env)
    {
        char buf[1024];
        cell_text(item, buf, sizeof buf);
        fprintf(f, "| %s | %s |\n", item->string, buf);
    }
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
    FILE *md = path_of(path, sizeof path, "%s/report.md", dir) == 0 ? fopen(path, "w") : NULL;
    FILE *gp = path_of(path, sizeof path, "%s/plots.gp", dir) == 0 ? fopen(path, "w") : NULL;
    if (!md || !gp) {
        set_err(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        if (md)
            fclose(md);
        if (gp)
            fclose(gp);
        return -1;
    }
    const cJSON *gpu = env ? cJSON_GetObjectItemCaseSensitive(env, "gpu") : NULL;
    fprintf(md, "# gridsync benchmark report%s%s\n\n", cJSON_IsString(gpu) ? ": " : "",
            cJSON_IsString(gpu) ? gpu->valuestring : "");
    if (env) {
        fputs("## Environment\n\n", md);
        write_environment(md, env);
        fputc('\n', md);
    }
    int total_plots = 0, rc = 0;
    const cJSON *suite;
    cJSON_ArrayForEach(suite, suites)
    {
        const cJSON *title = cJSON_GetObjectItemCaseSensitive(suite, "title");
        int nplots = 0;
        fprintf(md, "## %s\n\n", suite->string);
        if (cJSON_IsString(title))
            fprintf(md, "%s\n\n", title->valuestring);
        write_markdown_table(md, suite);
        if (path_of(path, sizeof path, "%s/%s.csv", dir, suite->string) != 0 ||
            write_csv(path, suite) != 0) {
            set_err(err, errlen, "cannot write %s", path);
            rc = -1;
        }
        if (gs_report_plot_script(suite, suite->string, dir, gp, &nplots) != 0) {
            set_err(err, errlen, "cannot write plot data in %s", dir);
            rc = -1;
        }
        total_plots += nplots;
        fputc('\n', md);
    }
    fclose(gp);
    int rendered = 0;
    if (plots && total_plots && have_gnuplot()) {
        char cmd[2200];
        rendered = path_of(cmd, sizeof cmd, "cd '%s' && gnuplot plots.gp 2>gnuplot.log", dir) == 0 &&
                   system(cmd) == 0;
        if (rendered && path_of(path, sizeof path, "%s/gnuplot.log", dir) == 0)
            remove(path); /* kept only when gnuplot failed */
    }
    fputs("## Plots\n\n", md);
    if (!total_plots)
        fputs("No suite in these results has a plot.\n", md);
    else if (rendered)
        fprintf(md, "%d plots rendered by gnuplot from `plots.gp`: the `*.png` files beside "
                    "this report.\n",
                total_plots);
    else
        fprintf(md, "Plots were not rendered (%s). Install gnuplot (Debian: gnuplot-nox, or "
                    "run scripts/install-deps) and run `gnuplot plots.gp` in this folder, or "
                    "`gridsync report` again.\n",
                !plots ? "--no-plots" : have_gnuplot() ? "gnuplot failed: see gnuplot.log"
                                                        : "gnuplot is not installed");
    if (fclose(md) != 0)
        rc = -1;
    return rc;
}

cJSON *gs_results_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) {
                free(text);
                text = NULL;
            }
            text = bigger;
        }
    }
    fclose(f);
    if (!text) {
        set_err(err, errlen, "out of memory reading %s", path);
        return NULL;
    }
    text[len] = '\0';
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc)
        set_err(err, errlen, "%s is not valid JSON", path);
    return doc;
}
