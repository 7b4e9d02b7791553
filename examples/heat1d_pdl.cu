/*
 * heat1d_pdl.cu - the 1-D heat rod of heat1d.cu with a kernel boundary
 * between the steps instead of a grid barrier: one kernel a step, chained
 * with programmatic dependent launch (gs_launch_pdl), captured once into a
 * CUDA graph and replayed. On sm_90 each step's kernel is scheduled while
 * the last one drains; gs_pdl_wait holds its reads (and its writes: it
 * overwrites the buffer the last step read) until that step has completed.
 * No co-residency needed: the grid covers the rod, one thread a cell.
 * Where this beats a persistent kernel with gs_grid_sync: docs/pdl.md.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc heat1d_pdl.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_heat1d_pdl [cells] [steps]
 */
#include <gridsync.h>
#include <gridsync/pdl.cuh>

#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"
#include "heat1d_reference.h"

static __global__ void heat_step(const float *src, float *dst, int n, float r)
{
    gs_pdl_launch_dependents(); /* the next step may be scheduled now */
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    gs_pdl_wait(); /* the last step has written src and finished reading dst */
    if (i < n) {
        float left = i > 0 ? src[i - 1] : 0.0f, right = i < n - 1 ? src[i + 1] : 0.0f;
        dst[i] = src[i] + r * (left - 2.0f * src[i] + right);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 500;
    if (n < 3 || steps < 1) {
        fprintf(stderr, "usage: example_heat1d_pdl [cells >= 3] [steps >= 1]\n");
        return 2;
    }
    int count = 0, overlap = 0;
    GS_CHECK(gs_device_count(&count));
    GS_CHECK(gs_pdl_overlaps((const void *)heat_step, &overlap));
    const float r = 0.25f;
    float *h = heat1d_rod(n);
    if (!h) {
        fprintf(stderr, "example_heat1d_pdl: out of host memory\n");
        return 1;
    }
    float *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));

    /* every step once into a graph (step t reads a for even t, b for odd) */
    const int threads = 256, blocks = (n + threads - 1) / threads;
    cudaStream_t stream;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int t = 0; t < steps; ++t) {
        const float *src = t % 2 ? b : a;
        float *dst = t % 2 ? a : b;
        void *args[] = {(void *)&src, (void *)&dst, &n, (void *)&r};
        GS_CHECK(gs_launch_pdl((const void *)heat_step, dim3(blocks), dim3(threads), 0, stream,
                               args));
    }
    CHECK(cudaStreamEndCapture(stream, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(h, steps % 2 ? b : a, n * sizeof(float), cudaMemcpyDeviceToHost));

    const double err = heat1d_max_error(h, n, steps, r); /* the same steps on the CPU, FP64 */
    if (err < 0.0) {
        fprintf(stderr, "example_heat1d_pdl: out of host memory\n");
        return 1;
    }
    printf("heat1d_pdl: %d cells, %d steps as a graph of %d kernels of %d blocks x %d threads "
           "(%s): max |gpu - cpu| = %.2e %s\n",
           n, steps, steps, blocks, threads,
           overlap ? "overlapping: PDL" : "ordinary launches: no PDL here", err,
           err < 1e-4 ? "(ok)" : "(WRONG)");
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
    cudaFree(a);
    cudaFree(b);
    free(h);
    return err < 1e-4 ? 0 : 1;
}
