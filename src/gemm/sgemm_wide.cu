/*
 * sgemm_wide.cu - the wide-tile FP32 matrix multiply: 128 x 256 tiles of C,
 * 256 threads of 8 x 16 registers, one block a SM, tiles copied to shared
 * memory with cp.async through GS_SGEMM_STAGES buffers (sm_80 and later).
 * Unsplit, or with k cut into slices whose partial tiles are summed in slice
 * order (the split-k protocol of sgemm_splitk.cu).
 *
 * How: the block's 8 warps are 2 x 4 tiles of 64 x 64; a lane holds rows
 * lm * 4 .. + 3 and lm * 4 + 32 .. + 3 of its warp's tile (lm = lane / 4)
 * and columns ln * 4 + 16 j .. + 3, j = 0 .. 3 (ln = lane % 4): 8 x 16
 * registers in 4 x 4 pieces, so a k step's shared reads are 16-byte vectors
 * that a warp reads in one pass each (8 distinct vectors of A, 4 of B; the
 * rest broadcasts). Per k a thread reads 6 vectors and issues 128 FMAs (the
 * 128-tile: 4 and 64), and those reads are made one k ahead into a second
 * register set. A step's A tile lands transposed (copies of 4 bytes, row
 * stride 128 + 4 so that a warp's copies hit 32 banks), its B tile as is
 * (16-byte copies). The copies of step t + S are issued right after step
 * t's barrier into step t's buffer, so each has S - 1 steps to arrive.
 *
 * Why it is faster: it is the shape Nsight Compute shows cuBLAS's pedantic
 * SGEMM running on H200 (..._tilesize128x128x8_stage3_warpsize2x2x1 and
 * 256x128x8_stage3_warpsize4x2x1: 8 x 16 registers, three cp.async stages,
 * 8 warps a SM). Half the warps of the 128-tile kernel, but each with twice
 * the independent FMAs between shared reads, and no registers staging the
 * next tile: the schedulers issued 0.93 of cycles against 0.82, with the
 * same instruction count (docs/gemm.md). 128 x 256 beat 256 x 128 and
 * 128 x 128 in the probe: it makes the fewest 4-byte copies of A a k step.
 *
 * Why correct: the shared-memory protocol is the copy path's
 * (sgemm_tile.cuh, sgemm_mainloop_async): one barrier a step orders the
 * step's buffer being complete before its reads, and its reads before the
 * copies that refill it. Each element of C is written once, by one thread
 * of the tile that owns it (unsplit) or of the tile's last arriving block
 * (split: sgemm_partial.cuh).
 *
 * Edges, without a loop of their own: a tile that crosses m (or n) computes
 * the last BM rows (BN columns) of C instead, a window shifted up (left) to
 * lie inside A (B), and stores only the rows and columns from its own
 * first on; those before it are the neighbouring tile's, which stores them
 * (the same bits, but C is read and written by only one block). So every
 * copy reads inside the operands, every tile runs the interior's loop, and
 * a step's copies are 6 instructions on two pointers. Two earlier designs
 * lost 6-12% of the interior's speed: per-copy offsets and zero-fill
 * counts (cp.async's src-size), and a second loop for edge tiles; in both
 * ptxas put a branch around each step's copies instead of spreading them
 * between the FMAs after the barrier (docs/gemm.md). The kernel
 * needs 16-byte aligned pointers, leading dimensions that are multiples of
 * 4, k a multiple of 8, n a multiple of 4 (a shifted window starts on a
 * vector), m >= 128 and n >= 256 (gs__sgemm_wide_ok); gs_sgemm takes it
 * only then, and only on sm_80+.
 *
 * When: gs_sgemm's plan (sgemm_plan.c, gs__sgemm_wide_slices) takes it
 * where the 128-tile kernel would run unsplit or split-k and the wide
 * tiles fill the SMs as well; the 64-tile and stream-k shapes, and
 * misaligned operands, keep the other kernels.
 */
