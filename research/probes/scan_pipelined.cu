// scan_pipelined.cu - scratch probe (issue 16): the large-array scan with
// one warp that looks back while the others work on the next tile
// (docs/scan-notes.md, "A look-back warp"). Float inclusive sum against a
// device-to-device copy of the same bytes, CUB and the library's two
// bandwidth kernels in the same run; int32 checked exactly against CUB, and
// the 14 x 8 variant (the library's tile) checked bitwise against the
// library's register kernel on floats. sm_90 only.
//
// The kernel: warp 0 is the control warp, warps 1..D hold the data.
// Two shared buffers, each a tile. While warp 0 looks back for tile i, the
// data warps wait for tile i+1's bulk copy, read it once (pass 1) and
// publish its aggregate; then they scan and store tile i (pass 2) with the
// prefix warp 0 found, and hand its buffer back, into which warp 0 copies
// tile i+2 (its ticket drawn then). A tile's aggregate is published as soon
// as its bytes are in, whatever the look-backs in front of it do, so a
// ticket drawn early delays nobody (the early-ticket variants of
// scan_prefetch.cu published theirs only after the block's look-back).
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude docs/probes/scan_pipelined.cu -o /tmp/scan_pipelined
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

__device__ __forceinline__ void named_sync(unsigned id, unsigned n)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void named_arrive(unsigned id, unsigned n)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

template <class P, class T>
__device__ __forceinline__ void pass1(T *run, const T *in, long long base, long long n, bool full,
                                      bool copied, T (&before)[P::vectors], T &warp_total)
{
    gs::sum<T> op;
    if (!copied)
        scan_fill_shared<P, gs::sum<T>>(run, in, base, n, full, ((unsigned long long)in & 15ull) == 0ull);
    T lane_incl[P::vectors];
#pragma unroll
    for (int v = 0; v < P::vectors; ++v) {
        T x[P::width];
        scan_read_vector<P>(x, run, v);
        scan_vector_within(x, op);
        lane_incl[v] = warp_inclusive_scan(x[P::width - 1], 32u, op);
    }
    warp_total = scan_run_before(lane_incl, before, op);
}

/* Variant 0: as described at the top. Variant 1: the same without the
 * look-back (wrong results: the floor). */
