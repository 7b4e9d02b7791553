/*
 * test_gemm_wide.cu - the wide-tile matrix multiply (src/gemm/sgemm_wide.cu:
 * 128 x 256 tiles, 8 x 16 registers a thread, cp.async stages) against an
 * FP64 CPU reference (gemm_check.h): whole tiles and edge tiles (m, n not
 * multiples of the tile, so their tiles compute a shifted window and store
 * only their own rows and columns; padded leading dimensions; n, the
 * leading dimensions multiples of 4 and k of 8, as the kernel needs), one
 * k step and fewer steps than stages, unsplit and every slice count with a
 * short last slice, alpha and beta; then the same bits on every run and in
 * a CUDA graph, that gs_sgemm takes it where the plan says, bad input
 * refused, and every call counted out of the workspace. Operands are
 * allocated to their exact size, so memcheck sees any read outside them.
 */
#include <gridsync/detail/tuning.h>

#include "gemm_check.h"

static gs_status run_slices(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    return gs__sgemm_wide(p, *(const int *)ctx, stream);
}

static gs_status run_auto(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    (void)ctx;
    return gs_sgemm(p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb, p->beta, p->c, p->ldc,
                    stream);
}

static void check_wide(int splits, shape s, int pad, float alpha, float beta)
{
    char label[32];
    snprintf(label, sizeof label, "wide/%d", splits);
    gemm_check_case(label, run_slices, &splits, s, pad, alpha, beta);
}

/* Unsplit: one whole tile; edge tiles in both directions (300 x 520: the
 * last row of tiles shifted up 84 rows, the last column left 248
 * columns); edges of 2 rows and 4 columns with padded leading dimensions;
 * k of 8 and 16 (one step, fewer steps than stages); the smallest window
 * shifts (one row, one vector); many edge tiles. */
static void test_unsplit(void)
{
    check_wide(1, (shape){128, 256, 64}, 0, 1.0f, 0.0f);
    check_wide(1, (shape){300, 520, 96}, 0, -0.5f, 0.75f);
    check_wide(1, (shape){130, 260, 104}, 4, 1.0f, 0.0f);
    check_wide(1, (shape){129, 516, 16}, 4, 2.0f, 1.0f);
    check_wide(1, (shape){128, 256, 8}, 8, 1.0f, 0.0f);
    check_wide(1, (shape){255, 508, 24}, 8, 1.0f, 0.5f);
    check_wide(1, (shape){1000, 1004, 40}, 0, 1.0f, 0.0f);
}

/* Every slice count on whole tiles (k of S * 3 - 2 steps: the last slice
 * short) and on edge tiles with padded leading dimensions; one tile, 16
 * slices. */
static void test_splits(int small)
{
    for (int s = 2; s <= GS_TUNE_SGEMM_MAX_SPLIT; ++s) {
        if (small && s % 5 != 2)
            continue;
        const int k = (s * 3 - 2) * 8;
        int steps = 0;
        ++checks;
        EXPECT(gs__sgemm_slices(k, s, &steps) == s, "k = %d does not make %d slices", k, s);
        const float alpha = s % 2 ? 1.0f : -0.5f, beta = s % 2 ? 0.0f : 0.75f;
        check_wide(s, (shape){256, 256, k}, 0, alpha, beta);
        check_wide(s, (shape){200, 300, k}, 4, beta, alpha);
    }
    check_wide(16, (shape){128, 256, small ? 1024 : 4096}, 0, 1.0f, 0.0f);
}

/* gs_sgemm's answer where gs__sgemm_wide_slices takes the wide tile (132
 * SMs: 2048 x 2048 x 128 unsplit, 512 x 1024 x 16384 cut into slices) and
 * where it does not (1000^3); the same bits every run, on two streams, and
 * in a graph. */
