/*
 * gridsync/detail/gemm/sgemm_tiled16.cuh - the tutorial's 16x16 tiled matrix
 * multiply (docs/tutorials.md), kept as the readable reference behind
 * gs_sgemm_with(GS_GEMM_TILED16, ...), as a kernel template on whether it
 * synchronizes (internal).
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
 * what a slow one still reads. Sync = false removes both, wrong on purpose:
 * the library instantiates Sync = true; demos and race checks may
 * instantiate the twin, sgemm_tiled16<false, Args>.
 *
 * What the tutorial got wrong and this fixes: square `width` only; no
 * alpha/beta or leading dimensions; 32-bit index arithmetic.
 *
 * When: never for speed (about 0.16x cuBLAS on an H200: one element per
 * thread, two shared loads per FMA); it is the version to read first.
 *
 * Args: the fields m, n, k, alpha, a, lda, b, ldb, beta, c, ldc of
 * gs_sgemm (row-major C = alpha A B + beta C; beta == 0 never reads C).
 * Launch: blocks of 16 x 16 threads, grid ceil(n / 16) x ceil(m / 16).
 */
#ifndef GRIDSYNC_DETAIL_SGEMM_TILED16_CUH
#define GRIDSYNC_DETAIL_SGEMM_TILED16_CUH

#include <gridsync/detail/core/tuning.h>

namespace gs {
namespace detail {

template <bool Sync>
static __device__ __forceinline__ void tiled16_barrier()
{
    if constexpr (Sync)
        __syncthreads();
}

template <bool Sync, class Args>
static __global__ void __launch_bounds__(GS_TUNE_SGEMM_TILED16_TILE *GS_TUNE_SGEMM_TILED16_TILE)
    sgemm_tiled16(Args p)
{
    constexpr int tile = GS_TUNE_SGEMM_TILED16_TILE;
    __shared__ float tile_a[tile][tile];
    __shared__ float tile_b[tile][tile];
    int row = blockIdx.y * tile + threadIdx.y;
    int col = blockIdx.x * tile + threadIdx.x;
    float value = 0.0f;
    for (int k0 = 0; k0 < p.k; k0 += tile) {
        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
        tile_a[threadIdx.y][threadIdx.x] =
            row < p.m && ka < p.k ? p.a[(long long)row * p.lda + ka] : 0.0f;
        tile_b[threadIdx.y][threadIdx.x] =
            col < p.n && kb < p.k ? p.b[(long long)kb * p.ldb + col] : 0.0f;
        tiled16_barrier<Sync>(); /* stores of both tiles -> reads below */
        for (int k = 0; k < tile; ++k)
            value += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
        tiled16_barrier<Sync>(); /* reads of this step -> next step's stores */
    }
    if (row < p.m && col < p.n) {
        float *c = p.c + (long long)row * p.ldc + col;
        *c = p.beta == 0.0f ? p.alpha * value : p.alpha * value + p.beta * *c;
    }
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SGEMM_TILED16_CUH */
