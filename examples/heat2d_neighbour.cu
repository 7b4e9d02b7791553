/*
 * heat2d_neighbour.cu - a 2-D heat stencil whose field stays in shared
 * memory for the whole run, with a neighbour barrier between steps.
 *
 * The field (zero outside) is split into one tile a block, one block a SM.
 * Each block keeps its tile, with a one-cell ring, in shared memory in two
 * copies (this step's, the next one's); only the tile's edges travel, in a
 * slot of global memory per block. A step: copy the four neighbours' edges
 * into the ring, compute the next copy, publish its edges,
 * gs_neighbour_sync_2d, swap. No block waits for the whole grid, and a step
 * costs its edges and one barrier with four blocks, not a pass over memory.
 *
 * Why it is correct: a block returns from its k-th gs_neighbour_sync_2d
 * once its four neighbours have made their k-th call, and their writes
 * before it are visible after it (release/acquire at GPU scope). So the
 * edges read at step k were published at step k - 1. A block is at most
 * one step ahead of a neighbour, so two edge slots (even and odd steps)
 * suffice: the slot written at step k + 1 is the one read at step k - 1,
 * and no neighbour is still there.
 *
 * When: fields that fit in the SMs' shared memory (about 2^21 cells on an
 * H100/H200); a larger field needs its tiles in global memory, where a step
 * is a pass over memory and the barrier matters less.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc heat2d_neighbour.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_heat2d_neighbour [width] [height] [steps]
 */
#include <gridsync.h>
#include <gridsync/neighbour.cuh>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

enum { THREADS = 512, SIDES = 4 };

/* Where block `rank` publishes side `side` (0 top row, 1 bottom row, 2 left
 * column, 3 right column) at parity p: `len` floats a side. */
static __device__ float *edge(float *edges, int p, int rank, int side, int len)
{
    return edges + ((size_t)(p * gridDim.x * gridDim.y + rank) * SIDES + side) * len;
}

static __global__ void heat(gs_grid_barrier bar, const float *u0, float *out, float *edges,
                            int w, int h, int steps)
{
    extern __shared__ float tiles[]; /* two copies of (tile_h + 2) x (tile_w + 2) */
    const int gx = (int)gridDim.x, gy = (int)gridDim.y, bx = (int)blockIdx.x,
              by = (int)blockIdx.y, rank = by * gx + bx;
    const int x0 = bx * w / gx, y0 = by * h / gy;
    const int tw = (bx + 1) * w / gx - x0, th = (by + 1) * h / gy - y0;
    const int pitch = (w + gx - 1) / gx + 2, len = pitch > (h + gy - 1) / gy + 2
                                                       ? pitch : (h + gy - 1) / gy + 2;
    float *cur = tiles, *next = tiles + ((h + gy - 1) / gy + 2) * pitch;
    /* neighbour ranks (-1: the field's edge, where the ring stays zero) */
    const int up = by > 0 ? rank - gx : -1, down = by + 1 < gy ? rank + gx : -1;
    const int left = bx > 0 ? rank - 1 : -1, right = bx + 1 < gx ? rank + 1 : -1;

    for (int i = threadIdx.x; i < (th + 2) * pitch; i += blockDim.x) {
        int y = y0 + i / pitch - 1, x = x0 + i % pitch - 1;
        bool inside = i % pitch < tw + 2 && x >= 0 && x < w && y >= 0 && y < h;
        cur[i] = inside ? u0[(size_t)y * w + x] : 0.0f;
        next[i] = 0.0f;
    }
    __syncthreads();
    for (int t = 0; t < steps; ++t) {
        if (t > 0) { /* the ring: the neighbours' edges of step t - 1 */
            int p = t % 2;
            for (int i = threadIdx.x; i < tw; i += blockDim.x) {
                if (up >= 0)
                    cur[i + 1] = edge(edges, p, up, 1, len)[i];
                if (down >= 0)
                    cur[(th + 1) * pitch + i + 1] = edge(edges, p, down, 0, len)[i];
            }
            for (int i = threadIdx.x; i < th; i += blockDim.x) {
                if (left >= 0)
                    cur[(i + 1) * pitch] = edge(edges, p, left, 3, len)[i];
                if (right >= 0)
                    cur[(i + 1) * pitch + tw + 1] = edge(edges, p, right, 2, len)[i];
            }
            __syncthreads();
        }
        int p = (t + 1) % 2;
        for (int i = threadIdx.x; i < tw * th; i += blockDim.x) {
            int x = i % tw + 1, y = i / tw + 1;
            const float *c = cur + y * pitch + x;
            float v = 0.5f * c[0] + 0.125f * ((c[-pitch] + c[pitch]) + (c[-1] + c[1]));
            next[y * pitch + x] = v;
            if (y == 1)
                edge(edges, p, rank, 0, len)[x - 1] = v;
            if (y == th)
                edge(edges, p, rank, 1, len)[x - 1] = v;
            if (x == 1)
                edge(edges, p, rank, 2, len)[y - 1] = v;
            if (x == tw)
                edge(edges, p, rank, 3, len)[y - 1] = v;
        }
        if (t + 1 < steps)
            gs_neighbour_sync_2d(&bar, 0); /* the four neighbours published step t */
        else
            __syncthreads();
        float *swap = cur;
        cur = next;
        next = swap;
    }
    for (int i = threadIdx.x; i < tw * th; i += blockDim.x)
        out[(size_t)(y0 + i / tw) * w + x0 + i % tw] = cur[(i / tw + 1) * pitch + i % tw + 1];
}

