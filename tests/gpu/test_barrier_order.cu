/*
 * test_barrier_order.cu - every barrier method orders memory across blocks:
 * thousands of barriers per configuration, grid sizes from 1 to the
 * co-resident maximum (odd sizes included), block sizes 32 to 1024, with and
 * without random per-block delays; flags also at as many blocks as a block
 * has threads and one more (where it turns to flip's counter). Zero wrong
 * values allowed.
 */
#include <time.h>

#include "exchange.cuh"
#include "gpu_test.h"

typedef struct tree_params {
    unsigned int flat_max, group; /* 0, 0: library defaults */
} tree_params;

static int run(gs_barrier_method method, tree_params tp, int threads, unsigned int blocks,
               int iters, unsigned int delay_ns, unsigned int *slots, unsigned int *errors)
{
    gs_barrier_t bar;
    gs_grid_barrier view;
    unsigned int seed = (unsigned int)rand(), bad = 0;
    GS_OK(gs_barrier_create(&bar, method));
    GS_OK(gs_barrier_set_tree_params(bar, tp.flat_max, tp.group));
    GS_OK(gs_barrier_set_timeout(bar, gs_test_sanitizer() ? 20.0 : 5.0));
    GS_OK(gs_barrier_device(bar, blocks, &view));
    CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
    void *args[] = {&view, &slots, &errors, &iters, &seed, &delay_ns};
    GS_OK(gs_launch((const void *)exchange_kernel, dim3(blocks), dim3((unsigned int)threads), 0,
                    0, args, bar));
    gs_status st = gs_barrier_check(bar, 0);
    EXPECT(st == GS_SUCCESS, "%s, %d threads x %u blocks: %s: %s", gs_barrier_method_name(method),
           threads, blocks, gs_status_string(st), gs_last_error_detail());
    CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
    EXPECT(bad == 0, "%s (flat_max %u, group %u), %d threads x %u blocks, delay %u ns: %u wrong "
           "values in %d iterations", gs_barrier_method_name(method), tp.flat_max, tp.group,
           threads, blocks, delay_ns, bad, iters);
    GS_OK(gs_barrier_destroy(bar));
    return 1;
}

int main(void)
{
    gs_test_require_gpu("barrier_order");
    srand((unsigned int)gs_test_seed("barrier_order"));
    const int quick = gs_test_sanitizer();
    const int iters = quick ? 8 : 1000;
    const int sizes_full[] = {32, 96, 256, 1024}, sizes_quick[] = {32, 256};
    const int *sizes = quick ? sizes_quick : sizes_full;
    const int nsizes = quick ? 2 : 4;
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const unsigned int sms = (unsigned int)info.sm_count;

    unsigned int *slots, *errors;
    CUDA_OK(cudaMalloc(&slots, (size_t)sms * info.max_blocks_per_sm * sizeof *slots));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));

    int checks = 0;
    const tree_params defaults = {0, 0};
    for (int s = 0; s < nsizes; ++s) {
        int max_blocks = 0;
        GS_OK(gs_max_coresident_blocks((const void *)exchange_kernel, sizes[s], 0, &max_blocks));
        const unsigned int mb = (unsigned int)max_blocks;
        unsigned int grids_full[] = {1, 2, 3, 7, 31, sms, sms + 1u, mb - 1u, mb};
        unsigned int grids_quick[] = {1, 3, sms, mb};
        unsigned int *grids = quick ? grids_quick : grids_full;
        int ngrids = quick ? 4 : 9;
        for (int g = 0; g < ngrids; ++g) {
            unsigned int blocks = grids[g] < mb ? grids[g] : mb;
            if (blocks == 0)
                continue;
            for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m) {
                unsigned int delay = (g + m) % 2 ? 2000u : 0u;
                checks += run((gs_barrier_method)m, defaults, sizes[s], blocks, iters, delay,
                              slots, errors);
            }
            /* flags: its words up to one block a thread, flip's counter beyond */
            if (g == ngrids - 1)
                for (unsigned int edge = (unsigned int)sizes[s]; edge <= (unsigned int)sizes[s] + 1u;
                     ++edge)
                    if (edge <= mb)
                        checks += run(GS_BARRIER_FLAGS, defaults, sizes[s], edge, iters,
                                      edge % 2u ? 1000u : 0u, slots, errors);
            /* tree's grouped path at every size, odd groups included */
            tree_params grouped1 = {1, 1}, grouped3 = {1, 3};
            checks += run(GS_BARRIER_TREE, grouped1, sizes[s], blocks, iters, 1000u, slots, errors);
            checks += run(GS_BARRIER_TREE, grouped3, sizes[s], blocks, iters, 0u, slots, errors);
        }
        printf("barrier_order: %4d threads/block done (grids up to %d blocks)\n", sizes[s],
               max_blocks);
    }
    cudaFree(slots);
    cudaFree(errors);
    return gs_test_finish("barrier_order", checks);
}
