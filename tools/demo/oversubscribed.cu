/*
 * oversubscribed.cu - a grid barrier in a grid that cannot be resident all
 * at once, and a barrier that one block skips.
 *
 * A grid barrier waits for every block; a block that is not resident can
 * only start when a resident one exits, and the resident ones are waiting at
 * the barrier: without a guard, the kernel hangs forever. gs_launch refuses
 * such a grid before launching (with the numbers); a plain launch is guarded
 * by the watchdog: the resident blocks time out and leave, and
 * gs_barrier_check names the blocks that never arrived (the ones that had
 * not started). The same watchdog turns a barrier that one block skips into
 * an error naming that block (`gridsync check`).
 */
#include <gridsync/barrier.cuh>

#include <stdio.h>
#include <string.h>

#include "gridsync_internal.h"
#include "demo/demos.h"

static __global__ void __launch_bounds__(1024) barrier_loop(gs_grid_barrier bar, int iters)
{
    for (int it = 0; it < iters; ++it)
        gs_grid_sync(&bar);
}

static __global__ void skipping_loop(gs_grid_barrier bar, unsigned int victim, int iters)
{
    for (int it = 0; it < iters; ++it)
        if (!(blockIdx.x == victim && it == iters / 2)) /* the victim skips one barrier */
            gs_grid_sync(&bar);
}

static void keep_detail(char *dst, size_t len)
{
    snprintf(dst, len, "%s", gs_last_error_detail());
}

extern "C" gs_status gs_demo_oversubscribed(int extra, double timeout_s, gs_oversub_result *r)
{
    const int threads = 1024;
    int iters = 4;
    memset(r, 0, sizeof *r);
    if (extra < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "oversubscribed: extra blocks must be >= 1");
    GS_TRY(gs_max_coresident_blocks((const void *)barrier_loop, threads, 0, &r->max_blocks));
    r->requested = r->max_blocks + extra;
    gs_barrier_t bar = NULL;
    GS_TRY(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    gs_grid_barrier view;
    gs_status st = gs_barrier_set_timeout(bar, timeout_s);
    if (st == GS_SUCCESS)
        st = gs_barrier_device(bar, (unsigned int)r->requested, &view);
    if (st == GS_SUCCESS) {
        void *args[] = {&view, &iters};
        r->launch_status = gs_launch((const void *)barrier_loop, dim3(r->requested),
                                     dim3(threads), 0, 0, args, bar);
        keep_detail(r->launch_detail, sizeof r->launch_detail);
        barrier_loop<<<r->requested, threads>>>(view, iters);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "barrier_loop<<<>>>", __FILE__, __LINE__);
    }
    if (st == GS_SUCCESS) {
        r->plain_status = gs_barrier_check(bar, 0);
        keep_detail(r->plain_detail, sizeof r->plain_detail);
        if (r->plain_status != GS_SUCCESS && r->plain_status != GS_ERR_BARRIER_TIMEOUT)
            st = r->plain_status;
    }
    gs_barrier_destroy(bar);
    return st;
}

extern "C" gs_status gs_demo_stuck_barrier(int blocks, double timeout_s, gs_status *result,
                                           char *detail, size_t len)
{
    gs_barrier_t bar = NULL;
    gs_grid_barrier view;
    unsigned int victim = (unsigned int)blocks / 2u;
    int iters = 6;
    GS_TRY(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    gs_status st = gs_barrier_set_timeout(bar, timeout_s);
    if (st == GS_SUCCESS)
        st = gs_barrier_device(bar, (unsigned int)blocks, &view);
    if (st == GS_SUCCESS) {
        void *args[] = {&view, &victim, &iters};
        st = gs_launch((const void *)skipping_loop, dim3(blocks), dim3(128), 0, 0, args, bar);
    }
    if (st == GS_SUCCESS) {
        *result = gs_barrier_check(bar, 0);
        snprintf(detail, len, "%s", gs_last_error_detail());
        if (*result != GS_SUCCESS && *result != GS_ERR_BARRIER_TIMEOUT)
            st = *result;
    }
    gs_barrier_destroy(bar);
    return st;
}
