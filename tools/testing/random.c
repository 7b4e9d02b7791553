/* random.c - host pseudo-random numbers and a test's seed (random.h). */
#define _POSIX_C_SOURCE 200809L
#include "testing/random.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

unsigned long long gs_test_seed(const char *name)
{
    const char *env = getenv("GRIDSYNC_TEST_SEED");
    unsigned long long seed = 0;
    if (env && *env) {
        char *end = NULL;
        seed = strtoull(env, &end, 10);
        if (*end != '\0') {
            fprintf(stderr, "%s: GRIDSYNC_TEST_SEED='%s' is not a whole number\n", name, env);
            exit(2);
        }
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (unsigned long long)ts.tv_sec * 1000003ull + (unsigned long long)ts.tv_nsec;
    }
    printf("%s: seed %llu (GRIDSYNC_TEST_SEED=%llu repeats this run)\n", name, seed, seed);
    fflush(stdout);
    return seed;
}
