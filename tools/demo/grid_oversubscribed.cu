/*
 * grid_oversubscribed.cu - a grid barrier in a grid that cannot be resident
 * all at once.
 *
 * A grid barrier waits for every block; a block that is not resident can
 * only start when a resident one exits, and the resident ones are waiting at
 * the barrier: without a guard, the kernel hangs forever. gs_launch refuses
 * such a grid before launching (with the numbers); a plain launch is guarded
 * by the watchdog: the resident blocks time out and leave, and
 * gs_barrier_check names the blocks that never arrived (the ones that had
 * not started).
 */
#include <gridsync/barrier.cuh>

#include <stdio.h>
#include <string.h>

#include "gridsync_internal.h"
#include "demo/demo.h"

/* What the two launches of an oversubscribed grid gave. */
typedef struct oversub_result {
    int max_blocks;          /* co-resident maximum for the kernel */
    int requested;           /* blocks asked for (max_blocks + extra) */
    gs_status launch_status; /* what gs_launch said (GS_ERR_NOT_CORESIDENT) */
    char launch_detail[512];
    gs_status plain_status;  /* the plain launch's gs_barrier_check verdict */
    char plain_detail[512];
} oversub_result;

static __global__ void __launch_bounds__(1024) barrier_loop(gs_grid_barrier bar, int iters)
{
    for (int it = 0; it < iters; ++it)
        gs_grid_sync(&bar);
}

static void keep_detail(char *dst, size_t len)
{
    snprintf(dst, len, "%s", gs_last_error_detail());
}

/* Launch a grid-barrier kernel with `extra` blocks more than fit: through
 * gs_launch, then with a plain <<<>>> launch guarded by the watchdog
 * (`timeout_s` seconds). */
static gs_status oversubscribe(int extra, double timeout_s, oversub_result *r)
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

static gs_status run_demo(const gs_demo_opts *o, const gs_device_info *dev, int *correct)
{
    oversub_result r;
    (void)o, (void)dev;
    printf("grid-oversubscribed: a kernel that calls a grid barrier, launched with more\n"
           "blocks (1024 threads each) than the GPU can hold at once.\n\n");
    GS_TRY(oversubscribe(8, 0.5, &r));
    printf("  co-resident maximum %d blocks; requested %d\n", r.max_blocks, r.requested);
    printf("  through gs_launch:   %s: %s\n", gs_status_string(r.launch_status), r.launch_detail);
    printf("  plain <<<>>> launch: %s: %s\n", gs_status_string(r.plain_status), r.plain_detail);
    printf("\nmeaning: the resident blocks wait at the barrier for blocks that can only start\n"
           "when a resident block exits: without a guard, a hang. gs_launch refuses the grid\n"
           "up front; the watchdog turns a plain launch's hang into an error naming the\n"
           "blocks that never arrived.\n");
    *correct = r.launch_status == GS_ERR_NOT_CORESIDENT && r.plain_status == GS_ERR_BARRIER_TIMEOUT;
    if (!*correct)
        printf("  expected a refusal and a time-out: FAIL\n");
    return GS_SUCCESS;
}

extern "C" const gs_demo gs_demo_grid_oversubscribed = {
    "grid-oversubscribed",
    "a grid barrier with more blocks than fit: refused by gs_launch, timed out by the watchdog "
    "on a plain launch",
    0, 0, run_demo, NULL};

