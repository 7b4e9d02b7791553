/* schema.h - the columns of every registered suite, with units and
 * meanings, as the table of docs/results-schema.md (`gridsync report
 * --columns`). */
#ifndef GS_REPORT_SCHEMA_H
#define GS_REPORT_SCHEMA_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "| suite | column | unit | meaning |" and a row per column of each suite. */
void gs_schema_write(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
