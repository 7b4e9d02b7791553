/*
 * sgemm_streamk.cu - stream-k FP32 matrix multiply (Osama et al., PPoPP
 * 2023): a persistent grid divides the whole multiply, every tile's every k
 * step, evenly among its blocks, so that no SM idles in a last partial wave.
 * For shapes whose tiles of C leave a ragged last wave (1536^3 on 132 SMs:
 * 144 tiles of 128 for 264 resident blocks; 1.11x cuBLAS against 0.98x for
 * the best split and 0.69x unsplit, docs/gemm.md).
 *
 * How: the work is a line of tiles x S k steps (S = ceil(k / 8)), tile after
 * tile. The grid is one wave: W = SMs x resident blocks per SM (fewer when
 * the line is shorter). Block w takes the steps w * T / W .. (w + 1) * T / W
 * - 1 of the line (T its length) and walks them tile by tile (the main
 * loop's copy path, sgemm_tile.cuh): a segment is
 * the part of its range inside one tile. A segment that is the whole tile
 * stores alpha * acc + beta * C at once. Any other segment is a partial
 * tile: it goes into the workspace, at slot 2w when it is the block's first
 * segment and 2w + 1 otherwise (a block's range is contiguous, so only its
 * first and its last segment can be partial), and the block arrives at the
 * tile's counter. The tile's last arriver (the counter's count-th arrival,
 * count = the blocks whose ranges meet the tile) sums the partials in block
 * order and stores alpha * sum + beta * C.
 *
 * Why correct: each element of C is stored once, by the tile's only block or
 * by its last arriver. The partial tiles' protocol (store, arrive, the last
 * arriver reads them all) and its memory-model argument are in
 * sgemm_partial.cuh. The block of a position x of the line is the largest w
 * with w * T / W <= x, that is ((x + 1) * W - 1) / T, so every block
 * computes the same count and the same slots for a tile. No block waits for
 * another: no spin, and no assumption that the grid is resident (it only
 * runs faster when it is).
 *
 * Deterministic: a segment's partial is the main loop's fixed chain of FMAs
 * over its k steps, and the last arriver sums the partials in block order
 * whichever block arrives last, reading its own back from the workspace. The
 * same bits on every run on the same GPU (W is fixed by its SM count and the
 * kernel's occupancy); they differ from the unsplit and split-k kernels'
 * (other summation orders within the same FP32 bound).
 *
 * The workspace: tile counters (0 between calls: atom.inc wraps them) and 2W
 * partial tiles, whatever the shape. Each block adds 1 to the workspace's
 * count of finished blocks as its last act, after a block barrier (its
 * release orders all its accesses, the fix-ups it did included, before it),
 * so the host recycles the workspace only once all W are done
 * (src/runtime/workspace.h).
 *
 * When: gs_sgemm's plan (src/gemm/sgemm_plan.c) takes it when its cost model
 * predicts it beats the unsplit kernel and every k split. On whole waves it
 * is 6-7% slower than unsplit (its blocks work at different k, so fewer of
 * them share the lines of A and B they load), and where a split fills the
 * waves as well it gains nothing (1024 x 1024 x 16384: 0.86x cuBLAS either
 * way). gs_sgemm_with(GS_GEMM_STREAMK) forces it.
 */
#include <limits.h>
#include <stdint.h>

#include <gridsync/detail/core/memory_order.cuh>

#include "sgemm_partial.cuh"
#include "sgemm_tile.cuh"

#include "../core/error.h"
#include "../runtime/workspace.h"

/* What the blocks of one call share. */
struct streamk_state {
    unsigned int *counters;   /* one per tile, 0 between calls */
    float4 *partials;         /* 2 per block (sgemm_partial.cuh) */
    unsigned int *finished;   /* the workspace's count of finished blocks */
    unsigned long long total; /* the line: tiles x steps */
    int steps;                /* k steps of a tile */
    int tiles_n;              /* tiles in a row of C */
};

/* The first position of block w's range. */
static __device__ __forceinline__ unsigned long long range_begin(unsigned long long w,
                                                                 const streamk_state &s)
{
    return w * s.total / gridDim.x;
}

/* The block whose range holds position x. */
static __device__ __forceinline__ unsigned long long block_of(unsigned long long x,
                                                              const streamk_state &s)
{
    return ((x + 1) * gridDim.x - 1) / s.total;
}

/* Block w's partial slot for tile t: 0 for its first segment, 1 for a later. */
static __device__ __forceinline__ size_t slot_of(unsigned long long w, unsigned long long t,
                                                 const streamk_state &s)
{
    return 2 * w + (range_begin(w, s) / (unsigned long long)s.steps != t);
}

