// scan_prefetch.cu - scratch probe (issue 16): keeping bytes in flight
// while a tile looks back, for the large-array scan (docs/scan-notes.md,
// "The tile in shared memory"). Float inclusive sum, against CUB and a
// device-to-device copy in the same run; an int32 check against CUB
// (exact) first. sm_90 only. Rows:
//   lib:    the library's bandwidth tiling, register kernel (448 x 8, 2/SM);
//   nolb:   its tile structure without the look-back (wrong results: the floor);
//   m0:     the probe's copy of the register kernel (ticket after the stores);
//   l2:     next ticket drawn as a tile starts, its tile prefetched into L2
//           (cp.async.bulk.prefetch.L2) during the look-back;
//   smem:   next ticket drawn as a tile starts, its tile bulk-copied into
//           shared memory during the look-back (one buffer);
//   res:    the tile lives in shared memory (one bulk copy after the ticket),
//           read twice (totals before the look-back, scan after), so fewer
//           registers and more blocks per SM (threads x blocks/SM x vectors);
//   res-early: res with the next ticket drawn before the stores;
//   res-nolb:  res without the look-back (wrong results: its floor);
//   res-t0wait: res with thread 0 alone waiting on the copy, then a barrier;
//   libres: the library's resident kernel (gridsync/detail/resident_scan.cuh).
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude docs/probes/scan_prefetch.cu -o /tmp/scan_prefetch
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/resident_scan.cuh>

#include "scan_probe.h"

namespace gs { namespace detail {

/* The probe's own mbarrier and bulk-copy helpers (gridsync/detail/
 * bulk_copy.cuh has the library's, declared for sm_90 device code only, so
 * the host pass of these unguarded kernels could not name them; bulk_load
 * is its bulk_copy_to_shared without the proxy fence: what these variants
 * measured). */
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void mbar_init(unsigned long long *m, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(m)), "r"(count) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned long long *m)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(m)) : "memory");
}
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *m)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(m)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(smem_addr(dst)),
                 "l"(src), "r"(bytes), "r"(smem_addr(m))
                 : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long *m, unsigned parity)
{
    unsigned ok = 0;
    for (long long i = 0; !ok && i < (1ll << 30); ++i)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
                     "selp.u32 %0, 1, 0, p; }"
                     : "=r"(ok)
                     : "r"(smem_addr(m)), "r"(parity)
                     : "memory");
}
__device__ __forceinline__ void prefetch_l2(const void *p, unsigned bytes)
{
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
}

/* Warp 0: tile `tile`'s aggregate published, its look-back and its
 * inclusive prefix published; the prefix returned (the identity for tile 0,
 * and for every tile when !look: the floor variants, wrong results). */
template <class Policy, class T, class Op>
__device__ T probe_look_back(const scan_tile_state<T> &state, const scan_args &a,
                             unsigned int tile, T aggregate, bool look, Op op)
{
    T prefix = Op::identity();
    if (look && tile > 0u) {
        if (threadIdx.x == 0u)
            state.publish_aggregate((int)tile, aggregate);
        const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, tile, a.tiles};
        scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(state, (int)tile, op, watch,
                                                                  prefix);
        if (threadIdx.x == 0u)
            state.publish_inclusive((int)tile, op(prefix, aggregate));
    } else if (look && threadIdx.x == 0u && a.tiles > 1u) {
        state.publish_inclusive(0, aggregate);
    }
    return prefix;
}

/* Mode 0: library order (ticket after the stores), loads from global.
 * Mode 1: no look-back. Mode 2: L2 prefetch. Mode 3: shared-memory copy. */
