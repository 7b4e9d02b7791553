/*
 * sgemm_fast.cu - the register-tiled FP32 matrix multiply: one block per
 * tile of C, each walking all of k (the block tile, its memory-model
 * argument and its edges: sgemm_tile.cuh).
 *
 * How: 128x128 tiles with 256 threads, or 64x64 with 64 threads when
 * 128-tiles would leave SMs idle; each block runs the main loop over the
 * whole of k and stores alpha * acc + beta * C.
 *
 * Why correct: each element of C is written by one thread of one block, once;
 * the shared-memory protocol is the tile's (sgemm_tile.cuh).
 *
 * When: shapes with enough tiles of C to fill the GPU; gs_sgemm takes the
 * split-k kernel (sgemm_splitk.cu) instead when few tiles would walk a long
 * k (src/gemm/sgemm_plan.c).
 */
#include "sgemm_tile.cuh"

#include "../core/error.h"

/* One kernel per block tile (tuning.h): BM x BN tiles of C with THREADS
 * threads, MIN_BLOCKS resident per SM. */
template <int BM, int BN, int THREADS, int MIN_BLOCKS>
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    sgemm_fast(gs__sgemm_args p, int vector_ok)
{
    __shared__ __align__(16) float smem[GS_SGEMM_SMEM_FLOATS(BM, BN, 0)];
    const int steps = (p.k + GS_SGEMM_BK - 1) / GS_SGEMM_BK;
    float acc[8][8];
    if (interior(&p, vector_ok, BM, BN, blockIdx.y, blockIdx.x)) {
        sgemm_mainloop(&p, smem, BM, BN, THREADS, 0, 0, blockIdx.y, blockIdx.x, 0, steps, acc);
        sgemm_store_c(&p, acc, BM, BN, 0, blockIdx.y, blockIdx.x);
    } else {
        sgemm_mainloop(&p, smem, BM, BN, THREADS, 1, 0, blockIdx.y, blockIdx.x, 0, steps, acc);
        sgemm_store_c(&p, acc, BM, BN, 1, blockIdx.y, blockIdx.x);
    }
}

enum { BIG = GS_TUNE_SGEMM_BIG_TILE, SMALL = GS_TUNE_SGEMM_SMALL_TILE };

/* The kernel for square tiles of `tile` (BIG or SMALL) and its threads. */
static const void *kernel_for(int tile, unsigned int *threads)
{
    *threads = tile == BIG ? GS_TUNE_SGEMM_BIG_THREADS : GS_TUNE_SGEMM_SMALL_THREADS;
    if (tile == BIG)
        return (const void *)sgemm_fast<BIG, BIG, GS_TUNE_SGEMM_BIG_THREADS,
                                        GS_TUNE_SGEMM_BIG_MIN_BLOCKS>;
    return (const void *)sgemm_fast<SMALL, SMALL, GS_TUNE_SGEMM_SMALL_THREADS,
                                    GS_TUNE_SGEMM_SMALL_MIN_BLOCKS>;
}

extern "C" gs_status gs__sgemm_fast(const gs__sgemm_args *p, int tile, cudaStream_t stream)
{
    int vector_ok = gs__sgemm_vector_ok(p);
    if (tile != SMALL && tile != BIG) { /* big tiles while they fill every SM */
        int dev = 0, sms = 0;
        GS_CUDA_TRY(cudaGetDevice(&dev));
        GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        long long big = (long long)((p->m + BIG - 1) / BIG) * ((p->n + BIG - 1) / BIG);
        tile = big >= sms ? BIG : SMALL;
    }
    dim3 grid((unsigned int)((p->n + tile - 1) / tile), (unsigned int)((p->m + tile - 1) / tile));
    void *args[] = {(void *)p, &vector_ok};
    unsigned int threads = 0;
    const void *kernel = kernel_for(tile, &threads);
    GS_CUDA_TRY(cudaLaunchKernel(kernel, grid, dim3(threads), args, 0, stream));
    return GS_SUCCESS;
}
