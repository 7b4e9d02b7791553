/*
 * test_gemm_splitk.cu - the split-k matrix multiply (src/gemm/sgemm_splitk.cu)
 * against an FP64 CPU reference (gemm_check.h), for every slice count with
 * both tiles, edge tiles and interior tiles, a short last slice, k that
 * makes fewer slices than asked, one tile with many slices; then the same
 * bits on every run (repeated calls, calls between other calls, a second
 * stream at the same time, a CUDA graph's replays); then that every call
 * counted itself out of the workspace (its release does not wait).
 */
#include <time.h>

#include <gridsync/detail/tuning.h>

#include "gemm_check.h"

typedef struct forced {
    int tile, splits;
} forced;

static gs_status run_forced(const gs__sgemm_args *p, const void *ctx)
{
    const forced *f = (const forced *)ctx;
    return gs__sgemm_splitk(p, f->tile, f->splits, 0);
}

static gs_status run_auto(const gs__sgemm_args *p, const void *ctx)
{
    (void)ctx;
    return gs_sgemm(p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb, p->beta, p->c, p->ldc,
                    0);
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

static void fill_random(float *d, size_t count)
{
    float *h = (float *)malloc(count * 4);
    for (size_t i = 0; i < count; ++i)
        h[i] = uniform();
    CUDA_OK(cudaMemcpy(d, h, count * 4, cudaMemcpyHostToDevice));
    free(h);
}

/* C of `p` after one call of `run` (into a C poisoned with NaN first). */
static void result_of(gemm_launch run, const void *ctx, gs__sgemm_args *p, float *host)
{
    size_t bytes = (size_t)p->m * p->ldc * 4;
    CUDA_OK(cudaMemset(p->c, 0xff, bytes));
    GS_OK(run(p, ctx));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(host, p->c, bytes, cudaMemcpyDeviceToHost));
}

static long differing_words(const float *x, const float *y, size_t count)
{
    long differ = 0;
    for (size_t i = 0; i < count; ++i)
        differ += memcmp(&x[i], &y[i], sizeof(float)) != 0;
    return differ;
}

/* The same bits every run: each case runs 6 times, between the runs another
 * split shape runs on the same stream (other tiles and slices over the same
 * counters), and in the last run the same call runs at the same time on a
 * second stream (its own workspace), into its own C. */