#include <limits.h>
#include <stdint.h>

#include <gridsync/detail/core/memory_order.cuh>

#include "sgemm_partial.cuh"
#include "sgemm_tile.cuh"

#include "../core/error.h"
#include "../runtime/kernel_shape.h"
#include "../runtime/workspace.h"

namespace {

constexpr int BK = GS_SGEMM_BK;
constexpr int WARPS_M = 2, WARPS_N = 4;
constexpr int BM = 64 * WARPS_M, BN = 64 * WARPS_N, THREADS = 32 * WARPS_M * WARPS_N;
constexpr int STAGES = GS_SGEMM_STAGES;
constexpr int A_STRIDE = BM + 4;               /* A's tile, transposed: [BK][BM + 4] */
constexpr int BUFFER = BK * A_STRIDE + BK * BN; /* floats a stage: A's tile, then B's */
constexpr int A_COPIES = BM * BK / THREADS;    /* 4-byte copies of A a thread a step */
constexpr int B_COPIES = BN * BK / 4 / THREADS; /* 16-byte copies of B */
static_assert(BM == GS_TUNE_SGEMM_WIDE_TILE_M && BN == GS_TUNE_SGEMM_WIDE_TILE_N &&
                  THREADS == GS_TUNE_SGEMM_WIDE_THREADS,
              "tuning.h describes this kernel's tile");
static_assert(BK == 8, "gs__sgemm_wide_ok asks k for multiples of 8");
static_assert(STAGES >= 3, "the wide tile's loop needs three or more stages");
static_assert(STAGES * BUFFER * sizeof(float) <= 48 * 1024,
              "the stages fit the default 48 KiB of dynamic shared memory (no opt-in here)");
static_assert(A_COPIES * THREADS == BM * BK && B_COPIES * THREADS * 4 == BN * BK,
              "the copies cover the tiles");

/* What the blocks of one call share (split: slices > 1). */
struct wide_state {
    unsigned int *counters; /* one per tile, 0 between calls */
    float4 *partials;       /* [tile][slice] partial tiles (sgemm_partial.cuh) */
    unsigned int *finished; /* the workspace's count of finished blocks */
    int slices, slice_steps;
};

/* The kernel's parts: device code for sm_80 and later (cp.async); earlier
 * GPUs get only the kernel's trap. */
#if GS_SGEMM_ASYNC
constexpr int A_ROWS_STEP = THREADS / BK;       /* rows between a thread's copies of A */
constexpr int B_ROWS_STEP = THREADS / (BN / 4); /* k rows between its copies of B */

/* If `copy`, cp.async of `bytes` bytes from global to shared memory, with
 * the predicate in the PTX (`@p cp.async`), so ptxas cannot put a branch
 * around a step's copies. */
template <int bytes>
__device__ __forceinline__ void cp_async_if(bool copy, float *dst, const float *src)
{
    static_assert(bytes == 4 || bytes == 16, "cp_async_if copies 4 or 16 bytes");
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(dst);
    if constexpr (bytes == 16)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t"
                     "@p cp.async.cg.shared.global [%1], [%2], 16;\n\t}" ::"r"((int)copy),
                     "r"(to), "l"(src)
                     : "memory");
    else
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t"
                     "@p cp.async.ca.shared.global [%1], [%2], 4;\n\t}" ::"r"((int)copy),
                     "r"(to), "l"(src)
                     : "memory");
}

/* The rows and columns of C a block computes and those it stores: its
 * tile's, except that a tile crossing m or n computes the window of the
 * last BM rows or BN columns (m >= BM, n >= BN and n % 4 == 0:
 * gs__sgemm_wide_ok) and stores only from its tile's first row and column. */
struct tile_window {
    int m0, n0;   /* the tile's first row and column: it stores from there */
    int wm0, wn0; /* the first row and column it computes */
};

