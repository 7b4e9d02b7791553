// probe: the 2-D heat stencil in global memory (memory bound, 2^22 - 2^26
// cells): which order of rows a persistent grid should sweep, against the
// relaunched one-thread-a-cell kernel. Same cell arithmetic as
// tools/bench/suites/apps_stencil_body.cuh; every variant's field is
// compared bit for bit with the relaunch's.
// `make research` builds it: build/research/probes/stencil_global
//
// Persistent variants (cooperative launch, grid.sync between steps; the
// barrier is the same in all, a few us of a 60 us step):
//   band    block b owns rows [b*h/G, (b+1)*h/G), top to bottom (the bench's)
//   cyclic  block b owns rows b, b+G, b+2G, ...: the grid sweeps the field
//           top to bottom together, as a relaunched grid does
//   +flip   odd steps sweep bottom to top: they start on the rows the last
//           step wrote last, still in L2
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>

namespace cg = cooperative_groups;

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            printf("%s: %s\n", #x, cudaGetErrorName(e_));                              \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

__device__ __forceinline__ float cell(float c, float n, float s, float w, float e)
{
    return fmaf(0.125f, (n + s) + (w + e), 0.5f * c);
}

__device__ __forceinline__ float at(const float *u, int w, int h, int x, int y)
{
    const float *p = u + (size_t)y * (size_t)w + (size_t)x;
    float n = y > 0 ? p[-w] : 0.0f, s = y + 1 < h ? p[w] : 0.0f;
    float west = x > 0 ? p[-1] : 0.0f, east = x + 1 < w ? p[1] : 0.0f;
    return cell(*p, n, s, west, east);
}

__global__ void __launch_bounds__(256) step_kernel(const float *__restrict__ src,
                                                   float *__restrict__ dst, int w, int h, int flip)
{
    int bx = (int)blockIdx.x, by = (int)blockIdx.y;
    if (flip) {
        bx = (int)gridDim.x - 1 - bx;
        by = (int)gridDim.y - 1 - by;
    }
    const int x = bx * 32 + (int)threadIdx.x, y = by * 8 + (int)threadIdx.y;
    if (x < w && y < h)
        dst[(size_t)y * w + x] = at(src, w, h, x, y);
}

// One row, four cells a thread in flight (loads, then stores).
__device__ __forceinline__ void do_row(const float *src, float *dst, int w, int h, int y)
{
    const int tid = (int)threadIdx.x, nt = (int)blockDim.x;
    for (int x0 = tid; x0 < w; x0 += 4 * nt) {
        float v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (x0 + k * nt < w)
                v[k] = at(src, w, h, x0 + k * nt, y);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (x0 + k * nt < w)
                dst[(size_t)y * w + x0 + k * nt] = v[k];
    }
}

// order: 0 band, 1 cyclic; flip: odd steps bottom to top
template <int Threads, int PerSm>
__global__ void __launch_bounds__(Threads, PerSm)
    persistent(const float *u0, float *a, float *b, float *out, int w, int h, int steps,
               int order, int flip)
{
    const int G = (int)gridDim.x, blk = (int)blockIdx.x;
    const int y0 = (int)((long long)blk * h / G), y1 = (int)((long long)(blk + 1) * h / G);
    const int mine = order == 0 ? y1 - y0 : (h - blk + G - 1) / G;
    for (int s = 0; s < steps; ++s) {
        const float *src = s == 0 ? u0 : (s - 1) % 2 ? b : a;
        float *dst = s == steps - 1 ? out : s % 2 ? b : a;
        const bool up = flip && (s & 1);
        for (int i = 0; i < mine; ++i) {
            const int j = up ? mine - 1 - i : i;
            const int y = order == 0 ? y0 + j : blk + j * G;
            do_row(src, dst, w, h, y);
        }
        if (s + 1 < steps)
            cg::this_grid().sync();
    }
}

struct variant {
    const char *name;
    const void *fn;
    int threads, per_sm, order, flip;
};

int main()
{
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs, L2 %d MB\n", prop.name, sms, prop.l2CacheSize >> 20);
    const variant vs[] = {
        {"band 1024x1", (const void *)persistent<1024, 1>, 1024, 1, 0, 0},
        {"cyclic 1024x1 flip", (const void *)persistent<1024, 1>, 1024, 1, 1, 1},
        {"band 1024x2", (const void *)persistent<1024, 2>, 1024, 2, 0, 0},
        {"band 1024x2 flip", (const void *)persistent<1024, 2>, 1024, 2, 0, 1},
        {"cyclic 1024x2", (const void *)persistent<1024, 2>, 1024, 2, 1, 0},
        {"cyclic 1024x2 flip", (const void *)persistent<1024, 2>, 1024, 2, 1, 1},
        {"band 512x4", (const void *)persistent<512, 4>, 512, 4, 0, 0},
        {"cyclic 512x4 flip", (const void *)persistent<512, 4>, 512, 4, 1, 1},
        {"band 256x8", (const void *)persistent<256, 8>, 256, 8, 0, 0},
        {"cyclic 256x8 flip", (const void *)persistent<256, 8>, 256, 8, 1, 1},
    };
    const int logs[] = {22, 24, 26};
    for (int li = 0; li < 3; ++li) {
        const int lg = logs[li], w = 1 << ((lg + 1) / 2), h = 1 << (lg / 2);
        const int steps = lg <= 22 ? 256 : 1 << (30 - lg);
        const size_t n = (size_t)w * h, bytes = n * sizeof(float);
        std::vector<float> host(n);
        unsigned int r = 12345u + lg;
        for (auto &v : host) {
            r = r * 1664525u + 1013904223u;
            v = (float)(r >> 8) / 16777216.0f;
        }
        float *u0, *a, *b, *out, *ref;
        CK(cudaMalloc(&u0, bytes));
        CK(cudaMalloc(&a, bytes));
        CK(cudaMalloc(&b, bytes));
        CK(cudaMalloc(&out, bytes));
        CK(cudaMalloc(&ref, bytes));
        CK(cudaMemcpy(u0, host.data(), bytes, cudaMemcpyHostToDevice));
        cudaEvent_t e0, e1;
        CK(cudaEventCreate(&e0));
        CK(cudaEventCreate(&e1));
        auto relaunch = [&](int flip) {
            dim3 g((w + 31) / 32, (h + 7) / 8), blk(32, 8);
            for (int s = 0; s < steps; ++s) {
                const float *src = s == 0 ? u0 : (s - 1) % 2 ? b : a;
                float *dst = s == steps - 1 ? ref : s % 2 ? b : a;
                step_kernel<<<g, blk>>>(src, dst, w, h, flip && (s & 1));
            }
        };
        auto time = [&](auto &&fn) {
            std::vector<float> t;
            for (int rep = 0; rep < 7; ++rep) {
                CK(cudaEventRecord(e0));
                fn();
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms * 1e3f / steps);
            }
            std::sort(t.begin(), t.end());
            return t;
        };
        for (int flip = 0; flip < 2; ++flip) {
            auto t = time([&] { relaunch(flip); });
            CK(cudaGetLastError());
            printf("2^%d %-22s %8.2f us/step (min %.2f) %6.0f GB/s\n", lg,
                   flip ? "relaunch flip" : "relaunch", t[3], t[0], 2.0 * bytes / t[3] / 1e3);
        }
        relaunch(0);
        CK(cudaDeviceSynchronize());
        std::vector<float> want(n), got(n);
        CK(cudaMemcpy(want.data(), ref, bytes, cudaMemcpyDeviceToHost));
        for (const variant &v : vs) {
            int per = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, v.fn, v.threads, 0));
            const int G = sms * std::min(per, v.per_sm);
            int ww = w, hh = h, ss = steps, order = v.order, flip = v.flip;
            void *args[] = {&u0, &a, &b, &out, &ww, &hh, &ss, &order, &flip};
            CK(cudaMemset(out, 0xff, bytes));
            auto t = time([&] {
                CK(cudaLaunchCooperativeKernel(v.fn, G, v.threads, args, 0, 0));
            });
            CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
            size_t bad = 0;
            for (size_t i = 0; i < n; ++i)
                bad += memcmp(&got[i], &want[i], 4) != 0;
            printf("2^%d %-22s %8.2f us/step (min %.2f) %6.0f GB/s  %d blocks  %zu cells differ\n",
                   lg, v.name, t[3], t[0], 2.0 * bytes / t[3] / 1e3, G, bad);
        }
        cudaFree(u0);
        cudaFree(a);
        cudaFree(b);
        cudaFree(out);
        cudaFree(ref);
    }
    return 0;
}
