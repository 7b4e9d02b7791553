/*
 * test_gemm_wide.cu - the wide-tile matrix multiply (src/gemm/sgemm_wide.cu:
 * 128 x 256 tiles, 8 x 16 registers a thread, cp.async stages) against an
 * FP64 CPU reference (gemm_check.h): whole tiles and edge tiles (m, n not
 * multiples of the tile, so their tiles compute a shifted window and store
 * only their own rows and columns; padded leading dimensions; n, the
 * leading dimensions multiples of 4 and k of 8, as the kernel needs), one
 * k step and fewer steps than stages, unsplit and every slice count with a
 * short last slice, alpha and beta; then the same bits on every run and in
 * a CUDA graph, that gs_sgemm runs it where the plan says (the same bits as
 * the kernel called directly), bad input
 * refused, and every call counted out of the workspace. Operands are
 * allocated to their exact size, so memcheck sees any read outside them.
 */
#include <gridsync/detail/core/tuning.h>

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

/* Every slice count on whole tiles (k of S * 3 - 2 steps: for S > 2 the
 * last slice is short), and on edge tiles with padded leading dimensions
 * and slices of 10 steps (copies issued inside the loop, not only before
 * it); one tile, 16 slices. */
static void test_splits(int small)
{
    for (int s = 2; s <= GS_TUNE_SGEMM_MAX_SPLIT; ++s) {
        if (small && s % 5 != 2)
            continue;
        const int k = (s * 3 - 2) * 8, k_edge = s * 10 * 8;
        int steps = 0, edge_steps = 0;
        ++checks;
        EXPECT(gs__sgemm_slices(k, s, &steps) == s && gs__sgemm_slices(k_edge, s, &edge_steps) == s,
               "k = %d and %d do not make %d slices", k, k_edge, s);
        const float alpha = s % 2 ? 1.0f : -0.5f, beta = s % 2 ? 0.0f : 0.75f;
        check_wide(s, (shape){256, 256, k}, 0, alpha, beta);
        check_wide(s, (shape){200, 300, k_edge}, 4, s % 2 ? 0.5f : 0.75f, s % 2 ? 1.0f : -0.5f);
    }
    check_wide(16, (shape){128, 256, small ? 1024 : 4096}, 0, 1.0f, 0.0f);
}

/* gs_sgemm on `s` gives the same bits as the wide tile in `wide` slices
 * (one check): it runs the kernel the plan says. */
static void check_auto_is_wide(shape s, int wide)
{
    const size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
    float *da, *db, *dc, *dw, *hc = (float *)malloc(nc * 4), *hw = (float *)malloc(nc * 4);
    CUDA_OK(cudaMalloc((void **)&da, na * 4));
    CUDA_OK(cudaMalloc((void **)&db, nb * 4));
    CUDA_OK(cudaMalloc((void **)&dc, nc * 4));
    CUDA_OK(cudaMalloc((void **)&dw, nc * 4));
    fill_random(da, na);
    fill_random(db, nb);
    CUDA_OK(cudaMemset(dc, 0xff, nc * 4));
    CUDA_OK(cudaMemset(dw, 0xff, nc * 4));
    gs__sgemm_args p = {s.m, s.n, s.k, 1.0f, da, s.k, db, s.n, 0.0f, dw, s.n};
    GS_OK(gs_sgemm(s.m, s.n, s.k, 1.0f, da, s.k, db, s.n, 0.0f, dc, s.n, 0));
    GS_OK(gs__sgemm_wide(&p, wide, 0));
    CUDA_OK(cudaMemcpy(hc, dc, nc * 4, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hw, dw, nc * 4, cudaMemcpyDeviceToHost));
    const long differ = differing_words(hc, hw, nc);
    ++checks;
    EXPECT(differ == 0, "%dx%dx%d: gs_sgemm differs from the wide tile in %d slices in %ld words",
           s.m, s.n, s.k, wide, differ);
    free(hc);
    free(hw);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
    CUDA_OK(cudaFree(dw));
}

/* gs_sgemm's answer where gs__sgemm_wide_slices takes the wide tile (132
 * SMs: 2048 x 2048 x 128 unsplit, 512 x 1024 x 16384 cut into slices) and
 * where it does not (1000^3); the same bits every run, on two streams, and
 * in a graph. */
static void test_auto(int small)
{
    int dev = 0, sms = 0, built = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_OK(gs__sgemm_wide_built_for(dev, &built));
    const shape shapes[] = {{2048, 2048, 128}, {512, 1024, 16384}, {1000, 1000, 1000}};
    for (int i = 0; i < (small ? 1 : 3); ++i) {
        const shape s = shapes[i];
        const gs__sgemm_plan plan = gs__sgemm_plan_for(s.m, s.n, s.k, sms, GS__SGEMM_CHOOSE);
        const gs__sgemm_args p = {s.m, s.n, s.k, 1.0f, NULL, s.k, NULL, s.n, 0.0f, NULL, s.n};
        const int wide = gs__sgemm_wide_pick(&p, sms, built, plan);
        printf("  %dx%dx%d on %d SMs: %s\n", s.m, s.n, s.k, sms,
               wide ? (wide > 1 ? "wide tile, split" : "wide tile, unsplit") : "another kernel");
        gemm_check_case("auto", run_auto, NULL, s, 0, 1.0f, 0.0f);
        if (wide)
            check_auto_is_wide(s, wide);
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
    gs__sgemm_args narrow = p; /* fewer columns than a tile */
    narrow.n = 252;
    gs__sgemm_args odd_n = p; /* n not a multiple of 4 */
    odd_n.n = 257;
    odd_n.ldb = odd_n.ldc = 260;
    gs__sgemm_args short_m = p; /* fewer rows than a tile */
    short_m.m = 127;
    gs__sgemm_args misaligned_b = p, misaligned_c = p, odd_ldb = p, odd_ldc = p, no_k = p;
    misaligned_b.b = d + 2;
    misaligned_c.c = d + 3;
    odd_ldb.ldb = 258;
    odd_ldc.ldc = 257;
    no_k.k = 0;
    ++checks;
    EXPECT(gs__sgemm_wide(&misaligned, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_ld, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_k, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_n, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&short_m, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&narrow, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&misaligned_b, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&misaligned_c, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_ldb, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&odd_ldc, 1, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_wide(&no_k, 1, 0) == GS_ERR_INVALID_ARGUMENT,
           "a misaligned A, B or C, an lda, ldb, ldc or n not a multiple of 4, a k of 0 or not a "
           "multiple of 8, an m below 128 or an n below 256 refused");
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
    int built = 0;
    GS_OK(gs__sgemm_wide_built_for(dev, &built));
    if (!built) { /* no cp.async here (GPU or build): only the refusal to test */
        float *d;
        CUDA_OK(cudaMalloc((void **)&d, 256 * 4));
        gs__sgemm_args p = {128, 256, 8, 1.0f, d, 8, d, 256, 0.0f, d, 256}; /* else valid */
        ++checks;
        EXPECT(gs__sgemm_wide(&p, 1, 0) == GS_ERR_INVALID_ARGUMENT,
               "refused on sm_%d without the kernel's code", major * 10);
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
