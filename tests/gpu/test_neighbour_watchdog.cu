/*
 * test_neighbour_watchdog.cu - the neighbour barrier's watchdog names the
 * cause: in a gs_neighbour_sync_1d loop of 132 blocks, block 37 returns
 * after step 10; its neighbours wait for it, their neighbours for them, and
 * so on down the chain, and whichever wait times out first, the report must
 * name block 37 (the block furthest behind), three runs of three. Then the
 * same barrier runs the loop without the early return.
 */
#include <string.h>

#include <gridsync/neighbour.cuh>

#include "gpu_test.h"

enum { BLOCKS = 132, VICTIM = 37, STOP_AT = 10, STEPS = 20, THREADS = 128 };

static __global__ void loop(gs_grid_barrier bar, int victim, unsigned int *steps_done)
{
    for (int step = 0; step < STEPS; ++step) {
        if ((int)blockIdx.x == victim && step == STOP_AT)
            return;
        gs_neighbour_sync_1d(&bar, 0u);
    }
    if (threadIdx.x == 0)
        atomicAdd(steps_done, 1u);
}

int main(void)
{
    gs_test_require_gpu("neighbour_watchdog");
    const double timeout = gs_test_sanitizer() ? 3.0 : 0.25;
    int coresident = 0, checks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)loop, THREADS, 0, &coresident));
    if (coresident < BLOCKS) {
        printf("neighbour_watchdog: SKIP: %d blocks of %d threads fit, the case needs %d\n",
               coresident, THREADS, BLOCKS);
        return GS_TEST_SKIP;
    }
    unsigned int *done;
    CUDA_OK(cudaMalloc((void **)&done, sizeof *done));
    gs_barrier_t bar;
    gs_grid_barrier view;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, timeout));
    GS_OK(gs_barrier_device(bar, BLOCKS, &view));
    char want[96];
    snprintf(want, sizeof want, "block %d fell behind: it arrived at %d neighbour barriers", VICTIM,
             STOP_AT);
    for (int run = 0; run < 3; ++run) {
        int victim = VICTIM;
        void *args[] = {&view, &victim, &done};
        GS_OK(gs_launch((const void *)loop, dim3(BLOCKS), dim3(THREADS), 0, 0, args, bar));
        gs_status st = gs_barrier_check(bar, 0);
        const char *detail = gs_last_error_detail();
        EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want) != NULL,
               "run %d: %s: '%s' (want \"%s\")", run, gs_status_string(st), detail, want);
        printf("  run %d: %s\n", run, detail);
        ++checks;
    }
    /* the next launch on the barrier, nobody stopping, completes */
    int nobody = -1;
    unsigned int finished = 0u;
    CUDA_OK(cudaMemset(done, 0, sizeof *done));
    void *args[] = {&view, &nobody, &done};
    GS_OK(gs_launch((const void *)loop, dim3(BLOCKS), dim3(THREADS), 0, 0, args, bar));
    gs_status st = gs_barrier_check(bar, 0);
    CUDA_OK(cudaMemcpy(&finished, done, sizeof finished, cudaMemcpyDeviceToHost));
    EXPECT(st == GS_SUCCESS && finished == BLOCKS, "after the time-outs: %s, %u of %d blocks done",
           gs_status_string(st), finished, BLOCKS);
    ++checks;
    GS_OK(gs_barrier_destroy(bar));
    CUDA_OK(cudaFree(done));
    return gs_test_finish("neighbour_watchdog", checks);
}
