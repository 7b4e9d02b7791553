/*
 * decode_gemv.cuh - the batch-1 (and batch-4) decode workload's arithmetic,
 * the same in every version of `gridsync bench decode` and in its test:
 * y = W x for a slab of R rows of W (16-bit floats, in shared memory),
 * x of B vectors of length K (16-bit, in registers), fp32 sums, y rounded to
 * 16 bits; and the gated MLP's h = SiLU(W_gate x) * (W_up x).
 *
 * Layout: W row-major (a row is K contiguous values), x and y batch-major
 * (vector b at x + b K). A block of THREADS threads: thread t owns the
 * 16-byte chunks t, t + THREADS, ... of a row (CH = K / (8 THREADS) chunks);
 * it holds its chunks of every x vector in registers (loaded once per layer:
 * decode_x), multiplies them into each row's chunks read from shared memory
 * (consecutive threads, consecutive 16 bytes: no bank conflict), and the
 * R x B partial sums are reduced across the block: a warp reduce-scatter
 * (each xor-shuffle step halves the values a lane keeps, so 32 values take
 * 31 shuffles, not 160), then the warps' results through shared memory.
 */
#ifndef GS_BENCH_DECODE_GEMV_CUH
#define GS_BENCH_DECODE_GEMV_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace decode {

/* The two 16-bit types, with their packed conversions. */
template <typename T> struct pair;
template <> struct pair<__half> {
    typedef __half2 type;
    static __device__ __forceinline__ float2 to_float2(__half2 v) { return __half22float2(v); }
    static __device__ __forceinline__ __half from_float(float v) { return __float2half_rn(v); }
};
template <> struct pair<__nv_bfloat16> {
    typedef __nv_bfloat162 type;
    static __device__ __forceinline__ float2 to_float2(__nv_bfloat162 v)
    {
        return __bfloat1622float2(v);
    }
    static __device__ __forceinline__ __nv_bfloat16 from_float(float v)
    {
        return __float2bfloat16_rn(v);
    }
};

/* A thread's chunks of the B vectors of x: 8 values per chunk, packed. */
template <int CH, int B> struct xregs {
    uint4 v[B][CH];
};

/* Load the thread's chunks of x (B vectors of K at x, from global memory). */
template <typename T, int K, int B, int THREADS>
__device__ __forceinline__ void load_x(xregs<K / (8 * THREADS), B> &xr, const T *x)
{
    constexpr int CH = K / (8 * THREADS);
#pragma unroll
    for (int b = 0; b < B; ++b)
#pragma unroll
        for (int c = 0; c < CH; ++c)
            xr.v[b][c] = *(const uint4 *)(x + (size_t)b * K + (size_t)(c * THREADS + threadIdx.x) * 8);
}

/* acc[r][b] += row r of the slab (in shared memory) . x_b, over this
 * thread's chunks: each chunk of x is converted to float once, for all R
 * rows. */
template <typename T, int K, int B, int R, int THREADS>
__device__ __forceinline__ void slab_dot(float (&acc)[R][B], const T *w,
                                         const xregs<K / (8 * THREADS), B> &xr)
{
    typedef typename pair<T>::type T2;
    constexpr int CH = K / (8 * THREADS);
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        float2 xf[B][4];
#pragma unroll
        for (int b = 0; b < B; ++b) {
            const T2 *xp = (const T2 *)&xr.v[b][c];
#pragma unroll
            for (int k = 0; k < 4; ++k)
                xf[b][k] = pair<T>::to_float2(xp[k]);
        }
#pragma unroll
        for (int r = 0; r < R; ++r) {
            uint4 wv = *(const uint4 *)(w + (size_t)r * K + (size_t)(c * THREADS + threadIdx.x) * 8);
            const T2 *wp = (const T2 *)&wv;
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const float2 wf = pair<T>::to_float2(wp[k]);
#pragma unroll
                for (int b = 0; b < B; ++b) {
                    acc[r][b] = fmaf(wf.x, xf[b][k].x, acc[r][b]);
                    acc[r][b] = fmaf(wf.y, xf[b][k].y, acc[r][b]);
                }
            }
        }
    }
}

/* One xor-shuffle step at offset O of the warp reduce-scatter over the N
 * values a lane still keeps (compile-time, so v stays in registers): with
 * N > 1 a lane keeps the upper half if its bit O is set, else the lower,
 * and adds its partner's copy of that half; with one value left, a plain
 * xor sum. `index` gathers which value the lane ends with. */
