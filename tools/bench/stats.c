/* stats.c - median, min, max and mean of a sample. */
#include "bench/stats.h"

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
    free(s);
    return 0;
}
