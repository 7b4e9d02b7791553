// scan_wide_types.cu - the resident kernel (resident_scan.cuh) instantiated
// for 8-byte types as it is, at the 64-register cap (it spills): timed
// against the register kernel and a device copy of the same bytes, and
// its bits checked against the register kernel (f64 sum and max, i64 sum,
// inclusive and exclusive, aligned and misaligned). sm_90 only.
// `make research` builds it: build/research/probes/scan_wide_types
#include <cstring>
#include "scan_probe.h"
#include <gridsync/detail/scan/resident_scan.cuh>
#include <gridsync/scan.cuh>
using namespace gs::detail;
template <class T, class Op, bool Res>
static void launch(const T *in, T *out, long long n, int excl = 0)
{
    typedef scan_policy<T, scan_bandwidth> L;
    auto k = Res ? single_pass_scan_resident_kernel<L, Op> : single_pass_scan_kernel<L, Op>;
    const int threads = Res ? scan_resident_threads<L>() : L::threads;
    const int smem = Res ? scan_resident_bytes<L, T>() : 0;
    static int per_sm = -1;
    if (per_sm < 0) {
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, smem));
        fprintf(stderr, "%s %zu: tile %d threads %d smem %d: %d blocks/SM\n", Res ? "resident" : "register", sizeof(T), L::tile_items, threads, smem, per_sm);
    }
    scan_probe_launch(k, per_sm, threads, smem, L::tile_items, in, out, n, excl);
}
__global__ void widen(const float *x, double *d, long long *q, long long n)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
        d[i] = (double)x[i] * 1.2345678901;
        q[i] = (long long)(x[i] * 1e9f);
    }
}
int main()
{
    const long long nmax = 1ll << 27; /* 1 GiB of 8-byte elements */
    scan_probe_init((nmax / 1024 + 64) * 2 * 16 * 2);
    float *x; double *d, *dy, *dz; long long *q, *qy, *qz;
    CK(cudaMalloc(&x, nmax * 4)); CK(cudaMalloc(&d, nmax * 8)); CK(cudaMalloc(&q, nmax * 8));
    CK(cudaMalloc(&dy, nmax * 8)); CK(cudaMalloc(&dz, nmax * 8));
    qy = (long long *)dy; qz = (long long *)dz;
    fill<<<2048, 256>>>(x, nullptr, nmax, 0, 11u);
    widen<<<2048, 256>>>(x, d, q, nmax);
    CK(cudaDeviceSynchronize());
    /* bits: both kernels, f64 sum and max, i64 sum, inclusive and exclusive, aligned and +1 */
    const long long nc = (1ll << 24) + 4321;
    std::vector<char> a(nc * 8), b(nc * 8);
    auto cmp = [&](const char *what, void *y, void *z) {
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(a.data(), y, nc * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), z, nc * 8, cudaMemcpyDeviceToHost));
        printf("check %-28s %s\n", what, memcmp(a.data(), b.data(), (nc - 1) * 8) ? "DIFFERENT" : "same");
    };
    for (int ex = 0; ex < 2; ++ex) for (int off = 0; off < 2; ++off) {
        CK(cudaMemset(dy, 0xff, nc * 8)); CK(cudaMemset(dz, 0xff, nc * 8));
        launch<double, gs::sum<double>, false>(d + off, dy, nc - off, ex);
        launch<double, gs::sum<double>, true>(d + off, dz, nc - off, ex);
        char w[64]; snprintf(w, 64, "f64 sum ex%d off%d", ex, off); cmp(w, dy, dz);
        launch<long long, gs::sum<long long>, false>(q + off, qy, nc - off, ex);
        launch<long long, gs::sum<long long>, true>(q + off, qz, nc - off, ex);
        snprintf(w, 64, "i64 sum ex%d off%d", ex, off); cmp(w, qy, qz);
        launch<double, gs::max<double>, false>(d + off, dy, nc - off, ex);
        launch<double, gs::max<double>, true>(d + off, dz, nc - off, ex);
        snprintf(w, 64, "f64 max ex%d off%d", ex, off); cmp(w, dy, dz);
    }
    printf("%-6s %8s | %-16s | %-16s | %-16s | %-16s\n", "n", "copy us", "f64 register", "f64 resident", "i64 register", "i64 resident");
    for (int rep = 0; rep < 2; ++rep)
        for (int lg : {22, 24, 25, 27}) {
            long long n = 1ll << lg;
            int reps = lg <= 22 ? 100 : lg <= 25 ? 10 : 2;
            double tc = time_us([&] { CK(cudaMemcpyAsync(dy, d, n * 8, cudaMemcpyDeviceToDevice)); }, reps);
            double t1 = time_us([&] { launch<double, gs::sum<double>, false>(d, dy, n); }, reps);
            double t2 = time_us([&] { launch<double, gs::sum<double>, true>(d, dy, n); }, reps);
            double t3 = time_us([&] { launch<long long, gs::sum<long long>, false>(q, qy, n); }, reps);
            double t4 = time_us([&] { launch<long long, gs::sum<long long>, true>(q, qy, n); }, reps);
            printf("2^%-4d %8.1f | %8.1f %6.3f | %8.1f %6.3f | %8.1f %6.3f | %8.1f %6.3f\n", lg, tc, t1, tc / t1, t2, tc / t2, t3, tc / t3, t4, tc / t4);
            fflush(stdout);
        }
    return 0;
}
