/*
 * test_barrier_reuse.cu - barrier state needs no host reset: one barrier per
 * method serves a sequence of launches of different grid sizes (flags also
 * one of growing and shrinking grids within its words); two barrier
 * objects interleave in one kernel; a grid over the co-resident maximum is
 * refused and never runs; bad launch arguments are rejected.
 */
#include <string.h>

#include "exchange.cuh"
#include "gpu_test.h"

/* Alternates two barriers of different methods. */
static __global__ void two_barriers(gs_grid_barrier a, gs_grid_barrier b, unsigned int *slots,
                                    unsigned int *errors, int iters)
{
    unsigned int n = gridDim.x, blk = blockIdx.x, o = blk + 1u == n ? 0u : blk + 1u, bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (threadIdx.x == 0)
            slots[blk] = ex_value(11u, it, blk);
        gs_grid_sync(&a);
        if (threadIdx.x == 0)
            bad += slots[o] != ex_value(11u, it, o);
        gs_grid_sync(&b);
    }
    if (bad)
        atomicAdd(errors, bad);
}

/* 2-D grids of 2-D blocks: block ranks and thread 0 follow CUDA's linear
 * order (x fastest), as gs_grid_sync computes them. */
static __global__ void exchange_2d(gs_grid_barrier bar, unsigned int *slots, unsigned int *errors,
                                   int iters)
{
    unsigned int n = gridDim.x * gridDim.y, b = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned int t = threadIdx.x + blockDim.x * threadIdx.y, nt = blockDim.x * blockDim.y;
    unsigned int o = b + 1u == n ? 0u : b + 1u, bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (t == nt - 1u)
            slots[b] = ex_value(23u, it, b);
        gs_grid_sync(&bar);
        if (t == 0u)
            bad += slots[o] != ex_value(23u, it, o);
        gs_grid_sync(&bar);
    }
    if (bad)
        atomicAdd(errors, bad);
}

static __global__ void mark_ran(gs_grid_barrier bar, unsigned int *ran)
{
    if (threadIdx.x == 0)
        atomicAdd(ran, 1u);
    gs_grid_sync(&bar);
}

