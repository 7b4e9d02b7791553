/*
 * report.c - a results document (results/results.h) turned into what a person
 * reads: report.md (what was measured on which GPU, a summary of gridsync
 * against its peers from the data, then every suite with its plots embedded
 * beside its table and, where its reading asks, the fastest method of each
 * group (winners.h), and the environment), one CSV per suite at full
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
#include "report/env_table.h"
#include "report/gnuplot.h"
#include "report/headline.h"
#include "report/markdown.h"
#include "report/sources.h"
#include "report/tables.h"
#include "report/winners.h"

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* ------------------------------------------------------------ the plots */

/* A picture of the report, as report.md names it. */
typedef struct picture {
    char file[96];
    char title[2 * GS_FIG_TEXT];
} picture;

/* One suite of the results, as the report writes it. */
typedef struct section {
    const cJSON *table;          /* its entry in the file's suites (->string: its name) */
    const gs_bench_suite *known; /* NULL: not a registered suite */
    const char *skipped;         /* why it is not reported; NULL: it is */
    int file;                    /* the results file it comes from */
    picture *pictures;
    int npictures;
} section;

/* What report.md is made of: the results files, the sections of their
 * suites (each registered suite once, from the last file that has it,
 * where it first appears among the files that give a section; what is
 * skipped, where it stands), and those files. With one such file the
 * report is the report of one run, as from that file alone. */
typedef struct plan {
    const gs_results_source *files;
    int nfiles;
    section *sections;
    int n;
    unsigned char *gave; /* per file: whether it gave a section */
    int used;            /* how many did */
    int main;            /* the last of them (none: the last file) */
} plan;

static const cJSON *env_of(const plan *p, int file)
{
    return field(p->files[file].doc, "environment");
}

/* "NVIDIA H200, 132 SMs, CUDA 13.0, 2026-11-22; hot L2; median of 15
 * samples; bars: fastest to slowest sample" (the heading's second line). */
