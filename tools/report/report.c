/*
 * report.c - a results document (results/results.h) turned into what a person
 * reads: report.md (what was measured on which GPU, a summary of gridsync
 * against its peers from the data, then every suite with its plots embedded
 * beside its table, and the environment), one CSV per suite at full
 * precision, and the plots each suite describes, drawn by gnuplot
 * (figure.h, gnuplot.h). Without gnuplot everything but the pictures is
 * still written, and the report says how to get them.
 *
 * A results file is data, never code: nothing read from it (or given as the
 * output folder) reaches a shell or the text of plots.gp. File names come
 * from the registered suites and plot descriptions (results/registry.h) and
 * numbers; suites not registered are skipped; markdown is escaped
 * (markdown.h), CSV fields quoted (common/csv.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "report/report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "common/files.h"
#include "common/spawn.h"
#include "report/figure.h"
#include "report/format.h"
#include "report/gnuplot.h"
#include "report/headline.h"
#include "report/markdown.h"
#include "report/tables.h"

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A text of the environment (at most `at_most` bytes), or "?". */
static void env_text(const cJSON *env, const char *key, size_t at_most, char *buf, size_t len)
{
    const cJSON *v = field(env, key);
    snprintf(buf, len, "%.*s", (int)at_most, cJSON_IsString(v) ? v->valuestring : "?");
}

/* ------------------------------------------------------------ the plots */

/* A picture of the report, as report.md names it. */
typedef struct picture {
    char file[96];
    char title[2 * GS_FIG_TEXT];
} picture;

/* One suite of the results, as the report writes it. */
typedef struct section {
    const cJSON *table;
    const gs_bench_suite *known; /* NULL: skipped */
    const char *skipped;         /* why */
    picture *pictures;
    int npictures;
} section;

/* "NVIDIA H200, 132 SMs, CUDA 13.0, 2026-11-22; hot L2; median of 15
 * samples; bars: fastest to slowest sample" (the heading's second line). */
static void subtitle_of(const cJSON *env, const gs_figure *f, char *buf, size_t len)
{
    char gpu[128], cuda[24], day[16];
    const cJSON *sms = field(env, "sms");
    env_text(env, "gpu", 100, gpu, sizeof gpu);
    env_text(env, "cuda_runtime", 16, cuda, sizeof cuda);
    gs_format_day(field(env, "date"), day, sizeof day);
    size_t n = (size_t)snprintf(buf, len, "%s", gpu);
    if (cJSON_IsNumber(sms) && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", %.0f SMs", sms->valuedouble);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, ", CUDA %s, %s; %s", cuda, day,
                              f->timing == 1   ? "cold L2"
                              : f->timing == 2 ? "host clock"
                              : f->timing == 0 ? "hot L2"
                                               : "hot L2 (not recorded)");
    if (n < len && f->samples > 0)
        n += (size_t)snprintf(buf + n, len - n, "; median of %.0f samples", f->samples);
    else if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "; medians");
    if (n < len && f->bars)
        snprintf(buf + n, len - n, "; bars: fastest to slowest sample");
}

/* The figures of every plot of a suite: data files and commands in `gp`;
 * the pictures listed in `s`. 0, or -1. */
static int plot_suite(section *s, const cJSON *env, const char *dir, FILE *gp)
{
    const gs_bench_suite *suite = s->known;
    for (int p = 0; p < suite->nplots; ++p) {
        gs_figure *figs = NULL;
        int n = gs_figures_build(suite, p, s->table, env, &figs);
        if (n < 0)
            return -1;
        picture *more = realloc(s->pictures, (size_t)(s->npictures + n + 1) * sizeof *more);
        if (!more) {
            free(figs);
            return -1;
        }
        s->pictures = more;
        for (int i = 0; i < n; ++i) {
            char subtitle[512];
            subtitle_of(env, &figs[i], subtitle, sizeof subtitle);
            if (gs_figure_write(&figs[i], dir, subtitle, gp) != 0) {
                free(figs);
                return -1;
            }
            picture *pic = &s->pictures[s->npictures++];
            snprintf(pic->file, sizeof pic->file, "%s", figs[i].file);
            snprintf(pic->title, sizeof pic->title, "%s", figs[i].title);
        }
        free(figs);
    }
    return 0;
}

