/* headline.c - the summary's sentences (headline.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/headline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "report/format.h"
#include "results/table.h"
#include "report/groups.h"
#include "report/markdown.h"
#include "report/rows.h"

/* The row's method as the suite names it now, or NULL. */
static const char *method_of(const gs_bench_suite *suite, const cJSON *row)
{
    const cJSON *m = gs_row_field(row, gs_bench_method_column(suite));
    return cJSON_IsString(m) ? gs_bench_method_name(suite, m->valuestring) : NULL;
}

static int kept(const gs_headline *h, const cJSON *row)
{
    return gs_row_passes(row, h->filter, h->filter_values);
}

/* A row of a grid of one block: its grid barrier is a block's barrier. */
static int one_block(const gs_headline *h, const cJSON *row)
{
    const cJSON *v = gs_row_field(row, h->blocks);
    return h->blocks && cJSON_IsNumber(v) && v->valuedouble == 1.0;
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

/* Count the ratio of `ours` (a row) against `peer` (a row). */
static void tally(const gs_bench_suite *suite, const gs_headline *h, const cJSON *ours,
                  const cJSON *peer, gs_headline_result *r)
{
    double v = metric_of(h, ours), p = metric_of(h, peer);
    double ratio = h->higher_is_better ? v / p : p / v;
    double noise = fmax(fmax(gs_row_noise(ours), gs_row_noise(peer)), 0.0); /* none: 0 */
    if (!isfinite(ratio))
        return;
    if (r->compared == 0 || ratio > r->best) {
        r->best = ratio;
        r->best_noise = noise;
        snprintf(r->best_method, sizeof r->best_method, "%s", method_of(suite, ours));
        where_of(suite, h, ours, r->best_where, sizeof r->best_where);
    }
    if (r->compared == 0 || ratio < r->worst) {
        r->worst = ratio;
        snprintf(r->worst_method, sizeof r->worst_method, "%s", method_of(suite, ours));
        where_of(suite, h, ours, r->worst_where, sizeof r->worst_where);
    }
    r->compared++;
}

/* The rows a headline reads: its rows of the peer and of ours. */
typedef struct candidates {
    const cJSON **rows;
    int n;
    unsigned char *is_peer, *is_ours;
    double *metric;
    int *best, *worst, *count; /* per group: ours with the best and worst metric, how many */
    gs_groups groups;
} candidates;

static void candidates_free(candidates *c)
{
    gs_groups_free(&c->groups);
    free(c->rows);
    free(c->is_peer);
    free(c->is_ours);
    free(c->metric);
    free(c->best);
    free(c->worst);
    free(c->count);
}

/* Gather the rows of the peer and of ours that `h` compares, grouped, and
 * each group's best and worst of ours (the first of equals); 0 or -1. */
static int gather(const gs_bench_suite *suite, const gs_headline *h, const cJSON *table,
                  candidates *c, int *left_out)
{
    const char *const *ours = h->ours ? h->ours : suite->reading ? suite->reading->ours : NULL;
    const cJSON *rows = gs_row_field(table, "rows"), *row;
    size_t cap = (size_t)cJSON_GetArraySize(rows) + 1;
    memset(c, 0, sizeof *c);
    c->rows = calloc(cap, sizeof *c->rows);
    c->is_peer = calloc(cap, 1);
    c->is_ours = calloc(cap, 1);
    c->metric = calloc(cap, sizeof *c->metric);
    if (!c->rows || !c->is_peer || !c->is_ours || !c->metric)
        return -1;
    cJSON_ArrayForEach(row, rows)
    {
        const char *m = method_of(suite, row);
        double v = metric_of(h, row);
        int peer = m && strcmp(m, h->peer) == 0, mine = m && gs_listed(ours, m);
        if (!kept(h, row) || isnan(v) || !(peer || mine))
            continue;
        if (one_block(h, row)) {
            *left_out += 1;
            continue;
        }
        c->rows[c->n] = row;
        c->is_peer[c->n] = (unsigned char)peer;
        c->is_ours[c->n] = (unsigned char)mine;
        c->metric[c->n++] = v;
    }
    if (gs_groups_build(&c->groups, suite, c->rows, c->n, h->group_by) != 0)
        return -1;
    size_t ng = (size_t)c->groups.ngroups + 1;
    c->best = calloc(ng, sizeof *c->best);
    c->worst = calloc(ng, sizeof *c->worst);
    c->count = calloc(ng, sizeof *c->count);
    if (!c->best || !c->worst || !c->count)
        return -1;
    for (int i = 0; i < c->n; ++i) {
        int k = c->groups.group[i];
        if (k < 0 || !c->is_ours[i])
            continue;
        double v = c->metric[i], best = c->metric[c->best[k]], worst = c->metric[c->worst[k]];
        if (c->count[k]++ == 0)
            c->best[k] = c->worst[k] = i;
        else if (h->higher_is_better ? v > best : v < best)
            c->best[k] = i;
        else if (h->higher_is_better ? v < worst : v > worst)
            c->worst[k] = i;
    }
    return 0;
}

void gs_headline_compute(const gs_bench_suite *suite, const gs_headline *h, const cJSON *table,
                         gs_headline_result *r)
{
    candidates c;
    memset(r, 0, sizeof *r);
    if (gather(suite, h, table, &c, &r->left_out) == 0)
        for (int i = 0; i < c.n; ++i) {
            int k = c.groups.group[i];
            if (!c.is_peer[i] || k < 0 || c.count[k] == 0)
                continue;
            /* each of ours: the best and the worst of the group make the
             * range, every one of them counts */
            int before = r->compared;
            tally(suite, h, c.rows[c.best[k]], c.rows[i], r);
            if (h->each) {
                tally(suite, h, c.rows[c.worst[k]], c.rows[i], r);
                r->compared = before + c.count[k];
            }
        }
    candidates_free(&c);
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
    char who[160], peer[160], best_where[300], worst_where[300], noisy[64] = "";
    char worst_who[160] = "", best_who[180] = "";
    (void)suite;
    buf[0] = '\0';
    if (r->compared == 0)
        return;
    subject(r->best_method, who, sizeof who);
    gs_md_inline_escape(h->peer, peer, sizeof peer);
    gs_md_inline_escape(r->best_where, best_where, sizeof best_where);
    gs_md_inline_escape(r->worst_where, worst_where, sizeof worst_where);
    if (r->best_noise > GS_NOISY)
        snprintf(noisy, sizeof noisy, "; noisy: %.1f%%", 100.0 * r->best_noise);
    if (strcmp(r->worst_method, r->best_method) != 0) {
        /* the ends of the range are different methods: name both */
        char m[140];
        gs_md_inline_escape(r->worst_method, m, sizeof m);
        snprintf(worst_who, sizeof worst_who, "**%s**%s", m, worst_where[0] ? ", " : "");
        gs_md_inline_escape(r->best_method, m, sizeof m);
        snprintf(best_who, sizeof best_who, " (**%s**)", m);
    }
    int n;
    if (r->best >= 1.0)
        n = snprintf(buf, len, "%s is up to **%.2fx faster** than **%s** (%s%s)", who, r->best,
                     peer, best_where, noisy);
    else
        n = snprintf(buf, len, "%s reaches at best **%.2fx** the speed of **%s** (%s%s)", who,
                     r->best, peer, best_where, noisy);
    if (n >= 0 && (size_t)n < len && r->compared > 1)
        n += snprintf(buf + n, len - (size_t)n, "; over the %d %s measured, from %.2fx (%s%s) "
                                                "to %.2fx%s.",
                      r->compared, h->noun ? h->noun : "configurations", r->worst, worst_who,
                      worst_where, r->best, best_who);
    else if (n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ".");
    if (n >= 0 && (size_t)n < len && r->left_out)
        snprintf(buf + n, len - (size_t)n, " Grids of one block are left out: their grid "
                                           "barrier is a block's barrier.");
}
