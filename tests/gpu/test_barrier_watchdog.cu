/*
 * test_barrier_watchdog.cu - a stuck barrier becomes an error, never a hang.
 * For every method: a kernel in which one block skips a barrier, and one in
 * which a block exits early, return GS_ERR_BARRIER_TIMEOUT naming that block
 * within the time-out; the very next launch on the same barrier works.
 */
#include <string.h>
#include <time.h>

#include "exchange.cuh"
#include "gpu_test.h"

enum fault { SKIP_ONE, EXIT_EARLY };

static __global__ void faulty(gs_grid_barrier bar, unsigned int victim, int fault, int iters)
{
    for (int it = 0; it < iters; ++it) {
        if (blockIdx.x == victim && it == iters / 2) {
            if (fault == EXIT_EARLY)
                return;
            continue; /* skips this barrier */
        }
        gs_grid_sync(&bar);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int check_fault(gs_barrier_method m, unsigned int blocks, unsigned int victim, int fault,
                       double timeout, unsigned int *slots, unsigned int *errors)
{
    gs_barrier_t bar;
    gs_grid_barrier view;
    int iters = 10;
    GS_OK(gs_barrier_create(&bar, m));
    GS_OK(gs_barrier_set_timeout(bar, timeout));
    GS_OK(gs_barrier_device(bar, blocks, &view));
    double t0 = now_s();
    void *args[] = {&view, &victim, &fault, &iters};
    GS_OK(gs_launch((const void *)faulty, dim3(blocks), dim3(128), 0, 0, args, bar));
    gs_status st = gs_barrier_check(bar, 0);
    double took = now_s() - t0;
    const char *what = fault == SKIP_ONE ? "skips a barrier" : "exits early";
    char detail[1024], want[64], count[64];
    snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    snprintf(want, sizeof want, "missing: block %u", victim);
    snprintf(count, sizeof count, "%u/%u blocks arrived", blocks - 1u, blocks);
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT, "%s, %u blocks, block %u %s: got %s",
           gs_barrier_method_name(m), blocks, victim, what, gs_status_string(st));
    EXPECT(strstr(detail, want) && strstr(detail, count), "%s, block %u %s: detail '%s'",
           gs_barrier_method_name(m), victim, what, detail);
    EXPECT(took < timeout + 3.0, "%s: the time-out took %.2f s (limit %.2f s)",
           gs_barrier_method_name(m), took, timeout);
    printf("  %-8s %4u blocks, block %3u %-15s -> %s (%.2f s)\n", gs_barrier_method_name(m),
           blocks, victim, what, detail, took);

    /* the next launch on the same barrier works */
    unsigned int seed = 5u, delay = 0u, bad = 0u;
    int ok_iters = 50;
    CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
    void *args2[] = {&view, &slots, &errors, &ok_iters, &seed, &delay};
    GS_OK(gs_launch((const void *)exchange_kernel, dim3(blocks), dim3(128), 0, 0, args2, bar));
    st = gs_barrier_check(bar, 0);
    CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
    EXPECT(st == GS_SUCCESS && bad == 0, "%s after a time-out: %s, %u wrong values",
           gs_barrier_method_name(m), gs_status_string(st), bad);
    GS_OK(gs_barrier_destroy(bar));
    return 4;
}

int main(void)
{
    gs_test_require_gpu("barrier_watchdog");
    const double timeout = gs_test_sanitizer() ? 2.0 : 0.25;
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int max128 = 0, max_exchange = 0, checks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)faulty, 128, 0, &max128));
    GS_OK(gs_max_coresident_blocks((const void *)exchange_kernel, 128, 0, &max_exchange));
    if (max_exchange < max128) /* the follow-up launch must fit too */
        max128 = max_exchange;
    unsigned int *slots, *errors;
    CUDA_OK(cudaMalloc(&slots, (size_t)max128 * sizeof *slots));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));

    const unsigned int grids[] = {5u, (unsigned int)max128};
    for (int m = 1; m < GS_BARRIER_METHOD_COUNT; ++m)
        for (int g = 0; g < 2; ++g)
            for (int f = 0; f < 2; ++f) {
                unsigned int blocks = grids[g];
                unsigned int victim = f == SKIP_ONE ? blocks / 2u + 1u : blocks - 2u;
                checks += check_fault((gs_barrier_method)m, blocks, victim, f, timeout, slots,
                                      errors);
            }
    /* the checking block itself goes missing */
    checks += check_fault(GS_BARRIER_TREE, (unsigned int)max128, 0u, EXIT_EARLY, timeout, slots,
                          errors);
    checks += check_fault(GS_BARRIER_LOCKFREE, (unsigned int)max128, 0u, EXIT_EARLY, timeout,
                          slots, errors);
    /* flags at the largest grid that polls its words (a block a thread): every
     * thread of every block waits on a word, the victim's stays behind */
    const unsigned int flags_grid = max128 < 128 ? (unsigned int)max128 : 128u;
    checks += check_fault(GS_BARRIER_FLAGS, flags_grid, 0u, EXIT_EARLY, timeout, slots, errors);
    checks += check_fault(GS_BARRIER_FLAGS, flags_grid, flags_grid - 1u, SKIP_ONE, timeout, slots,
                          errors);
    /* a negative or absurd time-out is refused */
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    EXPECT(gs_barrier_set_timeout(bar, -1.0) == GS_ERR_INVALID_ARGUMENT, "negative time-out");
    EXPECT(gs_barrier_set_timeout(bar, 0.0) == GS_ERR_INVALID_ARGUMENT, "zero time-out");
    GS_OK(gs_barrier_destroy(bar));
    checks += 2;
    cudaFree(slots);
    cudaFree(errors);
    return gs_test_finish("barrier_watchdog", checks);
}
