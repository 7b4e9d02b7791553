// scan_resident.cu - scratch probe (issue 16): the bandwidth tiling's two
// kernels side by side, the register kernel (single_pass_scan.cuh) and the
// resident kernel (resident_scan.cuh), for every element type: the same
// bits (inclusive and exclusive sums of random data, a partial last tile,
// aligned and misaligned input), and us per call against a device copy of
// the same bytes.
// `make research` builds it: build/research/probes/scan_resident
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/resident_scan.cuh>

#include "scan_probe.h"

using namespace gs::detail;

template <class T, bool Resident>
static void launch(const T *in, T *out, long long n, int exclusive)
{
    typedef scan_policy<T, scan_bandwidth> P;
    auto k = Resident ? single_pass_scan_resident_kernel<P, gs::sum<T>>
                      : single_pass_scan_kernel<P, gs::sum<T>>;
    const int smem = Resident ? scan_resident_bytes<P, T>() : 0;
    static int per_sm = -1;
    if (per_sm < 0) {
        if (smem)
            CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, P::threads, smem));
        fprintf(stderr, "%s %zu-byte: %d blocks/SM\n", Resident ? "resident" : "registers",
                sizeof(T), per_sm);
    }
    scan_probe_launch(k, per_sm, P::threads, smem, P::tile_items, in, out, n, exclusive);
}

__global__ void fill_bits(unsigned *x, long long words, unsigned s)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < words; i += 256ll * gridDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ s;
        h ^= h >> 15; h *= 0x2c1b3c6du; h ^= h >> 12;
        /* floats and doubles in a sane range: exponent bits limited */
        x[i] = (h & 0x807fffffu) | 0x3f000000u;
    }
}

static char *g_x, *g_y, *g_z;

template <class T>
static void run(const char *name)
{
    const long long bytes_max = 1ll << 31;
    /* same bits: inclusive and exclusive, aligned and misaligned by one element */
    for (int ex = 0; ex < 2; ++ex)
        for (int off = 0; off < 2; ++off) {
            const long long n = (1ll << 26) / (long long)sizeof(T) * 4 - 1234;
            const T *in = (const T *)g_x + off;
            CK(cudaMemset(g_y, 0xa5, n * sizeof(T) + 64));
            CK(cudaMemset(g_z, 0x5a, n * sizeof(T) + 64));
            launch<T, false>(in, (T *)g_y + off, n, ex);
            launch<T, true>(in, (T *)g_z + off, n, ex);
            CK(cudaDeviceSynchronize());
            std::vector<char> hy(n * sizeof(T)), hz(n * sizeof(T));
            CK(cudaMemcpy(hy.data(), (T *)g_y + off, n * sizeof(T), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hz.data(), (T *)g_z + off, n * sizeof(T), cudaMemcpyDeviceToHost));
            printf("%s %s offset %d n %lld: %s\n", name, ex ? "exclusive" : "inclusive", off, n,
                   memcmp(hy.data(), hz.data(), hy.size()) ? "DIFFERENT BITS" : "same bits");
        }
    for (long long bytes : {1ll << 24, 1ll << 27, 1ll << 30, bytes_max}) {
        const long long n = bytes / (long long)sizeof(T);
        const int reps = bytes <= (1ll << 27) ? 20 : 3;
        double tc = time_us([&] { CK(cudaMemcpyAsync(g_y, g_x, bytes, cudaMemcpyDeviceToDevice)); }, reps, 5);
        double tr = time_us([&] { launch<T, false>((const T *)g_x, (T *)g_y, n, 0); }, reps, 5);
        double ts = time_us([&] { launch<T, true>((const T *)g_x, (T *)g_y, n, 0); }, reps, 5);
        double tm = time_us([&] { launch<T, true>((const T *)g_x + 1, (T *)g_y, n - 1, 0); }, reps, 5);
        printf("%-9s %5lld MiB: copy %9.1f us | registers %9.1f us %5.3f of copy | resident %9.1f us "
               "%5.3f | resident misaligned in %9.1f %5.3f\n",
               name, bytes >> 20, tc, tr, tc / tr, ts, tc / ts, tm, tc / tm);
        fflush(stdout);
    }
}

int main()
{
    const long long cap = (1ll << 31) + 4096;
    scan_probe_init((cap / 1024 + 64) * 32);
    CK(cudaMalloc(&g_x, cap)); CK(cudaMalloc(&g_y, cap)); CK(cudaMalloc(&g_z, cap));
    fill_bits<<<2048, 256>>>((unsigned *)g_x, cap / 4, 7u);
    CK(cudaDeviceSynchronize());
    run<float>("float");
    run<double>("double");
    run<int>("int");
    run<long long>("long long");
    return 0;
}
