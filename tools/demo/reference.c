/* reference.c - CPU checks shared by `gridsync demo` and `gridsync check`. */
#include "demo/reference.h"

#include <math.h>

long gs_ref_sgemm_out_of_bound(const float *a, const float *b, const float *c, int m, int n,
                               int k)
{
    const double gamma = (k + 2) * ldexp(1.0, -24);
    long wrong = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double ref = 0.0, mag = 0.0;
            for (int q = 0; q < k; ++q) {
                ref += (double)a[i * k + q] * b[q * n + j];
                mag += fabs((double)a[i * k + q] * b[q * n + j]);
            }
            wrong += !(fabs(c[i * n + j] - ref) <= gamma * mag);
        }
    return wrong;
}
