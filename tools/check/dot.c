/* dot.c - the FP64 dot product of a million random pairs against the CPU,
 * within the FP64 error bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testing/random.h"
#include "testing/reference.h"
#include "check/check.h"

static int run(const gs_check_env *env, char *figure, size_t len)
{
    const int n = 1000003;
    gs_rng rng = {0x9e3779b97f4a7c15ull};
    double *hx = malloc((size_t)n * 8), *hy = malloc((size_t)n * 8), *d = NULL, got = 0;
    double ref = 0.0, bound = 0.0;
    int ok = hx && hy && cudaMalloc((void **)&d, (size_t)n * 16) == cudaSuccess;
    (void)env;
    for (int i = 0; ok && i < n; ++i) {
        hx[i] = gs_rng_uniform(&rng);
        hy[i] = gs_rng_uniform(&rng);
    }
    if (ok)
        ref = gs_ref_dot_f64(hx, hy, n, &bound);
    ok = ok && cudaMemcpy(d, hx, (size_t)n * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(d + n, hy, (size_t)n * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
         gs_dot(GS_FLOAT64, d, d + n, n, &got, 0) == GS_SUCCESS;
    double err = fabs(got - ref);
    snprintf(figure, len, "f64, %d elements: error %.3g (bound %.3g)", n, err, bound);
    free(hx);
    free(hy);
    cudaFree(d);
    return ok && err <= bound;
}

const gs_check gs_check_dot = {"dot", "the dot product against the CPU", run};
