/*
 * sgemm_tile.cuh - the register-tiled block tile shared by the FP32 matrix
 * multiply kernels (sgemm_fast.cu: one block per tile of C; sgemm_splitk.cu:
 * one block per tile and k slice; sgemm_streamk.cu: ranges of k steps).
 * Library-internal.
 *
 * How: a block computes a BM x BN tile of C (128x128 with 256 threads, or
 * 64x64 with 64 threads when 128-tiles would leave SMs idle); each thread
 * holds an 8x8 register tile made of four 4x4 pieces, half a block tile
 * apart, so that its shared-memory reads are 16-byte vectors that a warp
 * reads without bank conflicts (broadcasts for A, 16 consecutive vectors for
 * B). k advances in steps of BK = 8. A step's A tile is stored transposed
 * (k-major, rows padded by 4 floats so that the transposing stores of a warp
 * hit 32 different banks) and its B tile as is; both come from global memory
 * as 16-byte vectors. Two shared buffers: while the block multiplies step t
 * out of one, the loads of step t+1 are in flight into registers and then
 * stored into the other. Per k, a thread reads 4 vectors and issues 64 FMAs;
 * those 4 vectors are read one k ahead into a second register set, so the
 * FMAs never wait on shared memory, not even right after the barrier.
 *
 * The copy path (split-k and stream-k kernels, interior tiles, sm_80+):
 * the same FMAs and shared reads, but the tiles go from global to shared
 * memory with cp.async (no registers, no transposing stores: A's copies are
 * 4 bytes each and land transposed) through GS_SGEMM_STAGES buffers, so a
 * step's loads are issued GS_SGEMM_STAGES - 1 steps before it (two with
 * the default 3) where the register path issues them one step before. Measured on H200 (docs/gemm.md): 2-4%
 * faster where blocks walk a long k slice and miss L2 more (1024 x 1024 x
 * 16384 split 4 ways: 0.87x -> 0.89-0.90x cuBLAS), no faster on the large
 * squares, where the unsplit kernel keeps the register path.
 *
 * Why correct: one barrier per step, at its end. It orders (1) this step's
 * stores into the other buffer before the next step's reads of it, and (2)
 * this step's reads of the current buffer before step t+1 stores tile t+2
 * into it. Before the loop, one barrier orders the first tile's stores
 * before its reads. No other shared memory is touched. (The copy path's
 * argument is at sgemm_mainloop_async.)
 *
 * Edges: a block whose tile lies inside C, with k a multiple of 8 and every
 * pointer and leading dimension 16-byte aligned, runs the vector path with no
 * bounds checks; the others (at most one row and one column of blocks) load
 * element by element with zero fill and store only inside C. The same code,
 * specialised twice by the compiler, so the interior pays nothing.
 * beta == 0 never reads C (it may hold garbage or NaN).
 *
 * FP32 inputs, FP32 accumulation, no TF32 and no tensor cores: the
 * products and sums are exact FP32 operations, in the same order for a given
 * k range whichever kernel runs them.
 */
#ifndef GS_GEMM_SGEMM_TILE_CUH
#define GS_GEMM_SGEMM_TILE_CUH

#include <gridsync/detail/core/tuning.h>

#include "../../internal/gridsync_internal.h"

/* The k step and the copy path's stages, from tuning.h. */
#define GS_SGEMM_BK GS_TUNE_SGEMM_BK
#define GS_SGEMM_STAGES GS_TUNE_SGEMM_STAGES
/* Whether this compilation has the copy path (cp.async exists from sm_80;
 * GS_SGEMM_STAGES below 2 turns it off), and the shared memory a kernel declares:
 * `copy` (a kernel that takes the copy path for its interior tiles) gets
 * the stages, the others the register path's two buffers. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && GS_SGEMM_STAGES >= 2
#define GS_SGEMM_ASYNC 1
#else
#define GS_SGEMM_ASYNC 0
#endif
#define GS_SGEMM_SMEM_FLOATS(bm, bn, copy)                                                         \
    ((GS_SGEMM_ASYNC && (copy) ? GS_SGEMM_STAGES : 2) * GS_SGEMM_BK * ((bm) + 4 + (bn)))

/* Load this thread's share of A's tile at k0 (`loads` 16-byte pieces) into
 * registers: piece l is row (idx / 2), columns (idx % 2) * 4 .. + 3 of the
 * tile, idx = tid + l * threads. */
