/* reference.h - CPU checks shared by `gridsync demo` and `gridsync check`. */
#ifndef GS_DEMO_REFERENCE_H
#define GS_DEMO_REFERENCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Elements of c = a b (row-major, tight: a is m x k, b is k x n, c is
 * m x n) that are outside the FP32 bound of the FP64 product:
 * |c - ref| > gamma(k + 2) * sum |a||b|, gamma(j) = j * 2^-24. NaN counts as
 * outside. */
long gs_ref_sgemm_out_of_bound(const float *a, const float *b, const float *c, int m, int n,
                               int k);

#ifdef __cplusplus
}
#endif

#endif
