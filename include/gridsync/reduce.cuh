/*
 * gridsync/reduce.cuh - warp and block reductions for users' own kernels.
 *
 * Operators: sum, min, max. Types: f32 (float), f64 (double), i32 (int),
 * i64 (long long). Every function is named gs_<scope>_reduce_<op>_<type>,
 * e.g. gs_block_reduce_sum_f32.
 *
 * NaN rule (min, max): NaN propagates. If any input is NaN the result is NaN,
 * whatever the order of evaluation, so results do not depend on the
 * reduction's shape. (fminf/fmaxf would ignore NaNs instead.)
 * Integer sums wrap modulo 2^32 / 2^64 (computed unsigned: no undefined
 * behaviour on overflow).
 *
 *   warp  gs_warp_reduce_<op>_<t>(v, lanes)   the first `lanes` lanes of the
 *         calling warp (all of them must call); result in lane 0.
 *   block gs_block_reduce_<op>_<t>(v, smem)   warp shuffles, then one warp
 *         over the warps' results; `smem` holds 32 elements; any block size up
 *         to 1024. Result in thread 0. All threads must call it.
 *   block gs_block_reduce_tree_<op>_<t>(v, smem)  the seeds' shared-memory
 *         tree (seed 000), fixed for any block size (not only powers of two);
 *         `smem` holds blockDim elements. Result in every thread.
 *
 * Why correct: the shuffle variant needs one barrier, between the warps
 * writing their results and warp 0 reading them; one more at entry keeps a
 * previous call's readers from seeing this call's writes (so `smem` can be
 * reused back to back). The tree variant needs a barrier after every level:
 * level k reads what level k-1 wrote in other threads' slots.
 * When: the shuffle variant is the fast one (log2(32) shuffles per warp, one
 * barrier); the tree variant is the reference the seeds teach, and is what
 * to use when every thread needs the result.
 */
#ifndef GRIDSYNC_REDUCE_CUH
#define GRIDSYNC_REDUCE_CUH

#include <gridsync/detail/memory_order.cuh>

/* ---------------------------------------------------------- operators */

#define GS__SUM(a, b) ((a) + (b))
#define GS__NANLESS_MIN(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) < (a) ? (b) : (a))
#define GS__NANLESS_MAX(a, b) ((a) != (a) ? (a) : (b) != (b) ? (b) : (b) > (a) ? (b) : (a))
#define GS__INT_MIN_OP(a, b) ((b) < (a) ? (b) : (a))
#define GS__INT_MAX_OP(a, b) ((b) > (a) ? (b) : (a))

GS_DEVICE float gs_op_sum_f32(float a, float b) { return a + b; }
/* sm_80 and later have a NaN-propagating min/max instruction (min.NaN.f32):
 * one instruction instead of three compares and selects. */
