/* reductions.c - every reduction op on every type, on a million random
 * elements, against the CPU's answer within its error bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing/float16.h"
#include "testing/random.h"
#include "testing/reference.h"
#include "check/check.h"

/* n random elements of `type` at h (integers spread over +-1e6, int64
 * scaled up so that sums leave 32 bits; the unsigned types over their
 * whole range, past the signed types' largest values, their sums
 * wrapping; the 16-bit floats rounded from [-1, 1)). */
static void random_elements(gs_rng *rng, gs_dtype type, long long n, void *h)
{
    for (long long i = 0; i < n; ++i) {
        double x = gs_rng_uniform(rng);
        long long v = (long long)(x * 1e6);
        switch (type) {
        case GS_FLOAT32: ((float *)h)[i] = (float)x; break;
        case GS_FLOAT64: ((double *)h)[i] = x; break;
        case GS_FLOAT16: ((uint16_t *)h)[i] = gs_f16_from_double(x); break;
        case GS_BFLOAT16: ((uint16_t *)h)[i] = gs_bf16_from_double(x); break;
        case GS_INT32: ((int *)h)[i] = (int)v; break;
        case GS_UINT32: ((unsigned int *)h)[i] = (unsigned int)((x + 1.0) * 2147483648.0); break;
        case GS_UINT64:
            ((unsigned long long *)h)[i] = (unsigned long long)((x + 1.0) * 9223372036854775808.0);
            break;
        default: ((long long *)h)[i] = v * 1000003LL; break;
        }
    }
}

/* One reduction of n random elements of `type` with `op` against the CPU;
 * 0 with the reason in `why` when it differs or fails. */
static int reduce_one(gs_rng *rng, gs_reduce_op op, gs_dtype type, long long n, void *d, void *h,
                      char *why, size_t len)
{
    random_elements(rng, type, n, h);
    gs_ref_reduction ref;
    gs_ref_reduce(op, type, h, n, &ref);
    cudaError_t err = cudaMemcpy(d, h, (size_t)n * gs_dtype_size(type), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        snprintf(why, len, "cudaMemcpy: %s", cudaGetErrorName(err));
        return 0;
    }
    gs_reduce_arg out; /* big enough for every op's result */
    memset(&out, 0, sizeof out);
    gs_status st = gs_reduce(op, type, d, n, &out, 0);
    if (st != GS_SUCCESS) {
        snprintf(why, len, "%s", gs_last_error_detail());
        return 0;
    }
    double got = 0.0;
    int ok = gs_ref_reduce_ok(op, type, &ref, &out, &got);
    if (!ok)
        snprintf(why, len, "%s %s: got %.17g, expected %.17g", gs_reduce_op_name(op),
                 gs_dtype_name(type), got,
                 gs_ref_is_floating(type) ? ref.value : (double)ref.ivalue);
    return ok;
}

static int run(const gs_check_env *env, char *figure, size_t len)
{
    const long long n = 1000003;
    gs_rng rng = {0x2545f4914f6cdd1dull};
    void *d = NULL, *h = malloc((size_t)n * 8);
    int ok = h && cudaMalloc(&d, (size_t)n * 8) == cudaSuccess, count = 0;
    (void)env;
    snprintf(figure, len, "could not allocate the inputs");
    for (int t = 0; ok && t < GS_DTYPE_COUNT; ++t)
        for (int op = 0; ok && op < GS_REDUCE_OP_COUNT; ++op, ++count)
            ok = reduce_one(&rng, (gs_reduce_op)op, (gs_dtype)t, n, d, h, figure, len);
    if (ok)
        snprintf(figure, len, "%d op/type pairs on %lld random elements match the CPU", count, n);
    free(h);
    cudaFree(d);
    return ok;
}

const gs_check gs_check_reductions = {
    "reductions",
    "every reduction (sum, min, max, argmin, argmax of f32, f64, i32, i64, u32, u64, f16, bf16) "
    "against the CPU",
    run};
