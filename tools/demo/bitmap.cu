/*
 * bitmap.cu - CUDA by Example's shared-memory bitmap (5.3.2; see
 * docs/tutorials.md).
 *
 * How: 16x16 blocks; each thread computes one value of a product of sines
 * into shared[tx][ty], then writes the value of the mirrored thread,
 * shared[15 - tx][15 - ty], as its pixel's green level.
 * Why the barrier: a thread reads a slot another thread (usually of another
 * warp) wrote. Without __syncthreads() the read can run before that write:
 * the pixel gets whatever the slot held (an earlier block's value, or
 * garbage), the "green blobs" of the book's broken figure.
 * The CPU reference computes the same formula in double precision; the GPU's
 * sinf and float arithmetic round differently, so levels may differ by 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "demo/demo.h"
#include "demo/png_image.h"

enum { DIM = 1024 };

#define GS__PI 3.1415926535897932f

#define GS__BITMAP_KERNEL(name, SYNC)                                                       \
    static __global__ void name(unsigned char *rgb)                                         \
    {                                                                                       \
        __shared__ float shared[16][16];                                                    \
        int x = threadIdx.x + blockIdx.x * blockDim.x;                                      \
        int y = threadIdx.y + blockIdx.y * blockDim.y;                                      \
        int offset = x + y * blockDim.x * gridDim.x;                                        \
        const float period = 128.0f;                                                        \
        shared[threadIdx.x][threadIdx.y] = 255 * (sinf(x * 2.0f * GS__PI / period) + 1.0f) * \
                                           (sinf(y * 2.0f * GS__PI / period) + 1.0f) / 4.0f; \
        SYNC;                                                                               \
        rgb[offset * 3 + 0] = 0;                                                            \
        rgb[offset * 3 + 1] = (unsigned char)shared[15 - threadIdx.x][15 - threadIdx.y];    \
        rgb[offset * 3 + 2] = 0;                                                            \
    }

GS__BITMAP_KERNEL(bitmap_sync, __syncthreads())
GS__BITMAP_KERNEL(bitmap_nosync, (void)0)

/* Render the image on the GPU, with the block barrier (`sync` = 1) or
 * without it, into `rgb` (DIM x DIM x 3 bytes). */
static gs_status render_gpu(int sync, unsigned char *rgb)
{
    const size_t bytes = (size_t)DIM * DIM * 3;
    unsigned char *d = NULL;
    GS_CUDA_TRY(cudaMalloc((void **)&d, bytes));
    gs_status st = GS_SUCCESS;
    dim3 grid(DIM / 16, DIM / 16), block(16, 16);
    if (sync)
        bitmap_sync<<<grid, block>>>(d);
    else
        bitmap_nosync<<<grid, block>>>(d);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(rgb, d, bytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, sync ? "bitmap_sync<<<>>>" : "bitmap_nosync<<<>>>", __FILE__,
                           __LINE__);
    cudaFree(d);
    return st;
}

/* The same image computed on the CPU in double precision. */
static void render_cpu(unsigned char *rgb)
{
    const double pi = 3.14159265358979323846, period = 128.0;
    for (int y = 0; y < DIM; ++y)
        for (int x = 0; x < DIM; ++x) {
            /* the thread at (x, y) writes the value of its block's mirrored
             * thread: block origin + (15 - tx, 15 - ty) */
            int sx = (x & ~15) + 15 - (x & 15), sy = (y & ~15) + 15 - (y & 15);
            double v = 255.0 * (sin(sx * 2.0 * pi / period) + 1.0) *
                       (sin(sy * 2.0 * pi / period) + 1.0) / 4.0;
            unsigned char *p = rgb + ((size_t)y * DIM + x) * 3;
            p[0] = 0;
            p[1] = (unsigned char)v;
            p[2] = 0;
        }
}

