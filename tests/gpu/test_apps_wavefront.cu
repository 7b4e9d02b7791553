/*
 * test_apps_wavefront.cu - the wavefront of `gridsync bench apps`
 * (tools/suites/apps/wavefront/wavefront.cuh), its very kernels, against the CPU's
 * DP: the signal version at odd string lengths (one band, one tile column,
 * partial tiles both ways, more bands than blocks) on grids of 1, 2, SMs,
 * SMs + 1 and the co-resident maximum blocks, with and without random
 * stalls at tile edges, every launch going on from the signal values the
 * last one left; the full-barrier version once per length, the relaunch
 * versions (with and without programmatic dependent launch) with and
 * without random stalls of tiles.
 * Every band's bottom row and every tile column's right column is compared
 * exactly, after poisoning them.
 */
#include "gpu_test.h"
#include "grid_sizes.h"

#include "suites/apps/wavefront/wavefront.cuh"

/* Run `what` (already enqueued), collect its watchdog, compare exactly. */
static void expect_exact(wf_host *w, gs_status launched, gs_status settled, const char *what,
                         unsigned int blocks)
{
    EXPECT(launched == GS_SUCCESS && settled == GS_SUCCESS, "%s, %d x %d, %u blocks: %s: %s",
           what, w->p.m, w->p.n, blocks,
           gs_status_string(launched != GS_SUCCESS ? launched : settled), gs_last_error_detail());
    long long bad = 0;
    double rel = 0.0;
    gs_status st = wf_check(w, what, &bad, &rel);
    EXPECT(st == GS_SUCCESS, "%u blocks: %s", blocks, gs_last_error_detail());
}

int main(void)
{
    gs_test_require_gpu("apps_wavefront");
    const unsigned long long seed = gs_test_seed("apps_wavefront");
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int most = 0;
    GS_OK(gs_max_coresident_blocks((const void *)wf_signal_kernel, 64, 0, &most));
    unsigned int grids[6];
    const int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)most, grids);
    /* m x n: 1 cell; one band and one tile column; partial tiles; a band
     * of one row; more bands (133) than an H100/H200 has SMs */
    static const int lengths[][2] = {{1, 1},     {127, 31},   {129, 33},  {1000, 999},
                                     {3001, 777}, {257, 4099}, {17001, 257}};
    const int nlengths = quick ? 3 : (int)(sizeof lengths / sizeof lengths[0]);

    wf_signals sig = {NULL, {}, 0ull};
    GS_OK(gs_signals_create(&sig.set, (unsigned int)most));
    GS_OK(gs_signals_set_timeout(sig.set, quick ? 30.0 : 5.0));
    GS_OK(gs_signals_device(sig.set, &sig.view));
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    int pdl_ok = 0;
    GS_OK(wf_pdl_supported(&pdl_ok));
    cudaStream_t rs; /* the relaunches' stream (as the bench's: non-blocking) */
    CUDA_OK(cudaStreamCreateWithFlags(&rs, cudaStreamNonBlocking));
    int checks = 0;
    for (int l = 0; l < nlengths; ++l) {
        wf_host w;
        GS_OK(wf_create(&w, lengths[l][0], lengths[l][1], seed + (unsigned long long)l));
        for (int g = 0; g < ngrids; ++g)
            for (int delayed = 0; delayed < 2; ++delayed) {
                w.p.delay_seed = (unsigned int)(seed >> 7) + (unsigned int)(g * 2 + delayed);
                w.p.max_delay_ns = delayed ? 2000u : 0u;
                GS_OK(wf_poison(&w, 0));
                gs_status launched = wf_solve_signals(&w, &sig, (int)grids[g], 0);
                expect_exact(&w, launched, gs_signals_check(sig.set, 0), "gridsync signals",
                             grids[g]);
                ++checks;
            }
        w.p.max_delay_ns = 0u;
        int sb = 0, bb = 0;
        GS_OK(wf_grids(&w.p, &sb, &bb));
        gs_grid_barrier view;
        GS_OK(gs_barrier_device(bar, (unsigned int)bb, &view));
        GS_OK(wf_poison(&w, 0));
        gs_status launched = wf_solve_barrier(&w, bar, &view, bb, 0);
        expect_exact(&w, launched, gs_barrier_check(bar, 0), "full barrier per diagonal",
                     (unsigned int)bb);
        for (int run = 0; run < 2 * (1 + pdl_ok); ++run) {
            const int pdl = run >> 1, delayed = run & 1;
            w.p.delay_seed = (unsigned int)(seed >> 9) + (unsigned int)run;
            w.p.max_delay_ns = delayed ? 2000u : 0u;
            GS_OK(wf_poison(&w, rs));
            launched = wf_solve_relaunch(&w, pdl, rs);
            cudaError_t err = cudaStreamSynchronize(rs);
            expect_exact(&w, launched,
                         err == cudaSuccess ? GS_SUCCESS
                                            : gs__cuda_fail(err, "cudaStreamSynchronize",
                                                            __FILE__, __LINE__),
                         pdl ? (delayed ? "relaunch + PDL, stalls" : "relaunch + PDL")
                             : (delayed ? "relaunch, stalls" : "relaunch"),
                         (unsigned int)(w.p.tr < w.p.tc ? w.p.tr : w.p.tc));
            ++checks;
        }
        printf("apps_wavefront: %d x %d: LCS %d, signals on %d grid sizes, barrier on %d "
               "blocks, relaunch%s\n", w.p.m, w.p.n, w.lcs, ngrids, bb,
               pdl_ok ? " with and without PDL" : " (no PDL on this device)");
        ++checks;
        wf_destroy(&w);
    }
    CUDA_OK(cudaStreamDestroy(rs));
    GS_OK(gs_barrier_destroy(bar));
    GS_OK(gs_signals_destroy(sig.set));
    return gs_test_finish("apps_wavefront", checks);
}