static void test_auto(int small)
{
    int dev = 0, sms = 0, major = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    const shape shapes[] = {{2048, 2048, 128}, {512, 1024, 16384}, {1000, 1000, 1000}};
    for (int i = 0; i < (small ? 1 : 3); ++i) {
        const shape s = shapes[i];
        const gs__sgemm_plan plan = gs__sgemm_plan_for(s.m, s.n, s.k, sms, GS__SGEMM_CHOOSE);
        const int wide = gs__sgemm_wide_slices(s.m, s.n, s.k, sms, plan);
        printf("  %dx%dx%d on %d SMs: %s\n", s.m, s.n, s.k, sms,
               major >= 8 && wide ? (wide > 1 ? "wide tile, split" : "wide tile, unsplit")
                                  : "another kernel");
        gemm_check_case("auto", run_auto, NULL, s, 0, 1.0f, 0.0f);
    }
    const int two = 2;
    /* between runs, gs_sgemm on an odd shape (the other kernels) shares the
     * workspace; the wide tile does not take odd n or k */
    gemm_check_repeatable("wide/2", run_slices, &two, (shape){512, 768, 2048}, run_auto, NULL);
    if (!small) {
        const int four = 4;
        gemm_check_repeatable("wide/4", run_slices, &four, (shape){1024, 1024, 4096}, run_auto,
                              NULL);
        gemm_check_graph("wide/4", run_slices, &four, 1024);
    }
}

/* Each case differs from operands the kernel takes (one 128 x 256 tile, k
 * of 8; never launched) in one thing, and is refused with nothing run. */
static void test_bad_input(void)
{
    float *d;
    CUDA_OK(cudaMalloc((void **)&d, 256 * 4));
    gs__sgemm_args p = {128, 256, 8, 1.0f, d, 8, d, 256, 0.0f, d, 256};
    ++checks;
    EXPECT(gs__sgemm_wide_ok(&p), "the base case is one the kernel takes");
    ++checks;
    EXPECT(gs__sgemm_wide(&p, 0, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&p, GS_TUNE_SGEMM_MAX_SPLIT + 1, 0) == GS_ERR_INVALID_ARGUMENT,
           "0 and %d slices refused", GS_TUNE_SGEMM_MAX_SPLIT + 1);
    gs__sgemm_args misaligned = p;
    misaligned.a = d + 1;
    gs__sgemm_args odd_ld = p;
    odd_ld.lda = 5;
    gs__sgemm_args odd_k = p;
    odd_k.k = 12;
    odd_k.lda = 12;
    gs__sgemm_args narrow = p; /* fewer columns than a tile */
    narrow.n = 252;
    gs__sgemm_args odd_n = p; /* n not a multiple of 4 */
    odd_n.n = 257;
    odd_n.ldb = odd_n.ldc = 260;
    gs__sgemm_args short_m = p; /* fewer rows than a tile */
    short_m.m = 127;
    ++checks;
    EXPECT(gs__sgemm_wide(&misaligned, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_ld, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_k, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_n, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&short_m, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&narrow, 1, 0) == GS_ERR_INVALID_ARGUMENT,
           "a misaligned A, an lda or n not a multiple of 4, a k not a multiple of 8, an m "
           "below 128 or an n below 256 refused");
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaFree(d));
}

int main(void)
{
    gs_test_require_gpu("gpu_gemm_wide");
    rng = gs_test_seed("gpu_gemm_wide") * 0x9e3779b97f4a7c15ull + 1ull;
    int dev = 0, major = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 8) { /* the wide tile needs cp.async: only the refusal to test */
        float *d;
        CUDA_OK(cudaMalloc((void **)&d, 64 * 4));
        gs__sgemm_args p = {4, 4, 4, 1.0f, d, 4, d, 4, 0.0f, d + 32, 4};
        ++checks;
        EXPECT(gs__sgemm_wide(&p, 1, 0) == GS_ERR_INVALID_ARGUMENT, "sm_%d refused", major * 10);
        CUDA_OK(cudaFree(d));
        return gs_test_finish("gpu_gemm_wide", checks);
    }
    const int small = gs_test_sanitizer();
    test_unsplit();
    test_splits(small);
    test_auto(small);
    test_bad_input();
    gemm_check_counted_out();
    return gs_test_finish("gpu_gemm_wide", checks);
}
