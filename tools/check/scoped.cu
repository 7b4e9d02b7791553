/* scoped.cu - the scoped synchronization primitives, one check each: the
 * neighbour barrier, the grid all-reduce, the split-phase barrier, tagged
 * words and signals between blocks, each against values the CPU knows. */
#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/neighbour.cuh>
#include <gridsync/signal.cuh>
#include <gridsync/tagged.cuh>

#include <math.h>
#include <stdio.h>

#include "gridsync_internal.h"
#include "check/check.h"

enum { STEPS = 2000 };

static __device__ __forceinline__ unsigned int value(int it, unsigned int b)
{
    return (unsigned int)it * 2654435761u + b * 40503u + 1u;
}

/* which: 0 neighbour (wrap), 1 split-phase, 2 all-reduce (f64 sum of b + it,
 * exact), 3 tagged words (no barrier: thread 0 puts its value with the
 * step's tag, then gets both neighbours'; the next value adds what the
 * reads were off by, 0 when right: each put depends on the reads of the
 * blocks that read it, the reuse rule of gridsync/tagged.cuh, which a ring
 * read in one direction only would break). `slots` holds 2n 64-bit words. */
static __global__ void scoped_kernel(gs_grid_barrier bar, int which, unsigned int *slots,
                                     unsigned int *errors)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, left = (b + n - 1u) % n;
    unsigned int bad = 0u;
    if (which == 3) {
        gs_tagged_word *words = (gs_tagged_word *)slots;
        const unsigned int right = (b + 1u) % n;
        unsigned int off = 0u;
        for (int it = 0; it < STEPS && threadIdx.x == 0u; ++it) {
            gs_tagged_word *set = words + (unsigned int)(it & 1) * n;
            const unsigned int tag = (unsigned int)it + 1u;
            unsigned int l = 0u, r = 0u;
            gs_tagged_put_u32(set + b, value(it, b) + off, tag);
            if (!gs_tagged_get_u32(&bar, set + left, tag, left, &l) ||
                !gs_tagged_get_u32(&bar, set + right, tag, right, &r))
                break; /* the watchdog fired: gs_barrier_check reports it */
            const unsigned int dl = l - value(it, left), dr = r - value(it, right);
            bad += (dl != 0u) + (dr != 0u);
            off = dl + dr;
        }
        if (bad)
            atomicAdd(errors, bad);
        return;
    }
    for (int it = 0; it < STEPS; ++it) {
        unsigned int *buf = slots + (unsigned int)(it & 1) * n;
        if (threadIdx.x == blockDim.x - 1u)
            buf[b] = value(it, b);
        if (which == 0) {
            gs_neighbour_sync_1d(&bar, GS_NEIGHBOURS_WRAP);
        } else if (which == 1) {
            gs_grid_token token = gs_grid_arrive(&bar);
            gs_grid_wait(&bar, token);
        } else {
            double x = threadIdx.x == 0u ? (double)(b + (unsigned int)it) : 0.0;
            double want = (double)n * (n - 1u) / 2.0 + (double)n * it;
            bad += gs_grid_allreduce_sum_f64(&bar, x) != want;
        }
        if (threadIdx.x == 0u)
            bad += buf[left] != value(it, left);
    }
    if (bad)
        atomicAdd(errors, bad);
}

/* A pipeline: block b takes item i from block b - 1 (signal 2(b-1) reaches
 * i + 1), after block b + 1 took item i - 1 from it (signal 2b + 1). */
static __global__ void pipeline_kernel(gs_signal_set sig, unsigned int *ring,
                                       unsigned int *errors, int items)
{
    const unsigned int n = gridDim.x, b = blockIdx.x;
    unsigned int bad = 0u;
    for (int i = 0; i < items; ++i) {
        if (b > 0u) {
            gs_block_signal_wait(&sig, 2u * (b - 1u), (unsigned long long)i + 1ull);
            bad += threadIdx.x == 0u && ring[b - 1u] != value(i, b - 1u);
            gs_block_signal_add(&sig, 2u * (b - 1u) + 1u, 1ull);
        }
        if (b + 1u < n && i > 0)
            gs_block_signal_wait(&sig, 2u * b + 1u, (unsigned long long)i);
        if (threadIdx.x == 0u)
            ring[b] = value(i, b);
        gs_block_signal_store(&sig, 2u * b, (unsigned long long)i + 1ull);
    }
    if (threadIdx.x == 0u && bad)
        atomicAdd(errors, bad);
}

