/*
 * gridsync/reduce.cuh - warp and block reductions for users' own kernels.
 *
 * Generic forms (namespace gs), over a value type and an operator functor:
 *
 *   gs::warp_reduce(v, lanes, op)       the first `lanes` lanes of the calling
 *                                       warp (all of them must call); result
 *                                       in lane 0.
 *   gs::block_reduce(v, smem, op)       warp shuffles, then one warp over the
 *                                       warps' results; `smem` holds 32
 *                                       values; any block size up to 1024.
 *                                       Result in thread 0. All threads call.
 *   gs::block_reduce_tree(v, smem, op)  the __syncthreads tutorial's
 *                                       shared-memory tree, fixed for any
 *                                       block size; `smem` holds blockDim
 *                                       values. Result in every thread.
 *
 *   __shared__ double smem[32];
 *   double lo = gs::block_reduce(x, smem, gs::min<double>());
 *
 * Operators: gs::sum<T>, gs::min<T>, gs::max<T> for T = float, double, int,
 * unsigned int, long long, unsigned long long, __half, __nv_bfloat16
 * (gridsync/detail/reduce/reduce_ops.cuh says what a functor provides; a user's
 * own functor of that shape works too). Any other T stops the compilation
 * with "gridsync: reductions take float, double, ...". The generic forms
 * combine the operator's accumulator (Op::accumulator): the element itself,
 * except that gs::sum<__half> and gs::sum<__nv_bfloat16> add in float
 * (pass the float the operator's lift makes of the element, as the C-style
 * names below do; the result is a float), and
 * argmin/argmax combine gs::arg<T>; anything else is refused with a
 * sentence, never rounded to 16 bits at every step in silence.
 *
 * C-style names for the same, gs_<scope>_reduce_<op>_<type>, with op sum,
 * min, max and type f32 (float), f64 (double), i32 (int), u32 (unsigned
 * int), i64 (long long), u64 (unsigned long long), f16 (__half), bf16
 * (__nv_bfloat16): gs_warp_reduce_sum_f32(v, lanes), gs_block_reduce_max_i64(v, smem),
 * gs_block_reduce_tree_min_f64(v, smem), ...; and the operators themselves,
 * gs_op_<op>_<type>(a, b), with their identities GS_IDENTITY_<OP>_<TYPE>.
 * The 16-bit floats' sums take the element and return a float, their
 * `smem` holds floats, and gs_op_sum_f16/_bf16 add floats (fp32
 * accumulation: a block's sum of __half never rounds to 16 bits and stays
 * finite past 65504); their min and max take and return the 16-bit type,
 * exactly. f16 and bf16 are there where GS_HAS_16BIT_FLOATS is 1: with
 * nvcc always, under NVRTC when cuda_fp16.h and cuda_bf16.h are on the
 * include path (-I<CUDA>/include).
 *
 * NaN rule (min, max): NaN propagates. If any input is NaN the result is NaN,
 * whatever the order of evaluation, so results do not depend on the
 * reduction's shape. (fminf/fmaxf would ignore NaNs instead.)
 * Integer sums wrap modulo 2^32 / 2^64 (computed unsigned: no undefined
 * behaviour on overflow).
 *
 * How and why each is correct: gridsync/detail/reduce/warp_reduce.cuh and
 * gridsync/detail/reduce/block_reduce.cuh. When: the shuffle variant is the fast
 * one; the tree variant is the reference the tutorials teach, and is what to
 * use when every thread needs the result.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below
 * (cuda_fp16.h and cuda_bf16.h only where found: element_types.cuh).
 */
#ifndef GRIDSYNC_REDUCE_CUH
#define GRIDSYNC_REDUCE_CUH

#include <gridsync/detail/reduce/block_reduce.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/reduce/warp_reduce.cuh>

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
#define GS_IDENTITY_SUM_U32 0u
#define GS_IDENTITY_MIN_U32 0xffffffffu
#define GS_IDENTITY_MAX_U32 0u
#define GS_IDENTITY_SUM_U64 0ull
#define GS_IDENTITY_MIN_U64 0xffffffffffffffffull
#define GS_IDENTITY_MAX_U64 0ull
#if GS_HAS_16BIT_FLOATS
#define GS_IDENTITY_SUM_F16 0.0f /* the float a sum of f16 adds up in */
#define GS_IDENTITY_MIN_F16 __ushort_as_half((unsigned short)0x7c00u)
#define GS_IDENTITY_MAX_F16 __ushort_as_half((unsigned short)0xfc00u)
#define GS_IDENTITY_SUM_BF16 0.0f
#define GS_IDENTITY_MIN_BF16 __ushort_as_bfloat16((unsigned short)0x7f80u)
#define GS_IDENTITY_MAX_BF16 __ushort_as_bfloat16((unsigned short)0xff80u)
#endif

/* The C-style sums of element type T (suffix) adding up in A, min and
 * max, each one line over the generic form: the operator itself
 * (gs_op_<op>_<suffix>, on accumulators), the warp reduction, the block
 * reductions (shuffles; tree). A 16-bit float's sum takes the element and
 * returns (and keeps in smem) the float it adds up in. */
#define GS__REDUCE_SUM_NAMES(suffix, T, A)                                                     \
    GS_DEVICE A gs_op_sum_##suffix(A a, A b) { return gs::sum<T>()(a, b); }                    \
    GS_DEVICE A gs_warp_reduce_sum_##suffix(T v, unsigned int lanes)                           \
    {                                                                                          \
        return gs::warp_reduce(gs::sum<T>::lift(v, 0), lanes, gs::sum<T>());                   \
    }                                                                                          \
    GS_DEVICE A gs_block_reduce_sum_##suffix(T v, A *smem)                                     \
    {                                                                                          \
        return gs::block_reduce(gs::sum<T>::lift(v, 0), smem, gs::sum<T>());                   \
    }                                                                                          \
    GS_DEVICE A gs_block_reduce_tree_sum_##suffix(T v, A *smem)                                \
    {                                                                                          \
        return gs::block_reduce_tree(gs::sum<T>::lift(v, 0), smem, gs::sum<T>());              \
    }
#define GS__REDUCE_EXTREME_NAMES(op, suffix, T)                                                \
    GS_DEVICE T gs_op_##op##_##suffix(T a, T b) { return gs::op<T>()(a, b); }                  \
    GS_DEVICE T gs_warp_reduce_##op##_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_reduce(v, lanes, gs::op<T>());                                         \
    }                                                                                          \
    GS_DEVICE T gs_block_reduce_##op##_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_reduce(v, smem, gs::op<T>());                                         \
    }                                                                                          \
    GS_DEVICE T gs_block_reduce_tree_##op##_##suffix(T v, T *smem)                             \
    {                                                                                          \
        return gs::block_reduce_tree(v, smem, gs::op<T>());                                    \
    }
#define GS__REDUCE_NAMES(suffix, T, A)                                                         \
    GS__REDUCE_SUM_NAMES(suffix, T, A)                                                         \
    GS__REDUCE_EXTREME_NAMES(min, suffix, T)                                                   \
    GS__REDUCE_EXTREME_NAMES(max, suffix, T)

GS__ELEMENT_TYPES(GS__REDUCE_NAMES)

#undef GS__REDUCE_NAMES
#undef GS__REDUCE_EXTREME_NAMES
#undef GS__REDUCE_SUM_NAMES

#endif /* GRIDSYNC_REDUCE_CUH */