static __device__ __forceinline__ void load_a(float4 *r, const gs__sgemm_args *p, int m0, int k0,
                                              int loads, int threads, int guarded)
{
#pragma unroll
    for (int l = 0; l < loads; ++l) {
        int idx = threadIdx.x + l * threads;
        int row = m0 + idx / (GS_SGEMM_BK / 4), k = k0 + (idx % (GS_SGEMM_BK / 4)) * 4;
        const float *src = p->a + (long long)row * p->lda + k;
        if (!guarded) {
            r[l] = *(const float4 *)src;
        } else {
            r[l].x = row < p->m && k < p->k ? src[0] : 0.0f;
            r[l].y = row < p->m && k + 1 < p->k ? src[1] : 0.0f;
            r[l].z = row < p->m && k + 2 < p->k ? src[2] : 0.0f;
            r[l].w = row < p->m && k + 3 < p->k ? src[3] : 0.0f;
        }
    }
}

/* B's tile at k0: piece l is row idx / (bn / 4), columns (idx % (bn / 4)) * 4. */
static __device__ __forceinline__ void load_b(float4 *r, const gs__sgemm_args *p, int n0, int k0,
                                              int loads, int threads, int bn, int guarded)
{
#pragma unroll
    for (int l = 0; l < loads; ++l) {
        int idx = threadIdx.x + l * threads;
        int k = k0 + idx / (bn / 4), col = n0 + (idx % (bn / 4)) * 4;
        const float *src = p->b + (long long)k * p->ldb + col;
        if (!guarded) {
            r[l] = *(const float4 *)src;
        } else {
            int krow = k < p->k;
            r[l].x = krow && col < p->n ? src[0] : 0.0f;
            r[l].y = krow && col + 1 < p->n ? src[1] : 0.0f;
            r[l].z = krow && col + 2 < p->n ? src[2] : 0.0f;
            r[l].w = krow && col + 3 < p->n ? src[3] : 0.0f;
        }
    }
}

/* Store the registers into shared buffer `as` (transposed, row stride
 * bm + 4) and `bs`. */
static __device__ __forceinline__ void store_tiles(float *as, float *bs, const float4 *ra,
                                                   const float4 *rb, int loads_a, int loads_b,
                                                   int threads, int bm, int bn)
{
    const int stride = bm + 4;
#pragma unroll
    for (int l = 0; l < loads_a; ++l) {
        int idx = threadIdx.x + l * threads;
        int row = idx / (GS_SGEMM_BK / 4), k = (idx % (GS_SGEMM_BK / 4)) * 4;
        as[(k + 0) * stride + row] = ra[l].x;
        as[(k + 1) * stride + row] = ra[l].y;
        as[(k + 2) * stride + row] = ra[l].z;
        as[(k + 3) * stride + row] = ra[l].w;
    }
#pragma unroll
    for (int l = 0; l < loads_b; ++l) {
        int idx = threadIdx.x + l * threads;
        *(float4 *)&bs[(idx / (bn / 4)) * bn + (idx % (bn / 4)) * 4] = rb[l];
    }
}

/* A thread's fragments at k of the tile pair starting at `a` (A transposed,
 * row stride bm + 4, then B): A rows ty*4.. and ty*4 + bm/2.., B columns
 * tx*4.. and tx*4 + bn/2.. */
static __device__ __forceinline__ void load_fragment(float4 *f, const float *a, int k, int bm,
                                                     int bn, int tx, int ty)
{
    const float *b = a + GS_SGEMM_BK * (bm + 4);
    f[0] = *(const float4 *)&a[k * (bm + 4) + ty * 4];
    f[1] = *(const float4 *)&a[k * (bm + 4) + ty * 4 + bm / 2];
    f[2] = *(const float4 *)&b[k * bn + tx * 4];
    f[3] = *(const float4 *)&b[k * bn + tx * 4 + bn / 2];
}

