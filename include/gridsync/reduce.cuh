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
 * long long (gridsync/detail/reduce_ops.cuh says what a functor provides; a
 * user's own functor of that shape works too).
 *
 * C-style names for the same, gs_<scope>_reduce_<op>_<type>, with op sum,
 * min, max and type f32 (float), f64 (double), i32 (int), i64 (long long):
 * gs_warp_reduce_sum_f32(v, lanes), gs_block_reduce_max_i64(v, smem),
 * gs_block_reduce_tree_min_f64(v, smem), ...; and the operators themselves,
 * gs_op_<op>_<type>(a, b), with their identities GS_IDENTITY_<OP>_<TYPE>.
 *
 * NaN rule (min, max): NaN propagates. If any input is NaN the result is NaN,
 * whatever the order of evaluation, so results do not depend on the
 * reduction's shape. (fminf/fmaxf would ignore NaNs instead.)
 * Integer sums wrap modulo 2^32 / 2^64 (computed unsigned: no undefined
 * behaviour on overflow).
 *
 * How and why each is correct: gridsync/detail/warp_reduce.cuh and
 * gridsync/detail/block_reduce.cuh. When: the shuffle variant is the fast
 * one; the tree variant is the reference the tutorials teach, and is what to
 * use when every thread needs the result.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_REDUCE_CUH
#define GRIDSYNC_REDUCE_CUH

#include <gridsync/detail/block_reduce.cuh>
#include <gridsync/detail/memory_order.cuh>
#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/warp_reduce.cuh>

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

/* ------------------------------------------------------------ f32 (float) */
GS_DEVICE float gs_op_sum_f32(float a, float b) { return gs::sum<float>()(a, b); }
GS_DEVICE float gs_op_min_f32(float a, float b) { return gs::min<float>()(a, b); }
GS_DEVICE float gs_op_max_f32(float a, float b) { return gs::max<float>()(a, b); }
GS_DEVICE float gs_warp_reduce_sum_f32(float v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::sum<float>());
}
GS_DEVICE float gs_warp_reduce_min_f32(float v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::min<float>());
}
GS_DEVICE float gs_warp_reduce_max_f32(float v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::max<float>());
}
GS_DEVICE float gs_block_reduce_sum_f32(float v, float *smem)
{
    return gs::block_reduce(v, smem, gs::sum<float>());
}
GS_DEVICE float gs_block_reduce_min_f32(float v, float *smem)
{
    return gs::block_reduce(v, smem, gs::min<float>());
}
GS_DEVICE float gs_block_reduce_max_f32(float v, float *smem)
{
    return gs::block_reduce(v, smem, gs::max<float>());
}
GS_DEVICE float gs_block_reduce_tree_sum_f32(float v, float *smem)
{
    return gs::block_reduce_tree(v, smem, gs::sum<float>());
}
GS_DEVICE float gs_block_reduce_tree_min_f32(float v, float *smem)
{
    return gs::block_reduce_tree(v, smem, gs::min<float>());
}
GS_DEVICE float gs_block_reduce_tree_max_f32(float v, float *smem)
{
    return gs::block_reduce_tree(v, smem, gs::max<float>());
}

/* ------------------------------------------------------------ f64 (double) */
GS_DEVICE double gs_op_sum_f64(double a, double b) { return gs::sum<double>()(a, b); }
GS_DEVICE double gs_op_min_f64(double a, double b) { return gs::min<double>()(a, b); }
GS_DEVICE double gs_op_max_f64(double a, double b) { return gs::max<double>()(a, b); }
GS_DEVICE double gs_warp_reduce_sum_f64(double v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::sum<double>());
}
GS_DEVICE double gs_warp_reduce_min_f64(double v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::min<double>());
}
GS_DEVICE double gs_warp_reduce_max_f64(double v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::max<double>());
}
GS_DEVICE double gs_block_reduce_sum_f64(double v, double *smem)
{
    return gs::block_reduce(v, smem, gs::sum<double>());
}
GS_DEVICE double gs_block_reduce_min_f64(double v, double *smem)
{
    return gs::block_reduce(v, smem, gs::min<double>());
}
GS_DEVICE double gs_block_reduce_max_f64(double v, double *smem)
{
    return gs::block_reduce(v, smem, gs::max<double>());
}
GS_DEVICE double gs_block_reduce_tree_sum_f64(double v, double *smem)
{
    return gs::block_reduce_tree(v, smem, gs::sum<double>());
}
GS_DEVICE double gs_block_reduce_tree_min_f64(double v, double *smem)
{
    return gs::block_reduce_tree(v, smem, gs::min<double>());
}
GS_DEVICE double gs_block_reduce_tree_max_f64(double v, double *smem)
{
    return gs::block_reduce_tree(v, smem, gs::max<double>());
}

