/* registry.c - the list of benchmark suites: one line per suite, each
 * defined in suites/<name>.cu (suite.h says what a suite describes). */
#include "results/registry.h"

#include <string.h>

#include "gridsync_internal.h"
#include "harness/l2flush.h"

/* The suites, in the order `gridsync bench` runs them. */
#define GS_BENCH_SUITES(X) \
    X(barrier)             \
    X(sync)                \
    X(reduce)              \
    X(dot)                 \
    X(scan)                \
    X(gemm)                \
    X(apps)                \
    X(multi)

#define GS_DECLARE(name) extern const gs_bench_suite gs_suite_##name;
GS_BENCH_SUITES(GS_DECLARE)
#define GS_ENTRY(name) &gs_suite_##name,
static const gs_bench_suite *const suites[] = {GS_BENCH_SUITES(GS_ENTRY)};

int gs_bench_suite_count(void) { return GS_COUNT(suites); }

const gs_bench_suite *gs_bench_suite_at(int i)
{
    return i >= 0 && i < GS_COUNT(suites) ? suites[i] : NULL;
}

const gs_bench_suite *gs_bench_suite_find(const char *name)
{
    for (int i = 0; i < GS_COUNT(suites); ++i)
        if (strcmp(suites[i]->name, name) == 0)
            return suites[i];
    return NULL;
}

int gs_bench_suite_column(const gs_bench_suite *suite, const char *name)
{
    for (int c = 0; c < suite->ncolumns; ++c)
        if (strcmp(suite->columns[c].name, name) == 0)
            return c;
    return -1;
}

const char *gs_bench_method_name(const gs_bench_suite *suite, const char *method)
{
    for (const gs_renamed *r = suite->renamed; r && r->old_name; ++r)
        if (strcmp(r->old_name, method) == 0)
            return r->name;
    return method;
}

gs_status gs_bench_suite_run(const gs_bench_suite *suite, const gs_bench_params *params,
                             gs_table **table)
{
    *table = gs_table_new_columns(suite->title, suite->ncolumns, suite->columns);
    if (!*table)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench %s: out of host memory", suite->name);
    gs_table_set_sampling(*table, &params->sampling);
    gs_status st = suite->run(params, *table);
    gs_l2_flush_release();
    return st;
}