/* C row/column of register i (0..7) of a thread at tile coordinate t. */
static __device__ __forceinline__ int reg_offset(int t, int i, int half)
{
    return t * 4 + (i & 3) + (i >> 2) * half;
}

/* This thread's tile coordinates: its 8 x 8 registers hold rows ty*4..+3
 * and ty*4 + bm/2..+3, columns tx*4..+3 and tx*4 + bn/2..+3 of the block
 * tile. Each warp covers 4 x 8 thread tiles (32 rows x 64 columns of C), so
 * a k step's shared reads are one 64-byte and one 128-byte span per warp.
 * Row-major over the block (a warp covering 2 x 16 thread tiles: 256-byte
 * spans of B) measured 0-3% slower at 1024^3 - 8192^3 in the kernel of the
 * time (H200, 2026-11-22, research/notes/gemm.md, "Versions"). */
static __device__ __forceinline__ void thread_coords(int bn, int *tx, int *ty)
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps_n = bn / 64;
    *tx = (warp % warps_n) * 8 + lane % 8;
    *ty = (warp / warps_n) * 4 + lane / 8;
}

/* ------------------------------------------- the copy path (sm_80+) */

/* 4 or 16 bytes from global to shared memory without registers (the
 * 16-byte copy skips L1: B's lines are used once per block). A thread sees
 * its copies after cp_async_wait, the block after that and a barrier. */
template <int bytes>
static __device__ __forceinline__ void cp_async(float *dst, const float *src)
{
    static_assert(bytes == 4 || bytes == 16, "cp_async copies 4 or 16 bytes");
#if GS_SGEMM_ASYNC
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(dst);
    if constexpr (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(to), "l"(src) : "memory");
#endif
}

