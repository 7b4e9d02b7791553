/* registry.h - every benchmark suite's description, in the order
 * `gridsync bench` runs them (suites/suites.h lists them). */
#ifndef GS_BENCH_REGISTRY_H
#define GS_BENCH_REGISTRY_H

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The number of suites, and suite i (0 <= i < count). */
int gs_bench_suite_count(void);
const gs_bench_suite *gs_bench_suite_at(int i);

/* The suite named `name`, or NULL; its index, or -1. */
const gs_bench_suite *gs_bench_suite_find(const char *name);
int gs_bench_suite_index(const char *name);

/* The index of the column `name` of the suite, or -1. */
int gs_bench_suite_column(const gs_bench_suite *suite, const char *name);

/* The column that names a row's method: the reading's, else "method" (also
 * for a NULL suite). */
const char *gs_bench_method_column(const gs_bench_suite *suite);

/* A method's name as the suite calls it now (`renamed`), else `method`. */
const char *gs_bench_method_name(const gs_bench_suite *suite, const char *method);

#ifdef __cplusplus
}
#endif

#endif