__device__ __forceinline__ tile_window window_of(const gs__sgemm_args &p, int m0, int n0)
{
    return tile_window{m0, n0, min(m0, p.m - BM), min(n0, p.n - BN)};
}

/* Where a thread's copies come from, this step: thread t copies A's column
 * k = t % BK of the window's rows t / BK + i * A_ROWS_STEP, and B's 16-byte
 * pieces t + l * THREADS (k row idx / (BN / 4), column (idx % (BN / 4)) *
 * 4). Every one is inside A and B (the window; k a multiple of 8). */
struct copy_cursor {
    const float *a, *b; /* the thread's first copy of A and of B */
};

__device__ __forceinline__ copy_cursor cursor_at(const gs__sgemm_args &p, const tile_window &w,
                                                 int k0)
{
    const int t = (int)threadIdx.x;
    copy_cursor c;
    c.a = p.a + (long long)(w.wm0 + t / BK) * p.lda + k0 + t % BK;
    c.b = p.b + (long long)(k0 + t / (BN / 4)) * p.ldb + w.wn0 + (t % (BN / 4)) * 4;
    return c;
}

/* Issue a step's copies into `buf` if `more` (not past the last step), and
 * advance to the next step. PTX_PREDICATE: predicate them in the PTX
 * (cp_async_if) rather than leave it to the compiler. ptxas predicates
 * them either way, but schedules the two kernels differently; measured on
 * H200 (two runs each, docs/gemm.md), the split kernel is faster
 * with it (0.906-0.916x cuBLAS at 1024 x 1024 x 16384 against
 * 0.897-0.906x) and the unsplit kernel without it (0.988-0.995x at 4096^3
 * against 0.953-0.956x). */
template <bool PTX_PREDICATE>
__device__ __forceinline__ void copy_step(float *buf, copy_cursor &c, const gs__sgemm_args &p,
                                          bool more)
{
    const int t = (int)threadIdx.x, ka = t % BK, row = t / BK;
    float *bs = buf + BK * A_STRIDE;
#pragma unroll
    for (int i = 0; i < A_COPIES; ++i)
        if constexpr (PTX_PREDICATE)
            cp_async_if<4>(more, &buf[ka * A_STRIDE + row + i * A_ROWS_STEP],
                           c.a + (long long)i * A_ROWS_STEP * p.lda);
        else if (more)
            cp_async<4>(&buf[ka * A_STRIDE + row + i * A_ROWS_STEP],
                        c.a + (long long)i * A_ROWS_STEP * p.lda);
#pragma unroll
    for (int l = 0; l < B_COPIES; ++l) {
        const int idx = t + l * THREADS;
        if constexpr (PTX_PREDICATE)
            cp_async_if<16>(more, &bs[(idx / (BN / 4)) * BN + (idx % (BN / 4)) * 4],
                            c.b + (long long)l * B_ROWS_STEP * p.ldb);
        else if (more)
            cp_async<16>(&bs[(idx / (BN / 4)) * BN + (idx % (BN / 4)) * 4],
                         c.b + (long long)l * B_ROWS_STEP * p.ldb);
    }
    c.a += BK;
    c.b += (long long)BK * p.ldb;
}

/* A thread's fragments at k of a stage: A's 8 rows (2 vectors), B's 16
 * columns (4 vectors). */
__device__ __forceinline__ void fragment_at(float4 (&f)[6], const float *buf, int k, int ar, int bc)
{
    const float *a = buf + k * A_STRIDE + ar, *b = buf + BK * A_STRIDE + k * BN + bc;
    f[0] = *(const float4 *)a;
    f[1] = *(const float4 *)(a + 32);
#pragma unroll
    for (int j = 0; j < 4; ++j)
        f[2 + j] = *(const float4 *)(b + 16 * j);
}

/* The thread's first row and column in the block tile. */
__device__ __forceinline__ void lane_origin(int *ar, int *bc)
{
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    *ar = (warp / WARPS_N) * 64 + (lane / 4) * 4;
    *bc = (warp % WARPS_N) * 64 + (lane % 4) * 4;
}