/* ------------------------------------------------------------ i32 (int) */
GS_DEVICE int gs_op_sum_i32(int a, int b) { return gs::sum<int>()(a, b); }
GS_DEVICE int gs_op_min_i32(int a, int b) { return gs::min<int>()(a, b); }
GS_DEVICE int gs_op_max_i32(int a, int b) { return gs::max<int>()(a, b); }
GS_DEVICE int gs_warp_reduce_sum_i32(int v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::sum<int>());
}
GS_DEVICE int gs_warp_reduce_min_i32(int v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::min<int>());
}
GS_DEVICE int gs_warp_reduce_max_i32(int v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::max<int>());
}
GS_DEVICE int gs_block_reduce_sum_i32(int v, int *smem)
{
    return gs::block_reduce(v, smem, gs::sum<int>());
}
GS_DEVICE int gs_block_reduce_min_i32(int v, int *smem)
{
    return gs::block_reduce(v, smem, gs::min<int>());
}
GS_DEVICE int gs_block_reduce_max_i32(int v, int *smem)
{
    return gs::block_reduce(v, smem, gs::max<int>());
}
GS_DEVICE int gs_block_reduce_tree_sum_i32(int v, int *smem)
{
    return gs::block_reduce_tree(v, smem, gs::sum<int>());
}
GS_DEVICE int gs_block_reduce_tree_min_i32(int v, int *smem)
{
    return gs::block_reduce_tree(v, smem, gs::min<int>());
}
GS_DEVICE int gs_block_reduce_tree_max_i32(int v, int *smem)
{
    return gs::block_reduce_tree(v, smem, gs::max<int>());
}

/* ------------------------------------------------------------ i64 (long long) */
GS_DEVICE long long gs_op_sum_i64(long long a, long long b) { return gs::sum<long long>()(a, b); }
GS_DEVICE long long gs_op_min_i64(long long a, long long b) { return gs::min<long long>()(a, b); }
GS_DEVICE long long gs_op_max_i64(long long a, long long b) { return gs::max<long long>()(a, b); }
GS_DEVICE long long gs_warp_reduce_sum_i64(long long v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::sum<long long>());
}
GS_DEVICE long long gs_warp_reduce_min_i64(long long v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::min<long long>());
}
GS_DEVICE long long gs_warp_reduce_max_i64(long long v, unsigned int lanes)
{
    return gs::warp_reduce(v, lanes, gs::max<long long>());
}
GS_DEVICE long long gs_block_reduce_sum_i64(long long v, long long *smem)
{
    return gs::block_reduce(v, smem, gs::sum<long long>());
}
GS_DEVICE long long gs_block_reduce_min_i64(long long v, long long *smem)
{
    return gs::block_reduce(v, smem, gs::min<long long>());
}
GS_DEVICE long long gs_block_reduce_max_i64(long long v, long long *smem)
{
    return gs::block_reduce(v, smem, gs::max<long long>());
}
GS_DEVICE long long gs_block_reduce_tree_sum_i64(long long v, long long *smem)
{
    return gs::block_reduce_tree(v, smem, gs::sum<long long>());
}
GS_DEVICE long long gs_block_reduce_tree_min_i64(long long v, long long *smem)
{
    return gs::block_reduce_tree(v, smem, gs::min<long long>());
}
GS_DEVICE long long gs_block_reduce_tree_max_i64(long long v, long long *smem)
{
    return gs::block_reduce_tree(v, smem, gs::max<long long>());
}

#endif /* GRIDSYNC_REDUCE_CUH */
