/*
 * power_iteration.cu - the largest eigenvalue of the 1-D Laplacian
 * tridiag(-1, 2, -1) by power iteration, in one persistent kernel, with
 * the grid all-reduce for the two global sums of each iteration and a
 * neighbour barrier for the vector's halo.
 *
 * Each iteration: y = A x (reads x of the neighbouring blocks' edge cells);
 * s = sum y^2 and lambda = sum x y (two gs_grid_allreduce_sum_f64: every
 * thread gets both, the same bits everywhere); x = y / sqrt(s); then
 * gs_neighbour_sync_1d so that the next y = A x sees the new x of blocks
 * b - 1 and b + 1. Checked against the same iteration on the CPU in double
 * precision, and shown next to the exact eigenvalue 2 - 2 cos(n pi / (n + 1)).
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc power_iteration.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_power_iteration [n] [iterations]
 */
#include <gridsync.h>
#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/neighbour.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

enum { PER_THREAD = 4 }; /* cells a thread owns */

static __global__ void power(gs_grid_barrier bar, double *x, double *lambda_out, int n, int iters)
{
    int chunk = (n + (int)gridDim.x - 1) / (int)gridDim.x;
    int first = (int)blockIdx.x * chunk, last = min(n, first + chunk);
    double y[PER_THREAD], lambda = 0.0;
    for (int it = 0; it < iters; ++it) {
        double yy = 0.0, xy = 0.0;
        for (int k = 0; k < PER_THREAD; ++k) {
            int i = first + (int)threadIdx.x + k * (int)blockDim.x;
            y[k] = 0.0;
            if (i < last) {
                y[k] = 2.0 * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i < n - 1 ? x[i + 1] : 0.0);
                yy += y[k] * y[k];
                xy += x[i] * y[k];
            }
        }
        double s = gs_grid_allreduce_sum_f64(&bar, yy); /* a grid barrier too: every x read */
        lambda = gs_grid_allreduce_sum_f64(&bar, xy);   /* Rayleigh quotient, |x| = 1 */
        double scale = 1.0 / sqrt(s);
        for (int k = 0; k < PER_THREAD; ++k) {
            int i = first + (int)threadIdx.x + k * (int)blockDim.x;
            if (i < last)
                x[i] = y[k] * scale;
        }
        gs_neighbour_sync_1d(&bar, 0); /* the edge cells of x, before the next y = A x */
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *lambda_out = lambda;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 50000, iters = argc > 2 ? atoi(argv[2]) : 300;
    if (n < 2 || iters < 1) {
        fprintf(stderr, "usage: example_power_iteration [n >= 2] [iterations >= 1]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    double *h = (double *)malloc(3 * (size_t)n * sizeof(double)), *cx = h + n, *cy = cx + n;
    if (!h) {
        fprintf(stderr, "example_power_iteration: out of host memory\n");
        return 1;
    }
    double norm = 0.0;
    for (int i = 0; i < n; ++i) {
        h[i] = 1.0 + (double)((i * 7919) % 101) / 101.0;
        norm += h[i] * h[i];
    }
    for (int i = 0; i < n; ++i)
        cx[i] = h[i] /= sqrt(norm);

    int threads = 256, blocks = 0;
    GS_CHECK(gs_max_coresident_blocks((const void *)power, threads, 0, &blocks));
    int needed = (n + threads * PER_THREAD - 1) / (threads * PER_THREAD);
    if (needed > blocks) {
        fprintf(stderr, "example_power_iteration: n = %d needs %d blocks, at most %d fit\n", n,
                needed, blocks);
        return 2;
    }
    blocks = needed;
    double *x, *lambda, gpu_lambda = 0.0;
    CHECK(cudaMalloc(&x, n * sizeof(double)));
    CHECK(cudaMalloc(&lambda, sizeof(double)));
    CHECK(cudaMemcpy(x, h, n * sizeof(double), cudaMemcpyHostToDevice));
    gs_barrier_t bar;
    gs_grid_barrier view;
    GS_CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_CHECK(gs_barrier_device(bar, (unsigned int)blocks, &view));
    void *args[] = {&view, &x, &lambda, &n, &iters};
    GS_CHECK(gs_launch((const void *)power, dim3(blocks), dim3(threads), 0, 0, args, bar));
    GS_CHECK(gs_barrier_check(bar, 0));
    CHECK(cudaMemcpy(&gpu_lambda, lambda, sizeof gpu_lambda, cudaMemcpyDeviceToHost));

    double cpu_lambda = 0.0; /* the same iterations on the CPU */
    for (int it = 0; it < iters; ++it) {
        double s = 0.0, xy = 0.0;
        for (int i = 0; i < n; ++i) {
            cy[i] = 2.0 * cx[i] - (i > 0 ? cx[i - 1] : 0.0) - (i < n - 1 ? cx[i + 1] : 0.0);
            s += cy[i] * cy[i];
            xy += cx[i] * cy[i];
        }
        cpu_lambda = xy;
        for (int i = 0; i < n; ++i)
            cx[i] = cy[i] / sqrt(s);
    }
    const double pi = 3.14159265358979323846;
    double exact = 2.0 - 2.0 * cos(n * pi / (n + 1.0)), rel = fabs(gpu_lambda - cpu_lambda) / cpu_lambda;
    printf("power_iteration: n = %d, %d iterations on %d blocks: lambda %.12f (CPU %.12f, "
           "|rel diff| %.1e; exact eigenvalue %.12f) %s\n", n, iters, blocks, gpu_lambda,
           cpu_lambda, rel, exact, rel < 1e-10 ? "(ok)" : "(WRONG)");
    gs_barrier_destroy(bar);
    cudaFree(x);
    cudaFree(lambda);
    free(h);
    return rel < 1e-10 ? 0 : 1;
}
