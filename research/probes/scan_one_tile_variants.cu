// scan_one_tile_variants.cu - scratch probe (issue 16): the one-tile scan
// kernel (gridsync/detail/scan/single_tile_scan.cuh, which prefetches its tile
// into L2 before the programmatic-launch wait) instantiated with probe
// policies: tile size, look-back window (32 x lookback tiles) and the back-off
// between polls. Float inclusive sum at 2^18 - 2^20, on data that is not in
// L2 (calls walk through pools of 4 x 64 MiB, as `gridsync bench scan`
// does), launched back to back with PDL as gs_scan launches them; CUB, a
// device-to-device copy and gs_scan itself in the same run, same walk.
// First a check of every variant against CUB (small integers: exact).
// `make research` builds it: build/research/probes/scan_one_tile_variants
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync.h>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/single_tile_scan.cuh>

#include "scan_probe.h"

template <int Threads, int MinBlocks, int Vectors, int Lookback, int SleepNs>
struct policy {
    static constexpr int threads = Threads;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int width = 4; /* floats */
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    static constexpr int lookback = Lookback;
    static constexpr int poll_sleep_ns = SleepNs;
};

static cudaStream_t g_stream;

template <class P>
static void launch(const float *in, float *out, long long n)
{
    const long long tiles = (n + P::tile_items - 1) / P::tile_items;
    gs::detail::scan_args a = {};
    a.in = in;
    a.out = out;
    a.n = n;
    a.descriptors = g_desc;
    a.counters = g_counters;
    a.timeout_ns = 2000000000ull;
    a.seq = g_seq++;
    a.tiles = (unsigned int)tiles;
    a.prefetch_input = 1; /* cudaMalloc'ed on this GPU, as gs_scan would prefetch */
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)tiles);
    config.blockDim = dim3((unsigned)P::threads);
    config.stream = g_stream;
    config.attrs = attr;
    config.numAttrs = 1;
    CK(cudaLaunchKernelEx(&config, gs::detail::single_tile_scan_kernel<P, gs::sum<float>>, a));
}

struct variant {
    const char *name;
    void (*f)(const float *, float *, long long);
    long long tile;
};
#define V(name, T, M, Vec, K, S)                                                                  \
    {name, launch<policy<T, M, Vec, K, S>>, (long long)T * 4 * Vec}

static const variant variants[] = {
    V("32K 256x8 K2 sleep0 (library)", 256, 2, 8, 2, 0),
    V("32K 256x8 K4", 256, 2, 8, 4, 0),
    V("32K 256x8 K2 sleep32", 256, 2, 8, 2, 32),
    V("32K 256x8 K2 sleep100", 256, 2, 8, 2, 100),
    V("32K 256x8 K1", 256, 2, 8, 1, 0),
    V("16K 256x4 K2", 256, 4, 4, 2, 0),
    V("16K 256x4 K4", 256, 4, 4, 4, 0),
    V("16K 128x8 K4", 128, 4, 8, 4, 0),
    V("64K 512x8 K2", 512, 1, 8, 2, 0),
    V("64K 512x8 K1", 512, 1, 8, 1, 0),
};

int main()
{
    const long long pool = 64ll << 20; /* floats: 256 MiB each */
    scan_probe_init(4 << 20);
    CK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    float *x, *y;
    int *xi;
    CK(cudaMalloc(&x, pool * 4));
    CK(cudaMalloc(&y, pool * 4));
    CK(cudaMalloc(&xi, 4));
    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, 1 << 21));
    CK(cudaMalloc(&tmp, tmp_bytes));

    for (long long n : {1ll << 19, (1ll << 19) - 777, 1ll << 20}) {
        std::vector<float> h(n), a(n), b(n);
        for (long long i = 0; i < n; ++i)
            h[i] = (float)((i * 7919) % 13) - 6.0f;
        CK(cudaMemcpy(x, h.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n));
        CK(cudaMemcpy(b.data(), y, n * 4, cudaMemcpyDeviceToHost));
        for (const variant &v : variants) {
            if ((n + v.tile - 1) / v.tile > 132)
                continue;
            CK(cudaMemset(y, 0xff, n * 4));
            v.f(x, y, n);
            CK(cudaStreamSynchronize(g_stream));
            CK(cudaMemcpy(a.data(), y, n * 4, cudaMemcpyDeviceToHost));
            long long bad = 0;
            for (long long j = 0; j < n; ++j)
                bad += a[j] != b[j];
            printf("check n %7lld %-32s: %s (%lld wrong)\n", n, v.name, bad ? "WRONG" : "ok", bad);
        }
    }
    fill<<<2048, 256>>>(x, xi, pool, 0, 7u);
    CK(cudaDeviceSynchronize());

    long long off = 0;
    for (long long n : {1ll << 18, 1ll << 19, (1ll << 19) - 777, 1ll << 20}) {
        auto walk = [&](auto call) {
            return [&, call] {
                if (off + n > pool)
                    off = 0;
                call(x + off, y + off);
                off += n;
            };
        };
        const int reps = 20, samples = 15;
        for (int pass = 0; pass < 2; ++pass) {
            double tcopy = time_us(walk([&](const float *i, float *o) {
                                       CK(cudaMemcpyAsync(o, i, n * 4, cudaMemcpyDeviceToDevice,
                                                          g_stream));
                                   }),
                                   reps, samples, g_stream);
            double tcub = time_us(walk([&](const float *i, float *o) {
                                      CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, i, o, (int)n,
                                                                       g_stream));
                                  }),
                                  reps, samples, g_stream);
            double tlib = time_us(walk([&](const float *i, float *o) {
                                      (void)gs_scan_inclusive_sum(GS_FLOAT32, i, o, n, g_stream);
                                  }),
                                  reps, samples, g_stream);
            printf("n %7lld pass %d: copy %5.2f us, CUB %5.2f us, gs_scan %5.2f us (%.2fx CUB)\n", n,
                   pass, tcopy, tcub, tlib, tcub / tlib);
            for (const variant &v : variants) {
                if ((n + v.tile - 1) / v.tile > 132)
                    continue;
                double t = time_us(walk([&](const float *i, float *o) { v.f(i, o, n); }), reps,
                                   samples, g_stream);
                printf("   %-32s %5.2f us (%.2fx CUB, %lld tiles)\n", v.name, t, tcub / t,
                       (n + v.tile - 1) / v.tile);
            }
            fflush(stdout);
        }
    }
    CK(cudaStreamSynchronize(g_stream));
    return gs_scan_check(g_stream) == GS_SUCCESS ? 0 : 1;
}
