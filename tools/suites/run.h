/* run.h - measuring a suite: its run code, found by the suite's name
 * (suites/suites.h lists the suites; each folder's run code defines its
 * `gs_runner_<name>`, harness/params.h). */
#ifndef GS_SUITES_RUN_H
#define GS_SUITES_RUN_H

#include "harness/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How `suite` measures (never NULL for a suite of the registry). */
const gs_bench_runner *gs_bench_runner_of(const gs_bench_suite *suite);

/* Run the suite: *table receives its table (the caller frees it), with the
 * rows measured even when the run fails. A run that sets a column its
 * description does not have fails (GS_ERR_INTERNAL, naming the column). */
gs_status gs_bench_suite_run(const gs_bench_suite *suite, const gs_bench_params *params,
                             gs_table **table);

#ifdef __cplusplus
}
#endif

#endif
