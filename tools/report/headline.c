/* headline.c - the summary's sentences (headline.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/headline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/registry.h"
#include "report/format.h"
#include "report/markdown.h"
#include "report/rows.h"


static const char *method_column(const gs_bench_suite *suite)
{
    return suite->reading && suite->reading->method ? suite->reading->method : "method";
}

/* The row's method as the suite names it now, or NULL. */
static const char *method_of(const gs_bench_suite *suite, const cJSON *row)
{
    const cJSON *m = gs_row_field(row, method_column(suite));
    return cJSON_IsString(m) ? gs_bench_method_name(suite, m->valuestring) : NULL;
}

static int same_group(const gs_headline *h, const cJSON *a, const cJSON *b)
{
    for (const char *const *c = h->group_by; c && *c; ++c)
        if (!gs_same_value(gs_row_field(a, *c), gs_row_field(b, *c)))
            return 0;
    return 1;
}

static int kept(const gs_headline *h, const cJSON *row)
{
    return gs_row_passes(row, h->filter, h->filter_values);
}

static double metric_of(const gs_headline *h, const cJSON *row)
{
    const cJSON *v = gs_row_field(row, h->metric);
    return cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble) ? v->valuedouble
                                                                               : NAN;
}

/* "threads = 256, blocks = 1": the describe columns of `row`. */
static void where_of(const gs_bench_suite *suite, const gs_headline *h, const cJSON *row,
                     char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *const *c = h->describe; c && *c && n < len; ++c) {
        const cJSON *v = gs_row_field(row, *c);
        gs_column_view view;
        char value[128];
        gs_column_view_of(suite, *c, &view);
        if (cJSON_IsNumber(v))
            gs_format_compact(v->valuedouble, &view, value, sizeof value);
        else if (cJSON_IsString(v))
            snprintf(value, sizeof value, "%s", v->valuestring);
        else
            continue;
        n += (size_t)snprintf(buf + n, len - n, "%s%s = %s", n ? ", " : "", view.label, value);
    }
}

/* Count the ratio of `ours` (a row) against `peer`'s value. */
static void tally(const gs_bench_suite *suite, const gs_headline *h, const cJSON *ours,
                  double peer, gs_headline_result *r)
{
    double v = metric_of(h, ours);
    double ratio = h->higher_is_better ? v / peer : peer / v;
    if (!isfinite(ratio))
        return;
    if (r->compared == 0 || ratio > r->best) {
        r->best = ratio;
        snprintf(r->best_method, sizeof r->best_method, "%s", method_of(suite, ours));
        where_of(suite, h, ours, r->best_where, sizeof r->best_where);
    }
    if (r->compared == 0 || ratio < r->worst) {
        r->worst = ratio;
        where_of(suite, h, ours, r->worst_where, sizeof r->worst_where);
    }
    r->compared++;
}

void gs_headline_compute(const gs_bench_suite *suite, const gs_headline *h, const cJSON *table,
                         gs_headline_result *r)
{
    const char *const *ours = h->ours ? h->ours : suite->reading ? suite->reading->ours : NULL;
    const cJSON *rows = gs_row_field(table, "rows"), *p, *o;
    memset(r, 0, sizeof *r);
    cJSON_ArrayForEach(p, rows)
    {
        const char *m = method_of(suite, p);
        double peer = metric_of(h, p);
        if (!kept(h, p) || !m || strcmp(m, h->peer) != 0 || isnan(peer))
            continue;
        const cJSON *best = NULL;
        double best_v = NAN;
        cJSON_ArrayForEach(o, rows)
        {
            const char *om = method_of(suite, o);
            double v = metric_of(h, o);
            if (!kept(h, o) || !om || !gs_listed(ours, om) || isnan(v) || !same_group(h, o, p))
                continue;
            if (h->each)
                tally(suite, h, o, peer, r);
            else if (!best || (h->higher_is_better ? v > best_v : v < best_v))
                best = o, best_v = v;
        }
        if (best)
            tally(suite, h, best, peer, r);
    }
}

/* The subject: "gridsync", a method of gridsync's by its name, or
 * "gridsync's <method>". */
static void subject(const char *method, char *buf, size_t len)
{
    char m[128];
    gs_md_inline_escape(method, m, sizeof m);
    if (strcmp(method, "gridsync") == 0 || strncmp(method, "gridsync", 8) == 0 ||
        strncmp(method, "gs_", 3) == 0)
        snprintf(buf, len, "**%s**", m);
    else
        snprintf(buf, len, "gridsync's **%s**", m);
}

void gs_headline_sentence(const gs_bench_suite *suite, const gs_headline *h,
                          const gs_headline_result *r, char *buf, size_t len)
{
    char who[160], peer[160], best_where[300], worst_where[300];
    (void)suite;
    buf[0] = '\0';
    if (r->compared == 0)
        return;
    subject(r->best_method, who, sizeof who);
    gs_md_inline_escape(h->peer, peer, sizeof peer);
    gs_md_inline_escape(r->best_where, best_where, sizeof best_where);
    gs_md_inline_escape(r->worst_where, worst_where, sizeof worst_where);
    int n;
    if (r->best >= 1.0)
        n = snprintf(buf, len, "%s is up to **%.2fx faster** than **%s** (%s)", who, r->best, peer,
                     best_where);
    else
        n = snprintf(buf, len, "%s reaches at best **%.2fx** the speed of **%s** (%s)", who,
                     r->best, peer, best_where);
    if (n < 0 || (size_t)n >= len)
        return;
    if (r->compared > 1)
        snprintf(buf + n, len - (size_t)n, "; over the %d %s measured, from %.2fx (%s) to %.2fx.",
                 r->compared, h->noun ? h->noun : "configurations", r->worst, worst_where,
                 r->best);
    else
        snprintf(buf + n, len - (size_t)n, ".");
}