/* Close the group of copies issued since the last commit (possibly none). */
static __device__ __forceinline__ void cp_async_commit()
{
#if GS_SGEMM_ASYNC
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/* Wait until at most `pending` of this thread's groups are incomplete. */
template <int pending>
static __device__ __forceinline__ void cp_async_wait()
{
#if GS_SGEMM_ASYNC
    asm volatile("cp.async.wait_group %0;" ::"n"(pending) : "memory");
#endif
}

/* Where a thread's copies come from, advanced one k step at a time. A:
 * thread t copies column k = t % BK of rows t / BK + c * threads / BK, 4
 * bytes each, so one warp instruction reads a 32-byte run of each of 32 / BK
 * rows (one sector each when A and lda are 32-byte aligned), and the copy
 * lands transposed (row stride bm + 4: 32 banks, as in store_tiles). B:
 * 16-byte pieces, a warp instruction reading 512 contiguous bytes (two
 * 256-byte rows with 64-tiles). */
struct copy_source {
    const float *a, *b;  /* this thread's first element of A and of B */
    long long a_rows;    /* elements between its rows of A */
    long long b_rows;    /* elements between its rows of B */
    long long b_step;    /* elements of B per k step */
};

static __device__ __forceinline__ copy_source copy_source_at(const gs__sgemm_args *p, int m0,
                                                             int n0, int k0, int bn, int threads)
{
    copy_source c;
    const int rows_step = threads / GS_SGEMM_BK;
    c.a = p->a + (long long)(m0 + (int)threadIdx.x / GS_SGEMM_BK) * p->lda + k0 +
          (int)threadIdx.x % GS_SGEMM_BK;
    c.a_rows = (long long)rows_step * p->lda;
    c.b = p->b + (long long)(k0 + (int)threadIdx.x / (bn / 4)) * p->ldb + n0 +
          ((int)threadIdx.x % (bn / 4)) * 4;
    c.b_rows = (long long)(threads / (bn / 4)) * p->ldb;
    c.b_step = (long long)GS_SGEMM_BK * p->ldb;
    return c;
}

/* Issue the copies of the source's step into one buffer (A transposed with
 * row stride bm + 4, then B), and advance the source to the next step.
 * Interior tiles only. */
static __device__ __forceinline__ void copy_tiles_async(float *as, copy_source &src, int bm,
                                                        int bn, int threads)
{
    const int stride = bm + 4, rows_step = threads / GS_SGEMM_BK;
    const int k = threadIdx.x % GS_SGEMM_BK, row = threadIdx.x / GS_SGEMM_BK;
#pragma unroll
    for (int c = 0; c < bm * GS_SGEMM_BK / threads; ++c)
        cp_async<4>(&as[k * stride + row + c * rows_step], src.a + c * src.a_rows);
    float *bs = as + GS_SGEMM_BK * stride;
#pragma unroll
    for (int l = 0; l < bn * GS_SGEMM_BK / 4 / threads; ++l) {
        const int idx = threadIdx.x + l * threads;
        cp_async<16>(&bs[(idx / (bn / 4)) * bn + (idx % (bn / 4)) * 4], src.b + l * src.b_rows);
    }
    src.a += GS_SGEMM_BK;
    src.b += src.b_step;
}

/* The FMAs of one k: fragments f (A's 8 values, B's 8) into acc. */
static __device__ __forceinline__ void fma_fragment(const float4 *f, float (&acc)[8][8])
{
    const float av[8] = {f[0].x, f[0].y, f[0].z, f[0].w, f[1].x, f[1].y, f[1].z, f[1].w};
    const float bv[8] = {f[2].x, f[2].y, f[2].z, f[2].w, f[3].x, f[3].y, f[3].z, f[3].w};
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
}

/* The main loop of an interior tile on sm_80+ (see sgemm_mainloop for the
 * contract). GS_SGEMM_STAGES buffers in a ring: the copies of step t + S
 * are issued right after step t's barrier into step t's buffer, so every
 * load has S - 1 steps (about 2.8 us with 3 stages on H200) to arrive,
 * where the register path gives it one.
 *
 * Why correct: at the barrier of step t (during its last k), each thread
 * has waited for its own copies of step t + 1 (groups are committed one a
 * step, empty ones included, so S + t groups are out and all but the S - 2
 * newest, steps t + 2 .., are complete), so after the barrier the whole
 * tile of step t + 1 is visible to the block. The copies issued after it
 * overwrite step t's buffer, whose last reads (the fragments of its last k)
 * every thread made before the barrier. No copy is issued past the last
 * step, so none is pending when the loop ends. (After the last step's
 * barrier the fragments of a step that does not exist are read from the
 * next buffer, as the register path reloads its own tile: never used.) */
static __device__ __forceinline__ void sgemm_mainloop_async(const gs__sgemm_args *p, float *smem,
                                                            int bm, int bn, int threads,
                                                            unsigned int tile_m,
                                                            unsigned int tile_n, int k_begin,
                                                            int steps, float (&acc)[8][8])
{
    constexpr int S = GS_SGEMM_STAGES;
    const int bk = GS_SGEMM_BK, buffer = bk * (bm + 4) + bk * bn;
    int tx, ty;
    thread_coords(bn, &tx, &ty);
    copy_source src = copy_source_at(p, tile_m * bm, tile_n * bn, k_begin, bn, threads);
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;
#pragma unroll
    for (int s = 0; s < S; ++s) {
        if (s < steps)
            copy_tiles_async(smem + s * buffer, src, bm, bn, threads);
        cp_async_commit();
    }
    cp_async_wait<S - 1>();
    __syncthreads(); /* the first step's tiles */
    float4 frag[2][4];
    load_fragment(frag[0], smem, 0, bm, bn, tx, ty);
    /* S steps per loop trip, so that each step's buffer is a constant and
     * the shared addresses fold into the instructions' offsets (as the
     * register path's two steps a trip do) */
    for (int t = 0; t < steps; t += S) {
#pragma unroll
        for (int cur = 0; cur < S; ++cur) {
            if (t + cur >= steps)
                break;
            const float *a = smem + cur * buffer;
#pragma unroll
            for (int k = 0; k < bk; ++k) {
                if (k + 1 < bk) {
                    load_fragment(frag[(k + 1) & 1], a, k + 1, bm, bn, tx, ty);
                } else {
                    cp_async_wait<S - 2>();
                    __syncthreads(); /* step t + cur + 1's tiles in; this step's buffer read */
                    if (t + cur + S < steps)
                        copy_tiles_async(smem + cur * buffer, src, bm, bn, threads);
                    cp_async_commit();
                    load_fragment(frag[0], smem + (cur + 1 == S ? 0 : cur + 1) * buffer, 0, bm,
                                  bn, tx, ty);
                }
                fma_fragment(frag[k & 1], acc);
            }
        }
    }
}

/* The products of block tile (tile_m, tile_n) (C rows tile_m * bm.., columns
 * tile_n * bn..) over `steps` k steps from k_begin (a multiple of BK) into
 * acc (zeroed here); `bm`, `bn`, `threads`, `guarded` and `copy` are
 * constants at each call site, so each call compiles to its own specialised
 * code. `copy`: an interior tile takes the copy path where there is one
 * (smem then holds GS_SGEMM_SMEM_FLOATS(bm, bn, 1) floats); otherwise the
 * register path below (two buffers). Its last barrier comes after its last
 * shared-memory store; it then only reads shared memory, so a caller that
 * touches no shared memory after it needs no barrier. */
static __device__ __forceinline__ void sgemm_mainloop(const gs__sgemm_args *p, float *smem,
                                                      int bm, int bn, int threads, int guarded,
                                                      int copy, unsigned int tile_m,
                                                      unsigned int tile_n, int k_begin, int steps,
                                                      float (&acc)[8][8])
{
#if GS_SGEMM_ASYNC
    if (copy && !guarded) {
        sgemm_mainloop_async(p, smem, bm, bn, threads, tile_m, tile_n, k_begin, steps, acc);
        return;
    }
#endif
    const int bk = GS_SGEMM_BK, as_size = bk * (bm + 4), bs_size = bk * bn;
    const int loads_a = bm * bk / 4 / threads, loads_b = bn * bk / 4 / threads;
    int tx, ty;
    thread_coords(bn, &tx, &ty);
    const int m0 = tile_m * bm, n0 = tile_n * bn;
    const int buffer = as_size + bs_size; /* one buffer: A's tile, then B's */
    float4 ra[4], rb[4];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;

    load_a(ra, p, m0, k_begin, loads_a, threads, guarded);
    load_b(rb, p, n0, k_begin, loads_b, threads, bn, guarded);
    store_tiles(smem, smem + as_size, ra, rb, loads_a, loads_b, threads, bm, bn);
    __syncthreads(); /* first tile's stores -> its reads */

    /* Fragments (A's 8 and B's 8 values at one k) are double-buffered in
     * registers: sub-step k multiplies fragments read during sub-step k - 1,
     * and the first fragments of a tile are read right after the barrier
     * while the last sub-step of the previous tile multiplies. So no FMA
     * waits on a shared-memory read, not even after the barrier. */
    float4 frag[2][4];
    load_fragment(frag[0], smem, 0, bm, bn, tx, ty);
    /* Two steps per loop trip: the buffer of each is then a constant, and
     * their addresses fold into the shared-memory instructions' offsets
     * (583 -> 572 instructions per 512 FMAs of the 128-tile kernel). At
     * n = 4096 on H200: 0.88x cuBLAS before, 0.91x with this alone, 0.94x
     * with the fragment double buffer too; that one alone is slower, 0.84x
     * (docs/gemm.md). */
#pragma unroll 2
    for (int t = 0; t < steps; ++t) {
        const int cur = t & 1;
        const float *a = smem + cur * buffer;
        /* The next step's loads, in flight during the FMAs. Unconditional:
         * the last step reloads its own tile (cached) into the idle buffer.
         * Behind a branch, the compiler sank them below the FMAs, which left
         * the global latency exposed every step (0.81x cuBLAS -> 0.88x at
         * n = 4096 on H200). */
        const int next = k_begin + (t + 1 < steps ? t + 1 : t) * bk;
        load_a(ra, p, m0, next, loads_a, threads, guarded);
        load_b(rb, p, n0, next, loads_b, threads, bn, guarded);
#pragma unroll
        for (int k = 0; k < bk; ++k) {
            if (k + 1 < bk) {
                load_fragment(frag[(k + 1) & 1], a, k + 1, bm, bn, tx, ty);
            } else {
                float *other = smem + (cur ^ 1) * buffer;
                store_tiles(other, other + as_size, ra, rb, loads_a, loads_b, threads, bm, bn);
                /* stores into the other buffer -> next step's reads; this
                 * step's reads of `cur` -> the stores of step t + 2 into it */
                __syncthreads();
                load_fragment(frag[0], other, 0, bm, bn, tx, ty);
            }
            fma_fragment(frag[k & 1], acc);
        }
    }
}

/* C = alpha * acc + beta * C for this thread's registers of block tile
 * (tile_m, tile_n) (beta == 0 never reads C); `guarded`: only elements
 * inside C. */
static __device__ __forceinline__ void sgemm_store_c(const gs__sgemm_args *p,
                                                     const float (&acc)[8][8], int bm, int bn,
                                                     int guarded, unsigned int tile_m,
                                                     unsigned int tile_n)
{
    int tx, ty;
    thread_coords(bn, &tx, &ty);
    const int m0 = tile_m * bm, n0 = tile_n * bn;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + reg_offset(ty, i, bm / 2);
        float *c = p->c + (long long)row * p->ldc + n0;
        if (!guarded) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                float4 *dst = (float4 *)(c + reg_offset(tx, h * 4, bn / 2));
                float4 v = make_float4(p->alpha * acc[i][h * 4 + 0], p->alpha * acc[i][h * 4 + 1],
                                       p->alpha * acc[i][h * 4 + 2], p->alpha * acc[i][h * 4 + 3]);
                if (p->beta != 0.0f) {
                    float4 old = *dst;
                    v.x = fmaf(p->beta, old.x, v.x);
                    v.y = fmaf(p->beta, old.y, v.y);
                    v.z = fmaf(p->beta, old.z, v.z);
                    v.w = fmaf(p->beta, old.w, v.w);
                }
                *dst = v;
            }
        } else if (row < p->m) {
#pragma unroll
            for (int j = 0; j < 8; ++j) {
                const int col = n0 + reg_offset(tx, j, bn / 2);
                if (col < p->n) {
                    float v = p->alpha * acc[i][j];
                    c[col - n0] = p->beta == 0.0f ? v : fmaf(p->beta, c[col - n0], v);
                }
            }
        }
    }
}

