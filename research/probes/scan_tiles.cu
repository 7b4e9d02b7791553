// scan_tiles.cu - scratch probe (issue 16): the library's single-pass scan
// kernel (single_pass_scan_kernel, gridsync/detail/scan/single_pass_scan.cuh)
// instantiated with probe policies (threads, blocks per SM, vectors per
// thread, look-back width, poll back-off) against CUB
// DeviceScan::InclusiveSum and a device-to-device copy of the same bytes,
// float inclusive sum, to tune GS_TUNE_SCAN_* in tuning.h.
// `make research` builds it: build/research/probes/scan_tiles [mode]
//   scan_tiles            (the policies of the bandwidth study, 2^16 - 2^30)
//   scan_tiles latency    (tile sizes at 2^12 - 2^20 floats)
//   scan_tiles window     (look-back window of 64 or 128 tiles, 2^16 - 2^21)
// Each line: n, copy GB/s, CUB us and GB/s, then each policy's us and its
// ratio to CUB (> 1: faster). A policy's int32 result is first compared
// with CUB's (exact), to catch a wrong setup.
// Until aa2af18 this probe carried a copy of the kernel with probe modes (no
// look-back: the tile structure's floor; where the next ticket is drawn; no
// ticket at all); what they measured is in research/notes/scan.md, and the
// orders they chose are the library's now, so every row runs the library's
// kernel.
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>

#include "scan_probe.h"

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

template <class P, class T>
static void launch(const T *in, T *out, long long n)
{
    using namespace gs::detail;
    auto k = single_pass_scan_kernel<P, gs::sum<T>>;
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
        POLICY("256x4 v4", 256, 4, 4, 2, 0),
        POLICY("256x2 v8 (32K, latency)", 256, 2, 8, 2, 0),
        POLICY("384x2 v8", 384, 2, 8, 2, 0),
        POLICY("384x2 v8 lb4", 384, 2, 8, 4, 0),
        POLICY("384x2 v8 lb1", 384, 2, 8, 1, 0),
        POLICY("384x2 v8 sleep100", 384, 2, 8, 2, 100),
        POLICY("384x2 v8 sleep400", 384, 2, 8, 2, 400),
        POLICY("320x2 v8", 320, 2, 8, 2, 0),
        POLICY("448x2 v8 (56K, bandwidth)", 448, 2, 8, 2, 0),
        POLICY("512x2 v6", 512, 2, 6, 2, 0),
        POLICY("384x2 v6", 384, 2, 6, 2, 0),
        POLICY("384x3 v6", 384, 3, 6, 2, 0),
        POLICY("256x3 v8", 256, 3, 8, 2, 0),
        POLICY("512x1 v8 (64K)", 512, 1, 8, 2, 0),
    };
    /* `scan_tiles latency`: the tile sizes around one wave, at 2^12 - 2^20
     * floats (which tile the short and latency ranges should use) */
    const row latency_rows[] = {
        POLICY("128x8 v2 (4K)", 128, 8, 2, 2, 0),
        POLICY("128x4 v4 (8K)", 128, 4, 4, 2, 0),
        POLICY("256x4 v2 (8K)", 256, 4, 2, 2, 0),
        POLICY("128x2 v8 (16K)", 128, 2, 8, 2, 0),
        POLICY("256x4 v4 (16K, short)", 256, 4, 4, 2, 0),
        POLICY("256x2 v8 (32K, latency)", 256, 2, 8, 2, 0),
        POLICY("384x2 v8 (48K)", 384, 2, 8, 2, 0),
        POLICY("448x2 v8 (56K, bandwidth)", 448, 2, 8, 2, 0),
        POLICY("512x1 v8 (64K)", 512, 1, 8, 2, 0),
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
