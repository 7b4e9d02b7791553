// gemm_probe.h - what the gemm probes share (gemm_tiles.cu, gemm_splitk.cu,
// gemm_warp_tile.cu): random fill in [-1, 1), the median of 6 timed runs of
// `reps` calls, and CK (probe_check.h).
#ifndef GS_GEMM_PROBE_H
#define GS_GEMM_PROBE_H
#include <algorithm>
#include <vector>

#include "probe_check.h"

static __global__ void fill(float *x, long long n, unsigned s)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ s; h ^= h >> 15; h *= 0x2c1b3c6du; h ^= h >> 12;
        x[i] = (h & 0xffffff) * (2.0f / 16777216.0f) - 1.0f;
    }
}

template <class F> static double time_ms(F f, int reps)
{
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> v;
    for (int s = 0; s < 7; ++s) {
        cudaEventRecord(a); for (int r = 0; r < reps; ++r) f(); cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); if (s) v.push_back(ms / reps);
    }
    std::sort(v.begin(), v.end()); return v[v.size() / 2];
}

#endif