/* acc = the products of the block's tile over `steps` k steps from k0.
 * The argument is sgemm_mainloop_async's (sgemm_tile.cuh): at the barrier
 * of step t each thread has waited for its copies of step t + 1 (one group
 * committed a step, empty ones included), so after it that tile is visible
 * to the block; the copies issued after it refill step t's buffer, whose
 * last reads every thread made before it. No copy is issued past the last
 * step, so none is pending when the loop ends. */
template <bool PTX_PREDICATE>
__device__ __forceinline__ void wide_mainloop(const gs__sgemm_args &p, float *smem,
                                              const tile_window &w, int k0, int steps,
                                              float (&acc)[8][16])
{
    int ar, bc;
    lane_origin(&ar, &bc);
    copy_cursor c = cursor_at(p, w, k0);
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j)
            acc[i][j] = 0.0f;
#pragma unroll
    for (int s = 0; s < STAGES; ++s) {
        copy_step<PTX_PREDICATE>(smem + s * BUFFER, c, p, s < steps);
        cp_async_commit();
    }
    cp_async_wait<STAGES - 1>();
    __syncthreads(); /* the first step's tiles */
    float4 frag[2][6];
    fragment_at(frag[0], smem, 0, ar, bc);
    /* STAGES steps a loop trip: each step's buffer is a constant */
    for (int t = 0; t < steps; t += STAGES) {
#pragma unroll
        for (int cur = 0; cur < STAGES; ++cur) {
            if (t + cur >= steps)
                break;
            const float *buf = smem + cur * BUFFER;
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                if (k + 1 < BK) {
                    fragment_at(frag[(k + 1) & 1], buf, k + 1, ar, bc);
                } else {
                    cp_async_wait<STAGES - 2>();
                    __syncthreads(); /* step t + cur + 1's tiles in; this buffer read */
                    copy_step<PTX_PREDICATE>(smem + cur * BUFFER, c, p, t + cur + STAGES < steps);
                    cp_async_commit();
                    fragment_at(frag[0], smem + (cur + 1 == STAGES ? 0 : cur + 1) * BUFFER, 0,
                                ar, bc);
                }
                sgemm_fma_8x16(frag[k & 1], acc);
            }
        }
    }
}

/* C = alpha * r + beta * C for vector q of this thread's registers (row
 * q / 4, columns 16 * (q % 4) ..; beta == 0 never reads C). GUARDED: a
 * shifted window's tile, which stores only from its own first row and
 * column (a vector lies wholly on one side: both are multiples of 4). */
template <bool GUARDED>
__device__ __forceinline__ void wide_store_vector(const gs__sgemm_args &p, float4 r, int q,
                                                  const tile_window &w, int ar, int bc)
{
    const int i = q / 4, row = w.wm0 + ar + (i & 3) + (i >> 2) * 32;
    const int col = w.wn0 + bc + 16 * (q % 4);
    if (GUARDED && (row < w.m0 || col < w.n0))
        return;
    float *c = p.c + (long long)row * p.ldc + col;
    float4 out = make_float4(p.alpha * r.x, p.alpha * r.y, p.alpha * r.z, p.alpha * r.w);
    if (p.beta != 0.0f) {
        const float4 old = *(const float4 *)c;
        out.x = fmaf(p.beta, old.x, out.x);
        out.y = fmaf(p.beta, old.y, out.y);
        out.z = fmaf(p.beta, old.z, out.z);
        out.w = fmaf(p.beta, old.w, out.w);
    }
    *(float4 *)c = out;
}

/* C = alpha * acc + beta * C for this thread's registers. */
template <bool GUARDED>
__device__ __forceinline__ void wide_store_c(const gs__sgemm_args &p, const float (&acc)[8][16],
                                             const tile_window &w)
{
    int ar, bc;
    lane_origin(&ar, &bc);
#pragma unroll
    for (int q = 0; q < 32; ++q) {
        const float *r = &acc[q / 4][4 * (q % 4)];
        wide_store_vector<GUARDED>(p, make_float4(r[0], r[1], r[2], r[3]), q, w, ar, bc);
    }
}