static unsigned int read_u32(const unsigned int *d)
{
    unsigned int v = 0;
    CUDA_OK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

int main(void)
{
    gs_test_require_gpu("barrier_reuse");
    const unsigned int base_seed = (unsigned int)gs_test_seed("barrier_reuse");
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const unsigned int sms = (unsigned int)info.sm_count;
    int max256 = 0, checks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)exchange_kernel, 256, 0, &max256));
    unsigned int *slots, *errors;
    CUDA_OK(cudaMalloc(&slots, (size_t)sms * info.max_blocks_per_sm * sizeof *slots));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));

    /* 1. one barrier, many launches of different sizes, no reset */
    const unsigned int seq[] = {(unsigned int)max256, 3u, sms, 1u, 7u, 2u * sms + 1u,
                                (unsigned int)max256, 2u, sms - 1u};
    const int iters = quick ? 4 : 200;
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m) {
        gs_barrier_t bar;
        GS_OK(gs_barrier_create(&bar, (gs_barrier_method)m));
        CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
        for (size_t i = 0; i < sizeof seq / sizeof seq[0]; ++i) {
            unsigned int blocks = seq[i] < (unsigned int)max256 ? seq[i] : (unsigned int)max256;
            unsigned int seed = base_seed + 1000u * (unsigned int)i + 1u, delay = 500u;
            gs_grid_barrier view;
            GS_OK(gs_barrier_device(bar, blocks, &view));
            void *args[] = {&view, &slots, &errors, (void *)&iters, &seed, &delay};
            GS_OK(gs_launch((const void *)exchange_kernel, dim3(blocks), dim3(256), 0, 0, args, bar));
        }
        gs_status st = gs_barrier_check(bar, 0);
        EXPECT(st == GS_SUCCESS, "%s: %s", gs_barrier_method_name((gs_barrier_method)m),
               gs_last_error_detail());
        unsigned int bad = read_u32(errors);
        EXPECT(bad == 0, "%s reused across launches: %u wrong values",
               gs_barrier_method_name((gs_barrier_method)m), bad);
        GS_OK(gs_barrier_destroy(bar));
        checks += 2;
    }

    /* 1b. flags: grids that shrink and grow within its words (at most one
     * block a thread): the words past a grid must stay level with it, or the
     * new blocks of a larger grid would pass barriers early */
    {
        const unsigned int grow[] = {2u, 256u, 3u, 255u, 1u, 129u, 256u};
        gs_barrier_t bar;
        GS_OK(gs_barrier_create(&bar, GS_BARRIER_FLAGS));
        CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
        for (size_t i = 0; i < sizeof grow / sizeof grow[0]; ++i) {
            unsigned int blocks = grow[i] < (unsigned int)max256 ? grow[i] : (unsigned int)max256;
            unsigned int seed = base_seed + 77u * (unsigned int)i, delay = i % 2u ? 1500u : 0u;
            int n_iters = iters + (int)i; /* counts that differ from launch to launch */
            gs_grid_barrier view;
            GS_OK(gs_barrier_device(bar, blocks, &view));
            void *args[] = {&view, &slots, &errors, &n_iters, &seed, &delay};
            GS_OK(gs_launch((const void *)exchange_kernel, dim3(blocks), dim3(256), 0, 0, args,
                            bar));
        }
        gs_status st = gs_barrier_check(bar, 0);
        EXPECT(st == GS_SUCCESS, "flags, growing grids: %s", gs_last_error_detail());
        unsigned int bad = read_u32(errors);
        EXPECT(bad == 0, "flags, grids of 2, 256, 3, 255, 1, 129, 256 blocks on one state: %u "
               "wrong values", bad);
        GS_OK(gs_barrier_destroy(bar));
        checks += 2;
    }

    /* 2. two barrier objects in one kernel */
    int max_two = 0;
    GS_OK(gs_max_coresident_blocks((const void *)two_barriers, 256, 0, &max_two));
    for (int m = 1; m < GS_BARRIER_METHOD_COUNT; ++m) {
        gs_barrier_t a, b;
        gs_grid_barrier va, vb;
        unsigned int blocks = (unsigned int)max_two;
        GS_OK(gs_barrier_create(&a, (gs_barrier_method)m));
        GS_OK(gs_barrier_create(&b, (gs_barrier_method)(m % (GS_BARRIER_METHOD_COUNT - 1) + 1)));
        GS_OK(gs_barrier_device(a, blocks, &va));
        GS_OK(gs_barrier_device(b, blocks, &vb));
        CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
        void *args[] = {&va, &vb, &slots, &errors, (void *)&iters};
        GS_OK(gs_launch((const void *)two_barriers, dim3(blocks), dim3(256), 0, 0, args, a));
        EXPECT(gs_barrier_check(a, 0) == GS_SUCCESS, "barrier a: %s", gs_last_error_detail());
        EXPECT(gs_barrier_check(b, 0) == GS_SUCCESS, "barrier b: %s", gs_last_error_detail());
        unsigned int bad = read_u32(errors);
        EXPECT(bad == 0, "two barriers (%s, %s): %u wrong values", gs_barrier_method_name(
               (gs_barrier_method)m), gs_barrier_method_name((gs_barrier_method)(
               m % (GS_BARRIER_METHOD_COUNT - 1) + 1)), bad);
        GS_OK(gs_barrier_destroy(a));
        GS_OK(gs_barrier_destroy(b));
        checks += 3;
    }

    /* 2b. 2-D grids and blocks, every method */
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m) {
        gs_barrier_t bar;
        gs_grid_barrier view;
        dim3 grid(7, 3), block(16, 8);
        GS_OK(gs_barrier_create(&bar, (gs_barrier_method)m));
        GS_OK(gs_barrier_device(bar, grid.x * grid.y, &view));
        CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
        void *args[] = {&view, &slots, &errors, (void *)&iters};
        GS_OK(gs_launch((const void *)exchange_2d, grid, block, 0, 0, args, bar));
        EXPECT(gs_barrier_check(bar, 0) == GS_SUCCESS, "2-D %s: %s",
               gs_barrier_method_name((gs_barrier_method)m), gs_last_error_detail());
        unsigned int bad = read_u32(errors);
        EXPECT(bad == 0, "2-D grid (7x3 of 16x8), %s: %u wrong values",
               gs_barrier_method_name((gs_barrier_method)m), bad);
        GS_OK(gs_barrier_destroy(bar));
        checks += 2;
    }

    /* 3. a grid over the co-resident maximum is refused, not launched */
    {
        gs_barrier_t bar;
        gs_grid_barrier view;
        unsigned int *ran;
        int max_mark = 0;
        GS_OK(gs_max_coresident_blocks((const void *)mark_ran, 256, 0, &max_mark));
        CUDA_OK(cudaMalloc(&ran, sizeof *ran));
        CUDA_OK(cudaMemset(ran, 0, sizeof *ran));
        GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
        GS_OK(gs_barrier_device(bar, 1, &view));
        void *args[] = {&view, &ran};
        gs_status st = gs_launch((const void *)mark_ran, dim3((unsigned int)max_mark + 1u),
                                 dim3(256), 0, 0, args, bar);
        EXPECT(st == GS_ERR_NOT_CORESIDENT, "oversubscribed grid: got %s", gs_status_string(st));
        char expect[128];
        snprintf(expect, sizeof expect, "%d blocks requested, at most %d fit: %d SMs x", max_mark + 1,
                 max_mark, info.sm_count);
        EXPECT(strstr(gs_last_error_detail(), expect) != NULL, "detail '%s' lacks '%s'",
               gs_last_error_detail(), expect);
        CUDA_OK(cudaDeviceSynchronize());
        EXPECT(read_u32(ran) == 0, "a refused grid ran");
        /* the largest grid that fits does run */
        GS_OK(gs_barrier_device(bar, (unsigned int)max_mark, &view));
        GS_OK(gs_launch((const void *)mark_ran, dim3((unsigned int)max_mark), dim3(256), 0, 0, args, bar));
        GS_OK(gs_barrier_check(bar, 0));
        EXPECT(read_u32(ran) == (unsigned int)max_mark, "full grid: %u blocks ran", read_u32(ran));
        /* bad arguments */
        EXPECT(gs_launch((const void *)mark_ran, dim3(0), dim3(256), 0, 0, args, bar) ==
                   GS_ERR_INVALID_ARGUMENT, "zero grid accepted");
        EXPECT(gs_launch((const void *)mark_ran, dim3(1), dim3(2048), 0, 0, args, bar) ==
                   GS_ERR_INVALID_ARGUMENT, "2048-thread block accepted");
        EXPECT(gs_launch(NULL, dim3(1), dim3(32), 0, 0, args, bar) == GS_ERR_INVALID_ARGUMENT,
               "NULL kernel accepted");
        EXPECT(gs_barrier_device(bar, 0, &view) == GS_ERR_INVALID_ARGUMENT, "0-block view");
        GS_OK(gs_barrier_destroy(bar));
        cudaFree(ran);
        checks += 7;
    }
    cudaFree(slots);
    cudaFree(errors);
    return gs_test_finish("barrier_reuse", checks);
}
