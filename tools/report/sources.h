/*
 * sources.h - several results files as the input of one report or README
 * section: each suite comes from the last file given that has it (so they
 * are given oldest first), and every place that names a run names the file
 * its suite came from. One file is the report of one run, as it always was.
 */
#ifndef GS_REPORT_SOURCES_H
#define GS_REPORT_SOURCES_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One results file: its path as given (shown escaped, never opened again)
 * and its document, already checked to be a results document
 * (gs_results_check: gs_sources_load checks; so does every entry point
 * that takes a lone document and makes a source of it). */
typedef struct gs_results_source {
    const char *path;
    const cJSON *doc;
} gs_results_source;

/* What gs_sources_load could not do. */
typedef enum gs_sources_failure {
    GS_SOURCES_OK = 0,
    GS_SOURCES_UNREADABLE,  /* a file could not be read or is not one JSON document */
    GS_SOURCES_NOT_RESULTS  /* a file is JSON but not a results document */
} gs_sources_failure;

/* Read the `n` files of `paths` (results/results.h: regular files only,
 * bounded) and check that each is a results document, all before anything
 * is written: the array of `n` (free with gs_sources_free), or NULL with
 * the first failure in `*failure` and a sentence naming its file in `err`.
 * `paths` must outlive the array. */
gs_results_source *gs_sources_load(char *const *paths, int n, gs_sources_failure *failure,
                                   char *err, size_t errlen);
void gs_sources_free(gs_results_source *files, int n);

/* The index of the last of the `n` files whose document has a suite
 * `name`, or -1. */
int gs_source_of(const gs_results_source *files, int n, const char *name);

/* The run of `env`, read from `path`, as the README names it: "GPU, CUDA
 * x.y, date (`path`)", every part escaped (markdown.h) and bounded. */
void gs_md_run(FILE *out, const cJSON *env, const char *path);

#ifdef __cplusplus
}
#endif

#endif
