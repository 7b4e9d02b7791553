/* stats.h - summary statistics of timing samples. */
#ifndef GS_BENCH_STATS_H
#define GS_BENCH_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the samples were taken (gs_stats.timing). */
enum {
    GS_TIMING_HOT = 0,  /* CUDA events, the L2 left as the previous sample left it */
    GS_TIMING_COLD = 1, /* CUDA events, the L2 flushed before every sample */
    GS_TIMING_HOST = 2  /* the host's monotonic clock around work that waits for itself */
};

typedef struct gs_stats {
    size_t n;
    double median, min, max, mean;
    double stddev;    /* sample standard deviation (n - 1 in the divisor); 0 for n < 2 */
    double noise;     /* stddev / mean, the relative noise NVBench reports; NAN for n < 2 */
    int timing;       /* GS_TIMING_*: set by the timer */
    int stop;         /* gs_stop_reason (results/sampling.h): why sampling stopped */
} gs_stats;

/* Summarise `n` samples (n may be 0: all fields zero, noise NAN). Does not
 * modify `samples`. Returns 0, or -1 if a scratch allocation failed. The
 * timing and stop fields are left zero. */
int gs_stats_compute(const double *samples, size_t n, gs_stats *out);

/* `stats` of a quantity proportional to the one measured (per barrier, per
 * call, milliseconds): median, min, max, mean and stddev times `factor`
 * (> 0); n, noise, timing and stop unchanged. */
void gs_stats_scale(gs_stats *stats, double factor);

#ifdef __cplusplus
}
#endif

#endif