static void subtitle_of(const cJSON *env, const gs_figure *f, char *buf, size_t len)
{
    char gpu[128], cuda[24], day[16];
    const cJSON *sms = field(env, "sms");
    gs_env_text(env, "gpu", 100, gpu, sizeof gpu);
    gs_env_text(env, "cuda_runtime", 16, cuda, sizeof cuda);
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

/* Why a registered suite's table is not reported (NULL: it is). */
static const char *skip_reason(const cJSON *table)
{
    if (!cJSON_IsArray(field(table, "columns")) || !gs_results_ncolumns(table))
        return "not a table with columns";
    return NULL;
}

static void plan_free(plan *p)
{
    for (int i = 0; p->sections && i < p->n; ++i)
        free(p->sections[i].pictures);
    free(p->sections);
    free(p->gave);
}

static void plan_add(plan *p, const cJSON *table, const gs_bench_suite *known,
                     const char *skipped, int file)
{
    section *s = &p->sections[p->n++];
    s->table = table;
    s->known = known;
    s->skipped = skipped;
    s->file = file;
}

/* The sections of the files' suites, in time linear in their entries (a
 * registered suite's file is found once). 0, or -1 (out of memory). */
static int plan_build(plan *p, const gs_results_source *files, int nfiles)
{
    int total = 0, nknown = gs_bench_suite_count();
    memset(p, 0, sizeof *p);
    p->files = files;
    p->nfiles = nfiles;
    for (int f = 0; f < nfiles; ++f)
        total += cJSON_GetArraySize(field(files[f].doc, "suites"));
    p->sections = calloc((size_t)total + 1, sizeof *p->sections);
    p->gave = calloc((size_t)nfiles + 1, 1);
    int *from = calloc((size_t)nknown + 1, sizeof *from);
    unsigned char *placed = calloc((size_t)nknown + 1, 1);
    if (!p->sections || !p->gave || !from || !placed) {
        free(from);
        free(placed);
        return -1;
    }
    for (int r = 0; r < nknown; ++r)
        from[r] = gs_source_of(files, nfiles, gs_bench_suite_at(r)->name);
    for (int f = 0; f < nfiles; ++f) { /* the files that give a section */
        const cJSON *entry;
        cJSON_ArrayForEach(entry, field(files[f].doc, "suites"))
        {
            int r = gs_bench_suite_index(entry->string ? entry->string : "");
            p->gave[f] |= r < 0 || from[r] == f;
        }
    }
    for (int f = 0; f < nfiles; ++f) {
        const cJSON *entry;
        if (!p->gave[f])
            continue;
        cJSON_ArrayForEach(entry, field(files[f].doc, "suites"))
        {
            int r = gs_bench_suite_index(entry->string ? entry->string : "");
            if (r < 0) {
                plan_add(p, entry, NULL, "not a suite this gridsync knows", f);
                continue;
            }
            const gs_bench_suite *known = gs_bench_suite_at(r);
            const cJSON *table = gs_results_suite(files[from[r]].doc, known->name);
            if (f == from[r] && entry != table)
                plan_add(p, entry, known, "a second suite of the same name", f);
            else if (!placed[r]) {
                placed[r] = 1;
                plan_add(p, table, known, skip_reason(table), from[r]);
            }
        }
    }
    p->main = nfiles - 1;
    for (int f = 0; f < nfiles; ++f) {
        if (p->gave[f]) {
            p->used++;
            p->main = f;
        }
    }
    free(from);
    free(placed);
    return 0;
}

/* The GPU every file the report used names, or NULL (none, or several). */
static const char *common_gpu(const plan *p)
{
    const char *gpu = NULL;
    for (int f = 0; f < p->nfiles; ++f) {
        const cJSON *v = field(env_of(p, f), "gpu");
        if (!p->gave[f])
            continue;
        if (!cJSON_IsString(v) || (gpu && strcmp(gpu, v->valuestring) != 0))
            return NULL;
        gpu = v->valuestring;
    }
    return gpu;
}

/* The title and the line under it: the GPU and the run (several runs: the
 * GPU they share, and where each suite's run is named). */
static void write_header(FILE *md, const plan *p)
{
    char gpu[256], cc[32], cuda[32], driver[32], version[64], commit[64], day[16];
    const cJSON *env = env_of(p, p->main);
    if (p->used > 1) {
        const char *common = common_gpu(p);
        fputs("# gridsync benchmark report", md);
        if (common) {
            fputs(": ", md);
            gs_md_text(md, common);
        }
        fprintf(md, "\n\nFrom %d runs: each suite comes from the last of the results files given "
                    "that has it, its section names its run, and the "
                    "[environment](#environment) lists each file with the suites it gave. "
                    "`gridsync report` rebuilt this page from these files.\n\n",
                p->used);
        return;
    }
    fputs("# gridsync benchmark report", md);
    if (cJSON_IsString(field(env, "gpu"))) {
        fputs(": ", md);
        gs_md_text(md, field(env, "gpu")->valuestring);
    }
    fputs("\n\n", md);
    if (!cJSON_IsObject(env))
        return;
    gs_env_text(env, "gpu", 200, gpu, sizeof gpu);
    gs_env_text(env, "compute_capability", 16, cc, sizeof cc);
    gs_env_text(env, "cuda_runtime", 16, cuda, sizeof cuda);
    gs_env_text(env, "driver_cuda_version", 16, driver, sizeof driver);
    gs_env_text(env, "gridsync_version", 32, version, sizeof version);
    gs_env_text(env, "git_commit", 40, commit, sizeof commit);
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
static void write_summary(FILE *md, const plan *p)
{
    char gpu[256], esc[300], sentence[2048];
    int any = 0;
    gs_env_text(env_of(p, p->main), "gpu", 200, gpu, sizeof gpu);
    gs_md_inline_escape(gpu, esc, sizeof esc);
    for (int i = 0; i < p->n; ++i) {
        const gs_bench_suite *s = p->sections[i].known;
        for (int h = 0; s && s->reading && h < s->reading->nheadlines; ++h) {
            gs_headline_result r;
            gs_headline_compute(s, &s->reading->headlines[h], p->sections[i].table, &r);
            gs_headline_sentence(s, &s->reading->headlines[h], &r, sentence, sizeof sentence);
            if (!sentence[0])
                continue;
            if (!any++ && p->used > 1)
                fprintf(md, "## Summary\n\nFrom %d runs (each suite's section names its "
                            "own):\n\n",
                        p->used);
            else if (any == 1)
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

/* One suite: what it measures, how it was timed, its plots, which method
 * was fastest where its reading asks, its table. */
static void write_section(FILE *md, const plan *p, const section *s, int rendered)
{
    char buf[2048], esc[2400];
    const gs_results_source *file = &p->files[s->file];
    if (s->skipped) {
        char shown[GS_SHOWN_SIZE], shown_file[GS_SHOWN_SIZE];
        const char *name = s->table->string ? s->table->string : "";
        fputs("## ", md);
        gs_md_text(md, name);
        fputs("\n\n", md);
        gs_shown(name, shown, sizeof shown);
        if (p->used > 1)
            fprintf(stderr, "gridsync: warning: results suite '%s' of %s skipped: %s\n", shown,
                    gs_shown(file->path, shown_file, sizeof shown_file), s->skipped);
        else
            fprintf(stderr, "gridsync: warning: results suite '%s' skipped: %s\n", shown,
                    s->skipped);
        fprintf(md, "Skipped: %s (no table, CSV or plot)", s->skipped);
        if (p->used > 1) {
            fputs("; in ", md);
            gs_md_code(md, file->path);
        }
        fputs(".\n\n", md);
        return;
    }
    const gs_bench_suite *k = s->known;
    fprintf(md, "## %s\n\n", k->name);
    snprintf(buf, sizeof buf, "%s.", k->help);
    buf[0] = (char)(buf[0] >= 'a' && buf[0] <= 'z' ? buf[0] - 'a' + 'A' : buf[0]);
    gs_md_inline_escape(buf, esc, sizeof esc);
    fprintf(md, "What it measures: %s\n\n", esc);
    if (p->used > 1) {
        fputs("Run: ", md);
        gs_md_run(md, env_of(p, s->file), file->path);
        fputs(".\n\n", md);
    }
    gs_timing_sentence(s->table, buf, sizeof buf);
    gs_md_inline_escape(buf, esc, sizeof esc);
    fprintf(md, "%s\n\n", esc);
    char reasons[256];
    const cJSON *state = field(field(s->table, "gpu_state"), "end");
    if (gs_env_slowed(state, reasons, sizeof reasons)) {
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
    if (gs_md_winners(md, k, s->table) != 0)
        fputs("(Out of memory: the tables of the fastest method are missing.)\n\n", md);
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

/* The environment of several runs: each file the report used, the suites
 * it gave, its environment. */
static void write_environments(FILE *md, const plan *p)
{
    fputs("## Environment\n\n", md);
    for (int f = 0; f < p->nfiles; ++f) {
        if (!p->gave[f])
            continue;
        fputs("### ", md);
        gs_md_code(md, p->files[f].path);
        fputs("\n\nSuites from this file:", md);
        const char *separator = " ";
        for (const section *s = p->sections; s < p->sections + p->n; ++s) {
            if (s->file != f)
                continue;
            fputs(separator, md);
            separator = ", ";
            gs_md_text(md, s->table->string ? s->table->string : "");
            if (s->skipped)
                fputs(" (skipped)", md);
        }
        fputs(".\n\n", md);
        if (cJSON_IsObject(env_of(p, f)))
            gs_env_table(md, env_of(p, f));
        else
            fputs("No environment recorded.\n", md);
        fputc('\n', md);
    }
}

/* Everything of report.md but its plots section. */
static void write_body(FILE *md, const plan *p, int rendered, int plots)
{
    write_header(md, p);
    write_summary(md, p);
    write_contents(md, p->sections, p->n, plots);
    for (int i = 0; i < p->n; ++i)
        write_section(md, p, &p->sections[i], rendered);
    if (p->used > 1) {
        write_environments(md, p);
    } else if (cJSON_IsObject(env_of(p, p->main))) {
        fputs("## Environment\n\n", md);
        gs_env_table(md, env_of(p, p->main));
        fputc('\n', md);
    }
}

int gs_report_markdown_files(FILE *md, const gs_results_source *files, int n, char *err,
                             size_t errlen)
{
    plan p;
    if (plan_build(&p, files, n) != 0) {
        plan_free(&p);
        gs_errorf(err, errlen, "out of memory");
        return -1;
    }
    write_body(md, &p, 0, 0);
    plan_free(&p);
    if (ferror(md)) {
        gs_errorf(err, errlen, "cannot write the markdown: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int gs_report_markdown(FILE *md, const cJSON *results, char *err, size_t errlen)
{
    const gs_results_source one = {NULL, results};
    if (gs_results_check(results, NULL, err, errlen) != 0)
        return -1;
    return gs_report_markdown_files(md, &one, 1, err, errlen);
}

/* Every reported section's CSV and plots (in `gp`) in `dir`. */
static int plan_outputs(plan *p, const char *dir, FILE *gp, int *npictures, char *err,
                        size_t errlen)
{
    int rc = 0;
    char shown[GS_SHOWN_SIZE];
    gs_shown(dir, shown, sizeof shown);
    for (int i = 0; i < p->n; ++i) {
        section *s = &p->sections[i];
        if (s->skipped)
            continue;
        char path[1024];
        FILE *csv = NULL;
        if (gs_path_of(path, sizeof path, "%s/%s.csv", dir, s->known->name) != 0) {
            gs_errorf(err, errlen, "cannot write in %s: path too long", shown);
            rc = -1;
        } else if (!(csv = gs_open_output(path, err, errlen))) {
            rc = -1;
        } else if ((gs_csv_results_table(csv, s->table, NULL) != 0) | (fclose(csv) != 0)) {
            gs_errorf(err, errlen, "cannot write %s.csv in %s", s->known->name, shown);
            rc = -1;
        }
        if (plot_suite(s, env_of(p, s->file), dir, gp) != 0) {
            gs_errorf(err, errlen, "cannot write plot data in %s", shown);
            rc = -1;
        }
        *npictures += s->npictures;
    }
    return rc;
}

int gs_report_write_files(const gs_results_source *files, int nfiles, const char *dir,
                          int plots, char *err, size_t errlen)
{
    char path[1024], shown[GS_SHOWN_SIZE];
    gs_shown(dir, shown, sizeof shown);
    if (gs_make_dirs(dir) != 0) {
        gs_errorf(err, errlen, "cannot create %s: %s", shown, strerror(errno));
        return -1;
    }
    if (gs_path_of(path, sizeof path, "%s/plots.gp", dir) != 0) {
        gs_errorf(err, errlen, "cannot write in %s: path too long", shown);
        return -1;
    }
    plan p;
    int npictures = 0, planned = plan_build(&p, files, nfiles) == 0;
    FILE *gp = planned ? gs_open_output(path, err, errlen) : NULL;
    if (!gp) {
        if (!planned)
            gs_errorf(err, errlen, "out of memory");
        plan_free(&p);
        return -1;
    }
    int rc = plan_outputs(&p, dir, gp, &npictures, err, errlen);
    int closed = fclose(gp) == 0;
    char gnuplot[PATH_MAX];
    int found = gs_find_program("gnuplot", gnuplot, sizeof gnuplot) == 0, warned = 0;
    int rendered = closed && plots && npictures && found &&
                   gs_plots_render(dir, gnuplot, "plots.gp", &warned);
    if (warned)
        fprintf(stderr, "gridsync: gnuplot warned while drawing: see %s/gnuplot.log\n", shown);
    FILE *md = gs_path_of(path, sizeof path, "%s/report.md", dir) == 0
                   ? gs_open_output(path, err, errlen)
                   : NULL;
    if (!md) {
        rc = -1;
    } else {
        write_body(md, &p, rendered, 1);
        write_plots_section(md, npictures, plots, found, rendered, warned);
        if (fclose(md) != 0 || !closed) {
            gs_errorf(err, errlen, "cannot write in %s: %s", shown, strerror(errno));
            rc = -1;
        }
    }
    plan_free(&p);
    return rc;
}

int gs_report_write(const cJSON *results, const char *dir, int plots, char *err, size_t errlen)
{
    const gs_results_source one = {NULL, results};
    if (gs_results_check(results, NULL, err, errlen) != 0)
        return -1;
    return gs_report_write_files(&one, 1, dir, plots, err, errlen);
}