template <class P, class Op, int Variant>
static __global__ void __launch_bounds__(P::threads, P::min_blocks) pipelined_kernel(const scan_args a)
{
#if GS_HAS_BULK_COPY
    typedef typename Op::value_type T;
    constexpr unsigned D = P::data_warps, ALL = P::threads, DATA = 32u * D;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    extern __shared__ __align__(128) unsigned char s_dyn[];
    __shared__ T s_warp[2][D];
    __shared__ T s_agg[2];
    __shared__ T s_prefix;
    __shared__ unsigned s_tile[2];
    __shared__ unsigned long long s_full[2];
    Op op;
    const unsigned tid = threadIdx.x, warp = tid >> 5, lane = tid & 31u;
    const unsigned last_draw = a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    auto full_of = [&](unsigned t) { return (long long)t * P::tile_items + P::tile_items <= a.n; };
    auto copied = [&](unsigned t) { return in_aligned && full_of(t); };
    auto buffer = [&](unsigned b) { return (T *)s_dyn + (long long)b * P::tile_items; };
    /* lane 0 of warp 0: a ticket for buffer b, and its copy */
    auto take = [&](unsigned b) {
        const unsigned t = gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (t == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
        s_tile[b] = t;
        if (t < a.tiles && copied(t))
            bulk_copy_to_shared(buffer(b), in + (long long)t * P::tile_items,
                                (unsigned)(P::tile_items * sizeof(T)), &s_full[b]);
        else
            bulk_barrier_arrive(&s_full[b]);
        return t;
    };
    if (tid == 0u) {
        bulk_barrier_init(&s_full[0], 1u);
        bulk_barrier_init(&s_full[1], 1u);
    }
    __syncthreads();
    if (warp == 0u) {
        unsigned t = 0u, tn = 0u;
        if (lane == 0u) {
            t = take(0u);
            tn = t < a.tiles ? take(1u) : a.tiles;
        }
        t = __shfl_sync(0xffffffffu, t, 0);
        tn = __shfl_sync(0xffffffffu, tn, 0);
        unsigned b = 0u;
        while (t < a.tiles) {
            T prefix = Op::identity();
            if (Variant == 0 && t > 0u) {
                const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, t, a.tiles};
                scan_look_back<T, P::lookback, P::poll_sleep_ns>(state, (int)t, op, watch, prefix);
            }
            named_sync(3u + b, ALL); /* tile t's aggregate */
            if (lane == 0u) {
                if (Variant == 0 && t > 0u)
                    state.publish_inclusive((int)t, op(prefix, s_agg[b]));
                s_prefix = prefix;
            }
            named_arrive(1u, ALL); /* the prefix */
            named_sync(2u, ALL);   /* buffer b read */
            if (tn >= a.tiles)
                break;
            unsigned t2 = 0u;
            if (lane == 0u)
                t2 = take(b);
            t2 = __shfl_sync(0xffffffffu, t2, 0);
            t = tn;
            tn = t2;
            b ^= 1u;
        }
    } else {
        const unsigned dw = warp - 1u;
        unsigned parity = 0u; /* bit b: buffer b's phase */
        auto wait_full = [&](unsigned b) {
            if (lane == 0u)
                while (!bulk_barrier_try_wait(&s_full[b], (parity >> b) & 1u)) {
                }
            __syncwarp();
            parity ^= 1u << b;
            return s_tile[b];
        };
        /* pass 1 of tile t in buffer b, its aggregate published */
        auto first = [&](unsigned t, unsigned b, T (&before)[P::vectors], T &wprefix) {
            const long long base = (long long)t * P::tile_items + (long long)dw * P::warp_items;
            T total;
            pass1<P>(buffer(b) + (long long)dw * P::warp_items, in, base, a.n, full_of(t),
                     copied(t), before, total);
            if (lane == 0u)
                s_warp[b][dw] = total;
            named_sync(5u, DATA);
            wprefix = dw > 0u ? scan_fold_shared(s_warp[b], dw, op) : Op::identity();
            if (dw == 0u && lane == 0u) {
                const T agg = scan_fold_shared(s_warp[b], D, op);
                s_agg[b] = agg;
                if (Variant == 0) {
                    if (t == 0u) {
                        if (a.tiles > 1u)
                            state.publish_inclusive(0, agg);
                    } else {
                        state.publish_aggregate((int)t, agg);
                    }
                }
            }
            named_arrive(3u + b, ALL);
        };
        unsigned b = 0u;
        unsigned t = wait_full(0u);
        T before[P::vectors], before_n[P::vectors], wp = Op::identity(), wp_n = Op::identity();
        if (t < a.tiles)
            first(t, 0u, before, wp);
        while (t < a.tiles) {
            const unsigned tn = wait_full(b ^ 1u);
            if (tn < a.tiles)
                first(tn, b ^ 1u, before_n, wp_n);
            named_sync(1u, ALL);
            const T p = dw > 0u ? op(s_prefix, wp) : s_prefix;
            const long long base = (long long)t * P::tile_items + (long long)dw * P::warp_items;
            T *const run = buffer(b) + (long long)dw * P::warp_items;
            if (full_of(t))
                scan_resident_pass2<P, false, true>(run, before, p, out, base, a.n, op);
            else
                scan_resident_pass2<P, false, false>(run, before, p, out, base, a.n, op);
            named_arrive(2u, ALL);
            t = tn;
#pragma unroll
            for (int v = 0; v < P::vectors; ++v)
                before[v] = before_n[v];
            wp = wp_n;
            b ^= 1u;
        }
    }
    __syncthreads();
    if (tid == 0u)
        gs_red_add_release_gpu(a.counters + 2, 1u);
#endif
}
}} // namespace gs::detail

template <class T, int DataWarps, int MinBlocks, int Vectors>
struct ppolicy {
    static constexpr int data_warps = DataWarps;
    static constexpr int threads = 32 * (DataWarps + 1);
    static constexpr int min_blocks = MinBlocks;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = DataWarps * warp_items;
    static constexpr int lookback = 2;
    static constexpr int poll_sleep_ns = 0;
};

/* Mode -1: library register kernel; -2: library resident kernel;
 * 0/1: the pipelined kernel's variants. */
template <class P, class T, int Mode>
static void launch(const T *in, T *out, long long n)
{
    using namespace gs::detail;
    typedef scan_policy<T, scan_bandwidth> L;
    auto k = Mode == -1   ? single_pass_scan_kernel<L, gs::sum<T>>
             : Mode == -2 ? single_pass_scan_resident_kernel<L, gs::sum<T>>
             : Mode == 0  ? pipelined_kernel<P, gs::sum<T>, 0>
                          : pipelined_kernel<P, gs::sum<T>, 1>;
    const int tile_items = Mode < 0 ? L::tile_items : P::tile_items;
    const int threads = Mode == -1 ? L::threads : Mode == -2 ? scan_resident_threads<L>() : P::threads;
    const int smem = Mode == -1   ? 0
                     : Mode == -2 ? scan_resident_bytes<L, T>()
                                  : 2 * P::tile_items * (int)sizeof(T);
    static int per_sm = -1;
    if (per_sm < 0) {
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem));
        fprintf(stderr, "mode %d tile %d threads %d smem %d: %d blocks/SM\n", Mode, tile_items,
                threads, smem, per_sm);
    }
    scan_probe_launch(k, per_sm, threads, smem, tile_items, in, out, n, 0);
}

