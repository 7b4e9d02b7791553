/* barriers.c - every barrier method keeps its order: the barrier suite's
 * exchange (each block writes, barrier, reads its neighbour and checks,
 * barrier) over 1000 barriers, at 1 block, 1 per SM and the co-resident
 * maximum. */
#include <stdio.h>

#include "results/registry.h"
#include "results/sampling.h"
#include "check/check.h"

static int run(const gs_check_env *env, char *figure, size_t len)
{
    static const int threads[] = {256};
    int blocks[3] = {1, env->dev->sm_count, env->max_blocks};
    gs_table *t = NULL;
    gs_bench_params p = {.iterations = 500, .samples = 1, .warmup = 0, .threads = threads,
                         .nthreads = 1, .blocks = blocks, .nblocks = 3, .quiet = 1,
                         .sampling = gs_sampling_fixed(1)};
    gs_status st = gs_bench_suite_run(gs_bench_suite_find("barrier"), &p, &t);
    snprintf(figure, len, "%d method/grid pairs at 1, %d and %d blocks, 1000 barriers each: %s",
             t ? gs_table_rows(t) : 0, blocks[1], blocks[2],
             st == GS_SUCCESS ? "every exchanged value right" : gs_last_error_detail());
    gs_table_free(t);
    return st == GS_SUCCESS;
}

const gs_check gs_check_barriers = {
    "barriers",
    "every barrier method, ordering checked by exchanging data across blocks over 1000 "
    "barriers at 1 block, 1 per SM and the co-resident maximum",
    run};