template <int O, int N, int V>
__device__ __forceinline__ void reduce_scatter(float (&v)[V], unsigned int lane,
                                               unsigned int &index)
{
    if constexpr (O > 0) {
        if constexpr (N > 1) {
            constexpr int H = N / 2;
            const bool upper = (lane & (unsigned int)O) != 0u;
#pragma unroll
            for (int i = 0; i < H; ++i) {
                const float send = upper ? v[i] : v[i + H];
                const float keep = upper ? v[i + H] : v[i];
                v[i] = keep + __shfl_xor_sync(0xffffffffu, send, O);
            }
            index += upper ? (unsigned int)H : 0u;
            reduce_scatter<O / 2, H, V>(v, lane, index);
        } else {
            v[0] += __shfl_xor_sync(0xffffffffu, v[0], O);
            reduce_scatter<O / 2, 1, V>(v, lane, index);
        }
    }
}

/* Sum V values over the block's threads; thread i < V returns the sum of
 * value i (others: garbage). `red` holds V x (THREADS / 32) floats. The
 * warp step is a reduce-scatter (32 values take 31 shuffles, not 160),
 * then the warps' sums meet in shared memory. */
template <int V, int THREADS>
__device__ __forceinline__ float block_sum(float (&v)[V], float *red)
{
    static_assert(V >= 1 && V <= 32 && (V & (V - 1)) == 0, "V: a power of two up to 32");
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned int index = 0;
    reduce_scatter<16, V, V>(v, lane, index);
    /* the lanes holding value `index`: the lowest of each group writes */
    constexpr int GROUP = 32 / V;
    if ((lane & (GROUP - 1)) == 0u)
        red[index * (THREADS / 32) + warp] = v[0];
    __syncthreads();
    float s = 0.0f;
    if (threadIdx.x < (unsigned int)V)
#pragma unroll
        for (int w = 0; w < THREADS / 32; ++w)
            s += red[threadIdx.x * (THREADS / 32) + w];
    return s;
}

/* y rows r0 .. r0 + R (of vectors of length M, B of them) = the slab at w
 * (R rows of K) times x. Every thread of the block calls it; `red` as in
 * block_sum (R B (THREADS / 32) floats); the block must not touch `red`
 * again before a block barrier. */
template <typename T, int K, int B, int R, int THREADS>
__device__ __forceinline__ void gemv_slab(const T *w, const xregs<K / (8 * THREADS), B> &xr,
                                          T *y, int m, int r0, float *red)
{
    float acc[R][B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            acc[r][b] = 0.0f;
    slab_dot<T, K, B, R, THREADS>(acc, w, xr);
    float flat[R * B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            flat[r * B + b] = acc[r][b];
    float s = block_sum<R * B, THREADS>(flat, red);
    if (threadIdx.x < (unsigned int)(R * B)) {
        const int r = (int)threadIdx.x / B, b = (int)threadIdx.x % B;
        y[(size_t)b * m + r0 + r] = pair<T>::from_float(s);
    }
}

/* The gated MLP's first half for rows r0 .. r0 + R of the hidden vector:
 * h = SiLU(W_gate x) * (W_up x), the two slabs at wg and wu. `red` holds
 * 2 R B (THREADS / 32 + 1) floats. */
template <typename T, int K, int B, int R, int THREADS>
__device__ __forceinline__ void gate_up_slab(const T *wg, const T *wu,
                                             const xregs<K / (8 * THREADS), B> &xr, T *h, int f,
                                             int r0, float *red)
{
    float g[R][B], u[R][B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            g[r][b] = u[r][b] = 0.0f;
    slab_dot<T, K, B, R, THREADS>(g, wg, xr);
    slab_dot<T, K, B, R, THREADS>(u, wu, xr);
    float flat[2 * R * B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b) {
            flat[r * B + b] = g[r][b];
            flat[R * B + r * B + b] = u[r][b];
        }
    float s = block_sum<2 * R * B, THREADS>(flat, red);
    /* thread i < R B holds gate value i, thread R B + i the up value i */
    float *sums = red + 2 * R * B * (THREADS / 32);
    if (threadIdx.x < (unsigned int)(2 * R * B))
        sums[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x < (unsigned int)(R * B)) {
        const int r = (int)threadIdx.x / B, b = (int)threadIdx.x % B;
        const float gv = sums[threadIdx.x], uv = sums[R * B + threadIdx.x];
        h[(size_t)b * f + r0 + r] = pair<T>::from_float(gv / (1.0f + __expf(-gv)) * uv);
    }
}

} // namespace decode

#endif
