/*
 * test_gemm_splitk.cu - the split-k matrix multiply (src/gemm/sgemm_splitk.cu)
 * against an FP64 CPU reference (gemm_check.h), for every slice count with
 * both tiles, edge tiles and interior tiles, a short last slice, k that
 * makes fewer slices than asked, one tile with many slices; then the same
 * bits on every run (repeated calls, calls between other calls, a second
 * stream at the same time, a CUDA graph's replays); then that every call
 * counted itself out of the workspace (its release does not wait).
 */
#include <gridsync/detail/core/tuning.h>

#include "gemm_check.h"

typedef struct forced {
    int tile, splits;
} forced;

static gs_status run_forced(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    const forced *f = (const forced *)ctx;
    return gs__sgemm_splitk(p, f->tile, f->splits, stream);
}

static gs_status run_auto(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    (void)ctx;
    return gs_sgemm(p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb, p->beta, p->c, p->ldc,
                    stream);
}

static void check_forced(int tile, int splits, shape s, int pad, float alpha, float beta)
{
    char label[48];
    forced f = {tile, splits};
    snprintf(label, sizeof label, "splitk-%d/%d", tile, splits);
    gemm_check_case(label, run_forced, &f, s, pad, alpha, beta);
}

/* Every slice count 1 .. GS_TUNE_SGEMM_MAX_SPLIT on both tiles: k of S * 3
 * steps less a part of one (the guarded loads, a short last step) on edge
 * tiles, and k of S * 3 - 2 whole steps (the last slice one step short) on
 * whole tiles with the vector path. */
static void test_every_split(int small)
{
    const int tiles[] = {128, 64};
    for (int t = 0; t < 2; ++t)
        for (int s = 1; s <= GS_TUNE_SGEMM_MAX_SPLIT; ++s) {
            if (small && s % 5 != 1)
                continue;
            const int per = 3, ragged = (s * per - 1) * 8 + 5, whole = (s * per - 2) * 8;
            int steps = 0;
            ++checks;
            EXPECT(gs__sgemm_slices(ragged, s, &steps) == s && steps == per &&
                       (s == 1 || gs__sgemm_slices(whole, s, &steps) == s),
                   "k = %d or %d does not make %d slices", ragged, whole, s);
            const float alpha = s % 2 ? 1.0f : -0.5f, beta = s % 2 ? 0.0f : 0.75f;
            check_forced(tiles[t], s, (shape){200, 136, ragged}, 0, alpha, beta);
            if (s > 1)
                check_forced(tiles[t], s, (shape){256, 128, whole}, 0, beta, alpha);
        }
}

/* Fix-up edge cases. */
static void test_edges(int small)
{
    check_forced(128, 4, (shape){33, 17, 1}, 0, 1.0f, 0.0f);    /* one step: one slice */
    check_forced(64, 16, (shape){65, 64, 9}, 0, 2.0f, 0.5f);    /* two steps: two slices */
    check_forced(128, 2, (shape){129, 130, 20}, 3, 1.0f, 1.0f); /* 3 steps: 2 + 1; ld > width */
    check_forced(64, 16, (shape){1, 1, 1000}, 0, 1.0f, 0.0f);   /* one element, 16 slices */
    check_forced(128, 5, (shape){1000, 8, 333}, 4, -1.0f, 0.25f);
    check_forced(64, 7, (shape){8, 1000, 333}, 0, 1.0f, 0.0f);
    /* more tiles than any call before on this stream: its counters lie
     * where the earlier calls kept nothing but counters (a shared area put
     * them on an earlier call's partial tiles: 1000^3 came out wrong from
     * tile 64 on) */
    check_forced(64, 4, (shape){128, 128, 256}, 0, 1.0f, 0.0f);
    check_forced(64, 3, (shape){1000, 1000, small ? 64 : 1000}, 0, 1.0f, 0.0f);
    if (!small) {
        check_forced(128, 16, (shape){128, 128, 4096}, 0, 1.0f, 0.0f); /* one tile, 16 slices */
        gemm_check_case("auto", run_auto, NULL, (shape){64, 64, 20000}, 0, 1.0f, 0.0f);
        gemm_check_case("auto", run_auto, NULL, (shape){256, 256, 8192}, 0, 1.0f, 0.5f);
    }
}

/* The same bits every run (gemm_check_repeatable), with another split shape
 * between the runs. */
static void test_repeatable(void)
{
    const forced other = {64, 5}, tile128 = {128, 7}, tile64 = {64, 16};
    gemm_check_repeatable("auto", run_auto, NULL, (shape){512, 512, 512}, run_forced, &other);
    gemm_check_repeatable("auto", run_auto, NULL, (shape){1024, 1024, 2048}, run_forced,
                          &other);
    gemm_check_repeatable("split-k 128/7", run_forced, &tile128, (shape){300, 260, 3001},
                          run_forced, &other);
    gemm_check_repeatable("split-k 64/16", run_forced, &tile64, (shape){300, 260, 3001},
                          run_forced, &other);
}

static void test_bad_input(void)
{
    float *d;
    CUDA_OK(cudaMalloc((void **)&d, 64 * 4));
    gs__sgemm_args p = {4, 4, 4, 1.0f, d, 4, d, 4, 0.0f, d + 32, 4};
    ++checks;
    EXPECT(gs__sgemm_splitk(&p, 32, 2, 0) == GS_ERR_INVALID_ARGUMENT, "tile 32 refused");
    ++checks;
    EXPECT(gs__sgemm_splitk(&p, 64, 0, 0) == GS_ERR_INVALID_ARGUMENT &&
               gs__sgemm_splitk(&p, 64, GS_TUNE_SGEMM_MAX_SPLIT + 1, 0) ==
                   GS_ERR_INVALID_ARGUMENT,
           "0 and %d slices refused", GS_TUNE_SGEMM_MAX_SPLIT + 1);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaFree(d));
}

int main(void)
{
    gs_test_require_gpu("gpu_gemm_splitk");
    rng = gs_test_seed("gpu_gemm_splitk") * 0x9e3779b97f4a7c15ull + 1ull;
    const int small = gs_test_sanitizer();
    test_every_split(small);
    test_edges(small);
    if (!small) {
        test_repeatable();
        gemm_check_graph("auto", run_auto, NULL, 512); /* gs_sgemm splits 512^3 */
    }
    test_bad_input();
    gemm_check_counted_out();
    return gs_test_finish("gpu_gemm_splitk", checks);
}
