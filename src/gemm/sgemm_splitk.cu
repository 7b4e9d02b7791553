/*
 * sgemm_splitk.cu - split-k FP32 matrix multiply: for shapes with few tiles
 * of C and a long k (1024 x 1024 x 16384, 512^3), where one block per tile
 * would leave most SMs idle or thinly occupied.
 *
 * How: the grid is tiles x S. Block (tile, s) runs the tile's main loop
 * (sgemm_tile.cuh; its copy path, whose deeper prefetch pays on long
 * slices) over k slice s only: k steps s * L .. s * L + L - 1 (L =
 * slice_steps; the host cuts k so that no slice is empty), then stores its
 * partial tile into the workspace, in a layout owned by thread (vector q of
 * thread t at [tile][s][q][t]: a warp stores 512 contiguous bytes), and
 * arrives at the tile's counter. The block that arrives last (the counter's
 * S-th arrival) does the fix-up: its thread t reads vector q of thread t of
 * every slice, sums them in slice order 0, 1, .., S-1, and stores alpha *
 * sum + beta * C (beta applied once, by one block, as in the unsplit kernel).
 *
 * Why correct: the partial tiles' protocol (store, arrive, the last
 * arriver reads them all) and its memory-model argument are in
 * sgemm_partial.cuh.
 *
 * Deterministic: each slice's partial is the main loop's fixed sequence of
 * FMAs over its k range, and the fix-up sums the S partials in slice order
 * whichever block comes last (its own partial is read back from the
 * workspace, not taken from registers out of turn). The same bits on every
 * run; no float atomics. (They differ from the unsplit kernel's, which sums
 * k in one chain: both are within the FP32 bound of tests/gpu/test_gemm.cu.)
 *
 * One launch, nothing to clear, no waiting: the counters are atom.inc with
 * limit S - 1, which stores 0 at the S-th arrival, so every counter the call
 * used is 0 again when it ends (and the workspace zeroes them when it
 * allocates them). No block ever waits for another: the last arriver finds
 * everything it needs already written, so there is no spin loop to bound
 * and no assumption on which blocks are resident. The last arriver of each
 * tile adds S to the workspace's count of finished blocks (its release
 * orders every access of the tile's blocks, through the acquire above,
 * before it), which tells the host when the workspace may serve another
 * stream (src/runtime/workspace.h).
 *
 * When: gs_sgemm's plan (src/gemm/sgemm_plan.c) picks it, tile and S, when
 * its cost model predicts it beats the unsplit kernel by a margin and
 * stream-k (sgemm_streamk.cu): shapes with few tiles and a long k, and
 * shapes whose last wave of 128-tiles is far from full (3001 x 2999 x 1537:
 * 576 tiles on 264 slots, split in 2: 0.92x cuBLAS against 0.87x).
 */
#include <limits.h>
#include <stdint.h>

#include <gridsync/detail/core/memory_order.cuh>

#include "sgemm_partial.cuh"
#include "sgemm_tile.cuh"

#include "../core/error.h"
#include "../runtime/workspace.h"

/* What the blocks of one call share. */
struct splitk_state {
    unsigned int *counters; /* one per tile, 0 between calls */
    float4 *partials;       /* [tile][slice], each a partial tile (sgemm_partial.cuh) */
    unsigned int *finished; /* the workspace's count of finished blocks */
    int splits, slice_steps;
};

