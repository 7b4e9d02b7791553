/*
 * headline.h - the report's summary, from the data: per headline a suite
 * describes (results/reading.h), the best ratio of gridsync against a peer
 * and where it was measured, and the range over every configuration: "gridsync
 * is up to 2.30x faster than cub (n = 2^13); over the 8 sizes measured,
 * from 0.99x (n = 2^30) to 2.30x". The ratios are found in time linear in
 * the rows (groups.h).
 */
#ifndef GS_REPORT_HEADLINE_H
#define GS_REPORT_HEADLINE_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_headline_result {
    int compared;           /* ratios taken */
    double best, worst;     /* the largest and smallest: > 1, gridsync is faster */
    double best_noise;      /* the larger noise of the best's two rows (0: not recorded) */
    char best_method[128];  /* ours, where the best was */
    char best_where[256];   /* "threads = 256, blocks = 132" */
    char worst_method[128]; /* ours, where the worst was */
    char worst_where[256];
    int left_out;           /* rows of one-block grids not compared (gs_headline.blocks) */
} gs_headline_result;

/* Compare as `h` says over the rows of `table` (a suite's results). */
void gs_headline_compute(const gs_bench_suite *suite, const gs_headline *h, const cJSON *table,
                         gs_headline_result *result);

/* The sentence, as markdown (the results' texts escaped); "" when nothing
 * was compared. The range names the method at its low end when that is not
 * the best's; a best from rows noisier than GS_NOISY says so; left-out
 * one-block grids are said to be. */
void gs_headline_sentence(const gs_bench_suite *suite, const gs_headline *h,
                          const gs_headline_result *result, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
