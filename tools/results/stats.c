/* stats.c - median, min, max, mean, standard deviation and relative noise
 * of a sample. */
#include "results/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gs_stats_compute(const double *samples, size_t n, gs_stats *out)
{
    memset(out, 0, sizeof *out);
    out->noise = NAN;
    if (n == 0)
        return 0;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, samples, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += s[i];
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->mean = sum / (double)n;
    out->median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    if (n >= 2) {
        double m2 = 0.0;
        for (size_t i = 0; i < n; ++i)
            m2 += (s[i] - out->mean) * (s[i] - out->mean);
        out->stddev = sqrt(m2 / (double)(n - 1));
        out->noise = out->mean != 0.0 ? out->stddev / fabs(out->mean) : NAN;
    }
    free(s);
    return 0;
}

void gs_stats_scale(gs_stats *stats, double factor)
{
    stats->median *= factor;
    stats->min *= factor;
    stats->max *= factor;
    stats->mean *= factor;
    stats->stddev *= factor;
}
