/*
 * heat1d.cu - a user's own persistent kernel with a grid barrier.
 *
 * Explicit 1-D heat diffusion: every step reads the neighbours' values from
 * the previous step, so all blocks must finish step t before any block starts
 * step t+1. Instead of one kernel launch per step, one co-resident grid loops
 * over the steps with gs_grid_sync() between them.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc heat1d.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_heat1d [cells] [steps]
 */
#include <gridsync.h>
#include <gridsync/barrier.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"
#include "heat1d_reference.h"

static __global__ void heat(gs_grid_barrier bar, float *a, float *b, int n, int steps, float r)
{
    int stride = gridDim.x * blockDim.x;
    for (int t = 0; t < steps; ++t) {
        const float *src = t % 2 ? b : a;
        float *dst = t % 2 ? a : b;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
            float left = i > 0 ? src[i - 1] : 0.0f, right = i < n - 1 ? src[i + 1] : 0.0f;
            dst[i] = src[i] + r * (left - 2.0f * src[i] + right);
        }
        gs_grid_sync(&bar); /* step t is complete everywhere before step t+1 reads it */
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 500;
    if (n < 3 || steps < 1) {
        fprintf(stderr, "usage: example_heat1d [cells >= 3] [steps >= 1]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    const float r = 0.25f;
    float *h = heat1d_rod(n);
    if (!h) {
        fprintf(stderr, "example_heat1d: out of host memory\n");
        return 1;
    }

    float *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));

    int threads = 256, blocks = 0;
    GS_CHECK(gs_max_coresident_blocks((const void *)heat, threads, 0, &blocks));
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
        fprintf(stderr, "example_heat1d: out of host memory\n");
        return 1;
    }
    printf("heat1d: %d cells, %d steps on %d blocks x %d threads: max |gpu - cpu| = %.2e %s\n", n,
           steps, blocks, threads, err, err < 1e-4 ? "(ok)" : "(WRONG)");
    gs_barrier_destroy(bar);
    cudaFree(a);
    cudaFree(b);
    free(h);
    return err < 1e-4 ? 0 : 1;
}
