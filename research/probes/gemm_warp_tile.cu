// gemm_warp_tile.cu - scratch probe (issue 16): the thread and block shape
// that cuBLAS's pedantic FP32 SGEMM runs on H200, written here, against
// cuBLAS and the library in the same run.
//
// Nsight Compute (H200, CUDA 13.0) names cuBLAS's kernels:
//   1024x1024x16384: sm80_xmma_gemm_..._tilesize128x128x8_stage3_warpsize2x2x1_ffma,
//     grid 8 x 8 x 4 (split-k 4, then a split_k reduction kernel), 128
//     threads, 254 registers, 2 blocks a SM (8 warps), 0.93 issued
//     instructions per scheduler per cycle;
//   4096^3: ..._tilesize256x128x8_stage3_warpsize4x2x1_ffma, 256 threads,
//     254 registers, 1 block a SM (8 warps), 0.89 issued;
// against the library's sgemm_splitk / sgemm_fast: 256 threads of 8 x 8,
// 128 registers, 16 warps a SM, 0.82-0.83 issued, the same instruction count.
//
// So: warps of 64 x 64 (lanes 8 down x 4 across, each thread 8 x 16 in 4x4
// pieces: rows lm*4 and lm*4 + 32, columns ln*4 + 16j), k steps of 8, three
// cp.async stages (A copied 4 bytes at a time into a transposed tile, B 16
// bytes), fragments one k ahead in registers. Interior only (every size a
// multiple of the tile), so not a library kernel; split-k writes partials
// that a second kernel adds in slice order (as cuBLAS does).
//
// `make research` builds it: build/research/probes/gemm_warp_tile
// Each line: shape, cuBLAS TFLOP/s, the library's, each variant's, each as a
// ratio to cuBLAS; a variant's result is checked against cuBLAS's first
// (max |diff| / (k * 2^-24 * max|a||b|), which must stay below 1).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>

#include <cmath>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

#include <gridsync.h>

#include "gemm_probe.h"

/* The library's cp.async helpers (cp_async, cp_async_commit, cp_async_wait),
 * its k step and its 8 x 16 inner step (sgemm_fma_8x16). */
#include "../../src/gemm/sgemm_tile.cuh"

constexpr int BK = GS_SGEMM_BK;

/* WM x WN warps of 64 x 64; STAGES buffers; block tile BM x BN. */
template <int WM, int WN, int STAGES, int MINB>
struct shape {
    static constexpr int threads = 32 * WM * WN, bm = 64 * WM, bn = 64 * WN, warps_n = WN;
    static constexpr int lda_s = bm + 4;                  /* A transposed: [BK][bm + 4] */
    static constexpr int buffer = BK * lda_s + BK * bn;   /* floats per stage */
    static constexpr int stages = STAGES, min_blocks = MINB;
    static constexpr int a_copies = bm * BK / threads;    /* 4-byte copies a thread a step */
    static constexpr int b_copies = bn * BK / 4 / threads; /* 16-byte copies */
};

struct src_t {
    const float *a, *b;
};

template <class S>
static __device__ __forceinline__ void copy_step(float *buf, src_t &s, int lda, int ldb)
{
    const int t = threadIdx.x, k = t % BK, row = t / BK, rows_step = S::threads / BK;
#pragma unroll
    for (int c = 0; c < S::a_copies; ++c)
        cp_async<4>(&buf[k * S::lda_s + row + c * rows_step], s.a + (long long)c * rows_step * lda);
    float *bs = buf + BK * S::lda_s;
#pragma unroll
    for (int l = 0; l < S::b_copies; ++l) {
        const int idx = t + l * S::threads;
        cp_async<16>(&bs[(idx / (S::bn / 4)) * S::bn + (idx % (S::bn / 4)) * 4],
                     s.b + (long long)(l * S::threads / (S::bn / 4)) * ldb);
    }
    s.a += BK;
    s.b += (long long)BK * ldb;
}

