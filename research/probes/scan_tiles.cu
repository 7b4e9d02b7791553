// scan_tiles.cu - scratch probe (issue 16): the single-pass scan kernel
// (gridsync/detail/single_pass_scan.cuh) under several tuning policies
// (threads, blocks per SM, vectors per thread, look-back width, poll
// back-off) against CUB DeviceScan::InclusiveSum and a device-to-device copy
// of the same bytes, float inclusive sum, to tune GS_TUNE_SCAN_* in tuning.h.
// Build on the GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude docs/probes/scan_tiles.cu -o /tmp/scan_tiles
//   /tmp/scan_tiles            (the policies of the bandwidth study)
//   /tmp/scan_tiles latency    (tile sizes at 2^14 - 2^20 floats)
//   /tmp/scan_tiles window     (look-back window of 64 or 128 tiles, 2^16 - 2^21)
// Each line: n, copy GB/s, CUB us and GB/s, then each policy's us and its
// ratio to CUB (> 1: faster). A policy's int32 result at the first n is
// compared with CUB's (exact), to catch a wrong setup.
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/single_pass_scan.cuh>

#include "scan_probe.h"

/* The library's kernel (single_pass_scan.cuh) with three probe modes:
 * 0: as the library; 1: no look-back (every tile's prefix is the identity:
 * the floor of the tile structure, wrong results); 2: the next ticket drawn
 * after the tile's stores, not at its start; 3: the next tile's elements
 * loaded into registers before the current tile's look-back (two tiles in
 * registers; the ticket is drawn at the start as in 0 and known to the
 * block at barrier A); 4: the next ticket drawn by warp 1's lane 0 right
 * after barrier A, while warp 0 looks back; 5: drawn by thread 0 once its
 * look-back is done, before barrier B; 6: as 2 with one barrier less;
 * 7: as 6, and a grid of exactly one block per tile draws no second ticket;
 * 8: as 7, and a grid of one block per tile takes tile blockIdx.x, no
 * ticket at all (safe only where every block is co-resident: the cost of
 * the ticket).
 * Timeouts are not handled (probe). */
namespace gs { namespace detail {
template <class Policy, class Op, int Mode>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    probe_kernel(const scan_args a)
{
    typedef typename Op::value_type T;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile, s_next;
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    const bool out_aligned = ((unsigned long long)out & 15ull) == 0ull;
    const bool one_each = (Mode == 7 || Mode == 8) && gridDim.x == a.tiles;
    const unsigned int last_draw = one_each ? a.tiles - 1u : a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    if (tid == 0u) {
        s_tile = Mode == 8 && one_each ? blockIdx.x
                 : gridDim.x == 1u    ? 0u
                                      : gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (!(Mode == 8 && one_each) && gridDim.x > 1u && s_tile == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
    }
    __syncthreads();
    unsigned int tile = s_tile;
    scan_items<Policy, T> it, nx;
    if (Mode == 3 && tile < a.tiles) {
        const long long tb = (long long)tile * Policy::tile_items;
        scan_load<Policy, Op>(it, in, tb + (long long)warp * Policy::warp_items, a.n,
                              tb + Policy::tile_items <= a.n, in_aligned);
    }
    while (tile < a.tiles) {
        unsigned int next = 0u;
        if (tid == 0u && Mode <= 1 || tid == 0u && Mode == 3) {
            next = gridDim.x == 1u ? tile + 1u : gs_atom_add_relaxed_gpu(a.counters, 1u);
            if (Mode == 3)
                s_next = next;
        }
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = tile_base + Policy::tile_items <= a.n;
        if (Mode != 3)
            scan_load<Policy, Op>(it, in, base, a.n, full, in_aligned);
        T before[Policy::vectors];
        T warp_total = scan_warp_run<Policy>(it, before, op);
        if ((tid & 31u) == 0u)
            s_warp[warp] = warp_total;
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v)
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                it.x[v][c] = op(before[v], it.x[v][c]);
        __syncthreads(); /* (A) */
        if (Mode == 3) {
            const unsigned int nt = s_next;
            if (nt < a.tiles) {
                const long long nb = (long long)nt * Policy::tile_items;
                scan_load<Policy, Op>(nx, in, nb + (long long)warp * Policy::warp_items, a.n,
                                      nb + Policy::tile_items <= a.n, in_aligned);
            }
        }
        T warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (Mode == 4 && tid == 32u) {
            next = gridDim.x == 1u ? tile + 1u : gs_atom_add_relaxed_gpu(a.counters, 1u);
            s_tile = next;
            if (gridDim.x > 1u && next == last_draw)
                gs_st_relaxed_gpu(a.counters, 0u);
        }
        if (warp == 0u) {
            T aggregate = scan_fold_shared(s_warp, nwarps, op);
            T prefix = Op::identity();
            if (Mode != 1 && tile > 0u) {
                if (tid == 0u)
                    state.publish_aggregate((int)tile, aggregate);
                const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, tile,
                                          a.tiles};
                scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(state, (int)tile, op,
                                                                          watch, prefix);
                if (tid == 0u)
                    state.publish_inclusive((int)tile, op(prefix, aggregate));
            } else if (Mode != 1 && tid == 0u && a.tiles > 1u) {
                state.publish_inclusive(0, aggregate);
            }
            if (tid == 0u)
                s_prefix = prefix;
            if (Mode == 5 && tid == 0u)
                next = gridDim.x == 1u ? tile + 1u : gs_atom_add_relaxed_gpu(a.counters, 1u);
        }
        if (tid == 0u && (Mode <= 1 || Mode == 3 || Mode == 5)) {
            s_tile = next;
            if (gridDim.x > 1u && next == last_draw)
                gs_st_relaxed_gpu(a.counters, 0u);
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
        scan_store(it, out, base, a.n, full, out_aligned);
        if ((Mode == 7 || Mode == 8) && one_each)
            break;
        if (Mode == 2 || Mode == 6 || Mode == 7 || Mode == 8) {
            if (Mode == 2)
                __syncthreads(); /* everyone read s_prefix */
            if (tid == 0u) {
                next = gridDim.x == 1u ? tile + 1u : gs_atom_add_relaxed_gpu(a.counters, 1u);
                s_tile = next;
                if (gridDim.x > 1u && next == last_draw)
                    gs_st_relaxed_gpu(a.counters, 0u);
            }
            __syncthreads();
        }
        if (Mode == 3)
            it = nx;
        tile = s_tile;
    }
}
}} // namespace gs::detail

