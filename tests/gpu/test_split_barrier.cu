/*
 * test_split_barrier.cu - gs_grid_arrive / gs_grid_wait order memory across
 * the grid: each step the last thread of every block writes its slot,
 * arrives, works on its own (a random delay, and writes to a block-private
 * area), waits, then two threads check two other blocks' slots; a second
 * barrier (gs_grid_sync every other step: the two mix on one view) keeps
 * slots from being rewritten before everyone has read them. Grid sizes 1,
 * 2, SMs, SMs + 1 and the co-resident maximum, over 10^6 barriers; blocks
 * of 256 threads, of one warp (the poller is thread 0, which releases; the
 * grid reaches thousands of blocks, so the poller's gate is long) and of
 * 20 x 5 (the poller is lane 0 of a partial last warp).
 */
#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

static __global__ void split_kernel(gs_grid_barrier bar, unsigned int *slots,
                                    unsigned int *private_area, unsigned int *errors, int iters,
                                    unsigned int seed, unsigned int max_delay_ns)
{
    const unsigned int n = gridDim.x, b = blockIdx.x;
    const unsigned int t = threadIdx.x + blockDim.x * threadIdx.y, nt = blockDim.x * blockDim.y;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (t == nt - 1u)
            slots[b] = ex_value(seed, it, b);
        gs_grid_token token = gs_grid_arrive(&bar);
        unsigned int h = ex_hash(seed ^ (unsigned int)it * 40503u ^ (b << 11));
        if (max_delay_ns && t == 0u && (h & 7u) == 0u)
            __nanosleep((h >> 3) % max_delay_ns); /* independent work of uneven length */
        private_area[b * nt + t] += 1u;
        gs_grid_wait(&bar, token);
        bad += ex_check_slots(slots, seed, it, b, n);
        if (it & 1) {
            gs_grid_sync(&bar);
        } else {
            gs_grid_token second = gs_grid_arrive(&bar);
            gs_grid_wait(&bar, second);
        }
    }
    if (private_area[b * nt + t] != (unsigned int)iters)
        ++bad;
    if (bad)
        atomicAdd(errors, bad);
}

int main(void)
{
    gs_test_require_gpu("split_barrier");
    srand((unsigned int)gs_test_seed("split_barrier"));
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const int threads = 256;
    const gs_barrier_method methods[] = {GS_BARRIER_AUTO, GS_BARRIER_LOCK, GS_BARRIER_AUTO,
                                         GS_BARRIER_AUTO};
    const dim3 shapes[] = {dim3(threads), dim3(threads), dim3(32), dim3(20, 5)};
    enum { CASES = sizeof shapes / sizeof shapes[0], MAX_GRIDS = 6 };
    int max_blocks[CASES], most = 0;
    for (int m = 0; m < CASES; ++m) {
        GS_OK(gs_max_coresident_blocks((const void *)split_kernel,
                                       (int)(shapes[m].x * shapes[m].y), 0, &max_blocks[m]));
        most = max_blocks[m] > most ? max_blocks[m] : most;
    }
    const int iters = quick ? 6 : 500000 / MAX_GRIDS + 1; /* two barriers each */

    unsigned int *slots, *area, *errors;
    CUDA_OK(cudaMalloc(&slots, (size_t)most * sizeof *slots));
    CUDA_OK(cudaMalloc(&area, (size_t)most * threads * sizeof *area));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));
    int checks = 0;
    long long barriers = 0;
    for (int m = 0; m < CASES; ++m) {
        gs_barrier_t bar;
        const dim3 shape = shapes[m];
        unsigned int grids[MAX_GRIDS];
        int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)max_blocks[m],
                                        grids);
        GS_OK(gs_barrier_create(&bar, methods[m]));
        GS_OK(gs_barrier_set_timeout(bar, quick ? 30.0 : 5.0));
        for (int g = 0; g < ngrids; ++g) {
            unsigned int blocks = grids[g], seed = (unsigned int)rand(), bad = 0;
            unsigned int delay = g % 2 ? 0u : 4000u;
            int its = m == 0 ? iters : iters / 10 + 1;
            gs_grid_barrier view;
            GS_OK(gs_barrier_device(bar, blocks, &view));
            CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
            CUDA_OK(cudaMemset(area, 0, (size_t)blocks * threads * sizeof *area));
            void *args[] = {&view, &slots, &area, &errors, &its, &seed, &delay};
            GS_OK(gs_launch((const void *)split_kernel, dim3(blocks), shape, 0, 0, args, bar));
            gs_status st = gs_barrier_check(bar, 0);
            EXPECT(st == GS_SUCCESS, "%s, %u blocks of %ux%u: %s: %s",
                   gs_barrier_method_name(methods[m]), blocks, shape.x, shape.y,
                   gs_status_string(st), gs_last_error_detail());
            CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
            EXPECT(bad == 0, "view method %s, %u blocks of %ux%u, delay %u ns: %u wrong values "
                   "in %d steps", gs_barrier_method_name(methods[m]), blocks, shape.x, shape.y,
                   delay, bad, its);
            barriers += 2ll * its;
            ++checks;
        }
        GS_OK(gs_barrier_destroy(bar));
    }
    printf("split_barrier: %lld barriers, grids of 1 .. %d blocks\n", barriers, most);
    cudaFree(slots);
    cudaFree(area);
    cudaFree(errors);
    return gs_test_finish("split_barrier", checks);
}
