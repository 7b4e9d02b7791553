/*
 * heat1d_neighbour.cu - the 1-D heat stencil of heat1d.cu with a neighbour
 * barrier instead of a grid barrier.
 *
 * Each block owns a contiguous chunk of cells, so a step reads only its own
 * cells and one cell of each neighbouring block. gs_neighbour_sync_1d waits
 * for blocks b - 1 and b + 1 alone: no block waits for the whole grid, and
 * a block is never more than one step ahead of its neighbours, so the two
 * buffers of heat1d.cu are still enough.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc heat1d_neighbour.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_heat1d_neighbour [cells] [steps]
 */
#include <gridsync.h>
#include <gridsync/barrier.cuh>
#include <gridsync/neighbour.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"
#include "heat1d_reference.h"

static __global__ void heat(gs_grid_barrier bar, float *a, float *b, int n, int steps, float r)
{
    int chunk = (n + (int)gridDim.x - 1) / (int)gridDim.x;
    int first = (int)blockIdx.x * chunk, last = min(n, first + chunk);
    for (int t = 0; t < steps; ++t) {
        const float *src = t % 2 ? b : a;
        float *dst = t % 2 ? a : b;
        for (int i = first + (int)threadIdx.x; i < last; i += (int)blockDim.x) {
            float left = i > 0 ? src[i - 1] : 0.0f, right = i < n - 1 ? src[i + 1] : 0.0f;
            dst[i] = src[i] + r * (left - 2.0f * src[i] + right);
        }
        gs_neighbour_sync_1d(&bar, 0); /* blocks b - 1 and b + 1 finished step t */
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 500;
    if (n < 3 || steps < 1) {
        fprintf(stderr, "usage: example_heat1d_neighbour [cells >= 3] [steps >= 1]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    const float r = 0.25f;
    float *h = heat1d_rod(n);
    if (!h) {
        fprintf(stderr, "example_heat1d_neighbour: out of host memory\n");
        return 1;
    }

    float *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));

    /* one block per 256 cells, at most what can be co-resident */
    int threads = 256, blocks = 0;
    GS_CHECK(gs_max_coresident_blocks((const void *)heat, threads, 0, &blocks));
    blocks = (n + 255) / 256 < blocks ? (n + 255) / 256 : blocks;
    gs_barrier_t bar;
    gs_grid_barrier view;
    GS_CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_CHECK(gs_barrier_device(bar, (unsigned int)blocks, &view));
    void *args[] = {&view, &a, &b, &n, &steps, (void *)&r};
    GS_CHECK(gs_launch((const void *)heat, dim3(blocks), dim3(threads), 0, 0, args, bar));
    GS_CHECK(gs_barrier_check(bar, 0));
    CHECK(cudaMemcpy(h, steps % 2 ? b : a, n * sizeof(float), cudaMemcpyDeviceToHost));

    const double err = heat1d_max_error(h, n, steps, r); /* the same steps on the CPU, FP64 */
    if (err < 0.0) {
        fprintf(stderr, "example_heat1d_neighbour: out of host memory\n");
        return 1;
    }
    printf("heat1d_neighbour: %d cells, %d steps on %d blocks x %d threads: max |gpu - cpu| = "
           "%.2e %s\n", n, steps, blocks, threads, err, err < 1e-4 ? "(ok)" : "(WRONG)");
    gs_barrier_destroy(bar);
    cudaFree(a);
    cudaFree(b);
    free(h);
    return err < 1e-4 ? 0 : 1;
}