template <class T, int Threads, int MinBlocks, int Vectors, int Lookback, int SleepNs>
struct policy {
    static constexpr int threads = Threads;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    static constexpr int lookback = Lookback;
    static constexpr int poll_sleep_ns = SleepNs;
};

template <class P, class T, int Mode = -1>
static void launch(const T *in, T *out, long long n)
{
    using namespace gs::detail;
    auto k = Mode < 0 ? single_pass_scan_kernel<P, gs::sum<T>> : probe_kernel<P, gs::sum<T>, Mode < 0 ? 0 : Mode>;
    static int per_sm = -1;
    if (per_sm < 0)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, P::threads, 0));
    scan_probe_launch(k, per_sm, P::threads, 0, P::tile_items, in, out, n, 0);
}

struct row { const char *name; void (*f32)(const float *, float *, long long);
             void (*i32)(const int *, int *, long long); int tile; };

#define POLICY(name, th, mb, vec, lb, sl)                                                          \
    {name, launch<policy<float, th, mb, vec, lb, sl>, float>,                                      \
     launch<policy<int, th, mb, vec, lb, sl>, int>, th * 4 * vec}
#define MODE(name, th, mb, vec, m) MODEL(name, th, mb, vec, 2, m)
#define MODEL(name, th, mb, vec, lb, m)                                                               \
    {name, launch<policy<float, th, mb, vec, lb, 0>, float, m>,                                     \
     launch<policy<int, th, mb, vec, lb, 0>, int, m>, th * 4 * vec}

