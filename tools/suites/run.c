/* run.c - every suite's run code, in the order of suites.h (run.h). */
#include "suites/run.h"

#include <string.h>

#include "gridsync_internal.h"
#include "harness/l2flush.h"
#include "suites/suites.h"

#define GS_DECLARE(name) extern const gs_bench_runner gs_runner_##name;
GS_BENCH_SUITES(GS_DECLARE)
#define GS_ENTRY(name) {#name, &gs_runner_##name},
static const struct {
    const char *name;
    const gs_bench_runner *runner;
} runners[] = {GS_BENCH_SUITES(GS_ENTRY)};

const gs_bench_runner *gs_bench_runner_of(const gs_bench_suite *suite)
{
    for (int i = 0; i < GS_COUNT(runners); ++i)
        if (strcmp(runners[i].name, suite->name) == 0)
            return runners[i].runner;
    return NULL;
}

gs_status gs_bench_suite_run(const gs_bench_suite *suite, const gs_bench_params *params,
                             gs_table **table)
{
    const gs_bench_runner *runner = gs_bench_runner_of(suite);
    *table = gs_table_new_columns(suite->title, suite->ncolumns, suite->columns);
    if (!*table)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench %s: out of host memory", suite->name);
    if (!runner)
        return gs__fail(GS_ERR_INTERNAL, "bench %s: no run code", suite->name);
    if (!runner->run)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "bench %s: its rows are not measured by gridsync "
                                              "bench (gridsync help bench says where)",
                        suite->name);
    gs_table_set_sampling(*table, &params->sampling);
    gs_status st = runner->run(params, *table);
    gs_l2_flush_release();
    const char *unknown = gs_table_unknown_column(*table);
    if (st == GS_SUCCESS && unknown)
        st = gs__fail(GS_ERR_INTERNAL, "bench %s: its run set a column '%s' its description "
                                       "does not have", suite->name, unknown);
    return st;
}
