/*
 * sgemm_partial.cuh - partial tiles of C in the workspace, shared by the
 * split-k (sgemm_splitk.cu), stream-k (sgemm_streamk.cu) and wide-tile
 * split (sgemm_wide.cu) kernels: a
 * block stores the partial sums of its k range, arrives at the tile's
 * counter, and the tile's last arriver sums every partial in a fixed order.
 * Library-internal.
 *
 * A partial tile is stored in the layout its threads own: vector q (4 of a
 * thread's R x C registers, row q / (C / 4)) of thread t at
 * slot[q * threads + t], so a warp stores and loads 512 contiguous bytes.
 * (8 x 8 registers: the 128- and 64-tiles; 8 x 16: the wide tile,
 * sgemm_wide.cu.)
 *
 * Why correct (PTX memory model): every thread stores its partial (weak
 * st.global.cg), then bar.sync, then thread 0 arrives with
 * atom.acq_rel.gpu.inc on the tile's counter. The barrier orders the
 * threads' stores before thread 0's release (causality order: CTA-scope
 * barrier, then the release is cumulative over what thread 0 has observed),
 * and the counter's read-modify-writes form one release sequence, so the
 * last arriver's acquire (the same atom) synchronizes with every earlier
 * arrival at the tile. Its bar.sync then orders that acquire before all its
 * threads' reads of the partials (ld.global.cg: L2, never a stale L1 line).
 * The counter is atom.inc with limit count - 1: the count-th arrival stores
 * 0, so it is 0 again for the next call with nothing to clear.
 * Nobody waits: the last arriver finds every partial written.
 */
#ifndef GS_GEMM_SGEMM_PARTIAL_CUH
#define GS_GEMM_SGEMM_PARTIAL_CUH

#include <gridsync/detail/core/memory_order.cuh>

#include "../runtime/workspace.h"

/* Vectors of 4 floats in a thread's 8 x 8 register tile. */
#define GS_SGEMM_PARTIAL_VECTORS 16

/* Store this thread's R x C registers into the partial tile at `slot` (the
 * tile's first vector; `threads` per block). */
template <int R, int C>
static __device__ __forceinline__ void sgemm_store_partial(float4 *slot, const float (&acc)[R][C],
                                                           int threads)
{
    static_assert(C % 4 == 0, "a register row is whole vectors");
#pragma unroll
    for (int q = 0; q < R * C / 4; ++q) {
        const float *r = &acc[q / (C / 4)][(q % (C / 4)) * 4];
        __stcg(slot + q * threads + threadIdx.x, make_float4(r[0], r[1], r[2], r[3]));
    }
}

/* Every thread: after its sgemm_store_partial, arrive at `counter` (0
 * between calls), which `count` blocks share. Returns, in every thread,
 * whether this block arrived last (then every partial is visible to it).
 * `last` is a shared word; the caller orders any earlier use of it. */
static __device__ __forceinline__ int sgemm_arrive(unsigned int *counter, unsigned int count,
                                                   int *last)
{
    __syncthreads(); /* every thread's partial -> thread 0's release */
    if (threadIdx.x == 0)
        *last = gs__atom_inc_acq_rel_gpu(counter, count - 1u) == count - 1u;
    __syncthreads(); /* thread 0's acquire -> every thread's reads of the partials */
    return *last;
}

/* acc += the partial tile at `slot` (acc = it when `first`; the 8 x 8
 * kernels: the wide tile sums its partials a group at a time). */
static __device__ __forceinline__ void sgemm_add_partial(const float4 *slot, float (&acc)[8][8],
                                                         int threads, int first)
{
#pragma unroll
    for (int q = 0; q < GS_SGEMM_PARTIAL_VECTORS; ++q) {
        const float4 v = __ldcg(slot + q * threads + threadIdx.x);
        float *r = &acc[q / 2][(q % 2) * 4];
        r[0] = first ? v.x : r[0] + v.x;
        r[1] = first ? v.y : r[1] + v.y;
        r[2] = first ? v.z : r[2] + v.z;
        r[3] = first ? v.w : r[3] + v.w;
    }
}

/* The workspace of a call with partial tiles (host): a counter per tile
 * (`tiles` of them, zero: every complete call leaves them at zero, so they
 * are zeroed only when the area is new), `partial_bytes` of partial tiles,
 * and `blocks` launched blocks that count themselves out. */
static inline gs_status gs__sgemm_partials_acquire(cudaStream_t stream, int device, int capturing,
                                                   const char *what, size_t tiles,
                                                   unsigned int blocks, size_t partial_bytes,
                                                   gs__ws_lease *ws)
{
    gs__ws_request request = gs__ws_request_for(stream, device, capturing, what);
    request.counted = blocks;
    request.zeroed_bytes = (tiles * sizeof(unsigned int) + 255) & ~(size_t)255;
    request.scratch_bytes = partial_bytes;
    return gs__ws_acquire(&request, ws);
}

#endif /* GS_GEMM_SGEMM_PARTIAL_CUH */
