/*
 * heat1d_tagged.cu - the 1-D heat stencil of heat1d_neighbour.cu with each
 * block's cells in shared memory for the whole run and its two edge cells
 * passed to the neighbours in tagged words (gridsync/tagged.cuh): no
 * barrier between blocks at all.
 *
 * Each word carries a cell's value and the step that computed it, in one
 * 8-byte store; the neighbour polls the word until it holds that step's
 * tag. Two sets of words, for even and odd steps, are enough: a block
 * rewrites a word two steps later, and only after it has read the
 * neighbour's edge of the step between, which that neighbour computed from
 * the value it read (the reuse rule of tagged.cuh).
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc heat1d_tagged.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_heat1d_tagged [cells] [steps]
 */
#include <gridsync.h>
#include <gridsync/tagged.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"
#include "heat1d_reference.h"

/* edges[parity][block][0 = first cell, 1 = last cell]; step t's cells carry tag t + 1 */
static __global__ void heat(gs_grid_barrier bar, const float *u0, float *out,
                            gs_tagged_word *edges, int n, int steps, float r)
{
    extern __shared__ float cells[]; /* two copies of the chunk, each with a ring cell a side */
    const int g = (int)gridDim.x, b = (int)blockIdx.x, chunk = (n + g - 1) / g;
    const int first = b * chunk, len = min(n, first + chunk) - first;
    float *cur = cells, *nxt = cells + chunk + 2;
    for (int i = (int)threadIdx.x; i < len + 2; i += (int)blockDim.x) {
        const int x = first + i - 1;
        cur[i] = x >= 0 && x < n ? u0[x] : 0.0f; /* outside the rod: 0 */
        nxt[i] = 0.0f;
    }
    __syncthreads();
    for (int t = 0; t < steps; ++t) {
        if (t > 0) { /* the neighbours' edge cells of step t - 1 */
            gs_tagged_word *set = edges + (size_t)(t & 1) * g * 2;
            int gave_up = 0;
            if (threadIdx.x == 0 && b > 0)
                gave_up |= !gs_tagged_get_f32(&bar, &set[2 * (b - 1) + 1], (unsigned)t, b - 1,
                                             &cur[0]);
            if (threadIdx.x == blockDim.x - 1 && b + 1 < g)
                gave_up |= !gs_tagged_get_f32(&bar, &set[2 * (b + 1)], (unsigned)t, b + 1,
                                             &cur[len + 1]);
            gs_block_leave_if(gave_up); /* a block barrier: the ring before the reads */
        }
        gs_tagged_word *mine = edges + (size_t)((t + 1) & 1) * g * 2 + 2 * b;
        for (int i = 1 + (int)threadIdx.x; i <= len; i += (int)blockDim.x) {
            const float v = cur[i] + r * (cur[i - 1] - 2.0f * cur[i] + cur[i + 1]);
            nxt[i] = v;
            if (i == 1 && b > 0)
                gs_tagged_put_f32(&mine[0], v, (unsigned)t + 1u);
            if (i == len && b + 1 < g)
                gs_tagged_put_f32(&mine[1], v, (unsigned)t + 1u);
        }
        float *s = cur; /* the next step's block barrier (gs_block_leave_if) orders this */
        cur = nxt;      /* step's writes before its reads, and its reads before the next */
        nxt = s;        /* step's writes */
    }
    __syncthreads();
    for (int i = (int)threadIdx.x; i < len; i += (int)blockDim.x)
        out[first + i] = cur[i + 1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 500;
    if (n < 3 || n > 4000000 || steps < 1) {
        fprintf(stderr, "usage: example_heat1d_tagged [cells 3 .. 4000000] [steps >= 1]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    const float r = 0.25f;
    float *h = heat1d_rod(n);
    if (!h) {
        fprintf(stderr, "example_heat1d_tagged: out of host memory\n");
        return 1;
    }

    /* one block per SM (fewer for short rods), 256 threads; the chunk's two
     * copies must fit in shared memory, and every block must be resident */
    gs_device_info info;
    GS_CHECK(gs_device_query(0, &info));
    int threads = 256, blocks = info.sm_count < n ? info.sm_count : n, fit = 0;
    const int chunk = (n + blocks - 1) / blocks;
    blocks = (n + chunk - 1) / chunk; /* no empty block */
    const size_t smem = 2 * (size_t)(chunk + 2) * sizeof(float);
    int dev = 0, optin = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (smem > (size_t)optin) {
        fprintf(stderr, "example_heat1d_tagged: %d cells on %d blocks need %zu bytes of shared "
                "memory a block, this GPU allows %d: use fewer cells\n", n, blocks, smem, optin);
        return 2;
    }
    CHECK(cudaFuncSetAttribute((const void *)heat, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)smem));
    GS_CHECK(gs_max_coresident_blocks((const void *)heat, threads, smem, &fit));
    if (fit < blocks) {
        fprintf(stderr, "example_heat1d_tagged: %d blocks of %zu bytes of shared memory do not "
                "fit at once (at most %d)\n", blocks, smem, fit);
        return 1;
    }

    float *u0, *out;
    gs_tagged_word *edges;
    CHECK(cudaMalloc(&u0, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&edges, 4 * (size_t)blocks * sizeof(gs_tagged_word)));
    CHECK(cudaMemset(edges, 0, 4 * (size_t)blocks * sizeof(gs_tagged_word))); /* tag 0 */
    CHECK(cudaMemcpy(u0, h, n * sizeof(float), cudaMemcpyHostToDevice));
    gs_barrier_t bar; /* the tagged words' watchdog and the co-resident launch */
    gs_grid_barrier view;
    GS_CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_CHECK(gs_barrier_device(bar, (unsigned int)blocks, &view));
    void *args[] = {&view, &u0, &out, &edges, &n, &steps, (void *)&r};
    GS_CHECK(gs_launch((const void *)heat, dim3(blocks), dim3(threads), smem, 0, args, bar));
    GS_CHECK(gs_barrier_check(bar, 0));
    CHECK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));

    const double err = heat1d_max_error(h, n, steps, r); /* the same steps on the CPU, FP64 */
    if (err < 0.0) {
        fprintf(stderr, "example_heat1d_tagged: out of host memory\n");
        return 1;
    }
    printf("heat1d_tagged: %d cells, %d steps on %d blocks x %d threads: max |gpu - cpu| = "
           "%.2e %s\n", n, steps, blocks, threads, err, err < 1e-4 ? "(ok)" : "(WRONG)");
    gs_barrier_destroy(bar);
    cudaFree(u0);
    cudaFree(out);
    cudaFree(edges);
    free(h);
    return err < 1e-4 ? 0 : 1;
}
