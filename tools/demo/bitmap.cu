/*
 * bitmap.cu - seed 004's shared-memory bitmap (CUDA by Example, 5.3.2).
 *
 * How: 16x16 blocks; each thread computes one value of a product of sines
 * into shared[tx][ty], then writes the value of the mirrored thread,
 * shared[15 - tx][15 - ty], as its pixel's green level.
 * Why the barrier: a thread reads a slot another thread (usually of another
 * warp) wrote. Without __syncthreads() the read can run before that write:
 * the pixel gets whatever the slot held (an earlier block's value, or
 * garbage), the "green blobs" of the seed's broken figure.
 * The CPU reference computes the same formula in double precision; the GPU's
 * sinf and float arithmetic round differently, so levels may differ by 1.
 */
#include <math.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "demo/demos.h"

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

extern "C" gs_status gs_demo_bitmap_gpu(int sync, unsigned char *rgb)
{
    const size_t bytes = (size_t)GS_BITMAP_DIM * GS_BITMAP_DIM * 3;
    unsigned char *d = NULL;
    GS_CUDA_TRY(cudaMalloc((void **)&d, bytes));
    gs_status st = GS_SUCCESS;
    dim3 grid(GS_BITMAP_DIM / 16, GS_BITMAP_DIM / 16), block(16, 16);
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

extern "C" void gs_demo_bitmap_cpu(unsigned char *rgb)
{
    const double pi = 3.14159265358979323846, period = 128.0;
    for (int y = 0; y < GS_BITMAP_DIM; ++y)
        for (int x = 0; x < GS_BITMAP_DIM; ++x) {
            /* the thread at (x, y) writes the value of its block's mirrored
             * thread: block origin + (15 - tx, 15 - ty) */
            int sx = (x & ~15) + 15 - (x & 15), sy = (y & ~15) + 15 - (y & 15);
            double v = 255.0 * (sin(sx * 2.0 * pi / period) + 1.0) *
                       (sin(sy * 2.0 * pi / period) + 1.0) / 4.0;
            unsigned char *p = rgb + ((size_t)y * GS_BITMAP_DIM + x) * 3;
            p[0] = 0;
            p[1] = (unsigned char)v;
            p[2] = 0;
        }
}

extern "C" long gs_demo_bitmap_diff(const unsigned char *rgb, const unsigned char *ref,
                                    int tolerance)
{
    long differ = 0;
    for (size_t i = 0; i < (size_t)GS_BITMAP_DIM * GS_BITMAP_DIM; ++i)
        differ += abs((int)rgb[i * 3 + 1] - (int)ref[i * 3 + 1]) > tolerance ||
                  rgb[i * 3] != ref[i * 3] || rgb[i * 3 + 2] != ref[i * 3 + 2];
    return differ;
}