/* The fix-up of a split tile, by its last arriving block: each of this
 * thread's 32 vectors summed over the slices' partials in slice order
 * (0, + 1, + 2, ..: the same bits whichever block comes last), eight
 * vectors at a time, and stored. It holds 8 vectors, not the 8 x 16
 * registers: the main loop's registers are not kept past it (with them,
 * ptxas gave the kernel 255 registers against 215). */
template <bool GUARDED>
__device__ __forceinline__ void wide_fixup(const gs__sgemm_args &p, const float4 *slots,
                                           int slices, const tile_window &w)
{
    constexpr int GROUP = 8, VECTORS = BM * BN / 4 / THREADS;
    const size_t tile_vectors = (size_t)BM * BN / 4;
    int ar, bc;
    lane_origin(&ar, &bc);
#pragma unroll 1
    for (int g = 0; g < VECTORS; g += GROUP) {
        const float4 *at = slots + (size_t)g * THREADS + threadIdx.x;
        float4 sum[GROUP];
#pragma unroll
        for (int q = 0; q < GROUP; ++q)
            sum[q] = __ldcg(at + q * THREADS);
        for (int j = 1; j < slices; ++j) {
            float4 part[GROUP];
#pragma unroll
            for (int q = 0; q < GROUP; ++q)
                part[q] = __ldcg(at + j * tile_vectors + q * THREADS);
#pragma unroll
            for (int q = 0; q < GROUP; ++q) {
                sum[q].x += part[q].x;
                sum[q].y += part[q].y;
                sum[q].z += part[q].z;
                sum[q].w += part[q].w;
            }
        }
#pragma unroll
        for (int q = 0; q < GROUP; ++q)
            wide_store_vector<GUARDED>(p, sum[q], g + q, w, ar, bc);
    }
}

#endif /* GS_SGEMM_ASYNC */

/* One block a (tile, slice): blockIdx.x, .y the tile, .z the slice
 * (SPLIT: more than one slice; the fix-up's code stays out of the unsplit
 * kernel). */
template <bool SPLIT>
__global__ void __launch_bounds__(THREADS, 1) sgemm_wide(gs__sgemm_args p, wide_state s)
{
#if GS_SGEMM_ASYNC
    extern __shared__ __align__(16) float smem[]; /* STAGES * BUFFER floats */
    __shared__ int last; /* sgemm_arrive's */
    const int slice = (int)blockIdx.z;
    const int k_steps = (p.k + BK - 1) / BK;
    const int steps = min(s.slice_steps, k_steps - slice * s.slice_steps);
    const int k0 = slice * s.slice_steps * BK;
    const tile_window w = window_of(p, (int)blockIdx.y * BM, (int)blockIdx.x * BN);
    const bool inside = w.wm0 == w.m0 && w.wn0 == w.n0;
    float acc[8][16];
    wide_mainloop<SPLIT>(p, smem, w, k0, steps, acc); /* copy_step says why SPLIT */
    if constexpr (!SPLIT) {
        if (inside)
            wide_store_c<false>(p, acc, w);
        else
            wide_store_c<true>(p, acc, w);
    } else {
        const unsigned int tile = blockIdx.y * gridDim.x + blockIdx.x;
        const size_t tile_vectors = (size_t)BM * BN / 4;
        const float4 *slots = s.partials + (size_t)tile * s.slices * tile_vectors;
        sgemm_store_partial(s.partials + ((size_t)tile * s.slices + slice) * tile_vectors, acc,
                            THREADS);
        if (!sgemm_arrive(s.counters + tile, (unsigned int)s.slices, &last))
            return;
        if (inside)
            wide_fixup<false>(p, slots, s.slices, w);
        else
            wide_fixup<true>(p, slots, s.slices, w);
        __syncthreads(); /* every thread's reads of the partials -> the release below */
        if (threadIdx.x == 0) /* the tile's blocks are done with the workspace */
            gs__red_add_release_gpu(s.finished, (unsigned int)s.slices);
    }
#else
    (void)p;
    (void)s;
    __trap(); /* never launched: gs__sgemm_wide_built_for says no here */
#endif
}

} // namespace

