/* compare.h - how far a result in device memory is from a reference one,
 * measured on the GPU (a suite's cross-check against its peer before any
 * timing: no row times a wrong or empty result). */
#ifndef GS_BENCH_COMPARE_H
#define GS_BENCH_COMPARE_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ||x - ref|| / ||ref|| (Frobenius, accumulated in FP64) of n floats on the
 * current device; waits for `stream`. NaN in x gives NaN. */
gs_status gs_relative_difference(const float *x, const float *ref, long long n,
                                 cudaStream_t stream, double *rel);

#ifdef __cplusplus
}
#endif

#endif