/* ------------------------------------------------------------ report.md */

/* Why a suite of the results is not reported (NULL: it is). */
static const char *skip_reason(const cJSON *suites, const cJSON *suite,
                               const gs_bench_suite *known)
{
    if (!known)
        return "not a suite this gridsync knows";
    if (field(suites, known->name) != suite)
        return "a second suite of the same name";
    if (!cJSON_IsArray(field(suite, "columns")) || !gs_results_ncolumns(suite))
        return "not a table with columns";
    return NULL;
}

/* The GPU's state as one line: "1980 MHz SM, 2619 MHz memory, 45 C, 120 W;
 * throttle reasons: none". */
static void state_text(const cJSON *s, char *buf, size_t len)
{
    const char *keys[] = {"sm_clock_mhz", "mem_clock_mhz", "temperature_c", "power_w"};
    const char *units[] = {" MHz SM", " MHz memory", " C", " W"};
    size_t n = 0;
    buf[0] = '\0';
    if (cJSON_IsString(field(s, "nvml"))) {
        snprintf(buf, len, "not read (NVML not available)");
        return;
    }
    for (int i = 0; i < 4 && n < len; ++i) {
        const cJSON *v = field(s, keys[i]);
        if (cJSON_IsNumber(v))
            n += (size_t)snprintf(buf + n, len - n, "%s%.0f%s", n ? ", " : "", v->valuedouble,
                                  units[i]);
    }
    const cJSON *reasons = field(s, "throttle_reasons"), *r;
    if (cJSON_IsArray(reasons) && n < len) {
        n += (size_t)snprintf(buf + n, len - n, "%sthrottle reasons: ", n ? "; " : "");
        int k = 0;
        cJSON_ArrayForEach(r, reasons) if (cJSON_IsString(r) && n < len) n +=
            (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "", r->valuestring);
        if (!k && n < len)
            snprintf(buf + n, len - n, "none");
    }
}

/* Whether the state names a reason that slows a measurement down. */
static int slowed(const cJSON *state, char *names, size_t len)
{
    const cJSON *r;
    size_t n = 0;
    names[0] = '\0';
    cJSON_ArrayForEach(r, field(state, "throttle_reasons"))
    {
        if (!cJSON_IsString(r) || !strcmp(r->valuestring, "gpu_idle") ||
            !strcmp(r->valuestring, "applications_clocks") ||
            !strcmp(r->valuestring, "sync_boost") || !strcmp(r->valuestring, "display_clocks"))
            continue;
        if (n < len)
            n += (size_t)snprintf(names + n, len - n, "%s%s", n ? ", " : "", r->valuestring);
    }
    return n > 0;
}

