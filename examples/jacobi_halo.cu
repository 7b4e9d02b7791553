/*
 * jacobi_halo.cu - a 2-D Jacobi solver for -laplace(u) = f on the unit
 * square (u = 0 on the boundary), as a persistent kernel on gridsync's halo
 * exchange (gridsync/halo.cuh): each block keeps its tile in shared memory
 * for the whole solve, only the tiles' edges travel between blocks (tagged
 * words), and the next step's edges are fetched while the interior is
 * computed. No barrier between blocks, no kernel boundary per step.
 *
 * Jacobi step, grid spacing d = 1 / (n + 1):
 *   u'(x, y) = (u(x-1, y) + u(x+1, y) + u(x, y-1) + u(x, y+1) + d^2 f(x, y)) / 4
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc jacobi_halo.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_jacobi_halo [width] [height] [steps]
 */
#include <gridsync.h>
#include <gridsync/halo.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

/* One cell's step from its north, south, west and east values. */
static __device__ float jacobi_cell(float n, float s, float w, float e, float d2f)
{
    return 0.25f * ((n + s) + (w + e) + d2f);
}

/* `steps` Jacobi steps from u0 into out (two buffers: blocks finish at
 * different times, so none may store into the field another still loads). */
static __global__ void jacobi(gs_grid_barrier bar, gs_halo halo, const float *f, float d2,
                              const float *u0, float *out, int steps)
{
    extern __shared__ float smem[]; /* gs_halo_shared_bytes */
    gs_halo_tile t;
    gs_halo_begin_f32(&t, &bar, &halo, smem, steps);
    gs_halo_load_f32(&t, u0);
    const int w = halo.w, S = t.stride;
    for (int s = 0; s < steps; ++s) {
        const float *c = gs_halo_cur_f32(&t);
        float *n = gs_halo_nxt_f32(&t);
        for (int e = t.thread; e < t.edges; e += t.threads) { /* edges first: they travel */
            int x, y;
            gs_halo_edge_cell(&t, e, &x, &y);
            const int i = gs_halo_at(&t, x, y);
            const float d2f = d2 * f[(t.y0 + y) * w + t.x0 + x];
            gs_halo_put_f32(&t, x, y, jacobi_cell(c[i - S], c[i + S], c[i - 1], c[i + 1], d2f));
        }
        /* the interior by column strips: walking down a column, the cells
         * above and at the current one stay in registers (three shared
         * loads a cell instead of five) */
        for (gs_halo_strip st = gs_halo_strips(&t); st.item < st.items;
             gs_halo_strip_next(&t, &st)) {
            int i = gs_halo_at(&t, st.x, st.y);
            float up = c[i - S], mid = c[i];
            for (int y = st.y; y < st.end; ++y, i += S) {
                const float down = c[i + S];
                n[i] = jacobi_cell(up, down, c[i - 1], c[i + 1],
                                   d2 * f[(t.y0 + y) * w + t.x0 + st.x]);
                up = mid;
                mid = down;
            }
        }
        gs_halo_exchange_f32(&t); /* the neighbours' edges arrive while the interior runs */
    }
    gs_halo_store_f32(&t, out);
    gs_halo_end(&t);
}

