/* summary.h - the README's results section from a results document: the
 * summary table each registered suite describes (results/summary_spec.h), for
 * the suites the document has, in the registry's order. */
#ifndef GS_REPORT_SUMMARY_H
#define GS_REPORT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write the summary tables of `results` (read from the file `source`, named
 * in the first table's sentence) to `out` as markdown. 0, or -1 with a
 * sentence in `err` (not a results document; no suite with a summary). */
int gs_summary_write(FILE *out, const cJSON *results, const char *source, char *err,
                     size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