/* fragments at k: A rows (2 x 4), B columns (4 x 4) */
template <class S>
static __device__ __forceinline__ void frag_at(float4 (&f)[6], const float *buf, int k, int ar,
                                               int bc)
{
    const float *a = buf + k * S::lda_s + ar, *b = buf + BK * S::lda_s + k * S::bn + bc;
    f[0] = *(const float4 *)a;
    f[1] = *(const float4 *)(a + 32);
#pragma unroll
    for (int j = 0; j < 4; ++j)
        f[2 + j] = *(const float4 *)(b + 16 * j);
}

/* C (or slice z's partial, when `partial`) = A B over k steps [z*steps, ..) */
template <class S>
static __global__ void __launch_bounds__(S::threads, S::min_blocks)
    warp_tile_gemm(const float *A, const float *B, float *C, int m, int n, int k, int steps,
                   float *partial)
{
    extern __shared__ __align__(16) float smem[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp / S::warps_n, wn = warp % S::warps_n;
    const int lm = lane / 4, ln = lane % 4;
    const int ar = wm * 64 + lm * 4, bc = wn * 64 + ln * 4;
    const int m0 = blockIdx.y * S::bm, n0 = blockIdx.x * S::bn, k0 = blockIdx.z * steps * BK;
    src_t s;
    s.a = A + (long long)(m0 + threadIdx.x / BK) * k + k0 + threadIdx.x % BK;
    s.b = B + (long long)(k0 + threadIdx.x / (S::bn / 4)) * n + n0 + (threadIdx.x % (S::bn / 4)) * 4;
    float acc[8][16];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 16; ++j)
            acc[i][j] = 0.0f;
    constexpr int ST = S::stages;
#pragma unroll
    for (int st = 0; st < ST; ++st) {
        if (st < steps)
            copy_step<S>(smem + st * S::buffer, s, k, n);
        cp_async_commit();
    }
    cp_async_wait<ST - 1>();
    __syncthreads();
    float4 frag[2][6];
    frag_at<S>(frag[0], smem, 0, ar, bc);
    for (int t = 0; t < steps; t += ST) {
#pragma unroll
        for (int cur = 0; cur < ST; ++cur) {
            if (t + cur >= steps)
                break;
            const float *buf = smem + cur * S::buffer;
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk + 1 < BK) {
                    frag_at<S>(frag[(kk + 1) & 1], buf, kk + 1, ar, bc);
                } else {
                    cp_async_wait<ST - 2>();
                    __syncthreads();
                    if (t + cur + ST < steps)
                        copy_step<S>(smem + cur * S::buffer, s, k, n);
                    cp_async_commit();
                    frag_at<S>(frag[0], smem + (cur + 1 == ST ? 0 : cur + 1) * S::buffer, 0, ar,
                               bc);
                }
                sgemm_fma_8x16(frag[kk & 1], acc);
            }
        }
    }
    float *out = partial ? partial + (long long)blockIdx.z * m * n : C;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + ar + (i & 3) + (i >> 2) * 32;
#pragma unroll
        for (int j = 0; j < 4; ++j)
            *(float4 *)&out[(long long)row * n + n0 + bc + 16 * j] =
                make_float4(acc[i][4 * j], acc[i][4 * j + 1], acc[i][4 * j + 2], acc[i][4 * j + 3]);
    }
}