/* Runs on `*blocks`, lowered to what this kernel can hold. */
static gs_status run_scoped(int which, int *blocks_io, unsigned int *wrong)
{
    gs_barrier_t bar = NULL;
    gs_grid_barrier view;
    unsigned int *slots = NULL, *errors = NULL;
    int fit = 0;
    GS_TRY(gs_max_coresident_blocks((const void *)scoped_kernel, 256, 0, &fit));
    const int blocks = *blocks_io < fit ? *blocks_io : fit;
    *blocks_io = blocks;
    GS_TRY(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    gs_status st = gs_barrier_device(bar, (unsigned int)blocks, &view);
    const size_t bytes = 2u * (size_t)blocks * sizeof(gs_tagged_word);
    cudaError_t err = cudaMalloc((void **)&slots, bytes);
    if (err == cudaSuccess) /* tag 0: never waited for */
        err = cudaMemset(slots, 0, bytes);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&errors, sizeof *errors);
    if (err == cudaSuccess)
        err = cudaMemset(errors, 0, sizeof *errors);
    if (st == GS_SUCCESS && err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc/cudaMemset(check)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        void *args[] = {&view, &which, &slots, &errors};
        st = gs_launch((const void *)scoped_kernel, dim3(blocks), dim3(256), 0, 0, args, bar);
    }
    if (st == GS_SUCCESS)
        st = gs_barrier_check(bar, 0);
    if (st == GS_SUCCESS && (err = cudaMemcpy(wrong, errors, sizeof *wrong,
                                              cudaMemcpyDeviceToHost)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemcpy(check)", __FILE__, __LINE__);
    cudaFree(slots);
    cudaFree(errors);
    gs_barrier_destroy(bar);
    return st;
}

static int verdict(gs_status st, unsigned int wrong, const char *what, int blocks, char *figure,
                   size_t len)
{
    if (st != GS_SUCCESS)
        snprintf(figure, len, "%s: %s", gs_status_string(st), gs_last_error_detail());
    else
        snprintf(figure, len, "%d %s on %d blocks, %u wrong values", STEPS, what, blocks, wrong);
    return st == GS_SUCCESS && wrong == 0u;
}

/* One of run_scoped's kinds on the co-resident maximum, with its verdict. */
static int run_kind(const gs_check_env *env, int kind, const char *what, char *figure,
                    size_t len)
{
    unsigned int wrong = 0;
    int blocks = env->max_blocks;
    gs_status st = run_scoped(kind, &blocks, &wrong);
    return verdict(st, wrong, what, blocks, figure, len);
}

static int run_neighbour(const gs_check_env *env, char *figure, size_t len)
{
    return run_kind(env, 0, "neighbour barriers (1-D, wrap-around)", figure, len);
}

static int run_split(const gs_check_env *env, char *figure, size_t len)
{
    return run_kind(env, 1, "arrive/wait barriers", figure, len);
}

static int run_allreduce(const gs_check_env *env, char *figure, size_t len)
{
    return run_kind(env, 2, "all-reduces (exact f64 sums) as barriers", figure, len);
}

static int run_tagged(const gs_check_env *env, char *figure, size_t len)
{
    return run_kind(env, 3, "tagged-word exchanges (a ring, no barrier)", figure, len);
}

static int run_signals(const gs_check_env *env, char *figure, size_t len)
{
    const int blocks = env->dev->sm_count, items = 500;
    gs_signals_t sig = NULL;
    gs_signal_set view;
    unsigned int *ring = NULL, *errors = NULL, wrong = 0;
    gs_status st = gs_signals_create(&sig, 2u * (unsigned int)blocks);
    if (st == GS_SUCCESS)
        st = gs_signals_device(sig, &view);
    cudaError_t err = cudaMalloc((void **)&ring, (size_t)blocks * sizeof *ring);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&errors, sizeof *errors);
    if (err == cudaSuccess)
        err = cudaMemset(errors, 0, sizeof *errors);
    if (st == GS_SUCCESS && err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc/cudaMemset(check)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        void *args[] = {&view, &ring, &errors, (void *)&items};
        st = gs_launch((const void *)pipeline_kernel, dim3(blocks), dim3(128), 0, 0, args, NULL);
    }
    if (st == GS_SUCCESS)
        st = gs_signals_check(sig, 0);
    if (st == GS_SUCCESS &&
        (err = cudaMemcpy(&wrong, errors, sizeof wrong, cudaMemcpyDeviceToHost)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemcpy(check)", __FILE__, __LINE__);
    cudaFree(ring);
    cudaFree(errors);
    gs_signals_destroy(sig);
    if (st != GS_SUCCESS)
        snprintf(figure, len, "%s: %s", gs_status_string(st), gs_last_error_detail());
    else
        snprintf(figure, len, "a %d-stage pipeline of %d items through signals, %u wrong values",
                 blocks, items, wrong);
    return st == GS_SUCCESS && wrong == 0u;
}

extern "C" const gs_check gs_check_neighbour = {
    "neighbour", "neighbour barriers order memory between adjacent blocks", run_neighbour};
extern "C" const gs_check gs_check_split_barrier = {
    "split barrier", "gs_grid_arrive / gs_grid_wait order memory across the grid", run_split};
extern "C" const gs_check gs_check_allreduce = {
    "all-reduce", "the grid all-reduce returns the exact sum to every thread and is a barrier",
    run_allreduce};
extern "C" const gs_check gs_check_tagged = {
    "tagged words", "tagged words carry each step's value to the next block, no barrier",
    run_tagged};
extern "C" const gs_check gs_check_signals = {
    "signals", "signals between blocks carry a pipeline's data in order", run_signals};
