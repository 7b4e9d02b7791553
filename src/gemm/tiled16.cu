/*
 * tiled16.cu - seed 003's tiled matrix multiply, kept as the readable
 * reference, and its `nosync` twin for the demo and the racecheck test.
 *
 * How: each 16x16 block computes a 16x16 tile of C, one element per thread.
 * It walks k in steps of 16: the block loads a 16x16 tile of A and one of B
 * into shared memory (each thread one element of each, zero outside the
 * matrices), then each thread adds the 16 products of its row of the A tile
 * and its column of the B tile.
 *
 * Why correct: two barriers per step. The first orders every thread's tile
 * stores before any thread reads the tile (a thread reads 15 elements that
 * other threads wrote). The second orders every read of the tile before the
 * next step's stores overwrite it. Without the first, a thread multiplies
 * stale or half-loaded tiles; without the second, a fast warp overwrites
 * what a slow one still reads (the nosync kernel shows both).
 *
 * What the seed got wrong and we fix: square `width` only; no alpha/beta or
 * leading dimensions; 32-bit index arithmetic.
 *
 * When: never for speed (about 0.16x cuBLAS on an H200: one element per
 * thread, two shared loads per FMA); it is the version to read first.
 */
#include "../core/error.h"
#include "gemm_internal.h"

enum { TILE = 16 };

/* SYNC is __syncthreads() in the real kernel and nothing in the nosync one. */
#define GS__TILED16_KERNEL(name, SYNC)                                                      \
    static __global__ void __launch_bounds__(TILE * TILE) name(gs__sgemm_args p)            \
    {                                                                                       \
        __shared__ float tile_a[TILE][TILE];                                                \
        __shared__ float tile_b[TILE][TILE];                                                \
        int row = blockIdx.y * TILE + threadIdx.y;                                          \
        int col = blockIdx.x * TILE + threadIdx.x;                                          \
        float value = 0.0f;                                                                 \
        for (int k0 = 0; k0 < p.k; k0 += TILE) {                                            \
            int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;                               \
            tile_a[threadIdx.y][threadIdx.x] =                                              \
                row < p.m && ka < p.k ? p.a[(long long)row * p.lda + ka] : 0.0f;            \
            tile_b[threadIdx.y][threadIdx.x] =                                              \
                col < p.n && kb < p.k ? p.b[(long long)kb * p.ldb + col] : 0.0f;            \
            SYNC; /* stores of both tiles -> reads below */                                 \
            for (int k = 0; k < TILE; ++k)                                                  \
                value += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];                   \
            SYNC; /* reads of this step -> next step's stores */                            \
        }                                                                                   \
        if (row < p.m && col < p.n) {                                                       \
            float *c = p.c + (long long)row * p.ldc + col;                                  \
            *c = p.beta == 0.0f ? p.alpha * value : p.alpha * value + p.beta * *c;          \
        }                                                                                   \
    }

GS__TILED16_KERNEL(sgemm_tiled16, __syncthreads())
GS__TILED16_KERNEL(sgemm_tiled16_nosync, (void)0)

static gs_status launch(const void *kernel, const gs__sgemm_args *p, cudaStream_t stream)
{
    dim3 grid((unsigned int)((p->n + TILE - 1) / TILE), (unsigned int)((p->m + TILE - 1) / TILE));
    void *args[] = {(void *)p};
    GS_CUDA_TRY(cudaLaunchKernel(kernel, grid, dim3(TILE, TILE), args, 0, stream));
    return GS_SUCCESS;
}

extern "C" gs_status gs__sgemm_tiled16(const gs__sgemm_args *p, cudaStream_t stream)
{
    return launch((const void *)sgemm_tiled16, p, stream);
}

extern "C" gs_status gs__sgemm_tiled16_nosync(const gs__sgemm_args *p, cudaStream_t stream)
{
    return launch((const void *)sgemm_tiled16_nosync, p, stream);
}