/* Interior tiles take the unguarded path (see the file comment). */
static __device__ __forceinline__ int interior(const gs__sgemm_args *p, int vector_ok, int bm,
                                               int bn, unsigned int tile_m, unsigned int tile_n)
{
    return vector_ok && (int)(tile_m + 1) * bm <= p->m && (int)(tile_n + 1) * bn <= p->n &&
           p->k % GS_SGEMM_BK == 0;
}


/* acc += the outer product of a thread's 8 x 16 fragment at one k: rows
 * f[0], f[1] (A), columns f[2] .. f[5] (B). The wide tile's inner step
 * (sgemm_wide.cu): 128 FMAs from 6 shared-memory vectors. */
static __device__ __forceinline__ void sgemm_fma_8x16(const float4 (&f)[6], float (&acc)[8][16])
{
    const float av[8] = {f[0].x, f[0].y, f[0].z, f[0].w, f[1].x, f[1].y, f[1].z, f[1].w};
    float bv[16];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        bv[4 * j] = f[2 + j].x;
        bv[4 * j + 1] = f[2 + j].y;
        bv[4 * j + 2] = f[2 + j].z;
        bv[4 * j + 3] = f[2 + j].w;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j)
            acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
}

#endif /* GS_GEMM_SGEMM_TILE_CUH */
