/* random.h - pseudo-random numbers on the host (a 64-bit LCG), for the
 * inputs of the demos and checks that the CPU checks afterwards. */
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

#ifdef __cplusplus
}
#endif

#endif
