/* winners.h - the report's tables of the fastest method per group
 * (results/reading.h, gs_winners): for each group of a suite's rows, the
 * method with the best figure among each pick's candidates, from the rows
 * measured. */
#ifndef GS_REPORT_WINNERS_H
#define GS_REPORT_WINNERS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The row of the best method among `among` (NULL: any) of the group that
 * `rows` (n of them, one group) make, by the reading's metric; NULL when
 * none of them has a number there. */
const cJSON *gs_winner_of(const gs_bench_suite *suite, const cJSON *const *rows, int n,
                          const char *const *among);

/* Every winners table of the suite's reading for its results `table`, as
 * markdown (a sentence, then a line per group: its group_by values, then
 * "method (figure)" per pick). 0, or -1 when out of memory. */
int gs_md_winners(FILE *md, const gs_bench_suite *suite, const cJSON *table);

#ifdef __cplusplus
}
#endif

#endif
