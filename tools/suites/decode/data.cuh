/*
 * data.cuh - the decode workloads' data: deterministic random values (the
 * same hash on the GPU and the CPU, so the CPU can rebuild any weight), the
 * 16-bit types' conversions and roundoff on the host, the kernel that fills
 * the weights, and the one that measures the read ceiling.
 */
#ifndef GS_SUITES_DECODE_DATA_CUH
#define GS_SUITES_DECODE_DATA_CUH

#include <cublas_v2.h>
#include <gridsync.h>
#include <gridsync_tasks.h>

#include <cmath>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "gridsync_internal.h"
#include "harness/timer.h"
#include "kernels.cuh"

namespace decode {

/* splitmix64 of (seed, index): the weights' and inputs' random bits. */
__host__ __device__ inline unsigned long long hash64(unsigned long long seed, unsigned long long i)
{
    unsigned long long x = seed ^ (i * 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A value uniform in [-scale, scale), 24 random bits. */
__host__ __device__ inline float uniform(unsigned long long seed, unsigned long long i, float scale)
{
    return ((float)(hash64(seed, i) >> 40) * (1.0f / 8388608.0f) - 1.0f) * scale;
}

template <typename T> __host__ inline double to_double(T v);
template <> __host__ inline double to_double<__half>(__half v) { return (double)__half2float(v); }
template <> __host__ inline double to_double<__nv_bfloat16>(__nv_bfloat16 v)
{
    return (double)__bfloat162float(v);
}
template <typename T> __host__ __device__ inline T from_float(float v);
template <> __host__ __device__ inline __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __host__ __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

/* unit roundoff of the output type */
template <typename T> inline double unit_roundoff();
template <> inline double unit_roundoff<__half>() { return ldexp(1.0, -11); }
template <> inline double unit_roundoff<__nv_bfloat16>() { return ldexp(1.0, -8); }

/* p[i] = the value of index `first` + i: any part of an array filled
 * alone equals the same part filled whole. */
template <typename T>
__global__ void fill_uniform(T *p, size_t n, unsigned long long seed, size_t first, float scale)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = from_float<T>(uniform(seed, first + i, scale));
}

/* Read every 16 bytes of p once: the measured read ceiling. Eight
 * independent 16-byte loads a thread in flight, streaming (evict-first). */
__global__ void __launch_bounds__(512) read_all(const uint4 *p, size_t n, unsigned int *sink)
{
    unsigned int x = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + 7 * stride < n; i += 8 * stride) {
        uint4 v[8];
#pragma unroll
        for (int k = 0; k < 8; ++k)
            v[k] = __ldcs(p + i + k * stride);
#pragma unroll
        for (int k = 0; k < 8; ++k)
            x ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
    }
    for (; i < n; i += stride) {
        uint4 v = __ldcs(p + i);
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x12345678u)
        *sink = x; /* never, but the loads cannot be dropped */
}

} // namespace decode

#endif