struct row { const char *name; void (*f32)(const float *, float *, long long);
             void (*i32)(const int *, int *, long long); bool library_tile; };

#define ROW(name, dw, mb, vec, m, lt)                                                              \
    {name, launch<ppolicy<float, dw, mb, vec>, float, m>, launch<ppolicy<int, dw, mb, vec>, int, m>, lt}

int main()
{
    const long long nmax = 1ll << 30;
    scan_probe_init((nmax / 256 + 64) * 2 * 8 * 2);
    float *x, *y, *yf; int *xi, *yi, *yc;
    CK(cudaMalloc(&x, nmax * 4)); CK(cudaMalloc(&y, nmax * 4));
    CK(cudaMalloc(&xi, (1ll << 26) * 4)); CK(cudaMalloc(&yi, (1ll << 26) * 4));
    CK(cudaMalloc(&yc, (1ll << 26) * 4)); CK(cudaMalloc(&yf, (1ll << 26) * 4));
    fill<<<2048, 256>>>(x, xi, nmax, 1ll << 26, 7u);
    CK(cudaDeviceSynchronize());
    void *tmp = nullptr; size_t tmp_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)nmax));
    CK(cudaMalloc(&tmp, tmp_bytes));

    const row rows[] = {
        ROW("lib registers", 14, 2, 8, -1, true),
        ROW("lib resident", 14, 2, 8, -2, true),
        ROW("pipe 14x8 2/SM", 14, 2, 8, 0, true),
        ROW("pipe-nolb 14x8", 14, 2, 8, 1, true),
    };
    const int nrows = sizeof rows / sizeof *rows;
    /* int32 against CUB, exact, a length with a partial last tile; floats
     * bitwise against the library's register kernel for its tile */
    const long long ncheck = (1ll << 25) + 12345;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, xi, yc, (int)ncheck));
    std::vector<int> ha(ncheck), hb(ncheck);
    std::vector<float> fa(ncheck), fb(ncheck);
    CK(cudaMemcpy(hb.data(), yc, ncheck * 4, cudaMemcpyDeviceToHost));
    rows[0].f32(x, yf, ncheck);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(fb.data(), yf, ncheck * 4, cudaMemcpyDeviceToHost));
    for (int r = 0; r < nrows; ++r) {
        if (strstr(rows[r].name, "nolb"))
            continue;
        for (int off = 0; off < 2; ++off) {
            CK(cudaMemset(yi, 0xff, ncheck * 4));
            rows[r].i32(xi + off, yi, ncheck - off);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(ha.data(), yi, ncheck * 4, cudaMemcpyDeviceToHost));
            long long bad = 0;
            int acc = 0;
            std::vector<int> hx(ncheck);
            if (off) {
                CK(cudaMemcpy(hx.data(), xi, ncheck * 4, cudaMemcpyDeviceToHost));
                for (long long i = 0; i + 1 < ncheck; ++i) { acc += hx[i + 1]; bad += ha[i] != acc; }
            } else {
                for (long long i = 0; i < ncheck; ++i) bad += ha[i] != hb[i];
            }
            printf("check %-16s int32 offset %d: %s (%lld wrong)\n", rows[r].name, off, bad ? "WRONG" : "ok", bad);
        }
        if (rows[r].library_tile) {
            CK(cudaMemset(yi, 0xff, ncheck * 4));
            rows[r].f32(x, (float *)yi, ncheck);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(fa.data(), yi, ncheck * 4, cudaMemcpyDeviceToHost));
            printf("check %-16s f32 bits vs library: %s\n", rows[r].name,
                   memcmp(fa.data(), fb.data(), ncheck * 4) ? "DIFFERENT" : "same");
        }
        fflush(stdout);
    }
    printf("%d SMs\n%-6s %8s %8s", g_sms, "n", "copyGB/s", "cub/copy");
    for (int r = 0; r < nrows; ++r) printf(" | %s", rows[r].name);
    printf("\n");
    for (int rep = 0; rep < 2; ++rep)
        for (int lg : {22, 23, 24, 25, 28, 30}) {
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
    /* int32 sums at 2^28 (the resident kernel's int sum spills 64 bytes) */
    for (int rep = 0; rep < 2; ++rep) {
        const long long n = 1ll << 28;
        double tcopy = time_us([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, 4);
        printf("int32 2^28: copy %.1f us", tcopy);
        for (int r = 0; r < 3; ++r) {
            double t = time_us([&] { rows[r].i32((const int *)x, (int *)y, n); }, 4);
            printf(" | %s %.1f us %.3f", rows[r].name, t, tcopy / t);
        }
        printf("\n");
    }
    return 0;
}
