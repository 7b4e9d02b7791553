/* tables.c - markdown and CSV tables of a suite's results (tables.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/tables.h"

#include <math.h>
#include <string.h>

#include "results/registry.h"
#include "results/table.h"
#include "common/csv.h"
#include "report/format.h"
#include "report/markdown.h"

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A column's name; NULL for an entry of `columns` that is not a string. */
static const char *column(const cJSON *c) { return cJSON_IsString(c) ? c->valuestring : NULL; }

int gs_results_ncolumns(const cJSON *table)
{
    const cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, field(table, "columns")) n += column(c) != NULL;
    return n;
}

/* Whether any row has the generic field `name` as a number, and the suite
 * has no column of that name. */
static int rows_have(const cJSON *table, const char *name)
{
    const cJSON *r, *c;
    cJSON_ArrayForEach(c, field(table, "columns")) if (column(c) && !strcmp(column(c), name))
        return 0;
    cJSON_ArrayForEach(r, field(table, "rows")) if (cJSON_IsNumber(field(r, name))) return 1;
    return 0;
}

static const char *const generic[] = {GS_ROW_NOISE, GS_ROW_SAMPLES};

/* What a table's cells flag: figures noisier than GS_NOISY, fractions of a
 * ceiling above it (and the first such column's label). */
typedef struct flags {
    int noisy, above;
    char above_label[64];
} flags;

/* The cell of a number, with its flag: "28.3% (noisy)", "106.8% (above)". */
static void flagged_cell(double v, const gs_column_view *view, flags *fl, char *buf, size_t len)
{
    size_t n;
    gs_format_number(v, view, buf, len);
    n = strlen(buf);
    if (strcmp(view->name, GS_ROW_NOISE) == 0 && v > GS_NOISY) {
        fl->noisy++;
        snprintf(buf + n, len - n, " (noisy)");
    } else if (view->format == GS_CELL_PERCENT && strcmp(view->name, GS_ROW_NOISE) != 0 &&
               v > 1.0 && isfinite(v)) {
        if (!fl->above++)
            snprintf(fl->above_label, sizeof fl->above_label, "%s", view->label);
        snprintf(buf + n, len - n, " (above)");
    }
}

/* The sentence under a table that flagged cells: what the flags mean. */
static void write_flags(FILE *md, const flags *fl)
{
    char label[160];
    if (!fl->noisy && !fl->above)
        return;
    fputs("\nRead with care:", md);
    if (fl->noisy)
        fprintf(md, " %d figure%s noisier than %.0f%% (marked noisy): %s may move that "
                    "much from run to run.",
                fl->noisy, fl->noisy == 1 ? " is" : "s are", 100.0 * GS_NOISY,
                fl->noisy == 1 ? "its median" : "their medians");
    gs_md_inline_escape(fl->above_label, label, sizeof label);
    if (fl->above)
        fprintf(md, " %d fraction%s of a reference %s above 100%% (marked above; %s): there "
                    "the reference is no ceiling (a short copy times a launch, not the memory; "
                    "a copy moves twice the bytes of a read): a match, not a win over the "
                    "hardware.",
                fl->above, fl->above == 1 ? "" : "s", fl->above == 1 ? "is" : "are", label);
    fputc('\n', md);
}

void gs_md_results_table(FILE *md, const gs_bench_suite *suite, const cJSON *table)
{
    const cJSON *cols = field(table, "columns"), *c, *r;
    const char *method = suite && suite->reading ? suite->reading->method : NULL;
    int extra[2], n = gs_results_ncolumns(table);
    gs_column_view view;
    flags fl = {0, 0, ""};
    char buf[256];
    fputc('|', md);
    cJSON_ArrayForEach(c, cols) if (column(c))
    {
        gs_column_view_of(suite, column(c), &view);
        gs_md_cell(md, view.label);
    }
    for (int g = 0; g < 2; ++g)
        if ((extra[g] = rows_have(table, generic[g])) != 0) {
            gs_column_view_of(suite, generic[g], &view);
            gs_md_cell(md, view.label);
            ++n;
        }
    fputc('\n', md);
    gs_md_rule(md, n);
    cJSON_ArrayForEach(r, field(table, "rows"))
    {
        fputc('|', md);
        cJSON_ArrayForEach(c, cols) if (column(c))
        {
            const cJSON *v = field(r, column(c));
            gs_column_view_of(suite, column(c), &view);
            if (method && !strcmp(column(c), method) && cJSON_IsString(v))
                snprintf(buf, sizeof buf, "%s", gs_bench_method_name(suite, v->valuestring));
            else if (cJSON_IsNumber(v))
                flagged_cell(v->valuedouble, &view, &fl, buf, sizeof buf);
            else
                gs_format_value(v, &view, buf, sizeof buf);
            gs_md_cell(md, buf);
        }
        for (int g = 0; g < 2; ++g)
            if (extra[g]) {
                const cJSON *v = field(r, generic[g]);
                gs_column_view_of(suite, generic[g], &view);
                if (cJSON_IsNumber(v))
                    flagged_cell(v->valuedouble, &view, &fl, buf, sizeof buf);
                else
                    gs_format_value(v, &view, buf, sizeof buf);
                gs_md_cell(md, buf);
            }
        fputc('\n', md);
    }
    write_flags(md, &fl);
}

