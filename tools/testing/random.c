/* random.c - host pseudo-random numbers (random.h). */
#include "testing/random.h"

double gs_rng_uniform(gs_rng *rng)
{
    rng->state = rng->state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng->state >> 40) * (1.0 / 8388608.0) - 1.0;
}

void gs_rng_fill(gs_rng *rng, float *x, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = (float)gs_rng_uniform(rng);
}