/* From the library's kernel-shape cache (a few microseconds of driver
 * queries once per device, in relaxed capture mode). */
extern "C" gs_status gs__sgemm_wide_built_for(int dev, int *built)
{
    gs__kernel_shape shape;
    *built = 0;
    GS_TRY(gs__kernel_shape_get(dev, (const void *)sgemm_wide<false>, THREADS,
                                STAGES * BUFFER * (int)sizeof(float), &shape));
    *built = shape.async_copy && shape.per_sm > 0;
    return GS_SUCCESS;
}

extern "C" gs_status gs__sgemm_wide(const gs__sgemm_args *p, int splits, cudaStream_t stream)
{
    if (splits < 1 || splits > GS_TUNE_SGEMM_MAX_SPLIT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "wide gemm: %d slices (1 to %d)", splits,
                        GS_TUNE_SGEMM_MAX_SPLIT);
    if (!gs__sgemm_wide_ok(p))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "wide gemm: A, B and C must be 16-byte aligned, lda, ldb, ldc and n "
                        "multiples of 4, k of 8, m >= 128 and n >= 256 (m=%d n=%d k=%d lda=%d "
                        "ldb=%d ldc=%d)",
                        p->m, p->n, p->k, p->lda, p->ldb, p->ldc);
    int dev = 0, capturing = 0, built = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__sgemm_wide_built_for(dev, &built));
    if (!built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "wide gemm: needs cp.async (sm_80 or later) in both the GPU and this "
                        "build's code for it (device %d)",
                        dev);
    int slice_steps = 0;
    const int slices = gs__sgemm_slices(p->k, splits, &slice_steps);
    const unsigned int tiles_n = (unsigned int)((p->n + BN - 1) / BN);
    const unsigned int tiles_m = (unsigned int)((p->m + BM - 1) / BM);
    const unsigned long long tiles = (unsigned long long)tiles_n * tiles_m;
    const size_t tile_bytes = (size_t)BM * BN * sizeof(float);
    wide_state state = {NULL, NULL, NULL, slices, slice_steps};
    const int smem = STAGES * BUFFER * (int)sizeof(float);
    void *args[] = {(void *)p, &state};
    const dim3 grid(tiles_n, tiles_m, (unsigned int)slices);
    if (slices == 1) {
        GS_CUDA_TRY(cudaLaunchKernel((const void *)sgemm_wide<false>, grid, dim3(THREADS),
                                     args, smem, stream));
        return GS_SUCCESS;
    }
    if (tiles > UINT_MAX / GS_TUNE_SGEMM_MAX_SPLIT || tiles * slices > SIZE_MAX / 2 / tile_bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "wide gemm: %dx%d has too many tiles for partial tiles", p->m, p->n);
    GS_TRY(gs__is_capturing(stream, &capturing));
    gs__ws_lease ws;
    GS_TRY(gs__sgemm_partials_acquire(stream, dev, capturing, "wide gemm", tiles,
                                      (unsigned int)(tiles * slices),
                                      (size_t)tiles * slices * tile_bytes, &ws));
    state.counters = (unsigned int *)ws.zeroed;
    state.partials = (float4 *)ws.scratch;
    state.finished = ws.ticket + 2;
    gs_status st = GS_SUCCESS;
    cudaError_t err =
        cudaLaunchKernel((const void *)sgemm_wide<true>, grid, dim3(THREADS), args, smem, stream);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaLaunchKernel(wide gemm)", __FILE__, __LINE__);
    return gs__ws_release(&ws, stream, st);
}
