/*
 * reduce_test.h - what the reduction tests share (tests/gpu/test_reduce*.cu):
 * the test's random numbers (an LCG from the printed seed), the reference
 * sum and its bound.
 *
 * The reference sum is compensated (long double, Neumaier). A floating sum
 * of n terms folded as the library does (per-thread sequences of at most
 * s = ceil(n / grid threads) terms, then trees of depth <= 5 + 5 + 11) is
 * within (s + 21) * eps * sum|x_i| of the exact sum (Higham's bound for
 * recursive summation, with eps = 2^-24 for f32 and for the 16-bit floats,
 * which are summed in float, and 2^-53 for f64). We check against that
 * bound with s computed for the smallest grid the library launches for
 * large n (one block of 256 threads per SM), which only loosens it.
 */
#ifndef GS_REDUCE_TEST_H
#define GS_REDUCE_TEST_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <gridsync/reduce.cuh>

#include "gpu_test.h"
#include "testing/float16.h"   /* 16-bit floats on the host */
#include "testing/reference.h" /* gs_ref_is_floating */

static unsigned long long rng_state;
static inline double urand(void) /* [-1, 1) */
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* Neumaier-compensated sum in long double: error ~1e-19 relative to sum|x|,
 * far below the bounds checked, so it serves as the exact sum. */
typedef struct exact {
    long double s, c;
} exact;
static inline void exact_add(exact *e, double x)
{
    long double t = e->s + x;
    e->c += fabsl(e->s) >= fabsl((long double)x) ? (e->s - t) + x : ((long double)x - t) + e->s;
    e->s = t;
}
static inline double exact_value(const exact *e) { return (double)(e->s + e->c); }

/* How far a floating sum of n terms may be from the exact one (above). */
static inline double sum_bound(long long n, double eps, double abs_sum, int sms)
{
    long long grid_threads = (long long)sms * 256; /* at least one block per SM */
    long long s = (n + grid_threads - 1) / grid_threads;
    return (double)(s + 21) * eps * abs_sum + 1e-300;
}

/* Skip without a GPU, take the seed (printed) into the test's generator,
 * the GPU's SM count into *sms; whether to scale down (under
 * compute-sanitizer). */
static inline int reduce_test_begin(const char *name, int *sms)
{
    gs_test_require_gpu(name);
    rng_state = gs_test_seed(name) * 2654435761ull + 1ull;
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    *sms = info.sm_count;
    return gs_test_sanitizer();
}

#endif
