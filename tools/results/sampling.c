/* sampling.c - the stopping rule (sampling.h). */
#include "results/sampling.h"

#include <math.h>
#include <string.h>

gs_sampling gs_sampling_fixed(int n)
{
    gs_sampling s = {n, n, 0.0, 0.0, 0.0, 0};
    return s;
}

gs_sampling gs_sampling_nvbench(void)
{
    gs_sampling s = {10, 100000, 0.5, 0.005, 15.0, 0};
    return s;
}

const char *gs_stop_reason_name(int reason)
{
    switch (reason) {
    case GS_STOP_COUNT: return "count";
    case GS_STOP_NOISE: return "noise";
    case GS_STOP_STABLE: return "stable";
    case GS_STOP_MAX_SAMPLES: return "max-samples";
    case GS_STOP_TIMEOUT: return "timeout";
    default: return "-";
    }
}

void gs_tally_add(gs_sample_tally *t, double value, double duration_s)
{
    /* Welford's update: no catastrophic cancellation on long runs */
    t->n += 1;
    double delta = value - t->mean;
    t->mean += delta / t->n;
    t->m2 += delta * (value - t->mean);
    t->timed_s += duration_s;
    if (t->n < 2 || t->mean == 0.0) {
        t->noise = INFINITY;
        return;
    }
    t->noise = sqrt(t->m2 / (t->n - 1)) / fabs(t->mean);
    if (t->nwindow == GS_NOISE_WINDOW) {
        memmove(t->window, t->window + 1, (GS_NOISE_WINDOW - 1) * sizeof t->window[0]);
        t->nwindow -= 1;
    }
    t->window[t->nwindow++] = t->noise;
}

/* The noise has settled: over a full window, its standard deviation around
 * the current noise is under 5% of it (NVBench's test, checked every 16
 * samples). */
static int settled(const gs_sample_tally *t)
{
    if (t->nwindow < GS_NOISE_WINDOW || t->n % 16 != 0 || !(t->noise > 0.0) ||
        !isfinite(t->noise))
        return 0;
    double m2 = 0.0;
    for (int i = 0; i < t->nwindow; ++i)
        m2 += (t->window[i] - t->noise) * (t->window[i] - t->noise);
    return sqrt(m2 / (t->nwindow - 1)) / t->noise < 0.05;
}

gs_stop_reason gs_sampling_check(const gs_sampling *rule, const gs_sample_tally *t,
                                 double elapsed_s)
{
    if (t->n < 1)
        return GS_STOP_NOT_YET;
    if (t->n >= rule->min_samples && t->timed_s >= rule->min_time_s) {
        if (!(rule->max_noise > 0.0))
            return GS_STOP_COUNT;
        if (t->noise < rule->max_noise)
            return GS_STOP_NOISE;
        if (settled(t))
            return GS_STOP_STABLE;
    }
    if (t->n >= rule->max_samples)
        return GS_STOP_MAX_SAMPLES;
    if (rule->timeout_s > 0.0 && elapsed_s >= rule->timeout_s)
        return GS_STOP_TIMEOUT;
    return GS_STOP_NOT_YET;
}

int gs_sampling_valid(const gs_sampling *rule)
{
    return rule->min_samples >= 1 && rule->max_samples >= rule->min_samples &&
                   rule->min_time_s >= 0.0 && rule->max_noise >= 0.0 && rule->timeout_s >= 0.0
               ? 0
               : -1;
}
