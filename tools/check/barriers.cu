/* barriers.cu - every barrier method keeps its order: each block writes its
 * slot, barrier, reads its neighbour's and checks it, barrier; 500 times (a
 * thousand barriers) at 1 block, 1 per SM and the co-resident maximum, one
 * launch per method and grid, each a gridsync barrier of that method
 * (gs_grid_sync through the public API, the watchdog on every wait). */
#include <gridsync/barrier.cuh>

#include <stdio.h>

#include "gridsync_internal.h"
#include "check/check.h"

enum { ITERATIONS = 500, THREADS = 256 };

static __device__ __forceinline__ unsigned int slot_value(int it, unsigned int block)
{
    return (unsigned int)it * 2654435761u + block + 1u;
}

/* A value written before a barrier must be read after it: a method that lets
 * a block through early, or leaves its writes unseen, shows as wrong slots. */
static __global__ void exchange(gs_grid_barrier bar, unsigned int *slots, unsigned int *errors,
                                int iterations)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    unsigned int bad = 0u;
    for (int it = 0; it < iterations; ++it) {
        if (threadIdx.x == 0u)
            slots[b] = slot_value(it, b);
        gs_grid_sync(&bar);
        if (threadIdx.x == 0u)
            bad += slots[next] != slot_value(it, next);
        gs_grid_sync(&bar);
    }
    if (threadIdx.x == 0u && bad)
        atomicAdd(errors, bad);
}

/* One method on one grid: *wrong receives the wrong values seen. */
static gs_status exchange_with(gs_barrier_method method, int blocks, unsigned int *slots,
                               unsigned int *errors, unsigned int *wrong)
{
    gs_barrier_t bar = NULL;
    gs_grid_barrier view;
    int iterations = ITERATIONS;
    GS_TRY(gs_barrier_create(&bar, method));
    gs_status st = gs_barrier_device(bar, (unsigned int)blocks, &view);
    cudaError_t err = cudaMemset(errors, 0, sizeof *errors);
    if (st == GS_SUCCESS && err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemset(check)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        void *args[] = {&view, &slots, &errors, &iterations};
        st = gs_launch((const void *)exchange, dim3((unsigned int)blocks), dim3(THREADS), 0, 0,
                       args, bar);
    }
    if (st == GS_SUCCESS)
        st = gs_barrier_check(bar, 0);
    if (st == GS_SUCCESS && (err = cudaMemcpy(wrong, errors, sizeof *wrong,
                                              cudaMemcpyDeviceToHost)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemcpy(check)", __FILE__, __LINE__);
    gs_barrier_destroy(bar);
    return st;
}

static int run(const gs_check_env *env, char *figure, size_t len)
{
#define GS__METHOD_CONSTANT(constant, name) constant,
    static const gs_barrier_method methods[] = {GS_BARRIER_METHODS(GS__METHOD_CONSTANT)};
#undef GS__METHOD_CONSTANT
    const int nmethods = (int)(sizeof methods / sizeof methods[0]);
    int fit = 0, pairs = 0;
    unsigned int *slots = NULL, *errors = NULL, wrong = 0;
    gs_status st = gs_max_coresident_blocks((const void *)exchange, THREADS, 0, &fit);
    const int most = env->max_blocks < fit ? env->max_blocks : fit;
    const int blocks[3] = {1, env->dev->sm_count < most ? env->dev->sm_count : most, most};
    cudaError_t err = cudaMalloc((void **)&slots, (size_t)most * sizeof *slots);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&errors, sizeof *errors);
    if (st == GS_SUCCESS && err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc(check)", __FILE__, __LINE__);
    for (int m = 0; m < nmethods && st == GS_SUCCESS && wrong == 0u; ++m)
        for (int g = 0; g < 3 && st == GS_SUCCESS && wrong == 0u; ++g) {
            st = exchange_with(methods[m], blocks[g], slots, errors, &wrong);
            pairs += st == GS_SUCCESS;
            if (st == GS_SUCCESS && wrong)
                snprintf(figure, len, "%s at %d blocks: %u wrong values in %d barriers",
                         gs_barrier_method_name(methods[m]), blocks[g], wrong, 2 * ITERATIONS);
        }
    cudaFree(slots);
    cudaFree(errors);
    if (st != GS_SUCCESS)
        snprintf(figure, len, "%s: %s", gs_status_string(st), gs_last_error_detail());
    else if (wrong == 0u)
        snprintf(figure, len, "%d method/grid pairs at 1, %d and %d blocks, %d barriers each: "
                              "every exchanged value right",
                 pairs, blocks[1], blocks[2], 2 * ITERATIONS);
    return st == GS_SUCCESS && wrong == 0u;
}

extern "C" const gs_check gs_check_barriers = {
    "barriers",
    "every barrier method, ordering checked by exchanging data across blocks over 1000 "
    "barriers at 1 block, 1 per SM and the co-resident maximum",
    run};
