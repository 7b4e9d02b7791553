/*
 * groups.h - rows of a results table grouped by the values of some
 * columns, in time linear in the rows (a hash of the values): the
 * configurations of the README's summary, the groups a headline compares
 * in, the rows --compare matches across two runs.
 *
 * Two rows are in one group when every column holds equal numbers, equal
 * texts, or nothing (absent or null), as gs_same_value says; the suite's
 * method column compares methods by their current names (renamed ones as
 * now called). A row with anything else in a column (true, an object, an
 * array) is in no group: it equals no row.
 */
#ifndef GS_REPORT_GROUPS_H
#define GS_REPORT_GROUPS_H

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_groups {
    const gs_bench_suite *suite;
    const char *const *columns; /* NULL-ended; NULL or empty: one group of every row */
    const cJSON **rows;         /* the rows grouped, in their order */
    int nrows, ngroups;
    int *group;                 /* per row: its group, -1 when it is in none */
    int *first;                 /* per group: its first row */
    int *next;                  /* per row: the next row of its group, -1 after the last */
    int *slots;                 /* the hash table: a group + 1, 0 for an empty slot */
    unsigned long nslots;       /* a power of two */
} gs_groups;

/* Group the `n` rows `rows` (kept as given; not copied) of `suite` by
 * `columns`. 0, or -1 when out of memory (then gs_groups_free it). */
int gs_groups_build(gs_groups *g, const gs_bench_suite *suite, const cJSON *const *rows, int n,
                    const char *const *columns);

/* The group whose rows equal `row` (of any table) in the columns, or -1. */
int gs_groups_find(const gs_groups *g, const cJSON *row);

void gs_groups_free(gs_groups *g);

#ifdef __cplusplus
}
#endif

#endif