template <int BM, int BN, int THREADS, int MIN_BLOCKS>
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    sgemm_splitk(gs__sgemm_args p, int vector_ok, splitk_state s)
{
    static_assert(BM * BN / 4 / THREADS == GS_SGEMM_PARTIAL_VECTORS, "the register tile is 8 x 8");
    __shared__ __align__(16) float smem[GS_SGEMM_SMEM_FLOATS(BM, BN, 1)];
    __shared__ int last;
    const int slice = blockIdx.z;
    const unsigned int tile = blockIdx.y * gridDim.x + blockIdx.x;
    const int k_steps = (p.k + GS_SGEMM_BK - 1) / GS_SGEMM_BK;
    const int steps = min(s.slice_steps, k_steps - slice * s.slice_steps);
    const int k_begin = slice * s.slice_steps * GS_SGEMM_BK;
    const int inside = interior(&p, vector_ok, BM, BN, blockIdx.y, blockIdx.x);
    float acc[8][8];
    if (inside)
        sgemm_mainloop(&p, smem, BM, BN, THREADS, 0, 1, blockIdx.y, blockIdx.x, k_begin, steps, acc);
    else
        sgemm_mainloop(&p, smem, BM, BN, THREADS, 1, 1, blockIdx.y, blockIdx.x, k_begin, steps, acc);

    const size_t tile_vectors = (size_t)GS_SGEMM_PARTIAL_VECTORS * THREADS;
    float4 *slots = s.partials + (size_t)tile * s.splits * tile_vectors;
    sgemm_store_partial(slots + slice * tile_vectors, acc, THREADS);
    if (!sgemm_arrive(s.counters + tile, (unsigned int)s.splits, &last))
        return;

    /* The fix-up: slice 0, then + slice 1, ... in order. */
    sgemm_add_partial(slots, acc, THREADS, 1);
    for (int j = 1; j < s.splits; ++j)
        sgemm_add_partial(slots + j * tile_vectors, acc, THREADS, 0);
    if (inside)
        sgemm_store_c(&p, acc, BM, BN, 0, blockIdx.y, blockIdx.x);
    else
        sgemm_store_c(&p, acc, BM, BN, 1, blockIdx.y, blockIdx.x);
    __syncthreads(); /* every thread's reads of the partials -> the release below */
    if (threadIdx.x == 0) /* the tile's S blocks are done with the workspace */
        gs__red_add_release_gpu(s.finished, (unsigned int)s.splits);
}

enum { BIG = GS_TUNE_SGEMM_BIG_TILE, SMALL = GS_TUNE_SGEMM_SMALL_TILE };

extern "C" gs_status gs__sgemm_splitk(const gs__sgemm_args *p, int tile, int splits,
                                      cudaStream_t stream)
{
    if (tile != BIG && tile != SMALL)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "split-k gemm: tile %d (%d or %d)", tile, BIG,
                        SMALL);
    if (splits < 1 || splits > GS_TUNE_SGEMM_MAX_SPLIT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "split-k gemm: %d slices (1 to %d)", splits,
                        GS_TUNE_SGEMM_MAX_SPLIT);
    int slice_steps = 0, dev = 0, capturing = 0;
    const int slices = gs__sgemm_slices(p->k, splits, &slice_steps);
    const unsigned int tiles_n = (unsigned int)((p->n + tile - 1) / tile);
    const unsigned int tiles_m = (unsigned int)((p->m + tile - 1) / tile);
    const unsigned long long tiles = (unsigned long long)tiles_n * tiles_m;
    const size_t tile_bytes = (size_t)tile * tile * sizeof(float);
    if (tiles > UINT_MAX / GS_TUNE_SGEMM_MAX_SPLIT ||
        tiles * slices > SIZE_MAX / 2 / tile_bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "split-k gemm: %dx%d has too many tiles for partial tiles", p->m, p->n);
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__is_capturing(stream, &capturing));
    gs__ws_lease ws;
    GS_TRY(gs__sgemm_partials_acquire(stream, dev, capturing, "split-k gemm", tiles,
                                      (unsigned int)(tiles * slices),
                                      (size_t)tiles * slices * tile_bytes, &ws));
    splitk_state state;
    state.counters = (unsigned int *)ws.zeroed;
    state.partials = (float4 *)ws.scratch;
    state.finished = ws.ticket + 2;
    state.splits = slices;
    state.slice_steps = slice_steps;
    int vector_ok = gs__sgemm_vector_ok(p);
    void *args[] = {(void *)p, &vector_ok, &state};
    const void *kernel =
        tile == BIG ? (const void *)sgemm_splitk<BIG, BIG, GS_TUNE_SGEMM_BIG_THREADS,
                                                 GS_TUNE_SGEMM_BIG_MIN_BLOCKS>
                    : (const void *)sgemm_splitk<SMALL, SMALL, GS_TUNE_SGEMM_SMALL_THREADS,
                                                 GS_TUNE_SGEMM_SMALL_MIN_BLOCKS>;
    const unsigned int threads =
        tile == BIG ? GS_TUNE_SGEMM_BIG_THREADS : GS_TUNE_SGEMM_SMALL_THREADS;
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaLaunchKernel(kernel, dim3(tiles_n, tiles_m, (unsigned int)slices),
                                       dim3(threads), args, 0, stream);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaLaunchKernel(split-k gemm)", __FILE__, __LINE__);
    return gs__ws_release(&ws, stream, st);
}