template <class Policy, class Op, int Mode>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    prefetch_kernel(const scan_args a)
{
    typedef typename Op::value_type T;
    typedef typename vector16<T>::type V;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    constexpr bool early = Mode >= 2; /* next ticket drawn as the tile starts */
    extern __shared__ __align__(128) unsigned char s_dyn[];
    T *const s_tile_buf = (T *)s_dyn;
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile, s_next;
    __shared__ unsigned long long s_mbar;
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const unsigned int last_draw = a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    auto full_of = [&](unsigned t) { return (long long)t * Policy::tile_items + Policy::tile_items <= a.n; };
    if (tid == 0u) {
        s_tile = gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (s_tile == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
        if (Mode == 3) {
            mbar_init(&s_mbar, 1u);
        }
    }
    __syncthreads();
    unsigned int tile = s_tile;
    unsigned int parity = 0u;
    if (Mode == 3 && tid == 0u && tile < a.tiles && full_of(tile))
        bulk_load(s_tile_buf, in + (long long)tile * Policy::tile_items,
                  Policy::tile_items * sizeof(T), &s_mbar);
    while (tile < a.tiles) {
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = full_of(tile);
        unsigned int next = 0u;
        if (early && tid == 0u) {
            next = gs_atom_add_relaxed_gpu(a.counters, 1u);
            s_next = next;
            if (next == last_draw)
                gs_st_relaxed_gpu(a.counters, 0u);
        }
        scan_items<Policy, T> it;
        if (Mode == 3 && full) {
            mbar_wait(&s_mbar, parity);
            parity ^= 1u;
            const T *p = s_tile_buf + (long long)warp * Policy::warp_items;
#pragma unroll
            for (int v = 0; v < Policy::vectors; ++v) {
                V q = *scan_vector<Policy>((T *)p, v);
                it.x[v][0] = component<0>(q);
                it.x[v][1] = component<1>(q);
                if constexpr (Policy::width == 4) {
                    it.x[v][2] = component<2>(q);
                    it.x[v][3] = component<3>(q);
                }
            }
        } else {
            scan_load<Policy, Op>(it, in, base, a.n, full, true);
        }
        T before[Policy::vectors];
        T warp_total = scan_warp_run<Policy>(it, before, op);
        if ((tid & 31u) == 0u)
            s_warp[warp] = warp_total;
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v)
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                it.x[v][c] = op(before[v], it.x[v][c]);
        __syncthreads(); /* (A): totals; the tile read out of shared memory; s_next */
        if (early)
            next = s_next;
        if (early && tid == 0u && next < a.tiles) {
            if (Mode == 2)
            {
                const long long left = a.n - (long long)next * Policy::tile_items;
                const long long items = left < Policy::tile_items ? left : Policy::tile_items;
                prefetch_l2(in + (long long)next * Policy::tile_items,
                            (unsigned)(items * sizeof(T)) & ~15u);
            }
            else if (full_of(next))
                bulk_load(s_tile_buf, in + (long long)next * Policy::tile_items,
                          Policy::tile_items * sizeof(T), &s_mbar);
        }
        T warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u) {
            const T prefix = probe_look_back<Policy>(
                state, a, tile, scan_fold_shared(s_warp, nwarps, op), Mode != 1, op);
            if (tid == 0u)
                s_prefix = prefix;
        }
        __syncthreads(); /* (B) */
        T base_prefix = s_prefix;
        if (warp > 0u)
            base_prefix = op(base_prefix, warp_prefix);
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v)
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                it.x[v][c] = op(base_prefix, it.x[v][c]);
        scan_store(it, out, base, a.n, full, true);
        if (early) {
            tile = next;
            continue;
        }
        if (tid == 0u) {
            next = gs_atom_add_relaxed_gpu(a.counters, 1u);
            s_tile = next;
            if (next == last_draw)
                gs_st_relaxed_gpu(a.counters, 0u);
        }
        __syncthreads();
        tile = s_tile;
    }
}

/* Mode 4: the tile lives in shared memory, not in registers. Thread 0
 * draws a ticket and copies its tile in with one bulk copy; the block reads
 * it twice: once for the lanes' and warps' totals (before the look-back),
 * once to scan and store (after it). Registers no longer hold a tile
 * through the look-back, so more blocks (tiles in flight) fit on an SM. */
