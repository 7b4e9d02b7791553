/* winners.c - the fastest method per group (winners.h). Everything printed
 * passes through the markdown writer; numbers are formatted with the
 * column's view (format.h), never with anything read from the file. */
#include "report/winners.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "report/format.h"
#include "report/groups.h"
#include "report/markdown.h"
#include "report/rows.h"

const cJSON *gs_winner_of(const gs_bench_suite *suite, const cJSON *const *rows, int n,
                          const char *const *among)
{
    const gs_reading *r = suite->reading;
    const cJSON *best = NULL;
    double best_v = 0.0;
    for (int i = 0; i < n; ++i) {
        const cJSON *m = gs_row_field(rows[i], r->method), *v = gs_row_field(rows[i], r->metric);
        if (!cJSON_IsString(m) || !cJSON_IsNumber(v) || !isfinite(v->valuedouble))
            continue;
        if (among && !gs_listed(among, gs_bench_method_name(suite, m->valuestring)))
            continue;
        int better = r->higher_is_better ? v->valuedouble > best_v : v->valuedouble < best_v;
        if (!best || better) {
            best = rows[i];
            best_v = v->valuedouble;
        }
    }
    return best;
}

/* "method (figure)" of the winning row, or "-". */
static void pick_text(const gs_bench_suite *suite, const cJSON *row, char *buf, size_t len)
{
    const gs_reading *r = suite->reading;
    if (!row) {
        snprintf(buf, len, "-");
        return;
    }
    gs_column_view view;
    char figure[64];
    gs_column_view_of(suite, r->metric, &view);
    gs_format_value(gs_row_field(row, r->metric), &view, figure, sizeof figure);
    snprintf(buf, len, "%s (%s)",
             gs_bench_method_name(suite, gs_row_field(row, r->method)->valuestring), figure);
}

/* One table: its sentence, header and a line per group. 0, or -1. */
static int write_table(FILE *md, const gs_bench_suite *suite, const gs_winners *w,
                       const cJSON *table)
{
    const cJSON *rows = gs_row_field(table, "rows"), *row;
    int n = cJSON_GetArraySize(rows), kept = 0, ncols = 0, rc = 0;
    const cJSON **mine = calloc((size_t)n + 1, sizeof *mine);
    const cJSON **members = calloc((size_t)n + 1, sizeof *members);
    gs_groups g;
    memset(&g, 0, sizeof g);
    if (!mine || !members) {
        rc = -1;
        goto done;
    }
    cJSON_ArrayForEach(row, rows) if (gs_row_passes(row, w->filter, w->filter_values))
        mine[kept++] = row;
    if (gs_groups_build(&g, suite, mine, kept, w->group_by) != 0) {
        rc = -1;
        goto done;
    }
    if (g.ngroups == 0)
        goto done;
    gs_md_text(md, w->title);
    fputs("\n\n|", md);
    for (const char *const *c = w->group_by; c && *c; ++c, ++ncols) {
        gs_column_view view;
        gs_column_view_of(suite, *c, &view);
        gs_md_cell(md, view.label);
    }
    for (int p = 0; p < w->npicks; ++p, ++ncols)
        gs_md_cell(md, w->picks[p].header);
    fputc('\n', md);
    gs_md_rule(md, ncols);
    for (int k = 0; k < g.ngroups; ++k) {
        int m = 0;
        for (int i = g.first[k]; i >= 0; i = g.next[i])
            members[m++] = g.rows[i];
        fputc('|', md);
        for (const char *const *c = w->group_by; c && *c; ++c) {
            gs_column_view view;
            char cell[128];
            gs_column_view_of(suite, *c, &view);
            gs_format_value(gs_row_field(members[0], *c), &view, cell, sizeof cell);
            gs_md_cell(md, cell);
        }
        for (int p = 0; p < w->npicks; ++p) {
            char cell[256];
            pick_text(suite, gs_winner_of(suite, members, m, w->picks[p].among), cell,
                      sizeof cell);
            gs_md_cell(md, cell);
        }
        fputc('\n', md);
    }
    fputc('\n', md);
done:
    gs_groups_free(&g);
    free(mine);
    free(members);
    return rc;
}

int gs_md_winners(FILE *md, const gs_bench_suite *suite, const cJSON *table)
{
    const gs_reading *r = suite->reading;
    for (int i = 0; r && i < r->nwinners; ++i)
        if (write_table(md, suite, &r->winners[i], table) != 0)
            return -1;
    return 0;
}
