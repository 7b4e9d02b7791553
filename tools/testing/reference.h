/* reference.h - the CPU's answers that the suites, demos and checks hold the
 * GPU's results against, in FP64 with the FP32/FP64 error bound of each.
 * Every gs_dtype: the 16-bit floats are summed in float (their bound is
 * FP32's; a reduction's sum of them is a float, a scan's output the float
 * prefix rounded to 16 bits), u32 and u64 exactly as unsigned integers. */
#ifndef GS_BENCH_REFERENCE_H
#define GS_BENCH_REFERENCE_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether `type` is a floating type (f32, f64, f16, bf16). */
int gs_ref_is_floating(gs_dtype type);

/* What a reduction of n elements must give. */
typedef struct gs_ref_reduction {
    double value;     /* floating types: the FP64 sum, or the exact min/max */
    long long ivalue; /* integer types: exact (a 4-byte sum wraps modulo 2^32; a u64 as
                       * its bits) */
    double magnitude; /* sum |x| (floating types) */
    double bound;     /* how far a floating result may be from value:
                       * n * unit roundoff * magnitude for a sum, 0 for min/max */
    long long index;  /* argmin/argmax: the first index holding the extreme (-1: none) */
} gs_ref_reduction;

/* The reduction `op` of the n elements of `type` at host address x. */
void gs_ref_reduce(gs_reduce_op op, gs_dtype type, const void *x, long long n,
                   gs_ref_reduction *ref);

/* Whether `got` is what `ref` allows: one value of `type` (a float for a sum
 * of f16 or bf16), or for argmin and argmax a gs_reduce_arg (its value
 * exactly and its index); *got_value receives the value as a double (for
 * messages). */
int gs_ref_reduce_ok(gs_reduce_op op, gs_dtype type, const gs_ref_reduction *ref,
                     const void *got, double *got_value);

/* Elements of y that are not the scan `op` (`kind`) of the n elements of
 * `type` at x: integers exactly (sums wrap), min and max exactly (NaN
 * propagates), floating sums within gamma(d) sum |x_j| (the prefix's j) of a
 * compensated long-double prefix, d = floor(k / 1024) + 64, gridsync.h's
 * bound for element k (u = 2^-24 for f32, f16, bf16; 2^-53 for f64), and
 * for f16 and bf16 the rounding to 16 bits on top (an f16 output of inf
 * where that rounding overflows). *first receives the first wrong index
 * (-1: none). */
long long gs_ref_scan_wrong(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *x,
                            const void *y, long long n, long long *first);

/* The FP64 dot product of x and y; *bound receives how far an FP64 result
 * may be from it, (n + 1) * 2^-53 * sum |x y|. */
double gs_ref_dot_f64(const double *x, const double *y, long long n, double *bound);

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
