/*
 * test_apps_kmeans.cu - k-means of `gridsync bench apps`
 * (tools/suites/apps/kmeans/kmeans.cuh), its very kernels, against the CPU's
 * FP64 Lloyd: odd point counts (16 .. 300007), 16 blobs or 15 (one centroid
 * never gets a point and must stay), 1 .. 20 iterations (1 and 2: before
 * and as the slot sets first repeat); the persistent version on grids of 1,
 * 2, SMs, SMs + 1 and the co-resident maximum blocks (on one block its
 * 300007 points do not fit in shared memory: the rest come from global),
 * with and without random stalls before a block's partials; the relaunch
 * versions (with and without programmatic dependent launch) on 1 block and
 * on the bench's grid, with and without stalls. The partials and the
 * answer are poisoned (NaN) before every solve: a read before its write, or
 * an answer not written, fails the check (counts exactly, centroids within
 * km_bound).
 */
#include "gpu_test.h"
#include "grid_sizes.h"

#include "suites/apps/kmeans/kmeans.cuh"

static void expect_answer(km_host *w, gs_status launched, gs_status settled, const char *what,
                          int blocks)
{
    EXPECT(launched == GS_SUCCESS && settled == GS_SUCCESS, "%s, %lld points, %d blocks: %s: %s",
           what, w->p.n, blocks, gs_status_string(launched != GS_SUCCESS ? launched : settled),
           gs_last_error_detail());
    double rel = 0.0;
    gs_status st = km_check(w, what, blocks, &rel);
    EXPECT(st == GS_SUCCESS, "%s", gs_last_error_detail());
}

int main(void)
{
    gs_test_require_gpu("apps_kmeans");
    const unsigned long long seed = gs_test_seed("apps_kmeans");
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int most = 0;
    GS_OK(gs_max_coresident_blocks((const void *)km_persistent_kernel, KM_THREADS, 0, &most));
    unsigned int grids[6];
    const int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)most, grids);
    static const struct {
        long long n;
        int blobs, iters;
    } cases[] = {{16, 16, 3},     {17, 15, 2},    {1001, 16, 1},  {4097, 15, 7},
                 {65537, 16, 20}, {300007, 15, 5}};
    const int ncases = quick ? 3 : (int)(sizeof cases / sizeof cases[0]);

    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    int pdl_ok = 0;
    GS_OK(km_pdl_supported(&pdl_ok));
    cudaStream_t rs; /* the relaunches' stream (as the bench's: non-blocking) */
    CUDA_OK(cudaStreamCreateWithFlags(&rs, cudaStreamNonBlocking));
    int checks = 0;
    for (int c = 0; c < ncases; ++c) {
        km_host w;
        GS_OK(km_create(&w, cases[c].n, cases[c].blobs, cases[c].iters, most,
                        seed + (unsigned long long)c));
        for (int g = 0; g < ngrids; ++g)
            for (int delayed = 0; delayed < 2; ++delayed) {
                int blocks = 0, cap = 0;
                GS_OK(km_grid(w.p.n, (int)grids[g], &blocks, &cap));
                gs_grid_barrier view;
                GS_OK(gs_barrier_device(bar, (unsigned int)blocks, &view));
                w.p.delay_seed = (unsigned int)(seed >> 7) + (unsigned int)(g * 2 + delayed);
                w.p.max_delay_ns = delayed ? 4000u : 0u;
                GS_OK(km_poison(&w, 0));
                gs_status launched = km_solve_persistent(&w, bar, &view, blocks, cap, 0);
                expect_answer(&w, launched, gs_barrier_check(bar, 0),
                              delayed ? "gridsync persistent, stalls" : "gridsync persistent",
                              blocks);
                ++checks;
            }
        int bench_blocks = 0, bench_cap = 0;
        GS_OK(km_grid(w.p.n, 0, &bench_blocks, &bench_cap));
        for (int run = 0; run < 4 * (1 + pdl_ok); ++run) {
            const int pdl = run >> 2, delayed = run & 1, blocks = run & 2 ? bench_blocks : 1;
            w.p.delay_seed = (unsigned int)(seed >> 9) + (unsigned int)run;
            w.p.max_delay_ns = delayed ? 4000u : 0u;
            GS_OK(km_poison(&w, rs));
            gs_status launched = km_solve_relaunch(&w, blocks, pdl, rs);
            cudaError_t err = cudaStreamSynchronize(rs);
            expect_answer(&w, launched,
                          err == cudaSuccess ? GS_SUCCESS
                                             : gs__cuda_fail(err, "cudaStreamSynchronize",
                                                             __FILE__, __LINE__),
                          pdl ? (delayed ? "relaunch + PDL, stalls" : "relaunch + PDL")
                              : (delayed ? "relaunch, stalls" : "relaunch"),
                          blocks);
            ++checks;
        }
        w.p.max_delay_ns = 0u;
        printf("apps_kmeans: %lld points, %d blobs, %d iterations (the CPU's assignment settled "
               "after %d): persistent on %d grid sizes, relaunch on 1 and %d blocks%s\n",
               w.p.n, w.blobs, w.p.iters, w.ref_moves, ngrids, bench_blocks,
               pdl_ok ? " with and without PDL" : " (no PDL on this device)");
        km_destroy(&w);
    }
    CUDA_OK(cudaStreamDestroy(rs));
    GS_OK(gs_barrier_destroy(bar));
    return gs_test_finish("apps_kmeans", checks);
}
