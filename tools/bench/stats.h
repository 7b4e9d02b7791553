/* stats.h - summary statistics of timing samples. */
#ifndef GS_BENCH_STATS_H
#define GS_BENCH_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_stats {
    size_t n;
    double median, min, max, mean;
} gs_stats;

/* Summarise `n` samples (n may be 0: all fields zero). Does not modify
 * `samples`. Returns 0, or -1 if a scratch allocation failed. */
int gs_stats_compute(const double *samples, size_t n, gs_stats *out);

#ifdef __cplusplus
}
#endif

#endif