template <class Policy, class Op, int Variant>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    resident_kernel(const scan_args a)
{
    typedef typename Op::value_type T;
    typedef typename vector16<T>::type V;
    constexpr int W = Policy::width;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    extern __shared__ __align__(128) unsigned char s_dyn[];
    T *const buf = (T *)s_dyn;
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ unsigned long long s_mbar;
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31u;
    const unsigned int last_draw = a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    auto full_of = [&](unsigned t) { return (long long)t * Policy::tile_items + Policy::tile_items <= a.n; };
    unsigned int drawn = 0u;
    auto draw = [&]() {
        const unsigned t = Variant == 1 ? drawn : gs_atom_add_relaxed_gpu(a.counters, 1u);
        s_tile = t;
        if (t == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
        if (t < a.tiles && full_of(t))
            bulk_load(buf, in + (long long)t * Policy::tile_items, Policy::tile_items * sizeof(T),
                      &s_mbar);
        else
            mbar_arrive(&s_mbar);
    };
    if (tid == 0u) {
        mbar_init(&s_mbar, 1u);
    }
    __syncthreads();
    if (tid == 0u) {
        if (Variant == 1)
            drawn = gs_atom_add_relaxed_gpu(a.counters, 1u);
        draw();
    }
    unsigned int parity = 0u;
    T *const wbuf = buf + (long long)warp * Policy::warp_items;
    for (;;) {
        if (Variant != 3 || tid == 0u)
            mbar_wait(&s_mbar, parity);
        parity ^= 1u;
        if (Variant == 3)
            __syncthreads();
        const unsigned int tile = s_tile;
        if (tile >= a.tiles)
            break;
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = full_of(tile);
        if (!full) {
            scan_each<Policy>(base, [&](int v, int c, long long i) {
                wbuf[v * 32 * W + lane * W + c] = i < a.n ? in[i] : Op::identity();
            });
            __syncthreads();
        }
        /* pass 1: each vector's lane total, scanned across the warp */
        T lane_incl[Policy::vectors];
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v) {
            V q = *scan_vector<Policy>(wbuf, v);
            T s = op(component<0>(q), component<1>(q));
            if constexpr (W == 4)
                s = op(op(s, component<2>(q)), component<3>(q));
            lane_incl[v] = warp_inclusive_scan(s, 32u, op);
        }
        T before[Policy::vectors];
        const T carry = scan_run_before(lane_incl, before, op);
        if (lane == 0u)
            s_warp[warp] = carry;
        __syncthreads(); /* (A) */
        T warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u) {
            const T prefix = probe_look_back<Policy>(
                state, a, tile, scan_fold_shared(s_warp, nwarps, op), Variant != 2, op);
            if (tid == 0u) {
                s_prefix = prefix;
                if (Variant == 1)
                    drawn = gs_atom_add_relaxed_gpu(a.counters, 1u);
            }
        }
        __syncthreads(); /* (B) */
        T base_prefix = s_prefix;
        if (warp > 0u)
            base_prefix = op(base_prefix, warp_prefix);
        /* pass 2: scan each vector, add its prefixes, store */
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v) {
            V q = *scan_vector<Policy>(wbuf, v);
            T x[W];
            x[0] = component<0>(q);
            x[1] = op(x[0], component<1>(q));
            if constexpr (W == 4) {
                x[2] = op(x[1], component<2>(q));
                x[3] = op(x[2], component<3>(q));
            }
#pragma unroll
            for (int c = 0; c < W; ++c)
                x[c] = op(base_prefix, op(before[v], x[c]));
            if (full) {
                if constexpr (W == 4)
                    *scan_vector<Policy>(out + base, v) = {x[0], x[1], x[2], x[3]};
                else
                    *scan_vector<Policy>(out + base, v) = {x[0], x[1]};
            } else {
#pragma unroll
                for (int c = 0; c < W; ++c) {
                    const long long i = base + v * 32 * W + lane * W + c;
                    if (i < a.n)
                        out[i] = x[c];
                }
            }
        }
        __syncthreads(); /* (C) the buffer and s_tile read */
        if (tid == 0u)
            draw();
    }
}
}} // namespace gs::detail

template <class T, int Threads, int MinBlocks, int Vectors>
struct policy {
    static constexpr int threads = Threads;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    static constexpr int lookback = 2;
    static constexpr int poll_sleep_ns = 0;
    static constexpr int resident_min_blocks = MinBlocks;
};

template <class P, class T, int Mode>
static void launch(const T *in, T *out, long long n)
{
    using namespace gs::detail;
    auto k = Mode < 0    ? single_pass_scan_kernel<P, gs::sum<T>>
             : Mode == 7 ? single_pass_scan_resident_kernel<P, gs::sum<T>>
             : Mode == 4 ? resident_kernel<P, gs::sum<T>, 0>
             : Mode == 5 ? resident_kernel<P, gs::sum<T>, 1>
             : Mode == 6 ? resident_kernel<P, gs::sum<T>, 2>
             : Mode == 8 ? resident_kernel<P, gs::sum<T>, 3>
                         : prefetch_kernel<P, gs::sum<T>, Mode < 0 ? 0 : Mode>;
    const int smem = Mode >= 3 ? P::tile_items * (int)sizeof(T) : 0;
    static int per_sm = -1;
    if (per_sm < 0) {
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, P::threads, smem));
        fprintf(stderr, "mode %d tile %d: %d blocks/SM\n", Mode, P::tile_items, per_sm);
    }
    scan_probe_launch(k, per_sm, P::threads, smem, P::tile_items, in, out, n, 0);
}

