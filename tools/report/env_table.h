/* env_table.h - a run's environment as report.md shows it: its properties
 * as a table (the keys gridsync writes by name, then any other; every text
 * escaped), the GPU's state on one line, and whether a state names a
 * reason that slows a measurement down. */
#ifndef GS_REPORT_ENV_TABLE_H
#define GS_REPORT_ENV_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The text of `env`'s `key` (at most `at_most` bytes of it), or "?". */
void gs_env_text(const cJSON *env, const char *key, size_t at_most, char *buf, size_t len);

/* "| property | value |" and a row per property of `env`. */
void gs_env_table(FILE *md, const cJSON *env);

/* Whether the GPU state `state` (gpu_state of a table or an environment)
 * names a throttle reason that slows a measurement down; those reasons,
 * comma-separated, in `names`. */
int gs_env_slowed(const cJSON *state, char *names, size_t len);

#ifdef __cplusplus
}
#endif

#endif