/* argv[i] as a whole number in [lo, hi], else `fallback` when absent; -1 if malformed. */
static long arg(int argc, char **argv, int i, long fallback, long lo, long hi)
{
    if (argc <= i)
        return fallback;
    char *end = NULL;
    errno = 0;
    long v = strtol(argv[i], &end, 10);
    return errno || end == argv[i] || *end || v < lo || v > hi ? -1 : v;
}

/* The same steps on the CPU in double precision; returns the result's buffer. */
static double *cpu_heat(double *x, double *y, int w, int h, int steps)
{
    for (int t = 0; t < steps; ++t) {
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const double *p = x + (size_t)r * w + c;
                double n = r > 0 ? p[-w] : 0.0, s = r + 1 < h ? p[w] : 0.0;
                double we = c > 0 ? p[-1] : 0.0, e = c + 1 < w ? p[1] : 0.0;
                y[(size_t)r * w + c] = 0.5 * p[0] + 0.125 * ((n + s) + (we + e));
            }
        double *swap = x;
        x = y;
        y = swap;
    }
    return x;
}

int main(int argc, char **argv)
{
    long w = arg(argc, argv, 1, 1000, 1, 1 << 20), h = arg(argc, argv, 2, 777, 1, 1 << 20);
    long steps = arg(argc, argv, 3, 500, 1, 1000000);
    if (argc > 4 || w < 0 || h < 0 || steps < 0 || w * h > (1l << 26)) {
        fprintf(stderr, "usage: example_heat2d_neighbour [width >= 1] [height >= 1] "
                        "[steps >= 1] (width x height <= 2^26)\n");
        return 2;
    }
    int count = 0, dev = 0, sms = 0, optin = 0;
    GS_CHECK(gs_device_count(&count));
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));

    /* One block a SM, tiles about square: gy rows of gx tiles. */
    int gy = (int)lround(sqrt((double)sms * h / w));
    gy = gy < 1 ? 1 : gy > h ? (int)h : gy > sms ? sms : gy;
    int gx = sms / gy < w ? sms / gy : (int)w;
    int tile_w = (int)((w + gx - 1) / gx) + 2, tile_h = (int)((h + gy - 1) / gy) + 2;
    size_t smem = 2 * sizeof(float) * (size_t)tile_w * tile_h;
    if (smem > (size_t)optin) {
        fprintf(stderr, "example_heat2d_neighbour: a %ld x %ld field needs %zu bytes of shared "
                "memory a block on %d x %d blocks, this GPU has %d: choose a smaller field\n",
                w, h, smem, gx, gy, optin);
        return 2;
    }
    CHECK(cudaFuncSetAttribute((const void *)heat, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)smem));

    const size_t n = (size_t)w * h, len = tile_w > tile_h ? tile_w : tile_h;
    float *hu = (float *)malloc(n * sizeof(float));
    double *x = (double *)malloc(2 * n * sizeof(double)), *ref = NULL, err = 0.0, m0 = 0.0,
           mn = 0.0;
    if (!hu || !x) {
        fprintf(stderr, "example_heat2d_neighbour: out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; ++i)
        x[i] = hu[i] = (float)((i * 7919) % 1000) / 1000.0f;

    float *u0, *out, *edges;
    CHECK(cudaMalloc(&u0, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMalloc(&edges, 2 * (size_t)gx * gy * SIDES * len * sizeof(float)));
    CHECK(cudaMemcpy(u0, hu, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0xff, n * sizeof(float))); /* NaN: a cell never written shows, */
    CHECK(cudaMemset(edges, 0xff, 2 * (size_t)gx * gy * SIDES * len * sizeof(float))); /* and
                                                            an edge read before it was written */

    gs_barrier_t bar;
    gs_grid_barrier view;
    int iw = (int)w, ih = (int)h, isteps = (int)steps;
    GS_CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_CHECK(gs_barrier_device(bar, (unsigned int)(gx * gy), &view));
    void *args[] = {&view, &u0, &out, &edges, &iw, &ih, &isteps};
    GS_CHECK(gs_launch((const void *)heat, dim3(gx, gy), dim3(THREADS), smem, 0, args, bar));
    GS_CHECK(gs_barrier_check(bar, 0)); /* a time-out names the block that never came */
    CHECK(cudaMemcpy(hu, out, n * sizeof(float), cudaMemcpyDeviceToHost));

    for (size_t i = 0; i < n; ++i)
        m0 = fmax(m0, fabs(x[i]));
    ref = cpu_heat(x, x + n, iw, ih, isteps);
    for (size_t i = 0; i < n; ++i) {
        err = fmax(err, fabs(hu[i] - ref[i]));
        mn = fmax(mn, fabs(ref[i]));
        if (isnan(hu[i]))
            err = INFINITY;
    }
    /* Each step rounds four times, each at most 2^-24 of the field's largest
     * value, which the averaging never increases nor amplifies: after N
     * steps |gpu - cpu| <= 4 N 2^-24 max|u0|. Relative to the final field: */
    double scale = mn > 0.0 ? mn : 1.0; /* a field decayed to zero: absolute */
    double rel = err / scale, bound = 4.0 * isteps * ldexp(1.0, -24) * m0 / scale;
    int ok = rel <= bound;
    printf("heat2d_neighbour: %ld x %ld cells, %ld steps on %d x %d blocks (%zu bytes of shared "
           "memory each): max |gpu - cpu| / max |cpu| = %.2e, bound %.2e %s\n",
           w, h, steps, gx, gy, smem, rel, bound, ok ? "(ok)" : "(WRONG)");
    gs_barrier_destroy(bar);
    cudaFree(u0);
    cudaFree(out);
    cudaFree(edges);
    free(hu);
    free(x);
    return ok ? 0 : 1;
}