/* A CSV field of a value: numbers at full precision, null empty. */
static void csv_value(gs_csv_row *row, const cJSON *v)
{
    char buf[256];
    if (cJSON_IsNumber(v))
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, sizeof buf, "%s", v->valuestring);
    else
        snprintf(buf, sizeof buf, "-");
    gs_csv_field(row, v && !cJSON_IsNull(v) ? buf : NULL);
}

int gs_csv_results_table(FILE *out, const cJSON *table, const char *suite)
{
    const cJSON *cols = field(table, "columns"), *c, *r;
    int extra[2];
    gs_csv_row row;
    gs_csv_row_begin(&row, out);
    if (suite)
        gs_csv_field(&row, "suite");
    cJSON_ArrayForEach(c, cols) if (column(c)) gs_csv_field(&row, column(c));
    for (int g = 0; g < 2; ++g)
        if ((extra[g] = rows_have(table, generic[g])) != 0)
            gs_csv_field(&row, generic[g]);
    gs_csv_row_end(&row);
    cJSON_ArrayForEach(r, field(table, "rows"))
    {
        gs_csv_row_begin(&row, out);
        if (suite)
            gs_csv_field(&row, suite);
        cJSON_ArrayForEach(c, cols) if (column(c)) csv_value(&row, field(r, column(c)));
        for (int g = 0; g < 2; ++g)
            if (extra[g])
                csv_value(&row, field(r, generic[g]));
        gs_csv_row_end(&row);
    }
    return ferror(out) ? -1 : 0;
}

void gs_timing_sentence(const cJSON *table, char *buf, size_t len)
{
    const cJSON *r, *sampling = field(table, "sampling");
    int modes[3] = {0, 0, 0}, measured = 0;
    double smin = INFINITY, smax = 0, noise_max = -1;
    cJSON_ArrayForEach(r, field(table, "rows"))
    {
        const cJSON *t = field(r, GS_ROW_TIMING), *s = field(r, GS_ROW_SAMPLES),
                    *z = field(r, GS_ROW_NOISE);
        if (cJSON_IsString(t))
            modes[strcmp(t->valuestring, "cold") == 0   ? 1
                  : strcmp(t->valuestring, "host") == 0 ? 2
                                                        : 0]++;
        if (cJSON_IsNumber(s)) {
            measured++;
            smin = s->valuedouble < smin ? s->valuedouble : smin;
            smax = s->valuedouble > smax ? s->valuedouble : smax;
        }
        if (cJSON_IsNumber(z) && z->valuedouble > noise_max)
            noise_max = z->valuedouble;
    }
    if (!measured) {
        snprintf(buf, len,
                 "Timing: hot (the L2 cache as the previous sample left it): this results "
                 "file was written before gridsync recorded the timing mode, and every run "
                 "before then was hot; each figure is a median, its sample count and noise "
                 "were not recorded.");
        return;
    }
    size_t n = 0;
    const char *gpu = modes[1] && modes[0] ? "hot and cold" : modes[1] ? "cold" : "hot";
    if (modes[0] || modes[1])
        n += (size_t)snprintf(buf + n, len - n, "Timing: %s%s", gpu,
                              modes[1] ? " (the L2 cache flushed before every sample)"
                                       : " (the L2 cache as the previous sample left it)");
    if (modes[2] && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "Timing: ",
                              "work that waits for itself on the host's clock");
    if (n >= len)
        return;
    if (smin == smax)
        n += (size_t)snprintf(buf + n, len - n, "; each figure is the median of %.0f samples",
                              smin);
    else
        n += (size_t)snprintf(buf + n, len - n,
                              "; each figure is the median of %.0f to %.0f samples", smin, smax);
    const cJSON *noise = field(sampling, "max_noise"), *timeout = field(sampling, "timeout_s");
    if (n < len && cJSON_IsNumber(noise) && noise->valuedouble > 0)
        n += (size_t)snprintf(buf + n, len - n,
                              ", taken until their noise was under %.2g%% (or %.0f s passed)",
                              100.0 * noise->valuedouble,
                              cJSON_IsNumber(timeout) ? timeout->valuedouble : 0.0);
    if (n < len && noise_max >= 0)
        n += (size_t)snprintf(buf + n, len - n,
                              "; noise (relative standard deviation) at most %.2f%%",
                              100.0 * noise_max);
    if (n < len)
        snprintf(buf + n, len - n, ".");
}
