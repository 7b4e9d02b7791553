/*
 * test_gemm.cu - gs_sgemm and each of its kernels against an FP64 CPU
 * reference on fresh random data (the bound and the poisoning: gemm_check.h;
 * the split-k and stream-k kernels' own cases: test_gemm_splitk.cu,
 * test_gemm_streamk.cu).
 */
#include <time.h>

#include "gemm_check.h"

enum {
    KERNEL_AUTO,
    KERNEL_TILED16,
    KERNEL_FAST64,
    KERNEL_FAST128,
    KERNEL_SPLITK,
    KERNEL_STREAMK,
    KERNELS
};
static const char *const kernel_names[KERNELS] = {"auto",     "tiled16", "fast-64",
                                                  "fast-128", "splitk",  "streamk"};

static gs_status run_kernel(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    const gs_gemm_kernel with[KERNELS] = {GS_GEMM_AUTO, GS_GEMM_TILED16, GS_GEMM_FAST,
                                          GS_GEMM_FAST, GS_GEMM_SPLITK, GS_GEMM_STREAMK};
    const int kernel = *(const int *)ctx;
    if (kernel == KERNEL_FAST64 || kernel == KERNEL_FAST128)
        return gs__sgemm_fast(p, kernel == KERNEL_FAST64 ? 64 : 128, stream);
    return gs_sgemm_with(with[kernel], p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb,
                         p->beta, p->c, p->ldc, stream);
}

static void check_case(int kernel, shape s, int pad, float alpha, float beta)
{
    gemm_check_case(kernel_names[kernel], run_kernel, &kernel, s, pad, alpha, beta);
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
                            {257, 64, 1},    {300, 200, 100}, {1000, 1000, 1000},
                            {512, 512, 512}, {200, 300, 2000}}; /* the last three split (auto) */
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
