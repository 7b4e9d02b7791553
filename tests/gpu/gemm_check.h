/*
 * gemm_check.h - one matrix multiply case against an FP64 CPU reference, for
 * the GPU tests of gs_sgemm and its kernels (test_gemm.cu, test_gemm_splitk.cu).
 *
 * Bound (per element, rigorous): an FP32 dot product of length k, summed in
 * any order with or without FMA, errs by at most gamma(k)*sum|a||b| with
 * gamma(j) = j*u / (1 - j*u), u = 2^-24. Scaling by alpha and adding beta*c
 * are two more roundings, so |C - ref| <= gamma(k + 2) * (|alpha| sum|a||b| +
 * |beta| |c0|). (Split-k sums k in slices and the slices in order: still one
 * summation order of the k products, so the same bound.) The relative
 * Frobenius error is reported, and bounded by the same gamma(k + 2) times
 * ||bound||_F / ||ref||_F.
 *
 * Every output element is checked; C is poisoned with NaN first when beta is
 * 0 (so a kernel that reads C there, or leaves an element unwritten, fails),
 * and the padding columns of C (ldc > n) must still hold their poison.
 */
#ifndef GS_TEST_GEMM_CHECK_H
#define GS_TEST_GEMM_CHECK_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gridsync_internal.h"
#include "gpu_test.h"

static uint64_t rng;

static float uniform(void) /* [-1, 1) */
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((rng >> 40) * (1.0 / 8388608.0)) - 1.0f;
}

typedef struct shape {
    int m, n, k;
} shape;

static int checks;

/* Runs the kernel under test on `p` (device pointers), enqueued on stream 0. */
typedef gs_status (*gemm_launch)(const gs__sgemm_args *p, const void *ctx);

/* One case: `label` names the kernel in messages; `pad` extra columns in
 * every leading dimension. Counts one check. */
static void gemm_check_case(const char *label, gemm_launch run, const void *ctx, shape s, int pad,
                            float alpha, float beta)
{
    int lda = s.k + pad, ldb = s.n + pad, ldc = s.n + pad;
    size_t na = (size_t)s.m * lda, nb = (size_t)s.k * ldb, nc = (size_t)s.m * ldc;
    float *a = (float *)malloc(na * 4), *b = (float *)malloc(nb * 4);
    float *c0 = (float *)malloc(nc * 4), *c = (float *)malloc(nc * 4);
    const float poison = nanf("");
    for (size_t i = 0; i < na; ++i)
        a[i] = uniform();
    for (size_t i = 0; i < nb; ++i)
        b[i] = uniform();
    for (int i = 0; i < s.m; ++i)
        for (int j = 0; j < ldc; ++j)
            c0[(size_t)i * ldc + j] = j < s.n && beta != 0.0f ? uniform() : poison;
    float *da, *db, *dc;
    CUDA_OK(cudaMalloc((void **)&da, na * 4));
    CUDA_OK(cudaMalloc((void **)&db, nb * 4));
    CUDA_OK(cudaMalloc((void **)&dc, nc * 4));
    CUDA_OK(cudaMemcpy(da, a, na * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(db, b, nb * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dc, c0, nc * 4, cudaMemcpyHostToDevice));
    gs__sgemm_args p = {s.m, s.n, s.k, alpha, da, lda, db, ldb, beta, dc, ldc};
    GS_OK(run(&p, ctx));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(c, dc, nc * 4, cudaMemcpyDeviceToHost));

    const double u = ldexp(1.0, -24), j = s.k + 2.0, gamma = j * u / (1.0 - j * u);
    double err2 = 0.0, ref2 = 0.0, bound2 = 0.0;
    long bad = 0, padding_touched = 0;
    double *row = (double *)calloc((size_t)s.n, sizeof(double));
    double *mag = (double *)calloc((size_t)s.n, sizeof(double));
    for (int i = 0; i < s.m; ++i) {
        memset(row, 0, (size_t)s.n * sizeof(double));
        memset(mag, 0, (size_t)s.n * sizeof(double));
        for (int q = 0; q < s.k; ++q) {
            double aiq = a[(size_t)i * lda + q];
            const float *bq = b + (size_t)q * ldb;
            for (int jj = 0; jj < s.n; ++jj) {
                row[jj] += aiq * bq[jj];
                mag[jj] += fabs(aiq * bq[jj]);
            }
        }
        for (int jj = 0; jj < ldc; ++jj) {
            float got = c[(size_t)i * ldc + jj];
            if (jj >= s.n) {
                padding_touched += !isnan(got);
                continue;
            }
            double cold = beta != 0.0f ? c0[(size_t)i * ldc + jj] : 0.0;
            double ref = alpha * row[jj] + beta * cold;
            double bound = gamma * (fabs(alpha) * mag[jj] + fabs(beta) * fabs(cold)) + 1e-30;
            double e = fabs((double)got - ref);
            if (!(e <= bound)) { /* also catches NaN: unwritten or C read with beta = 0 */
                if (bad < 3)
                    fprintf(stderr, "  %s %dx%dx%d: C[%d][%d] = %.9g, reference %.9g, bound %.3g\n",
                            label, s.m, s.n, s.k, i, jj, got, ref, bound);
                ++bad;
            }
            err2 += e * e;
            ref2 += ref * ref;
            bound2 += bound * bound;
        }
    }
    double frob = sqrt(err2 / (ref2 > 0 ? ref2 : 1)), frob_bound = sqrt(bound2 / (ref2 > 0 ? ref2 : 1));
    ++checks;
    EXPECT(bad == 0 && padding_touched == 0 && frob <= frob_bound,
           "%s m=%d n=%d k=%d pad=%d alpha=%g beta=%g: %ld elements out of bound, %ld padding "
           "elements written, relative Frobenius error %.3g (bound %.3g)",
           label, s.m, s.n, s.k, pad, alpha, beta, bad, padding_touched, frob,
           frob_bound);
    if (s.m * (long)s.n >= 1000000)
        printf("  %-8s %dx%dx%d: relative Frobenius error %.3g (bound %.3g)\n",
               label, s.m, s.n, s.k, frob, frob_bound);
    free(row);
    free(mag);
    free(a);
    free(b);
    free(c0);
    free(c);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
}

#endif