/* Pixels whose green level differs from `ref` by more than `tolerance`. */
static long pixels_differing(const unsigned char *rgb, const unsigned char *ref, int tolerance)
{
    long differ = 0;
    for (size_t i = 0; i < (size_t)DIM * DIM; ++i)
        differ += abs((int)rgb[i * 3 + 1] - (int)ref[i * 3 + 1]) > tolerance ||
                  rgb[i * 3] != ref[i * 3] || rgb[i * 3 + 2] != ref[i * 3 + 2];
    return differ;
}

/* One version, `runs` times: how many runs differed from the CPU image and
 * by how many pixels at most; the last image stays in `img`. */
static gs_status run_version(int sync, long runs, const unsigned char *ref, unsigned char *img,
                             long *runs_wrong, long *worst)
{
    *runs_wrong = *worst = 0;
    for (long r = 0; r < runs; ++r) {
        GS_TRY(render_gpu(sync, img));
        long d = pixels_differing(img, ref, 1);
        *worst = d > *worst ? d : *worst;
        *runs_wrong += d != 0;
    }
    return GS_SUCCESS;
}

/* Write the image of one version as DIR/bitmap-sync.png or -nosync.png; 0
 * or -1 (said on stderr). */
static int save_image(const char *dir, int sync, const unsigned char *img)
{
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/bitmap-%s.png", dir, sync ? "sync" : "nosync");
    if (gs_png_write_rgb(path, DIM, DIM, img, err, sizeof err) != 0) {
        fprintf(stderr, "gridsync demo: %s\n", err);
        return -1;
    }
    printf("  wrote %s\n", path);
    return 0;
}

static gs_status run_demo(const gs_demo_opts *o, const gs_device_info *dev, int *correct)
{
    const size_t bytes = (size_t)DIM * DIM * 3;
    (void)dev;
    unsigned char *ref = (unsigned char *)malloc(bytes), *img = (unsigned char *)malloc(bytes);
    gs_status st = ref && img ? GS_SUCCESS : gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    if (st == GS_SUCCESS) {
        printf("bitmap: CUDA by Example's shared-memory bitmap (docs/tutorials.md), 1024x1024.\n"
               "Each thread of a 16x16 block writes one value to shared memory, then reads the\n"
               "value of its mirrored thread (15-x, 15-y). Compared with the image computed on\n"
               "the CPU (green levels may differ by 1: GPU sinf rounds differently); %ld runs\n"
               "each.\n\n",
               o->runs);
        render_cpu(ref);
    }
    for (int sync = 1; sync >= 0 && st == GS_SUCCESS && *correct; --sync) {
        long runs_wrong = 0, worst = 0;
        st = run_version(sync, o->runs, ref, img, &runs_wrong, &worst);
        if (st != GS_SUCCESS)
            break;
        printf("  %-28s %ld of %ld runs differ from the CPU image; at most %ld of %d pixels\n",
               sync ? "with __syncthreads():" : "without (--no-sync):", runs_wrong, o->runs,
               worst, DIM * DIM);
        if (sync && runs_wrong) {
            printf("  the correct version differs from the reference: FAIL\n");
            *correct = 0;
        }
        if (o->out_dir && save_image(o->out_dir, sync, img) != 0)
            *correct = 0;
    }
    if (st == GS_SUCCESS) {
        if (!o->out_dir)
            printf("  (add -o DIR to write both images as PNG)\n");
        printf("\nmeaning: the barrier orders every write to shared[][] before the mirrored "
               "reads.\nWithout it the reads race the writes; how often they lose depends on the GPU's\n"
               "warp scheduling, so zero differences on one run or one GPU prove nothing.\n");
    }
    free(ref);
    free(img);
    return st;
}

extern "C" const gs_demo gs_demo_bitmap = {
    "bitmap",
    "CUDA by Example's shared-memory bitmap with and without __syncthreads(); pixels "
    "differing from the CPU image (-o DIR: both images as PNG)",
    5, 0, run_demo, NULL};