struct row { const char *name; void (*f32)(const float *, float *, long long);
             void (*i32)(const int *, int *, long long); };

#define ROW(name, th, mb, vec, m)                                                                  \
    {name, launch<policy<float, th, mb, vec>, float, m>, launch<policy<int, th, mb, vec>, int, m>}

int main(int argc, char **argv)
{
    const long long nmax = 1ll << 30;
    scan_probe_init((nmax / 256 + 64) * 2 * 8 * 2);
    float *x, *y; int *xi, *yi, *yc;
    CK(cudaMalloc(&x, nmax * 4)); CK(cudaMalloc(&y, nmax * 4));
    CK(cudaMalloc(&xi, (1ll << 26) * 4)); CK(cudaMalloc(&yi, (1ll << 26) * 4));
    CK(cudaMalloc(&yc, (1ll << 26) * 4));
    fill<<<2048, 256>>>(x, xi, nmax, 1ll << 26, 7u);
    CK(cudaDeviceSynchronize());
    void *tmp = nullptr; size_t tmp_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)nmax));
    CK(cudaMalloc(&tmp, tmp_bytes));

    const row rows[] = {
        ROW("lib 448x2v8", 448, 2, 8, -1),
        ROW("nolb 448x2v8", 448, 2, 8, 1),
        ROW("m0 448x2v8", 448, 2, 8, 0),
        ROW("l2 448x2v8", 448, 2, 8, 2),
        ROW("smem 448x2v8", 448, 2, 8, 3),
        ROW("res 448x3v8", 448, 3, 8, 4),
        ROW("res-early 448x3v8", 448, 3, 8, 5),
        ROW("res-nolb 448x3v8", 448, 3, 8, 6),
        ROW("res-t0wait 448x3v8", 448, 3, 8, 8),
        ROW("res 512x3v8", 512, 3, 8, 4),
        ROW("res 384x4v8", 384, 4, 8, 4),
        ROW("res 256x6v8", 256, 6, 8, 4),
        ROW("libres 448x3v8", 448, 3, 8, 7),
    };
    const int nrows = sizeof rows / sizeof *rows;
    /* a setup check: int32 against CUB, exact, a length with a partial last tile */
    const long long ncheck = (1ll << 25) + 12345;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, xi, yc, (int)ncheck));
    std::vector<int> ha(ncheck), hb(ncheck);
    CK(cudaMemcpy(hb.data(), yc, ncheck * 4, cudaMemcpyDeviceToHost));
    for (int r = 0; r < nrows; ++r) {
        CK(cudaMemset(yi, 0xff, ncheck * 4));
        rows[r].i32(xi, yi, ncheck);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ha.data(), yi, ncheck * 4, cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (long long i = 0; i < ncheck; ++i) bad += ha[i] != hb[i];
        printf("check %-16s: %s (%lld wrong)\n", rows[r].name, bad ? "WRONG" : "ok", bad);
        fflush(stdout);
    }
    printf("%d SMs\n%-6s %8s %8s", g_sms, "n", "copyGB/s", "cub/copy");
    for (int r = 0; r < nrows; ++r) printf(" | %s", rows[r].name);
    printf("\n");
    for (int lg : {25, 28, 30}) {
        long long n = 1ll << lg;
        int reps = lg <= 22 ? 200 : lg <= 25 ? 20 : lg <= 28 ? 4 : 1;
        double bytes = 2.0 * n * 4;
        double tcopy = time_us([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
        double tcub = time_us([&] { cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n); }, reps);
        printf("2^%-4d %8.0f %8.3f", lg, bytes / tcopy / 1e3, tcopy / tcub);
        for (int r = 0; r < nrows; ++r) {
            double t = time_us([&] { rows[r].f32(x, y, n); }, reps);
            printf(" | %8.1f %5.3f", t, tcopy / t);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
