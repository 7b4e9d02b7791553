/* reference.c - the CPU's answers for reductions, scans, dot products and
 * matrix multiplies, with their error bounds (reference.h). */
#include "testing/reference.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Element i of x as a double, and as an integer for the integer types. */
static double element(gs_dtype type, const void *x, long long i, long long *iv)
{
    switch (type) {
    case GS_FLOAT32: return ((const float *)x)[i];
    case GS_FLOAT64: return ((const double *)x)[i];
    case GS_INT32: *iv = ((const int *)x)[i]; return (double)*iv;
    default: *iv = ((const long long *)x)[i]; return (double)*iv;
    }
}

static int is_floating(gs_dtype type) { return type == GS_FLOAT32 || type == GS_FLOAT64; }

void gs_ref_reduce(gs_reduce_op op, gs_dtype type, const void *x, long long n,
                   gs_ref_reduction *ref)
{
    const int lowest = op == GS_REDUCE_MIN || op == GS_REDUCE_ARGMIN;
    const int sum = op == GS_REDUCE_SUM;
    double v = sum ? 0.0 : lowest ? INFINITY : -INFINITY, mag = 0.0;
    long long iv = sum ? 0 : lowest ? INT64_MAX : INT64_MIN, index = -1;
    for (long long i = 0; i < n; ++i) {
        long long e = 0;
        double d = element(type, x, i, &e);
        /* min/max keep the first extreme: a later equal one is no better */
        int better = is_floating(type) ? (lowest ? d < v : d > v) : (lowest ? e < iv : e > iv);
        if (is_floating(type)) {
            v = sum ? v + d : better ? d : v;
            mag += fabs(d);
        } else {
            iv = sum ? iv + e : better ? e : iv;
        }
        if (!sum && better)
            index = i;
    }
    if (type == GS_INT32 && op == GS_REDUCE_SUM) /* wraps modulo 2^32 */
        iv = (long long)(int)(unsigned int)(unsigned long long)iv;
    double roundoff = ldexp(1.0, type == GS_FLOAT32 ? -24 : -53);
    memset(ref, 0, sizeof *ref);
    ref->value = v;
    ref->ivalue = iv;
    ref->magnitude = mag;
    ref->bound = op == GS_REDUCE_SUM && is_floating(type) ? (double)n * roundoff * mag : 0.0;
    ref->index = index;
}

int gs_ref_reduce_ok(gs_reduce_op op, gs_dtype type, const gs_ref_reduction *ref,
                     const void *got, double *got_value)
{
    long long iv = 0;
    int arg = op == GS_REDUCE_ARGMIN || op == GS_REDUCE_ARGMAX;
    const gs_reduce_arg *a = (const gs_reduce_arg *)got;
    double v = element(type, arg ? (const void *)&a->value : got, 0, &iv);
    *got_value = v;
    if (arg && a->index != ref->index)
        return 0;
    return is_floating(type) ? fabs(v - ref->value) <= ref->bound : iv == ref->ivalue;
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
    if (is_floating(st->type)) {
        if (st->op == GS_SCAN_SUM) {
            long double t = st->s + d;
            st->c += fabsl(st->s) >= fabs(d) ? (st->s - t) + d : ((long double)d - t) + st->s;
            st->s = t;
            st->mag += fabs(d);
        } else if (st->v == st->v && (d != d || (st->op == GS_SCAN_MIN ? d < st->v : d > st->v))) {
            st->v = d; /* NaN is sticky */
        }
    } else if (st->op == GS_SCAN_SUM) {
        st->iv = (long long)((unsigned long long)st->iv + (unsigned long long)e);
        if (st->type == GS_INT32) /* wraps modulo 2^32 */
            st->iv = (long long)(int)(unsigned int)(unsigned long long)st->iv;
    } else if (st->op == GS_SCAN_MIN ? e < st->iv : e > st->iv) {
        st->iv = e;
    }
}

/* Whether element k of y is the prefix in `st`. */
static int scan_ok(const scan_state *st, long long k, const void *y)
{
    long long e = 0;
    double got = element(st->type, y, k, &e);
    if (!is_floating(st->type))
        return e == st->iv;
    if (st->op != GS_SCAN_SUM)
        return (got != got && st->v != st->v) || got == st->v;
    double u = ldexp(1.0, st->type == GS_FLOAT32 ? -24 : -53), d = (double)(k / 1024 + 64);
    return fabs(got - (double)(st->s + st->c)) <= d * u / (1.0 - d * u) * st->mag;
}

long long gs_ref_scan_wrong(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *x,
                            const void *y, long long n, long long *first)
{
    const int lowest = op == GS_SCAN_MIN;
    scan_state st = {op, type, 0.0L, 0.0L, lowest ? INFINITY : -INFINITY, 0.0,
                     op == GS_SCAN_SUM ? 0 : lowest ? (type == GS_INT32 ? INT32_MAX : INT64_MAX)
                                                    : (type == GS_INT32 ? INT32_MIN : INT64_MIN)};
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