template <int BM, int BN, int THREADS, int MIN_BLOCKS>
static __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    sgemm_streamk(gs__sgemm_args p, int vector_ok, streamk_state s)
{
    static_assert(BM * BN / 4 / THREADS == GS_SGEMM_PARTIAL_VECTORS, "the register tile is 8 x 8");
    __shared__ __align__(16) float smem[GS_SGEMM_SMEM_FLOATS(BM, BN, 1)];
    __shared__ int last;
    const size_t tile_vectors = (size_t)GS_SGEMM_PARTIAL_VECTORS * THREADS;
    const unsigned long long w = blockIdx.x, steps = (unsigned long long)s.steps;
    const unsigned long long end = range_begin(w + 1, s);
    for (unsigned long long pos = range_begin(w, s); pos < end;) {
        const unsigned long long tile = pos / steps, tile_begin = tile * steps;
        const unsigned long long seg_end = min(end, tile_begin + steps);
        const int k_begin = (int)(pos - tile_begin) * GS_SGEMM_BK;
        const int n_steps = (int)(seg_end - pos);
        const unsigned int tm = (unsigned int)(tile / (unsigned long long)s.tiles_n);
        const unsigned int tn = (unsigned int)(tile % (unsigned long long)s.tiles_n);
        const int inside = interior(&p, vector_ok, BM, BN, tm, tn);
        __syncthreads(); /* the last segment's shared-memory reads -> this one's stores */
        float acc[8][8];
        if (inside)
            sgemm_mainloop(&p, smem, BM, BN, THREADS, 0, 1, tm, tn, k_begin, n_steps, acc);
        else
            sgemm_mainloop(&p, smem, BM, BN, THREADS, 1, 1, tm, tn, k_begin, n_steps, acc);
        pos = seg_end;

        if (n_steps != s.steps) { /* a partial tile: store it, arrive, maybe fix up */
            const unsigned long long first = block_of(tile_begin, s);
            const unsigned long long last_b = block_of(tile_begin + steps - 1, s);
            sgemm_store_partial(s.partials + slot_of(w, tile, s) * tile_vectors, acc, THREADS);
            if (!sgemm_arrive(s.counters + tile, (unsigned int)(last_b - first + 1), &last))
                continue;
            for (unsigned long long b = first; b <= last_b; ++b) /* in block order */
                sgemm_add_partial(s.partials + slot_of(b, tile, s) * tile_vectors, acc, THREADS,
                                  b == first);
        }
        if (inside)
            sgemm_store_c(&p, acc, BM, BN, 0, tm, tn);
        else
            sgemm_store_c(&p, acc, BM, BN, 1, tm, tn);
    }
    __syncthreads(); /* every thread's workspace accesses -> the release below */
    if (threadIdx.x == 0)
        gs__red_add_release_gpu(s.finished, 1u);
}

enum { BIG = GS_TUNE_SGEMM_BIG_TILE, SMALL = GS_TUNE_SGEMM_SMALL_TILE };

extern "C" gs_status gs__sgemm_streamk(const gs__sgemm_args *p, int tile, cudaStream_t stream)
{
    if (tile != BIG && tile != SMALL)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "stream-k gemm: tile %d (%d or %d)", tile, BIG,
                        SMALL);
    const void *kernel =
        tile == BIG ? (const void *)sgemm_streamk<BIG, BIG, GS_TUNE_SGEMM_BIG_THREADS,
                                                  GS_TUNE_SGEMM_BIG_MIN_BLOCKS>
                    : (const void *)sgemm_streamk<SMALL, SMALL, GS_TUNE_SGEMM_SMALL_THREADS,
                                                  GS_TUNE_SGEMM_SMALL_MIN_BLOCKS>;
    const int threads = tile == BIG ? GS_TUNE_SGEMM_BIG_THREADS : GS_TUNE_SGEMM_SMALL_THREADS;
    int dev = 0, sms = 0, per_sm = 0, capturing = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    if (per_sm < 1)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "stream-k gemm: no block of %d threads fits an SM",
                        threads);
    const unsigned long long tiles_n = (unsigned long long)((p->n + tile - 1) / tile);
    const unsigned long long tiles = tiles_n * (unsigned long long)((p->m + tile - 1) / tile);
    const unsigned long long steps = ((unsigned long long)p->k + GS_SGEMM_BK - 1) / GS_SGEMM_BK;
    const unsigned long long total = tiles * steps;
    const unsigned long long resident = (unsigned long long)sms * (unsigned long long)per_sm;
    const unsigned long long workers = total < resident ? total : resident;
    const size_t tile_bytes = (size_t)tile * tile * sizeof(float);
    if (tiles > UINT_MAX || workers > UINT_MAX / 2 || total > ULLONG_MAX / workers)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "stream-k gemm: %dx%dx%d is too large to divide among %llu blocks", p->m,
                        p->n, p->k, workers);
    GS_TRY(gs__is_capturing(stream, &capturing));
    gs__ws_lease ws;
    GS_TRY(gs__sgemm_partials_acquire(stream, dev, capturing, "stream-k gemm", tiles,
                                      (unsigned int)workers, 2 * (size_t)workers * tile_bytes,
                                      &ws));
    streamk_state state;
    state.counters = (unsigned int *)ws.zeroed;
    state.partials = (float4 *)ws.scratch;
    state.finished = ws.ticket + 2;
    state.total = total;
    state.steps = (int)steps;
    state.tiles_n = (int)tiles_n;
    int vector_ok = gs__sgemm_vector_ok(p);
    void *args[] = {(void *)p, &vector_ok, &state};
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaLaunchKernel(kernel, dim3((unsigned int)workers), dim3(threads), args, 0,
                                       stream);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaLaunchKernel(stream-k gemm)", __FILE__, __LINE__);
    return gs__ws_release(&ws, stream, st);
}
