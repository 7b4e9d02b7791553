/* groups.c - rows grouped by the values of some columns (groups.h). */
#include "report/groups.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/registry.h"
#include "report/rows.h"

/* The value of `column` as it compares: a renamed method as now named. */
static const char *text_of(const gs_groups *g, const char *column, const cJSON *v)
{
    return g->suite && strcmp(column, gs_bench_method_column(g->suite)) == 0
               ? gs_bench_method_name(g->suite, v->valuestring)
               : v->valuestring;
}

static uint64_t mix(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 1099511628211ull; /* FNV-1a */
    return h;
}

/* The hash of the row's values in the columns; 0 when it is in no group. */
static int hash_of(const gs_groups *g, const cJSON *row, uint64_t *hash)
{
    uint64_t h = 14695981039346656037ull;
    if (!cJSON_IsObject(row))
        return 0;
    for (const char *const *c = g->columns; c && *c; ++c) {
        const cJSON *v = gs_row_field(row, *c);
        if (cJSON_IsNumber(v)) {
            double d = v->valuedouble == 0.0 ? 0.0 : v->valuedouble; /* -0 == 0 */
            h = mix(mix(h, "n", 1), &d, sizeof d);
        } else if (cJSON_IsString(v)) {
            const char *s = text_of(g, *c, v);
            h = mix(mix(h, "s", 1), s, strlen(s) + 1);
        } else if (!v || cJSON_IsNull(v)) {
            h = mix(h, "-", 1);
        } else {
            return 0;
        }
    }
    *hash = h;
    return 1;
}

static int same_values(const gs_groups *g, const cJSON *a, const cJSON *b)
{
    for (const char *const *c = g->columns; c && *c; ++c) {
        const cJSON *x = gs_row_field(a, *c), *y = gs_row_field(b, *c);
        if (cJSON_IsString(x) && cJSON_IsString(y)) {
            if (strcmp(text_of(g, *c, x), text_of(g, *c, y)) != 0)
                return 0;
        } else if (!gs_same_value(x, y)) {
            return 0;
        }
    }
    return 1;
}

/* The slot of the row's group, or of the empty slot where it would go;
 * -1 when the row is in no group. */
static long slot_of(const gs_groups *g, const cJSON *row)
{
    uint64_t h;
    if (!hash_of(g, row, &h))
        return -1;
    unsigned long mask = g->nslots - 1, s = (unsigned long)(h & mask);
    while (g->slots[s] && !same_values(g, g->rows[g->first[g->slots[s] - 1]], row))
        s = (s + 1) & mask;
    return (long)s;
}

int gs_groups_find(const gs_groups *g, const cJSON *row)
{
    long s = g->nslots ? slot_of(g, row) : -1;
    return s < 0 ? -1 : g->slots[s] - 1;
}

int gs_groups_build(gs_groups *g, const gs_bench_suite *suite, const cJSON *const *rows, int n,
                    const char *const *columns)
{
    memset(g, 0, sizeof *g);
    g->suite = suite;
    g->columns = columns;
    g->rows = (const cJSON **)rows;
    g->nrows = n;
    g->nslots = 16;
    while (g->nslots < 2ul * (unsigned long)n)
        g->nslots *= 2;
    g->group = malloc(((size_t)n + 1) * sizeof *g->group);
    g->first = malloc(((size_t)n + 1) * sizeof *g->first);
    g->next = malloc(((size_t)n + 1) * sizeof *g->next);
    g->slots = calloc(g->nslots, sizeof *g->slots);
    int *last = malloc(((size_t)n + 1) * sizeof *last);
    if (!g->group || !g->first || !g->next || !g->slots || !last) {
        free(last);
        return -1;
    }
    for (int i = 0; i < n; ++i) {
        long s = slot_of(g, rows[i]);
        int k = s < 0 ? -1 : g->slots[s] - 1;
        g->group[i] = k;
        g->next[i] = -1;
        if (s < 0)
            continue;
        if (k < 0) {
            k = g->group[i] = g->ngroups++;
            g->slots[s] = k + 1;
            g->first[k] = i;
        } else {
            g->next[last[k]] = i;
        }
        last[k] = i;
    }
    free(last);
    return 0;
}

void gs_groups_free(gs_groups *g)
{
    free(g->group);
    free(g->first);
    free(g->next);
    free(g->slots);
    memset(g, 0, sizeof *g);
}
