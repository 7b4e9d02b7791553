/*
 * gemv.cuh - the decode workloads' arithmetic, the same in every
 * version of `gridsync bench decode`: y = W x for a slab of R rows of W
 * (16-bit floats, in shared memory) and B vectors x of length K (16-bit, in
 * registers), fp32 sums, y rounded to 16 bits; and the gated MLP's
 * h = SiLU(W_gate x) * (W_up x).
 *
 * Layout: W row-major (a row is K contiguous values), vectors batch-major
 * (vector b at x + b K). A block of THREADS threads: thread t owns the
 * 16-byte chunks t, t + THREADS, ... of a row (CH = K / (8 THREADS)); it
 * holds its chunks of every x vector in registers (loaded once per step),
 * converts each chunk to float once, multiplies it into the chunks of the
 * slab's rows read from shared memory (consecutive threads read
 * consecutive 16 bytes: no bank conflict), and the R x B partial sums are
 * reduced across the block: a warp reduce-scatter (each xor-shuffle step
 * halves the values a lane keeps: 32 values take 31 shuffles, not 160),
 * then the warps' results through shared memory. The results land in
 * shared memory (`vals`), from where a version writes them plainly or as
 * tagged words.
 */
#ifndef GS_SUITES_DECODE_GEMV_CUH
#define GS_SUITES_DECODE_GEMV_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace decode {

enum { THREADS = 256 };

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

/* A thread's chunks of the B vectors of an input of length K: 8 values per
 * chunk, packed. */
template <int K, int B> struct xregs {
    static_assert(K % (8 * THREADS) == 0, "a vector is a whole number of chunks per thread");
    uint4 v[B][K / (8 * THREADS)];
};

/* Load the thread's chunks of x (B vectors of K, from global memory). */
template <typename T, int K, int B>
__device__ __forceinline__ void load_x(xregs<K, B> &xr, const T *x)
{
    constexpr int CH = K / (8 * THREADS);
#pragma unroll
    for (int b = 0; b < B; ++b)
#pragma unroll
        for (int c = 0; c < CH; ++c)
            xr.v[b][c] = *(const uint4 *)(x + (size_t)b * K + (size_t)(c * THREADS + threadIdx.x) * 8);
}

/* acc[r][b] += row r of the slab (in shared memory) . x_b, over this
 * thread's chunks. */
template <typename T, int K, int B, int R>
__device__ __forceinline__ void slab_dot(float (&acc)[R][B], const T *w, const xregs<K, B> &xr)
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

/* The barrier over the threads that compute: the whole block by default;
 * a kernel with a loader warp passes one over its THREADS computing
 * threads only (a named barrier). */
struct whole_block {
    static __device__ __forceinline__ void sync() { __syncthreads(); }
};

/* Shared-memory scratch of the block reduction of up to V values. */
template <int V> struct scratch {
    float red[V * (THREADS / 32)];
    float vals[V];
};

/* Sum V values over the block's THREADS computing threads into s.vals
 * (visible to every one of them on return). */
template <int V, int S, class Sync = whole_block>
__device__ __forceinline__ void block_sum(float (&v)[V], scratch<S> &s)
{
    static_assert(V >= 1 && V <= 32 && (V & (V - 1)) == 0 && V <= S, "V: a power of two to 32");
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned int index = 0;
    reduce_scatter<16, V, V>(v, lane, index);
    constexpr int GROUP = 32 / V; /* lanes holding the same value: the lowest writes */
    if ((lane & (GROUP - 1)) == 0u)
        s.red[index * (THREADS / 32) + warp] = v[0];
    Sync::sync();
    if (threadIdx.x < (unsigned int)V) {
        float sum = 0.0f;
#pragma unroll
        for (int w = 0; w < THREADS / 32; ++w)
            sum += s.red[threadIdx.x * (THREADS / 32) + w];
        s.vals[threadIdx.x] = sum;
    }
    Sync::sync();
}

/* vals[r B + b] = row r of the slab w . x_b. */
template <typename T, int K, int B, int R, int S, class Sync = whole_block>
__device__ __forceinline__ void gemv_values(const T *w, const xregs<K, B> &xr, scratch<S> &s)
{
    float acc[R][B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            acc[r][b] = 0.0f;
    slab_dot<T, K, B, R>(acc, w, xr);
    float flat[R * B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            flat[r * B + b] = acc[r][b];
    block_sum<R * B, S, Sync>(flat, s);
}

/* vals[r B + b] = SiLU(row r of wg . x_b) * (row r of wu . x_b). */
template <typename T, int K, int B, int R, int S>
__device__ __forceinline__ void gate_up_values(const T *wg, const T *wu, const xregs<K, B> &xr,
                                               scratch<S> &s)
{
    float g[R][B], u[R][B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b)
            g[r][b] = u[r][b] = 0.0f;
    slab_dot<T, K, B, R>(g, wg, xr);
    slab_dot<T, K, B, R>(u, wu, xr);
    float flat[2 * R * B];
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int b = 0; b < B; ++b) {
            flat[r * B + b] = g[r][b];
            flat[R * B + r * B + b] = u[r][b];
        }
    block_sum<2 * R * B>(flat, s);
    float h = 0.0f;
    if (threadIdx.x < (unsigned int)(R * B)) {
        const float gv = s.vals[threadIdx.x], uv = s.vals[R * B + threadIdx.x];
        h = gv / (1.0f + __expf(-gv)) * uv;
    }
    __syncthreads();
    if (threadIdx.x < (unsigned int)(R * B))
        s.vals[threadIdx.x] = h;
    __syncthreads();
}

/* Write vals (R rows x B) as rows r0 .. r0 + R of the B vectors of length
 * m at y. */
template <typename T, int B, int R, int S>
__device__ __forceinline__ void write_plain(const scratch<S> &s, T *y, int m, int r0)
{
    if (threadIdx.x < (unsigned int)(R * B)) {
        const int r = (int)threadIdx.x / B, b = (int)threadIdx.x % B;
        y[(size_t)b * m + r0 + r] = pair<T>::from_float(s.vals[threadIdx.x]);
    }
}

} // namespace decode

#endif
