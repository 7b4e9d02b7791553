/*
 * heat1d_reference.h - what the four 1-D heat examples (heat1d.cu,
 * heat1d_neighbour.cu, heat1d_tagged.cu, heat1d_pdl.cu) share: the rod's initial
 * temperatures (and the rod itself, filled in host memory) and the FP64 CPU solve their GPU result is checked
 * against. Kept next to the examples, as example_check.h.
 */
#ifndef GRIDSYNC_EXAMPLE_HEAT1D_REFERENCE_H
#define GRIDSYNC_EXAMPLE_HEAT1D_REFERENCE_H

#include <math.h>
#include <stdlib.h>

/* Cell i's temperature before the first step, in [0, 1). */
static inline float heat1d_initial(int i) { return (float)((i * 7919) % 1000) / 1000.0f; }

/* The rod of n cells before the first step, in host memory the caller
 * frees; NULL when out of host memory. */
static inline float *heat1d_rod(int n)
{
    float *h = (float *)malloc((size_t)n * sizeof(float));
    for (int i = 0; h && i < n; ++i)
        h[i] = heat1d_initial(i);
    return h;
}

/* The largest |gpu[i] - cpu[i]| after `steps` explicit steps of
 * u' = u + r (left - 2u + right), zero outside the rod, solved on the CPU
 * in double precision from heat1d_initial; -1 when out of host memory. */
static inline double heat1d_max_error(const float *gpu, int n, int steps, float r)
{
    double *x = (double *)malloc(2 * (size_t)n * sizeof(double)), *y = x + n, err = 0.0;
    if (!x)
        return -1.0;
    double *buf = x;
    for (int i = 0; i < n; ++i)
        x[i] = heat1d_initial(i);
    for (int t = 0; t < steps; ++t) {
        for (int i = 0; i < n; ++i)
            y[i] = x[i] + r * ((i > 0 ? x[i - 1] : 0.0) - 2.0 * x[i] + (i < n - 1 ? x[i + 1] : 0.0));
        double *s = x;
        x = y;
        y = s;
    }
    for (int i = 0; i < n; ++i)
        err = fmax(err, fabs(gpu[i] - x[i]));
    free(buf);
    return err;
}

#endif