/* An environment value as a table cell. */
static void env_value(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsObject(v))
        state_text(v, buf, len);
    else if (cJSON_IsNumber(v))
        snprintf(buf, len, "%.10g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

/* The environment: the keys gridsync writes by name, then any other. */
static void write_environment(FILE *md, const cJSON *env)
{
    static const char *const known[][2] = {
        {"gpu", "GPU"},
        {"device", "device"},
        {"compute_capability", "compute capability"},
        {"sms", "SMs"},
        {"l2_bytes", "L2 cache (bytes)"},
        {"sm_clock_mhz_max", "SM clock, maximum (MHz)"},
        {"sm_clock_mhz", "SM clock when the run began (MHz; -1: not read)"},
        {"sm_clock_mhz_end", "SM clock when it ended (MHz)"},
        {"gpu_state", "GPU when the run began"},
        {"gpu_state_end", "GPU when it ended"},
        {"memory_bandwidth_gbs_theoretical", "memory bandwidth, datasheet (GB/s)"},
        {"driver_cuda_version", "driver (CUDA version)"},
        {"cuda_runtime", "CUDA runtime"},
        {"gridsync_version", "gridsync"},
        {"git_commit", "commit"},
        {"command", "command"},
        {"date", "date (UTC)"}};
    const int nknown = (int)(sizeof known / sizeof known[0]);
    const cJSON *item;
    char buf[1024];
    fputs("| property | value |\n|---|---|\n", md);
    for (int i = 0; i < nknown; ++i) {
        const cJSON *v = field(env, known[i][0]);
        if (!v)
            continue;
        fputc('|', md);
        gs_md_cell(md, known[i][1]);
        env_value(v, buf, sizeof buf);
        gs_md_cell(md, buf);
        fputc('\n', md);
    }
    cJSON_ArrayForEach(item, env)
    {
        int listed = 0;
        for (int i = 0; i < nknown && !listed; ++i)
            listed = item->string && !strcmp(item->string, known[i][0]);
        if (listed)
            continue;
        fputc('|', md);
        gs_md_cell(md, item->string ? item->string : "?");
        env_value(item, buf, sizeof buf);
        gs_md_cell(md, buf);
        fputc('\n', md);
    }
}

/* The title and the line under it: the GPU and the run. */
static void write_header(FILE *md, const cJSON *env)
{
    char gpu[256], cc[32], cuda[32], driver[32], version[64], commit[64], day[16];
    fputs("# gridsync benchmark report", md);
    if (cJSON_IsString(field(env, "gpu"))) {
        fputs(": ", md);
        gs_md_text(md, field(env, "gpu")->valuestring);
    }
    fputs("\n\n", md);
    if (!cJSON_IsObject(env))
        return;
    env_text(env, "gpu", 200, gpu, sizeof gpu);
    env_text(env, "compute_capability", 16, cc, sizeof cc);
    env_text(env, "cuda_runtime", 16, cuda, sizeof cuda);
    env_text(env, "driver_cuda_version", 16, driver, sizeof driver);
    env_text(env, "gridsync_version", 32, version, sizeof version);
    env_text(env, "git_commit", 40, commit, sizeof commit);
    gs_format_day(field(env, "date"), day, sizeof day);
    const cJSON *sms = field(env, "sms");
    char line[1024], esc[1200];
    snprintf(line, sizeof line,
             "%s (compute capability %s, %.0f SMs), CUDA %s (driver %s), gridsync %s at %s, "
             "%s.",
             gpu, cc, cJSON_IsNumber(sms) ? sms->valuedouble : 0.0, cuda, driver, version,
             commit, day);
    gs_md_inline_escape(line, esc, sizeof esc);
    fprintf(md, "%s Every figure below comes from this one run; `gridsync report` rebuilt "
                "this page from its results file.\n\n",
            esc);
}

/* The summary: every headline of every reported suite. */
static void write_summary(FILE *md, const section *sections, int n, const cJSON *env)
{
    char gpu[256], esc[300], sentence[2048];
    int any = 0;
    env_text(env, "gpu", 200, gpu, sizeof gpu);
    gs_md_inline_escape(gpu, esc, sizeof esc);
    for (int i = 0; i < n; ++i) {
        const gs_bench_suite *s = sections[i].known;
        for (int h = 0; s && s->reading && h < s->reading->nheadlines; ++h) {
            gs_headline_result r;
            gs_headline_compute(s, &s->reading->headlines[h], sections[i].table, &r);
            gs_headline_sentence(s, &s->reading->headlines[h], &r, sentence, sizeof sentence);
            if (!sentence[0])
                continue;
            if (!any++)
                fprintf(md, "## Summary\n\nOn this %s, in this run:\n\n", esc);
            fprintf(md, "- [%s](#%s): %s\n", s->name, s->name, sentence);
        }
    }
    if (any)
        fputs("\nRatios are of medians; each suite's section says how its figures were "
              "timed and shows the noise where the run recorded it.\n\n",
              md);
}

static void write_contents(FILE *md, const section *sections, int n, int plots)
{
    int k = 0;
    fputs("Contents:", md);
    for (int i = 0; i < n; ++i)
        if (sections[i].known && !sections[i].skipped)
            fprintf(md, "%s [%s](#%s)", k++ ? " ·" : "", sections[i].known->name,
                    sections[i].known->name);
    fprintf(md, "%s [environment](#environment)%s\n\n", k ? " ·" : "",
            plots ? " · [plots](#plots)" : "");
}

/* One suite: what it measures, how it was timed, its plots, its table. */
static void write_section(FILE *md, const cJSON *suite_json, const section *s, int rendered)
{
    char buf[2048], esc[2400];
    if (s->skipped) {
        char shown[80];
        fputs("## ", md);
        gs_md_text(md, suite_json->string);
        fputs("\n\n", md);
        gs_report_md_escape(suite_json->string, shown, sizeof shown);
        fprintf(stderr, "gridsync: warning: results suite '%s' skipped: %s\n", shown,
                s->skipped);
        fprintf(md, "Skipped: %s (no table, CSV or plot).\n\n", s->skipped);
        return;
    }
    const gs_bench_suite *k = s->known;
    fprintf(md, "## %s\n\n", k->name);
    snprintf(buf, sizeof buf, "%s.", k->help);
    buf[0] = (char)(buf[0] >= 'a' && buf[0] <= 'z' ? buf[0] - 'a' + 'A' : buf[0]);
    gs_md_inline_escape(buf, esc, sizeof esc);
    fprintf(md, "What it measures: %s\n\n", esc);
    gs_timing_sentence(s->table, buf, sizeof buf);
    gs_md_inline_escape(buf, esc, sizeof esc);
    fprintf(md, "%s\n\n", esc);
    char reasons[256];
    const cJSON *state = field(field(s->table, "gpu_state"), "end");
    if (slowed(state, reasons, sizeof reasons)) {
        gs_md_inline_escape(reasons, esc, sizeof esc);
        fprintf(md, "**Warning**: when this suite ended the GPU reported clock limits (%s): "
                    "its figures may be low.\n\n",
                esc);
    }
    for (int i = 0; i < s->npictures; ++i) {
        gs_md_inline_escape(s->pictures[i].title, esc, sizeof esc);
        if (rendered)
            fprintf(md, "![%s](%s.png)\n\n", esc, s->pictures[i].file);
        else
            fprintf(md, "- `%s.png`: %s (not drawn: see [plots](#plots))\n%s",
                    s->pictures[i].file, esc, i + 1 == s->npictures ? "\n" : "");
    }
    const cJSON *title = field(s->table, "title");
    if (cJSON_IsString(title)) {
        gs_md_inline_escape(title->valuestring, esc, sizeof esc);
        fprintf(md, "%s\n\n", esc);
    }
    gs_md_results_table(md, k, s->table);
    fprintf(md, "\nFull precision: [%s.csv](%s.csv).\n\n", k->name, k->name);
}

/* The closing section: whether and how the plots were drawn. */
static void write_plots_section(FILE *md, int npictures, int plots, int gnuplot_found,
                                int rendered, int warned)
{
    fputs("## Plots\n\n", md);
    if (!npictures)
        fputs("No suite in these results has a plot.\n", md);
    else if (rendered)
        fprintf(md,
                "%d plots drawn by gnuplot from `plots.gp` and the `*.dat` files beside this "
                "report%s. In every plot gridsync's methods are blues and greens, the peers "
                "oranges and reds (in line plots, solid and dashed); a speedup is the peer's "
                "time over gridsync's, so above the line at 1.0 gridsync is faster; bars on a "
                "point or a bar run from its fastest to its slowest sample.\n",
                npictures, warned ? " (gnuplot's warnings: `gnuplot.log`)" : "");
    else
        fprintf(md,
                "Plots were not drawn (%s). Install gnuplot (Debian: gnuplot-nox, or run "
                "scripts/install-deps) and run `gnuplot plots.gp` in this folder, or "
                "`gridsync report` again.\n",
                !plots ? "--no-plots" : gnuplot_found ? "gnuplot failed: see gnuplot.log"
                                                      : "gnuplot is not installed");
}

/* Everything of report.md but its plots section. */
static void write_body(FILE *md, const cJSON *suites, const cJSON *env, const section *sections,
                       int n, int rendered, int plots)
{
    write_header(md, env);
    write_summary(md, sections, n, env);
    write_contents(md, sections, n, plots);
    int i = 0;
    const cJSON *suite;
    cJSON_ArrayForEach(suite, suites) write_section(md, suite, &sections[i++], rendered);
    if (cJSON_IsObject(env)) {
        fputs("## Environment\n\n", md);
        write_environment(md, env);
        fputc('\n', md);
    }
}

/* Whether `results` is a results document; else a sentence in err. */
static int check_document(const cJSON *results, char *err, size_t errlen)
{
    const cJSON *schema = field(results, "schema"), *suites = field(results, "suites");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, GS_RESULTS_SCHEMA) != 0 ||
        !cJSON_IsObject(suites)) {
        gs_errorf(err, errlen, "not a gridsync results document (schema %s expected)",
                GS_RESULTS_SCHEMA);
        return -1;
    }
    return 0;
}