/* The same steps on the CPU in double; returns max |gpu - cpu| over max |cpu|. */
static double cpu_check(const float *gpu, const float *f, int w, int h, int steps, float d2)
{
    const size_t cells = (size_t)w * h;
    double *a = (double *)calloc(cells, sizeof(double)), *b = (double *)calloc(cells, sizeof(double));
    if (!a || !b)
        return -1.0;
    for (int s = 0; s < steps; ++s) {
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const double *p = a + (size_t)y * w + x;
                const double sum = ((y > 0 ? p[-w] : 0.0) + (y + 1 < h ? p[w] : 0.0)) +
                                   ((x > 0 ? p[-1] : 0.0) + (x + 1 < w ? p[1] : 0.0));
                b[(size_t)y * w + x] = 0.25 * (sum + (double)d2 * f[(size_t)y * w + x]);
            }
        double *swap = a;
        a = b;
        b = swap;
    }
    double diff = 0.0, scale = 0.0;
    for (size_t i = 0; i < cells; ++i) {
        const double d = fabs((double)gpu[i] - a[i]);
        diff = d > diff || d != d ? d : diff; /* a NaN (a cell never written) stays */
        scale = fmax(scale, fabs(a[i]));
    }
    free(a);
    free(b);
    return scale > 0.0 ? diff / scale : diff;
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 301, h = argc > 2 ? atoi(argv[2]) : 203;
    int steps = argc > 3 ? atoi(argv[3]) : 2000;
    if (w < 1 || h < 1 || w > 4096 || h > 4096 || steps < 1) {
        fprintf(stderr, "usage: example_jacobi_halo [width 1..4096] [height 1..4096] [steps >= 1]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    gs_device_info info;
    GS_CHECK(gs_device_query(0, &info));

    /* one tile a SM, split for the shortest edges; the tiles live in shared memory */
    int gx = 1, gy = 1, threads = 256, fit = 0, dev = 0, optin = 0;
    GS_CHECK(gs_halo_split_2d(w, h, info.sm_count, &gx, &gy));
    gs_halo_t halo;
    gs_halo view;
    size_t smem = 0;
    GS_CHECK(gs_halo_create_2d(&halo, w, h, gx, gy, GS_FLOAT32));
    GS_CHECK(gs_halo_device(halo, &view));
    GS_CHECK(gs_halo_shared_bytes(halo, &smem));
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (smem > (size_t)optin) {
        fprintf(stderr, "example_jacobi_halo: tiles of %zu bytes do not fit in shared memory "
                "(%d bytes): use a smaller field\n", smem, optin);
        return 2;
    }
    CHECK(cudaFuncSetAttribute((const void *)jacobi, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)smem));
    GS_CHECK(gs_max_coresident_blocks((const void *)jacobi, threads, smem, &fit));
    if (fit < gx * gy) {
        fprintf(stderr, "example_jacobi_halo: %d blocks do not fit at once (at most %d)\n",
                gx * gy, fit);
        return 1;
    }

    const size_t cells = (size_t)w * h, bytes = cells * sizeof(float);
    float *hf = (float *)malloc(bytes), *hu = (float *)malloc(bytes), *f, *u0, *out;
    if (!hf || !hu) {
        fprintf(stderr, "example_jacobi_halo: out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < cells; ++i) /* a source: 1 in the left half, 0.5 in the right */
        hf[i] = (int)(i % w) < w / 2 ? 1.0f : 0.5f;
    const float d = 1.0f / (float)((w > h ? w : h) + 1), d2 = d * d;
    CHECK(cudaMalloc(&f, bytes));
    CHECK(cudaMalloc(&u0, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemcpy(f, hf, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(u0, 0, bytes));      /* u = 0 to start */
    CHECK(cudaMemset(out, 0xff, bytes));  /* NaN: a cell never written shows */
    gs_barrier_t bar; /* the co-resident launch and the halo waits' watchdog */
    gs_grid_barrier bview;
    GS_CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_CHECK(gs_barrier_device(bar, (unsigned int)(gx * gy), &bview));
    void *args[] = {&bview, &view, &f, (void *)&d2, &u0, &out, &steps};
    GS_CHECK(gs_launch((const void *)jacobi, dim3(gx, gy), dim3(threads), smem, 0, args, bar));
    GS_CHECK(gs_barrier_check(bar, 0));
    CHECK(cudaMemcpy(hu, out, bytes, cudaMemcpyDeviceToHost));

    /* Bound: a step rounds a cell five times (four adds, the multiply by d^2)
     * by 2^-24 of at most max|u| + d^2 max|f| / 4 <= 2 max|u_final| here (u
     * grows from 0, f > 0); averaging never amplifies an earlier error. */
    const double err = cpu_check(hu, hf, w, h, steps, d2), bound = 10.0 * steps * ldexp(1.0, -24);
    if (err < 0.0) {
        fprintf(stderr, "example_jacobi_halo: out of host memory\n");
        return 1;
    }
    const int ok = err <= bound;
    printf("jacobi_halo: %d x %d cells, %d steps on %d x %d tiles x %d threads: max |gpu - cpu| "
           "/ max |cpu| = %.2e (bound %.1e) %s\n", w, h, steps, gx, gy, threads, err, bound,
           ok ? "(ok)" : "(WRONG)");
    GS_CHECK(gs_barrier_destroy(bar));
    GS_CHECK(gs_halo_destroy(halo));
    cudaFree(f);
    cudaFree(u0);
    cudaFree(out);
    free(hf);
    free(hu);
    return ok ? 0 : 1;
}
