/* watchdog.cu - the watchdog: a barrier that one block skips must time out
 * and name that block. */
#include <gridsync/barrier.cuh>

#include <stdio.h>
#include <string.h>

#include "gridsync_internal.h"
#include "check/check.h"

static __global__ void skipping_loop(gs_grid_barrier bar, unsigned int victim, int iters)
{
    for (int it = 0; it < iters; ++it)
        if (!(blockIdx.x == victim && it == iters / 2)) /* the victim skips one barrier */
            gs_grid_sync(&bar);
}

/* A barrier that block blocks / 2 skips, under a `timeout_s` watchdog:
 * *result receives gs_barrier_check's status and `detail` its sentence. */
static gs_status stuck_barrier(int blocks, double timeout_s, gs_status *result, char *detail,
                               size_t len)
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

static int run(const gs_check_env *env, char *figure, size_t len)
{
    const int sms = env->dev->sm_count;
    gs_status result = GS_SUCCESS;
    char detail[512] = "", want[64];
    gs_status st = stuck_barrier(sms, 0.5, &result, detail, sizeof detail);
    snprintf(want, sizeof want, "missing: block %d", sms / 2);
    snprintf(figure, len, "a barrier block %d skips: %s", sms / 2,
             st != GS_SUCCESS ? gs_last_error_detail() : detail);
    return st == GS_SUCCESS && result == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want);
}

extern "C" const gs_check gs_check_watchdog = {
    "watchdog", "the watchdog (a barrier one block skips must time out naming it)", run};
