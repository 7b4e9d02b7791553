/*
 * report.c - a results document (results.h) turned into what a person reads:
 * report.md (environment and every suite's table), one CSV per suite, and
 * plots rendered by gnuplot (PNG): per-barrier latency against grid size for
 * each method and peer, and reduction / dot bandwidth against length.
 * Without gnuplot everything but the pictures is still written, and the
 * report says how to get them.
 *
 * A results file is data, never code: nothing read from it (or given as the
 * output folder) reaches a shell or the text of plots.gp. File names and
 * script lines come from the registered suites and their plot descriptions
 * (bench/registry.h) and from facet values only when they are plain names; series
 * names travel in the data files; gnuplot runs from an argument vector
 * (spawn.h). Markdown cells are escaped; suites not known here are skipped.
 */
#define _POSIX_C_SOURCE 200809L
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/registry.h"
#include "common/spawn.h"

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
    if (!dir[0]) {
        errno = ENOENT;
        return -1;
    }
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

void gs_report_md_escape(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; *in; ++in) {
        unsigned char ch = (unsigned char)*in;
        if (n + (ch == '|' ? 2 : 1) >= len)
            break;
        if (ch == '|')
            out[n++] = '\\';
        out[n++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
    }
    if (len)
        out[n] = '\0';
}

/* `s` as markdown text that cannot leave its table cell or line. */
static void md_text(FILE *f, const char *s)
{
    char buf[1024];
    gs_report_md_escape(s, buf, sizeof buf);
    fputs(buf, f);
}

