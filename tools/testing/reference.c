/* reference.c - the CPU's answers for reductions, scans, dot products and
 * matrix multiplies, with their error bounds (reference.h). */
#include "testing/reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "testing/float16.h"

/* Element i of x as a double, and as an integer for the integer types (a
 * u64 as its bits: compare those with int_less). */
static double element(gs_dtype type, const void *x, long long i, long long *iv)
{
    switch (type) {
    case GS_FLOAT32: return ((const float *)x)[i];
    case GS_FLOAT64: return ((const double *)x)[i];
    case GS_FLOAT16: return gs_f16_to_double(((const uint16_t *)x)[i]);
    case GS_BFLOAT16: return gs_bf16_to_double(((const uint16_t *)x)[i]);
    case GS_INT32: *iv = ((const int *)x)[i]; return (double)*iv;
    case GS_UINT32: *iv = ((const unsigned int *)x)[i]; return (double)*iv;
    case GS_UINT64:
        *iv = (long long)((const unsigned long long *)x)[i];
        return (double)(unsigned long long)*iv;
    default: *iv = ((const long long *)x)[i]; return (double)*iv;
    }
}

int gs_ref_is_floating(gs_dtype type)
{
    return type == GS_FLOAT32 || type == GS_FLOAT64 || type == GS_FLOAT16 || type == GS_BFLOAT16;
}

/* The unit roundoff of a floating sum of `type`: float's for the 16-bit
 * floats too (they are summed in float). */
static double sum_roundoff(gs_dtype type) { return ldexp(1.0, type == GS_FLOAT64 ? -53 : -24); }

/* What a reduction writes for `op` on `type` (gridsync.h,
 * gs_reduce_result_type): a float for a sum of 16-bit floats. */
static gs_dtype result_type(gs_reduce_op op, gs_dtype type)
{
    return op == GS_REDUCE_SUM && (type == GS_FLOAT16 || type == GS_BFLOAT16) ? GS_FLOAT32 : type;
}

/* a < b for integers of `type` as element() gives them. */
static int int_less(gs_dtype type, long long a, long long b)
{
    return type == GS_UINT64 ? (unsigned long long)a < (unsigned long long)b : a < b;
}

/* The identity of min (lowest) or max of an integer type. */
static long long int_identity(gs_dtype type, int lowest)
{
    switch (type) {
    case GS_INT32: return lowest ? INT32_MAX : INT32_MIN;
    case GS_UINT32: return lowest ? (long long)UINT32_MAX : 0;
    case GS_UINT64: return lowest ? (long long)UINT64_MAX : 0;
    default: return lowest ? INT64_MAX : INT64_MIN;
    }
}

/* An integer sum of `type` that wraps as the GPU's: modulo 2^32 for the
 * 4-byte types (int32 signed), 2^64 for the others. */
static long long int_add(gs_dtype type, long long a, long long b)
{
    unsigned long long s = (unsigned long long)a + (unsigned long long)b;
    if (type == GS_INT32)
        return (long long)(int)(unsigned int)s;
    if (type == GS_UINT32)
        return (long long)(unsigned int)s;
    return (long long)s;
}

void gs_ref_reduce(gs_reduce_op op, gs_dtype type, const void *x, long long n,
                   gs_ref_reduction *ref)
{
    const int lowest = op == GS_REDUCE_MIN || op == GS_REDUCE_ARGMIN;
    const int sum = op == GS_REDUCE_SUM;
    double v = sum ? 0.0 : lowest ? INFINITY : -INFINITY, mag = 0.0;
    long long iv = sum ? 0 : int_identity(type, lowest), index = -1;
    for (long long i = 0; i < n; ++i) {
        long long e = 0;
        double d = element(type, x, i, &e);
        /* min/max keep the first extreme: a later equal one is no better */
        int better = gs_ref_is_floating(type) ? (lowest ? d < v : d > v)
                                       : (lowest ? int_less(type, e, iv) : int_less(type, iv, e));
        if (gs_ref_is_floating(type)) {
            v = sum ? v + d : better ? d : v;
            mag += fabs(d);
        } else {
            iv = sum ? int_add(type, iv, e) : better ? e : iv;
        }
        if (!sum && better)
            index = i;
    }
    double roundoff = sum_roundoff(type);
    memset(ref, 0, sizeof *ref);
    ref->value = v;
    ref->ivalue = iv;
    ref->magnitude = mag;
    ref->bound = op == GS_REDUCE_SUM && gs_ref_is_floating(type) ? (double)n * roundoff * mag : 0.0;
    ref->index = index;
}