int gs_report_markdown(FILE *md, const cJSON *results, char *err, size_t errlen)
{
    if (check_document(results, err, errlen) != 0)
        return -1;
    const cJSON *suites = field(results, "suites"), *suite;
    int n = cJSON_GetArraySize(suites), i = 0;
    section *sections = calloc((size_t)n + 1, sizeof *sections);
    if (!sections) {
        gs_errorf(err, errlen, "out of memory");
        return -1;
    }
    cJSON_ArrayForEach(suite, suites)
    {
        section *s = &sections[i++];
        s->table = suite;
        s->known = gs_bench_suite_find(suite->string ? suite->string : "");
        s->skipped = skip_reason(suites, suite, s->known);
    }
    write_body(md, suites, field(results, "environment"), sections, n, 0, 0);
    free(sections);
    if (ferror(md)) {
        gs_errorf(err, errlen, "cannot write the markdown: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The sections of the results' suites, with their plots in `gp`. */
static int plan_sections(const cJSON *suites, const cJSON *env, const char *dir, FILE *gp,
                         section *sections, int *npictures, char *err, size_t errlen)
{
    const cJSON *suite;
    int i = 0, rc = 0;
    cJSON_ArrayForEach(suite, suites)
    {
        section *s = &sections[i++];
        s->table = suite;
        s->known = gs_bench_suite_find(suite->string ? suite->string : "");
        s->skipped = skip_reason(suites, suite, s->known);
        if (s->skipped)
            continue;
        char path[1024];
        FILE *csv = gs_path_of(path, sizeof path, "%s/%s.csv", dir, s->known->name) == 0
                        ? fopen(path, "w")
                        : NULL;
        if (!csv || gs_csv_results_table(csv, suite, NULL) != 0 || fclose(csv) != 0) {
            gs_errorf(err, errlen, "cannot write %s", path);
            rc = -1;
        }
        if (plot_suite(s, env, dir, gp) != 0) {
            gs_errorf(err, errlen, "cannot write plot data in %s", dir);
            rc = -1;
        }
        *npictures += s->npictures;
    }
    return rc;
}

int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen)
{
    const cJSON *suites = field(results, "suites"), *env = field(results, "environment");
    if (check_document(results, err, errlen) != 0)
        return -1;
    if (gs_make_dirs(dir) != 0) {
        gs_errorf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[1024];
    FILE *gp = gs_path_of(path, sizeof path, "%s/plots.gp", dir) == 0 ? fopen(path, "w") : NULL;
    int n = cJSON_GetArraySize(suites), npictures = 0;
    section *sections = calloc((size_t)n + 1, sizeof *sections);
    if (!gp || !sections) {
        gs_errorf(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        if (gp)
            fclose(gp);
        free(sections);
        return -1;
    }
    int rc = plan_sections(suites, env, dir, gp, sections, &npictures, err, errlen);
    int closed = fclose(gp) == 0;
    char gnuplot[PATH_MAX];
    int found = gs_find_program("gnuplot", gnuplot, sizeof gnuplot) == 0, warned = 0;
    int rendered = closed && plots && npictures && found &&
                   gs_plots_render(dir, gnuplot, "plots.gp", &warned);
    if (warned)
        fprintf(stderr, "gridsync: gnuplot warned while drawing: see %s/gnuplot.log\n", dir);
    FILE *md = gs_path_of(path, sizeof path, "%s/report.md", dir) == 0 ? fopen(path, "w") : NULL;
    if (!md) {
        gs_errorf(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
        rc = -1;
    } else {
        write_body(md, suites, env, sections, n, rendered, 1);
        write_plots_section(md, npictures, plots, found, rendered, warned);
        if (fclose(md) != 0 || !closed) {
            gs_errorf(err, errlen, "cannot write in %s: %s", dir, strerror(errno));
            rc = -1;
        }
    }
    for (int i = 0; i < n; ++i)
        free(sections[i].pictures);
    free(sections);
    return rc;
}
