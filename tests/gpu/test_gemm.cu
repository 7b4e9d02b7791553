/*
 * test_gemm.cu - gs_sgemm and each of its kernels against an FP64 CPU
 * reference on fresh random data.
 *
 * Bound (per element, rigorous): an FP32 dot product of length k, summed in
 * any order with or without FMA, errs by at most gamma(k)*sum|a||b| with
 * gamma(j) = j*u / (1 - j*u), u = 2^-24. Scaling by alpha and adding beta*c
 * are two more roundings, so |C - ref| <= gamma(k + 2) * (|alpha| sum|a||b| +
 * |beta| |c0|). The relative Frobenius error is reported, and bounded by the
 * same gamma(k + 2) times ||bound||_F / ||ref||_F.
 *
 * Every output element is checked; C is poisoned with NaN first when beta is
 * 0 (so a kernel that reads C there, or leaves an element unwritten, fails),
 * and the padding columns of C (ldc > n) must still hold their poison.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

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

enum { KERNEL_AUTO, KERNEL_TILED16, KERNEL_FAST64, KERNEL_FAST128, KERNELS };
static const char *const kernel_names[KERNELS] = {"auto", "tiled16", "fast-64", "fast-128"};

static int checks;

static gs_status run_kernel(int kernel, const gs__sgemm_args *p)
{
    switch (kernel) {
    case KERNEL_AUTO:
        return gs_sgemm(p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb, p->beta, p->c,
                        p->ldc, 0);
    case KERNEL_TILED16:
        return gs_sgemm_with(GS_GEMM_TILED16, p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b,
                             p->ldb, p->beta, p->c, p->ldc, 0);
    case KERNEL_FAST64: return gs__sgemm_fast(p, 64, 0);
    default: return gs__sgemm_fast(p, 128, 0);
    }
}

/* One case: returns the relative Frobenius error (negative on failure). */
static void check_case(int kernel, shape s, int pad, float alpha, float beta)
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
    GS_OK(run_kernel(kernel, &p));
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
                            kernel_names[kernel], s.m, s.n, s.k, i, jj, got, ref, bound);
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
           kernel_names[kernel], s.m, s.n, s.k, pad, alpha, beta, bad, padding_touched, frob,
           frob_bound);
    if (s.m * (long)s.n >= 1000000)
        printf("  %-8s %dx%dx%d: relative Frobenius error %.3g (bound %.3g)\n",
               kernel_names[kernel], s.m, s.n, s.k, frob, frob_bound);
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

static void test_bad_input(void)
{
    float *d;
    float host[16];
    CUDA_OK(cudaMalloc((void **)&d, 64 * 4));
    ++checks;
    EXPECT(gs_sgemm(4, 4, 4, 1.0f, d, 4, d, 4, 0.0f, host, 4, 0) == GS_ERR_INVALID_ARGUMENT &&
               strstr(gs_last_error_detail(), "C is host memory"),
           "host C refused: %s", gs_last_error_detail());
    ++checks;
    EXPECT(gs_sgemm(4, 4, 4, 1.0f, host, 4, d, 4, 0.0f, d, 4, 0) == GS_ERR_INVALID_ARGUMENT,
           "host A refused: %s", gs_last_error_detail());
    ++checks;
    EXPECT(gs_sgemm(4, 4, -4, 1.0f, d, 4, d, 4, 0.0f, d, 4, 0) == GS_ERR_INVALID_ARGUMENT,
           "negative k refused");
    CUDA_OK(cudaFree(d));
}

int main(void)
{
    gs_test_require_gpu("gpu_gemm");
    rng = gs_test_seed("gpu_gemm") * 0x9e3779b97f4a7c15ull + 1ull;
    const int small = gs_test_sanitizer();
    const shape shapes[] = {{1, 1, 1},      {1, 7, 3},       {17, 33, 65},  {64, 64, 64},
                            {127, 129, 131}, {128, 256, 40}, {1000, 8, 64}, {8, 1000, 64},
                            {257, 64, 1},    {300, 200, 100}, {1000, 1000, 1000}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    const float ab[][2] = {{1.0f, 0.0f}, {2.5f, 0.0f}, {1.0f, 1.0f}, {-0.5f, 0.75f}};
    for (int kernel = 0; kernel < KERNELS; ++kernel)
        for (int i = 0; i < nshapes; ++i) {
            int big = (long)shapes[i].m * shapes[i].n * shapes[i].k > 10000000;
            if (small && big)
                continue;
            for (int v = 0; v < 4; ++v) {
                if (big && v > 1) /* the big shape: one beta = 0 and one beta != 0 case */
                    break;
                if (small && (v == 1 || v == 2)) /* under the sanitizers: two of four */
                    continue;
                float alpha = ab[big ? v * 2 : v][0], beta = ab[big ? v * 2 : v][1];
                check_case(kernel, shapes[i], 0, alpha, beta);
                if (!big && v % 2 == 0)
                    check_case(kernel, shapes[i], v == 0 ? 3 : 4, alpha, beta); /* ld > width */
            }
        }
    test_bad_input();
    return gs_test_finish("gpu_gemm", checks);
}