GS_DEVICE float gs_op_min_f32(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return GS__NANLESS_MIN(a, b);
#endif
}
GS_DEVICE float gs_op_max_f32(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return GS__NANLESS_MAX(a, b);
#endif
}
GS_DEVICE double gs_op_sum_f64(double a, double b) { return a + b; }
GS_DEVICE double gs_op_min_f64(double a, double b) { return GS__NANLESS_MIN(a, b); }
GS_DEVICE double gs_op_max_f64(double a, double b) { return GS__NANLESS_MAX(a, b); }
GS_DEVICE int gs_op_sum_i32(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
GS_DEVICE int gs_op_min_i32(int a, int b) { return GS__INT_MIN_OP(a, b); }
GS_DEVICE int gs_op_max_i32(int a, int b) { return GS__INT_MAX_OP(a, b); }
GS_DEVICE long long gs_op_sum_i64(long long a, long long b)
{
    return (long long)((unsigned long long)a + (unsigned long long)b);
}
GS_DEVICE long long gs_op_min_i64(long long a, long long b) { return GS__INT_MIN_OP(a, b); }
GS_DEVICE long long gs_op_max_i64(long long a, long long b) { return GS__INT_MAX_OP(a, b); }

/* Identities: sum 0; min +inf / largest integer; max -inf / smallest. */
#define GS_IDENTITY_SUM_F32 0.0f
#define GS_IDENTITY_MIN_F32 __int_as_float(0x7f800000)
#define GS_IDENTITY_MAX_F32 __int_as_float((int)0xff800000)
#define GS_IDENTITY_SUM_F64 0.0
#define GS_IDENTITY_MIN_F64 __longlong_as_double(0x7ff0000000000000ll)
#define GS_IDENTITY_MAX_F64 __longlong_as_double((long long)0xfff0000000000000ull)
#define GS_IDENTITY_SUM_I32 0
#define GS_IDENTITY_MIN_I32 0x7fffffff
#define GS_IDENTITY_MAX_I32 (-0x7fffffff - 1)
#define GS_IDENTITY_SUM_I64 0ll
#define GS_IDENTITY_MIN_I64 0x7fffffffffffffffll
#define GS_IDENTITY_MAX_I64 (-0x7fffffffffffffffll - 1ll)

/* ------------------------------------------------- warp and block levels */

#define GS__DEFINE_REDUCE(T, op, t, ID)                                                     \
    GS_DEVICE T gs_warp_reduce_##op##_##t(T v, unsigned int lanes)                          \
    {                                                                                       \
        unsigned int lane = threadIdx.x & 31u;                                              \
        unsigned int mask = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;                \
        for (unsigned int o = 16u; o > 0u; o >>= 1) {                                       \
            T other = __shfl_down_sync(mask, v, o);                                         \
            if (lane + o < lanes)                                                           \
                v = gs_op_##op##_##t(v, other);                                             \
        }                                                                                   \
        return v;                                                                           \
    }                                                                                       \
    GS_DEVICE T gs_block_reduce_##op##_##t(T v, T *smem)                                    \
    {                                                                                       \
        unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); \
        unsigned int n = blockDim.x * blockDim.y * blockDim.z;                              \
        unsigned int warp = tid >> 5, nwarps = (n + 31u) >> 5;                              \
        unsigned int lanes = warp == nwarps - 1u ? n - (warp << 5) : 32u;                   \
        __syncthreads(); /* a previous call's readers are done with smem */                 \
        v = gs_warp_reduce_##op##_##t(v, lanes);                                            \
        if ((tid & 31u) == 0u)                                                              \
            smem[warp] = v;                                                                 \
        __syncthreads(); /* warps' results written before warp 0 reads them */             \
        if (warp == 0u) {                                                                   \
            v = tid < nwarps ? smem[tid] : (ID);                                            \
            v = gs_warp_reduce_##op##_##t(v, n < 32u ? n : 32u);                            \
        }                                                                                   \
        return v;                                                                           \
    }                                                                                       \
    GS_DEVICE T gs_block_reduce_tree_##op##_##t(T v, T *smem)                               \
    {                                                                                       \
        unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); \
        unsigned int n = blockDim.x * blockDim.y * blockDim.z, half = 1u;                   \
        while (half * 2u < n)                                                               \
            half *= 2u;                                                                     \
        __syncthreads(); /* a previous call's readers are done with smem */                 \
        smem[tid] = v;                                                                      \
        __syncthreads();                                                                    \
        for (; half > 0u; half >>= 1) {                                                     \
            if (tid < half && tid + half < n)                                               \
                smem[tid] = gs_op_##op##_##t(smem[tid], smem[tid + half]);                  \
            __syncthreads(); /* this level's writes before the next level's reads */       \
        }                                                                                   \
        return smem[0];                                                                     \
    }

#define GS__DEFINE_REDUCE_TYPE(T, t, T_UP)                                                  \
    GS__DEFINE_REDUCE(T, sum, t, GS_IDENTITY_SUM_##T_UP)                                    \
    GS__DEFINE_REDUCE(T, min, t, GS_IDENTITY_MIN_##T_UP)                                    \
    GS__DEFINE_REDUCE(T, max, t, GS_IDENTITY_MAX_##T_UP)

GS__DEFINE_REDUCE_TYPE(float, f32, F32)
GS__DEFINE_REDUCE_TYPE(double, f64, F64)
GS__DEFINE_REDUCE_TYPE(int, i32, I32)
GS__DEFINE_REDUCE_TYPE(long long, i64, I64)

#endif /* GRIDSYNC_REDUCE_CUH */
