// scan_pipelined.cu - scratch probe (issue 16): the large-array scan with
// one warp that looks back while the others work on the next tile
// (research/notes/scan.md, "A look-back warp"): the library's resident
// kernel (single_pass_scan_resident_kernel, gridsync/detail/scan/resident_scan.cuh)
// under the tile shapes of that study (data warps x vectors, blocks an SM),
// float inclusive sum against a device-to-device copy of the same bytes, CUB
// and the library's register kernel in the same run; int32 checked exactly
// against CUB (aligned and misaligned), and the library's tile checked
// bitwise against the library's register kernel on floats. sm_90 only.
// The kernel was first written here and then moved into the library; the
// probe's own copy (with a variant without the look-back: the floor, 0.97 of
// a copy at 2^28) is at aa2af18, docs/probes/scan_pipelined.cu.
// `make research` builds it: build/research/probes/scan_pipelined
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/resident_scan.cuh>

#include "scan_probe.h"

/* The resident kernel's policy (gridsync/detail/scan/resident_scan.cuh): `threads`
 * are the data warps' threads (the kernel adds the look-back warp), `vectors`
 * 16-byte vectors a data thread, `resident_min_blocks` blocks an SM. */
template <class T, int DataWarps, int MinBlocks, int Vectors>
struct rpolicy {
    static constexpr int threads = 32 * DataWarps;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int resident_min_blocks = MinBlocks;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = DataWarps * warp_items;
    static constexpr int lookback = 2;
    static constexpr int poll_sleep_ns = 0;
};

/* Mode -1: the library's register kernel (its bandwidth tiling); 0: the
 * library's resident kernel under policy P. */
template <class P, class T, int Mode>
static void launch(const T *in, T *out, long long n)
{
    using namespace gs::detail;
    typedef scan_policy<T, scan_bandwidth> L;
    auto k = Mode == -1 ? single_pass_scan_kernel<L, gs::sum<T>>
                        : single_pass_scan_resident_kernel<P, gs::sum<T>>;
    const int tile_items = Mode == -1 ? L::tile_items : P::tile_items;
    const int threads = Mode == -1 ? L::threads : scan_resident_threads<P>();
    const int smem = Mode == -1 ? 0 : scan_resident_bytes<P, T>();
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
    {name, launch<rpolicy<float, dw, mb, vec>, float, m>, launch<rpolicy<int, dw, mb, vec>, int, m>, lt}

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
        ROW("lib resident 14x8 2/SM", 14, 2, 8, 0, true),
        ROW("resident 8x8 3/SM", 8, 3, 8, 0, false),
        ROW("resident 12x6 3/SM", 12, 3, 6, 0, false),
        ROW("resident 16x4 2/SM", 16, 2, 4, 0, false),
        ROW("resident 6x8 4/SM", 6, 4, 8, 0, false),
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
        for (int r = 0; r < 2; ++r) {
            double t = time_us([&] { rows[r].i32((const int *)x, (int *)y, n); }, 4);
            printf(" | %s %.1f us %.3f", rows[r].name, t, tcopy / t);
        }
        printf("\n");
    }
    return 0;
}