/* " <cell> |" of a markdown table row. */
static void md_cell(FILE *f, const cJSON *v)
{
    char buf[256];
    cell_text(v, buf, sizeof buf);
    fputc(' ', f);
    md_text(f, buf);
    fputs(" |", f);
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

static void write_markdown_table(FILE *f, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    fputc('|', f);
    cJSON_ArrayForEach(c, cols) if (column(c)) md_cell(f, c);
    fputs("\n|", f);
    cJSON_ArrayForEach(c, cols) if (column(c)) fputs("---|", f);
    fputc('\n', f);
    cJSON_ArrayForEach(r, rows)
    {
        fputc('|', f);
        cJSON_ArrayForEach(c, cols) if (column(c))
            md_cell(f, cJSON_GetObjectItemCaseSensitive(r, c->valuestring));
        fputc('\n', f);
    }
}

/* A CSV field: numbers at full precision, null empty, text quoted. */
static void csv_cell(FILE *f, const cJSON *v)
{
    char buf[256];
    if (cJSON_IsNull(v))
        return;
    if (cJSON_IsNumber(v))
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
    else
        cell_text(v, buf, sizeof buf);
    gs_csv_field(f, buf);
}

static int write_csv(const char *path, const cJSON *table)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(table, "rows");
    const cJSON *c, *r;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int first = 1;
    cJSON_ArrayForEach(c, cols) if (column(c))
    {
        fputs(first ? "" : ",", f);
        gs_csv_field(f, c->valuestring);
        first = 0;
    }
    fputc('\n', f);
    cJSON_ArrayForEach(r, rows)
    {
        first = 1;
        cJSON_ArrayForEach(c, cols) if (column(c))
        {
            fputs(first ? "" : ",", f);
            csv_cell(f, cJSON_GetObjectItemCaseSensitive(r, c->valuestring));
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

/* Where a report is written: the folder, report.md, plots.gp, pictures. */
typedef struct report_out {
    const char *dir;
    FILE *md, *gp;
    int nplots;
} report_out;

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
static int plot_suite(const char *suite, const gs_plot_spec *spec, const cJSON *table,
                      report_out *o)
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
        if (path_of(dat, sizeof dat, "%s/%s-%s.dat", o->dir, suite, name) != 0)
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
            md_text(o->md, facets[f]);
            fputc('\n', o->md);
        }
        ++o->nplots;
    }
    return 0;
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
static int write_suite(const cJSON *suites, const cJSON *suite, report_out *o, char *err,
                       size_t errlen)
{
    const gs_bench_suite *known = gs_bench_suite_find(suite->string);
    const char *why = skip_reason(suites, suite, known);
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(suite, "title");
    char path[1024], shown[80];
    fputs("## ", o->md);
    md_text(o->md, suite->string);
    fputs("\n\n", o->md);
    if (why) {
        gs_report_md_escape(suite->string, shown, sizeof shown);
        fprintf(stderr, "gridsync: warning: results suite '%s' skipped: %s\n", shown, why);
        fprintf(o->md, "Skipped: %s (no table, CSV or plot).\n\n", why);
        return 0;
    }
    if (cJSON_IsString(title)) {
        md_text(o->md, title->valuestring);
        fputs("\n\n", o->md);
    }
    write_markdown_table(o->md, suite);
    int rc = 0;
    if (path_of(path, sizeof path, "%s/%s.csv", o->dir, known->name) != 0 ||
        write_csv(path, suite) != 0) {
        set_err(err, errlen, "cannot write %s", path);
        rc = -1;
    }
    for (int i = 0; i < known->nplots; ++i)
        if (plot_suite(known->name, &known->plots[i], suite, o) != 0) {
            set_err(err, errlen, "cannot write plot data in %s", o->dir);
            rc = -1;
        }
    fputc('\n', o->md);
    return rc;
}

/* Run gnuplot (`gnuplot`: its path) on plots.gp in `dir`, without a shell;
 * its messages go to gnuplot.log, removed when it succeeds. 1 if it did. */
static int render_plots(const char *dir, const char *gnuplot)
{
    char log[1024];
    if (path_of(log, sizeof log, "%s/gnuplot.log", dir) != 0)
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

static void write_environment(FILE *f, const cJSON *env)
{
    const cJSON *item;
    fputs("| | |\n|---|---|\n", f);
    cJSON_ArrayForEach(item, env)
    {
        fputs("| ", f);
        md_text(f, item->string);
        fputs(" |", f);
        md_cell(f, item);
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
        md_text(md, gpu->valuestring);
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
    report_out o = {dir, NULL, NULL, 0};
    o.md = path_of(path, sizeof path, "%s/report.md", dir) == 0 ? fopen(path, "w") : NULL;
    o.gp = path_of(path, sizeof path, "%s/plots.gp", dir) == 0 ? fopen(path, "w") : NULL;
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
    int rendered = closed && plots && o.nplots && found && render_plots(dir, gnuplot);
    write_plots_section(o.md, o.nplots, plots, found, rendered);
    if (fclose(o.md) != 0 || !closed) {
        set_err(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* The whole of `f`, at most `max` + 1 bytes of it (*len > max: it is
 * larger), as a string; NULL when out of memory. */
static char *read_at_most(FILE *f, size_t max, size_t *len)
{
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    *len = 0;
    while (text) {
        size_t want = cap - *len - 1;
        size_t got = fread(text + *len, 1, want, f);
        *len += got;
        if (got < want || *len > max)
            break;
        size_t bigger_cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
        char *bigger = realloc(text, bigger_cap);
        if (!bigger)
            free(text);
        text = bigger;
        cap = bigger_cap;
    }
    if (text)
        text[*len] = '\0';
    return text;
}

cJSON *gs_results_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t len;
    char *text = read_at_most(f, GS_RESULTS_MAX_BYTES, &len);
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (!text || failed || len > GS_RESULTS_MAX_BYTES) {
        if (!text)
            set_err(err, errlen, "out of memory reading %s", path);
        else if (failed)
            set_err(err, errlen, "cannot read %s: %s", path, strerror(failed));
        else
            set_err(err, errlen, "%s is larger than %d MiB: not a gridsync results file", path,
                    (int)(GS_RESULTS_MAX_BYTES >> 20));
        free(text);
        return NULL;
    }
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc)
        set_err(err, errlen, "%s is not valid JSON", path);
    return doc;
}