int main(int argc, char **argv)
{
    const long long nmax = 1ll << 30;
    scan_probe_init((nmax / 256 + 64) * 2 * 8 * 2);
    float *x, *y; int *xi, *yi, *yc;
    CK(cudaMalloc(&x, nmax * 4)); CK(cudaMalloc(&y, nmax * 4));
    CK(cudaMalloc(&xi, nmax * 4)); CK(cudaMalloc(&yi, nmax * 4)); CK(cudaMalloc(&yc, nmax * 4));
    fill<<<2048, 256>>>(x, xi, nmax, nmax, 7u);
    CK(cudaDeviceSynchronize());
    void *tmp = nullptr; size_t tmp_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)nmax));
    CK(cudaMalloc(&tmp, tmp_bytes));

    const row rows[] = {
        POLICY("256x4 v4 (lib)", 256, 4, 4, 2, 0),
        MODE("384x2 v8 nolb", 384, 2, 8, 1),
        MODE("256x2 v8 m6", 256, 2, 8, 6),
        MODE("384x2 v8 m6", 384, 2, 8, 6),
        MODE("256x4 v4 m7", 256, 4, 4, 7),
        MODE("256x2 v8 m7", 256, 2, 8, 7),
        MODE("384x2 v8 m7", 384, 2, 8, 7),
        MODEL("384x2 v8 lb4 m7", 384, 2, 8, 4, 7),
        MODEL("384x2 v8 lb1 m7", 384, 2, 8, 1, 7),
        MODE("320x2 v8 m7", 320, 2, 8, 7),
        MODE("448x2 v8 m7", 448, 2, 8, 7),
        MODE("512x2 v6 m7", 512, 2, 6, 7),
        MODE("384x2 v6 m7", 384, 2, 6, 7),
        MODE("384x3 v6 m7", 384, 3, 6, 7),
        MODE("256x3 v8 m7", 256, 3, 8, 7),
    };
    /* `scan_tiles latency`: the tile sizes around one wave, at 2^14 - 2^20
     * floats (which tile the latency range should use) */
    const row latency_rows[] = {
        MODE("128x8 v2 m7 (4K)", 128, 8, 2, 7),
        MODE("128x4 v4 m7 (8K)", 128, 4, 4, 7),
        MODE("256x4 v2 m7 (8K)", 256, 4, 2, 7),
        MODE("128x2 v8 m7 (16K)", 128, 2, 8, 7),
        MODE("256x4 v4 m7 (16K)", 256, 4, 4, 7),
        MODE("256x2 v8 m7 (32K, lib)", 256, 2, 8, 7),
        MODE("256x2 v8 m8 (32K, blockIdx)", 256, 2, 8, 8),
        MODE("384x2 v8 m7 (48K)", 384, 2, 8, 7),
        MODE("448x2 v8 m7 (56K, lib)", 448, 2, 8, 7),
        MODE("512x1 v8 m7 (64K)", 512, 1, 8, 7),
    };
    /* `scan_tiles window`: the library's kernel with 16 and 32 KiB tiles and a
     * look-back window of 64 or 128 tiles (2 or 4 a lane) around 2^19 floats,
     * where 16 KiB tiles make 128 tiles and a 64-tile window needs a second
     * round trip */
    const row window_rows[] = {
        POLICY("256x4 v2 lb4 (8K)", 256, 4, 2, 4, 0),
        POLICY("256x4 v4 lb2 (16K, short)", 256, 4, 4, 2, 0),
        POLICY("256x4 v4 lb4 (16K)", 256, 4, 4, 4, 0),
        POLICY("256x2 v8 lb2 (32K, latency)", 256, 2, 8, 2, 0),
        POLICY("256x2 v8 lb4 (32K)", 256, 2, 8, 4, 0),
    };
    const bool latency = argc > 1 && strcmp(argv[1], "latency") == 0;
    const bool window = argc > 1 && strcmp(argv[1], "window") == 0;
    const row *rows_begin = latency ? latency_rows : window ? window_rows : rows;
    const row *rows_end = latency  ? latency_rows + sizeof latency_rows / sizeof *latency_rows
                          : window ? window_rows + sizeof window_rows / sizeof *window_rows
                                   : rows + sizeof rows / sizeof *rows;
    /* a setup check: int32 against CUB, exact */
    const long long ncheck = (1ll << 25) + 12345;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, xi, yc, (int)ncheck));
    std::vector<int> a(ncheck), b(ncheck);
    CK(cudaMemcpy(b.data(), yc, ncheck * 4, cudaMemcpyDeviceToHost));
    for (const row *rp = rows_begin; rp != rows_end; ++rp) {
        const row &r = *rp;
        CK(cudaMemset(yi, 0xff, ncheck * 4));
        r.i32(xi, yi, ncheck);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(a.data(), yi, ncheck * 4, cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (long long i = 0; i < ncheck; ++i) bad += a[i] != b[i];
        printf("check %-20s tile %6d: %s (%lld wrong)\n", r.name, r.tile, bad ? "WRONG" : "ok", bad);
        fflush(stdout);
    }
    printf("%d SMs\n%-10s %8s %9s %8s", g_sms, "n", "copyGB/s", "cub us", "cubGB/s");
    for (const row *rp = rows_begin; rp != rows_end; ++rp) printf(" | %s", rp->name);
    printf("\n");
    const std::vector<int> sizes = latency  ? std::vector<int>{12, 14, 15, 16, 17, 18, 19, 20}
                                   : window ? std::vector<int>{16, 17, 18, 19, 20, 21}
                                            : std::vector<int>{16, 19, 22, 25, 28, 30};
    for (int lg : sizes) {
        long long n = 1ll << lg;
        int reps = lg <= 22 ? 200 : lg <= 25 ? 20 : lg <= 28 ? 4 : 1;
        double bytes = 2.0 * n * 4;
        double tcopy = time_us([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
        double tcub = time_us([&] { cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n); }, reps);
        printf("2^%-8d %8.0f %9.2f %8.0f", lg, bytes / tcopy / 1e3, tcub, bytes / tcub / 1e3);
        for (const row *rp = rows_begin; rp != rows_end; ++rp) {
            const row &r = *rp;
            double t = time_us([&] { r.f32(x, y, n); }, reps);
            printf(" | %8.2f %5.2fx %5.0f", t, tcub / t, bytes / t / 1e3);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
