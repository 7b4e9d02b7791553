/*
 * compare.h - two runs side by side (`gridsync bench --compare OLD NEW`,
 * `gridsync report --compare OLD NEW`): for every suite both results files
 * have, the rows matched on the suite's key (results/reading.h: the
 * configuration and the method), the ratio of the suite's metric (OLD's
 * time over NEW's, NEW's rate over OLD's: above 1, NEW is faster), and a
 * verdict that counts a difference within the larger of the two rows' noise
 * (GS_COMPARE_NOISE where a run recorded none) as the same. As markdown,
 * and in a folder as compare.md with one plot per suite.
 */
#ifndef GS_REPORT_COMPARE_H
#define GS_REPORT_COMPARE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The noise assumed for a row of a run that recorded none. */
#define GS_COMPARE_NOISE 0.02

typedef enum gs_verdict { GS_SAME = 0, GS_FASTER, GS_SLOWER } gs_verdict;

/* One row of NEW against its row of OLD. */
typedef struct gs_comparison {
    const cJSON *old_row, *new_row;
    double old_value, new_value;
    double ratio;     /* > 1: NEW is faster */
    double threshold; /* the noise a difference must pass */
    int noise_known;  /* both rows recorded their noise */
    gs_verdict verdict;
} gs_comparison;

/* The rows of suite `suite` in the tables `old_table` and `new_table`,
 * matched (*out malloc'ed, the caller frees it); *only_old and *only_new
 * count the rows of the suite's metric that have no match. The number of
 * comparisons, or -1 when out of memory. */
int gs_compare_suite(const gs_bench_suite *suite, const cJSON *old_table,
                     const cJSON *new_table, gs_comparison **out, int *only_old, int *only_new);

typedef struct gs_compare_options {
    const char *old_name, *new_name; /* the files as given (shown, escaped) */
    const char *dir;                 /* a folder for compare.md and the plots, or NULL */
    int plots;                       /* draw them (with `dir`) */
    const char *md;                  /* a markdown target ("-": stdout), or NULL */
} gs_compare_options;

/* Compare `old` and `new` (results documents) as `o` says. 0, or -1 with a
 * sentence in `err` (not results documents, no suite in common, a file
 * that cannot be written). */
int gs_compare_write(const cJSON *old_doc, const cJSON *new_doc, const gs_compare_options *o,
                     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
