/*
 * test_gemm_streamk.cu - the stream-k matrix multiply
 * (src/gemm/sgemm_streamk.cu) against an FP64 CPU reference (gemm_check.h)
 * with both tiles, on shapes that give every way a block's share can meet
 * the tiles: one step for the whole grid, a share inside one tile, shares
 * that cross tile edges, shares holding whole tiles between two partial
 * ones, one tile shared by every resident block, edge tiles with ragged k
 * and padded leading dimensions; then the same bits on every run (repeated
 * calls, other calls between, a second stream at the same time, a CUDA
 * graph's replays: gemm_check.h); bad input; and that every call counted itself out of the
 * workspace.
 */
#include <gridsync/detail/core/tuning.h>

#include "gemm_check.h"

static gs_status run_tile(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    return gs__sgemm_streamk(p, *(const int *)ctx, stream);
}

static gs_status run_with(const gs__sgemm_args *p, const void *ctx, cudaStream_t stream)
{
    return gs_sgemm_with(*(const gs_gemm_kernel *)ctx, p->m, p->n, p->k, p->alpha, p->a, p->lda,
                         p->b, p->ldb, p->beta, p->c, p->ldc, stream);
}

static void check_tile(int tile, shape s, int pad, float alpha, float beta)
{
    char label[32];
    snprintf(label, sizeof label, "streamk-%d", tile);
    gemm_check_case(label, run_tile, &tile, s, pad, alpha, beta);
}

/* Shapes by how the blocks' shares meet the tiles (132 SMs: 264 blocks of
 * the 128-tile kernel, 792 of the 64-tile one; other GPUs land elsewhere in
 * the same cases). */
static void test_shapes(int small)
{
    const int tiles[] = {128, 64};
    for (int t = 0; t < 2; ++t) {
        const int tile = tiles[t];
        check_tile(tile, (shape){33, 17, 1}, 0, 1.0f, 0.0f);      /* one step in all: one block */
        check_tile(tile, (shape){1, 1, 1000}, 0, 1.0f, 0.0f);     /* one tile, a step a block */
        check_tile(tile, (shape){200, 136, 1021}, 3, -0.5f, 0.75f); /* edge tiles, ragged k */
        check_tile(tile, (shape){256, 128, 2000}, 0, 2.0f, 0.0f); /* whole tiles, vector path */
        check_tile(tile, (shape){1000, 8, 333}, 4, -1.0f, 0.25f);
        check_tile(tile, (shape){8, 1000, 333}, 0, 1.0f, 0.0f);
        check_tile(tile, (shape){2048, 2048, 16}, 0, 1.0f, 0.5f); /* shares of ~2 steps */
        if (small)
            continue;
        check_tile(tile, (shape){128, 128, 40000}, 0, 1.0f, 0.0f); /* every block on tile 0 */
        check_tile(tile, (shape){2048, 2048, 24}, 1, 1.0f, 0.0f);  /* whole tiles mid-share */
        check_tile(tile, (shape){1000, 1000, 1000}, 0, 1.0f, 1.0f);
    }
    const gs_gemm_kernel automatic = GS_GEMM_AUTO;
    if (!small) /* the issue's long-k shape's plan, narrower to keep the reference quick */
        gemm_check_case("auto", run_with, &automatic, (shape){256, 384, 16384}, 0, 1.0f, 0.0f);
}

/* The same bits every run (gemm_check_repeatable), with a split-k call
 * between the runs, over the same workspace. */
static void test_repeatable(void)
{
    const int big = GS_TUNE_SGEMM_BIG_TILE, small = GS_TUNE_SGEMM_SMALL_TILE;
    const gs_gemm_kernel splitk = GS_GEMM_SPLITK, streamk = GS_GEMM_STREAMK;
    gemm_check_repeatable("stream-k 128", run_tile, &big, (shape){1024, 1024, 2048},
                          run_with, &splitk);
    gemm_check_repeatable("stream-k 64", run_tile, &small, (shape){300, 260, 3001},
                          run_with, &splitk);
    gemm_check_repeatable("GS_GEMM_STREAMK", run_with, &streamk, (shape){1024, 1024, 16384},
                          run_tile, &small);
}

static void test_bad_input(void)
{
    float *d;
    CUDA_OK(cudaMalloc((void **)&d, 64 * 4));
    gs__sgemm_args p = {4, 4, 4, 1.0f, d, 4, d, 4, 0.0f, d + 32, 4};
    ++checks;
    EXPECT(gs__sgemm_streamk(&p, 32, 0) == GS_ERR_INVALID_ARGUMENT, "tile 32 refused");
    gs_gemm_kernel k = GS_GEMM_AUTO;
    ++checks;
    EXPECT(gs_gemm_kernel_parse("streamk", &k) == GS_SUCCESS && k == GS_GEMM_STREAMK,
           "\"streamk\" names GS_GEMM_STREAMK");
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaFree(d));
}

int main(void)
{
    gs_test_require_gpu("gpu_gemm_streamk");
    rng = gs_test_seed("gpu_gemm_streamk") * 0x9e3779b97f4a7c15ull + 1ull;
    const int small = gs_test_sanitizer();
    const gs_gemm_kernel streamk_kernel = GS_GEMM_STREAMK;
    test_shapes(small);
    if (!small) {
        test_repeatable();
        gemm_check_graph("stream-k", run_with, &streamk_kernel, 512);
    }
    test_bad_input();
    gemm_check_counted_out();
    return gs_test_finish("gpu_gemm_streamk", checks);
}
