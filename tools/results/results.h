/*
 * results.h - one results document for all suites:
 *   {"schema": "gridsync-results/1", "environment": {...},
 *    "suites": {"barrier": <table json>, ...}}
 */
#ifndef GS_BENCH_RESULTS_H
#define GS_BENCH_RESULTS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GS_RESULTS_SCHEMA "gridsync-results/1"

/* The largest results file gs_results_load reads. */
#define GS_RESULTS_MAX_BYTES ((size_t)64 << 20)

cJSON *gs_results_new(cJSON *environment);
/* Adds the table under suites[name]; returns 0 or -1. */
int gs_results_add(cJSON *results, const char *name, const gs_table *table);
/* Writes pretty JSON to `f` / to `path`; returns 0 or -1 (errno set). */
int gs_results_print(const cJSON *results, FILE *f);
int gs_results_write(const cJSON *results, const char *path);
/* The table of suite `name` in the document, or NULL. */
cJSON *gs_results_suite(const cJSON *results, const char *name);

/* Read and parse a results file (a regular file) of at most
 * GS_RESULTS_MAX_BYTES, one JSON document with nothing after it but white
 * space; NULL with a sentence in `err`. (Whether it is a results document
 * is the reader's question: see `schema`.) */
cJSON *gs_results_load(const char *path, char *err, size_t errlen);

/* Whether `doc` is a results document: schema GS_RESULTS_SCHEMA and an
 * object of suites. 0, or -1 with "P is not a gridsync results document
 * (schema ... expected)" in `err` (P: `path` as gs_shown shows it; a NULL
 * `path`: the sentence without it). */
int gs_results_check(const cJSON *doc, const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
