/* fill.h - pseudo-random input in device memory, for the suites, the demos
 * and the checks: never zeros, the same values for the same seed. */
#ifndef GS_BENCH_FILL_H
#define GS_BENCH_FILL_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueue on `stream`: x[i] = a value in [lo, hi) hashed from (i, seed), for
 * i < n. */
gs_status gs_fill_uniform(float *x, long long n, float lo, float hi, unsigned int seed,
                          cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