static void test_repeatable(void)
{
    typedef struct repeat_case {
        shape s;
        forced f; /* tile 0: gs_sgemm's own plan */
    } repeat_case;
    const repeat_case cases[] = {{{512, 512, 512}, {0, 0}},
                                 {{1024, 1024, 2048}, {0, 0}},
                                 {{300, 260, 3001}, {128, 7}},
                                 {{300, 260, 3001}, {64, 16}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const shape s = cases[i].s;
        gemm_launch run = cases[i].f.tile ? run_forced : run_auto;
        const void *ctx = cases[i].f.tile ? &cases[i].f : NULL;
        size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
        float *da, *db, *dc, *dc2, *first = (float *)malloc(nc * 4), *again = (float *)malloc(nc * 4);
        CUDA_OK(cudaMalloc((void **)&da, na * 4));
        CUDA_OK(cudaMalloc((void **)&db, nb * 4));
        CUDA_OK(cudaMalloc((void **)&dc, nc * 4));
        CUDA_OK(cudaMalloc((void **)&dc2, nc * 4));
        fill_random(da, na);
        fill_random(db, nb);
        gs__sgemm_args p = {s.m, s.n, s.k, 1.0f, da, s.k, db, s.n, 0.0f, dc, s.n};
        gs__sgemm_args other = {s.m / 2 + 1, s.n / 3 + 1, s.k / 2 + 3, 1.0f, da, s.k, db, s.n,
                                0.0f, dc2, s.n};
        const forced other_split = {64, 5};
        result_of(run, ctx, &p, first);
        long differ = 0, nans = 0;
        for (size_t j = 0; j < nc; ++j)
            nans += isnan(first[j]);
        for (int r = 1; r < 6; ++r) {
            GS_OK(run_forced(&other, &other_split));
            if (r < 5) {
                result_of(run, ctx, &p, again);
            } else { /* two streams at once, each with its own workspace */
                cudaStream_t side;
                float *side_c, *side_host = (float *)malloc(nc * 4);
                CUDA_OK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
                CUDA_OK(cudaMalloc((void **)&side_c, nc * 4));
                CUDA_OK(cudaMemset(dc, 0xff, nc * 4));
                CUDA_OK(cudaMemset(side_c, 0xff, nc * 4));
                CUDA_OK(cudaDeviceSynchronize());
                GS_OK(gs_sgemm(s.m, s.n, s.k, 1.0f, da, s.k, db, s.n, 0.0f, side_c, s.n, side));
                GS_OK(run(&p, ctx));
                CUDA_OK(cudaDeviceSynchronize());
                CUDA_OK(cudaMemcpy(again, dc, nc * 4, cudaMemcpyDeviceToHost));
                CUDA_OK(cudaMemcpy(side_host, side_c, nc * 4, cudaMemcpyDeviceToHost));
                if (!cases[i].f.tile) /* the same call on the other stream */
                    differ += differing_words(first, side_host, nc);
                free(side_host);
                CUDA_OK(cudaFree(side_c));
                CUDA_OK(cudaStreamDestroy(side));
            }
            differ += differing_words(first, again, nc);
        }
        ++checks;
        EXPECT(differ == 0 && nans == 0,
               "%dx%dx%d (%s %d/%d): %ld words differ between runs, %ld NaN", s.m, s.n, s.k,
               cases[i].f.tile ? "split-k" : "auto", cases[i].f.tile, cases[i].f.splits, differ,
               nans);
        free(first);
        free(again);
        CUDA_OK(cudaFree(da));
        CUDA_OK(cudaFree(db));
        CUDA_OK(cudaFree(dc));
        CUDA_OK(cudaFree(dc2));
    }
}

/* A split call captured in a CUDA graph (its workspace from the graph's
 * memory, its counters zeroed by a graph node): each replay gives the direct
 * call's bits. */
static void test_graph(void)
{
    const int n = 512; /* gs_sgemm splits 512^3 on every GPU of up to 256 SMs */
    size_t count = (size_t)n * n;
    float *da, *db, *dc, *direct = (float *)malloc(count * 4), *replay = (float *)malloc(count * 4);
    CUDA_OK(cudaMalloc((void **)&da, count * 4));
    CUDA_OK(cudaMalloc((void **)&db, count * 4));
    CUDA_OK(cudaMalloc((void **)&dc, count * 4));
    fill_random(da, count);
    fill_random(db, count);
    gs__sgemm_args p = {n, n, n, 1.0f, da, n, db, n, 0.0f, dc, n};
    result_of(run_auto, NULL, &p, direct);
    int pools = 0, dev = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev));
    if (pools) {
        cudaStream_t s;
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        GS_OK(gs_sgemm(n, n, n, 1.0f, da, n, db, n, 0.0f, dc, n, s));
        CUDA_OK(cudaStreamEndCapture(s, &graph));
        CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
        long differ = 0;
        for (int r = 0; r < 3; ++r) {
            CUDA_OK(cudaMemsetAsync(dc, 0xff, count * 4, s));
            CUDA_OK(cudaGraphLaunch(exec, s));
            CUDA_OK(cudaStreamSynchronize(s));
            CUDA_OK(cudaMemcpy(replay, dc, count * 4, cudaMemcpyDeviceToHost));
            differ += differing_words(direct, replay, count);
        }
        ++checks;
        EXPECT(differ == 0, "512^3 in a graph: %ld words differ from the direct call", differ);
        CUDA_OK(cudaGraphExecDestroy(exec));
        CUDA_OK(cudaGraphDestroy(graph));
        CUDA_OK(cudaStreamDestroy(s));
    } else {
        printf("  graph case skipped: device %d has no memory pools\n", dev);
    }
    free(direct);
    free(replay);
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dc));
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

/* Each split call's blocks counted themselves out of its workspace: freeing
 * the workspaces does not wait for them (it would wait a minute for a call
 * that never completes its count). */
static void test_counted_out(void)
{
    struct timespec t0, t1;
    CUDA_OK(cudaDeviceSynchronize());
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gs_reduce_release_workspaces();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ++checks;
    EXPECT(seconds < 5.0 && gs__ws_cached_count() == 0,
           "releasing the workspaces took %.1f s (%d left): a call's blocks were not counted out",
           seconds, gs__ws_cached_count());
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
        test_graph();
    }
    test_bad_input();
    test_counted_out();
    return gs_test_finish("gpu_gemm_splitk", checks);
}