static __global__ void add_slices(const float *partial, float *C, long long mn, int slices)
{
    for (long long i = (blockIdx.x * 256ll + threadIdx.x) * 4; i < mn; i += 256ll * 4 * gridDim.x) {
        float4 s = *(const float4 *)&partial[i];
        for (int z = 1; z < slices; ++z) {
            const float4 v = *(const float4 *)&partial[(long long)z * mn + i];
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
        *(float4 *)&C[i] = s;
    }
}


template <class S>
static void run(const float *A, const float *B, float *C, int m, int n, int k, int slices,
                float *work)
{
    const int smem = S::stages * S::buffer * 4;
    static bool set = false;
    if (!set) {
        CK(cudaFuncSetAttribute(warp_tile_gemm<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        set = true;
    }
    dim3 grid(n / S::bn, m / S::bm, slices);
    warp_tile_gemm<S><<<grid, S::threads, smem>>>(A, B, C, m, n, k, k / BK / slices,
                                                  slices > 1 ? work : nullptr);
    if (slices > 1)
        add_slices<<<1024, 256>>>(work, C, (long long)m * n, slices);
}

struct variant {
    const char *name;
    void (*f)(const float *, const float *, float *, int, int, int, int, float *);
    int bm, bn, slices_large_k; /* slices when k >= 8 * max(m, n) */
};

typedef shape<2, 2, 3, 2> s128_3;
typedef shape<2, 2, 4, 2> s128_4;
typedef shape<4, 2, 3, 1> s256x128_3;
typedef shape<2, 4, 3, 1> s128x256_3;

int main()
{
    const int shapes[][3] = {{1024, 1024, 16384}, {2048, 2048, 2048}, {4096, 4096, 4096},
                             {8192, 8192, 8192}};
    const variant vs[] = {
        {"128x128 3st", run<s128_3>, 128, 128, 4},
        {"128x128 4st", run<s128_4>, 128, 128, 4},
        {"256x128 3st", run<s256x128_3>, 256, 128, 4},
        {"128x256 3st", run<s128x256_3>, 128, 256, 4},
    };
    const size_t most = 8192ull * 8192;
    float *A, *B, *C, *R, *W;
    CK(cudaMalloc(&A, most * 4)); CK(cudaMalloc(&B, most * 4)); CK(cudaMalloc(&C, most * 4));
    CK(cudaMalloc(&R, most * 4)); CK(cudaMalloc(&W, 4 * 1024 * 1024 * 4));
    cublasHandle_t h;
    cublasCreate(&h);
    cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
    const float one = 1.f, zero = 0.f;
    printf("%-18s %8s %8s %6s", "m x n x k", "cublas", "gridsync", "x");
    for (const variant &v : vs) printf(" | %-12s %6s", v.name, "x");
    printf("\n");
    for (auto &sh : shapes) {
        const int m = sh[0], n = sh[1], k = sh[2];
        fill<<<2048, 256>>>(A, (long long)m * k, 11u + m);
        fill<<<2048, 256>>>(B, (long long)k * n, 23u + k);
        const double flops = 2.0 * m * n * k;
        const int reps = std::max(3, (int)(2e11 / flops));
        auto blas = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, R, n); };
        auto lib = [&] { gs_sgemm(m, n, k, 1.f, A, k, B, n, 0.f, C, n, 0); };
        blas();
        CK(cudaDeviceSynchronize());
        std::vector<float> ref((size_t)m * n), got((size_t)m * n);
        CK(cudaMemcpy(ref.data(), R, ref.size() * 4, cudaMemcpyDeviceToHost));
        const double tb = time_ms(blas, reps), tl = time_ms(lib, reps);
        printf("%5dx%5dx%5d %8.2f %8.2f %6.3f", m, n, k, flops / tb / 1e9, flops / tl / 1e9, tb / tl);
        for (const variant &v : vs) {
            const int slices = k >= 8 * std::max(m, n) ? v.slices_large_k : 1;
            if (m % v.bm || n % v.bn) { printf(" | %-12s %6s", "-", "-"); continue; }
            CK(cudaMemset(C, 0xff, (size_t)m * n * 4));
            v.f(A, B, C, m, n, k, slices, W);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
            double worst = 0;
            for (size_t i = 0; i < got.size(); ++i) {
                const double d = fabs((double)got[i] - ref[i]);
                worst = std::isnan(got[i]) ? 1e30 : std::max(worst, d);
            }
            const double bound = 8.0 * sqrt((double)k) * k * ldexp(1.0, -24); /* |a|,|b| < 1: a few sigma of two orders' rounding */
            const double tv = time_ms([&] { v.f(A, B, C, m, n, k, slices, W); }, reps);
            printf(" | %8.2f/%d %6.3f%s", flops / tv / 1e9, slices, tb / tv, worst < bound ? "" : " WRONG");
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
