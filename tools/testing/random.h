/* random.h - the seeded generator that tests, checks, demos and suites
 * share: pseudo-random numbers on the host (a 64-bit LCG) for inputs the
 * CPU checks afterwards, and a test's seed (printed; GRIDSYNC_TEST_SEED
 * repeats a run). */
#ifndef GS_BENCH_RANDOM_H
#define GS_BENCH_RANDOM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_rng {
    unsigned long long state; /* any value: the seed */
} gs_rng;

/* The next value, uniform in [-1, 1) with 24 random bits (exact in float). */
double gs_rng_uniform(gs_rng *rng);

/* x[0 .. n) = the next n values. */
void gs_rng_fill(gs_rng *rng, float *x, size_t n);

/* The random seed of the test `name`: GRIDSYNC_TEST_SEED when set (to
 * repeat a run; a value that is not a whole number ends the program with
 * exit code 2), otherwise from the clock; printed either way on stdout
 * ("<name>: seed N (GRIDSYNC_TEST_SEED=N repeats this run)"), so that
 * every failure can be reproduced. */
unsigned long long gs_test_seed(const char *name);

#ifdef __cplusplus
}
#endif

#endif
