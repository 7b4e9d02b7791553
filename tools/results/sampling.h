/*
 * sampling.h - how many samples a measurement takes: the stopping rule of
 * NVBench (--min-samples, --min-time, --max-noise, --timeout), as a pure
 * function of what was measured so far, so that it is tested on the host.
 *
 * A measurement takes samples until
 *   - it has min_samples of them and min_time_s of timed time, and then
 *     either the relative noise (standard deviation / mean of the samples)
 *     is below max_noise, or the noise has settled above it (over the last
 *     GS_NOISE_WINDOW samples it moved by less than 5% of itself: more
 *     samples would not bring it down); with max_noise 0 it stops there;
 *   - or it has max_samples of them;
 *   - or timeout_s of wall time have passed since its first sample, whatever
 *     else holds (then the noise may be above max_noise: the results say so).
 * `gridsync bench --repeat N` is the fixed rule: exactly N samples.
 */
#ifndef GS_BENCH_SAMPLING_H
#define GS_BENCH_SAMPLING_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_sampling {
    int min_samples;   /* at least this many samples (>= 1) */
    int max_samples;   /* at most this many (>= min_samples) */
    double min_time_s; /* at least this much timed time, summed over the samples (0: none) */
    double max_noise;  /* stop once the relative noise is below this (0.005 = 0.5%); 0: do
                        * not look at the noise (stop at min_samples) */
    double timeout_s;  /* stop after this much wall time (0: never) */
    int cold;          /* flush the L2 cache before every sample (GPU-timed work) */
} gs_sampling;

/* Exactly n samples, hot: the rule of a plan without one (timer.h). */
gs_sampling gs_sampling_fixed(int n);

/* NVBench's defaults: at least 10 samples and 0.5 s, noise below 0.5%,
 * 15 s at most, at most 100000 samples; hot. */
gs_sampling gs_sampling_nvbench(void);

/* Why sampling stopped (gs_stats.stop); 0 while it goes on. */
typedef enum gs_stop_reason {
    GS_STOP_NOT_YET = 0,
    GS_STOP_COUNT,       /* min_samples and min_time reached, no noise target */
    GS_STOP_NOISE,       /* the noise went below max_noise */
    GS_STOP_STABLE,      /* the noise settled above max_noise */
    GS_STOP_MAX_SAMPLES, /* max_samples reached first */
    GS_STOP_TIMEOUT      /* timeout_s passed first */
} gs_stop_reason;

/* "count", "noise", "stable", "max-samples", "timeout" ("-" for 0). */
const char *gs_stop_reason_name(int reason);

enum { GS_NOISE_WINDOW = 64 };

/* What the rule reads, updated sample by sample (gs_tally_add). Zero it to
 * start. */
typedef struct gs_sample_tally {
    int n;                               /* samples so far */
    double mean, m2;                     /* running mean and sum of squared deviations */
    double timed_s;                      /* their durations, summed */
    double noise;                        /* relative noise of the samples so far; INFINITY
                                          * below 2 samples */
    double window[GS_NOISE_WINDOW];      /* the noise after each of the last samples */
    int nwindow;                         /* filled entries of window (at most its size) */
} gs_sample_tally;

/* Count a sample of value `value` (any unit) that took `duration_s` seconds
 * of timed time. */
void gs_tally_add(gs_sample_tally *t, double value, double duration_s);

/* Whether sampling stops now, `elapsed_s` seconds after the first sample
 * began: GS_STOP_NOT_YET, or why it stops. Pure. */
gs_stop_reason gs_sampling_check(const gs_sampling *rule, const gs_sample_tally *t,
                                 double elapsed_s);

/* A rule that makes sense: min_samples >= 1, max_samples >= min_samples,
 * times and noise >= 0. 0, or -1. */
int gs_sampling_valid(const gs_sampling *rule);

#ifdef __cplusplus
}
#endif

#endif
