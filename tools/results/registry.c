/* registry.c - the suites' descriptions, in the order of suites/suites.h
 * (suite.h says what a suite describes). */
#include "results/registry.h"

#include <string.h>

#include "suites/suites.h"

#define GS_DECLARE(name) extern const gs_bench_suite gs_suite_##name;
GS_BENCH_SUITES(GS_DECLARE)
#define GS_ENTRY(name) &gs_suite_##name,
static const gs_bench_suite *const suites[] = {GS_BENCH_SUITES(GS_ENTRY)};

int gs_bench_suite_count(void) { return GS_COUNT(suites); }

const gs_bench_suite *gs_bench_suite_at(int i)
{
    return i >= 0 && i < GS_COUNT(suites) ? suites[i] : NULL;
}

int gs_bench_suite_index(const char *name)
{
    for (int i = 0; i < GS_COUNT(suites); ++i)
        if (strcmp(suites[i]->name, name) == 0)
            return i;
    return -1;
}

const gs_bench_suite *gs_bench_suite_find(const char *name)
{
    return gs_bench_suite_at(gs_bench_suite_index(name));
}

const char *gs_bench_method_column(const gs_bench_suite *suite)
{
    return suite && suite->reading && suite->reading->method ? suite->reading->method : "method";
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