int gs_ref_reduce_ok(gs_reduce_op op, gs_dtype type, const gs_ref_reduction *ref,
                     const void *got, double *got_value)
{
    long long iv = 0;
    int arg = op == GS_REDUCE_ARGMIN || op == GS_REDUCE_ARGMAX;
    const gs_reduce_arg *a = (const gs_reduce_arg *)got;
    double v = element(result_type(op, type), arg ? (const void *)&a->value : got, 0, &iv);
    *got_value = v;
    if (arg && a->index != ref->index)
        return 0;
    return gs_ref_is_floating(type) ? fabs(v - ref->value) <= ref->bound : iv == ref->ivalue;
}

/* A scan's running prefix on the CPU. */
typedef struct scan_state {
    gs_scan_op op;
    gs_dtype type;
    long double s, c;   /* floating sum: Neumaier-compensated */
    double v, mag;      /* floating min/max; sum |x| */
    long long iv;       /* integers */
} scan_state;

static void scan_add(scan_state *st, long long i, const void *x)
{
    long long e = 0;
    double d = element(st->type, x, i, &e);
    if (gs_ref_is_floating(st->type)) {
        if (st->op == GS_SCAN_SUM) {
            long double t = st->s + d;
            st->c += fabsl(st->s) >= fabs(d) ? (st->s - t) + d : ((long double)d - t) + st->s;
            st->s = t;
            st->mag += fabs(d);
        } else if (st->v == st->v && (d != d || (st->op == GS_SCAN_MIN ? d < st->v : d > st->v))) {
            st->v = d; /* NaN is sticky */
        }
    } else if (st->op == GS_SCAN_SUM) {
        st->iv = int_add(st->type, st->iv, e);
    } else if (st->op == GS_SCAN_MIN ? int_less(st->type, e, st->iv)
                                     : int_less(st->type, st->iv, e)) {
        st->iv = e;
    }
}

/* How a 16-bit scan output may differ from the float prefix p it rounds:
 * half a unit in the last place, relative (f16: 2^-11, bf16: 2^-8), or
 * among the subnormals absolute (2^-25, 2^-134); 0 for the other types.
 * *overflow: the magnitude from which the rounding gives infinity. */
static double output_rounding(gs_dtype type, double p, double *overflow)
{
    *overflow = type == GS_FLOAT16    ? 65520.0
                : type == GS_BFLOAT16 ? ldexp(2.0 - ldexp(1.0, -8), 127)
                                      : INFINITY;
    if (type == GS_FLOAT16)
        return ldexp(fabs(p), -11) + ldexp(1.0, -25);
    if (type == GS_BFLOAT16)
        return ldexp(fabs(p), -8) + ldexp(1.0, -134);
    return 0.0;
}

/* Whether element k of y is the prefix in `st`. */
static int scan_ok(const scan_state *st, long long k, const void *y)
{
    long long e = 0;
    double got = element(st->type, y, k, &e);
    if (!gs_ref_is_floating(st->type))
        return e == st->iv;
    if (st->op != GS_SCAN_SUM)
        return (got != got && st->v != st->v) || got == st->v;
    double u = sum_roundoff(st->type), d = (double)(k / 1024 + 64), overflow = INFINITY;
    double want = (double)(st->s + st->c), bound = d * u / (1.0 - d * u) * st->mag;
    /* a 16-bit output: the float prefix, within `bound`, rounded once more */
    bound += output_rounding(st->type, fabs(want) + bound, &overflow);
    if (isinf(got)) /* rounded past the largest finite value, on want's side */
        return fabs(want) + bound >= overflow && (got > 0) == (want > 0);
    return fabs(got - want) <= bound;
}

long long gs_ref_scan_wrong(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *x,
                            const void *y, long long n, long long *first)
{
    const int lowest = op == GS_SCAN_MIN;
    scan_state st = {op, type, 0.0L, 0.0L, lowest ? INFINITY : -INFINITY, 0.0,
                     op == GS_SCAN_SUM ? 0 : int_identity(type, lowest)};
    long long wrong = 0;
    *first = -1;
    for (long long k = 0; k < n; ++k) {
        if (kind == GS_SCAN_INCLUSIVE)
            scan_add(&st, k, x);
        if (!scan_ok(&st, k, y) && wrong++ == 0)
            *first = k;
        if (kind == GS_SCAN_EXCLUSIVE)
            scan_add(&st, k, x);
    }
    return wrong;
}

double gs_ref_dot_f64(const double *x, const double *y, long long n, double *bound)
{
    double ref = 0.0, mag = 0.0;
    for (long long i = 0; i < n; ++i) {
        ref += x[i] * y[i];
        mag += fabs(x[i] * y[i]);
    }
    *bound = (double)(n + 1) * ldexp(1.0, -53) * mag;
    return ref;
}

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
