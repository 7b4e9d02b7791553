/*
 * gridsync/scan.cuh - warp and block prefix scans for users' own kernels.
 *
 * Generic forms (namespace gs), over a value type and an operator functor
 * (gs::sum<T>, gs::min<T>, gs::max<T>, gs::argmin<T>, gs::argmax<T>, or a
 * user's own of that shape: gridsync/detail/reduce/reduce_ops.cuh):
 *
 *   gs::warp_inclusive_scan(v, lanes, op)   the first `lanes` lanes of the
 *   gs::warp_exclusive_scan(v, lanes, op)   calling warp (all of them must
 *                                           call); lane l gets
 *                                           op(v_0, ..., v_l), or
 *                                           op(v_0, ..., v_{l-1}) with the
 *                                           identity in lane 0.
 *   gs::block_inclusive_scan(v, smem, op)   every thread of the block, in
 *   gs::block_exclusive_scan(v, smem, op)   linear thread-rank order; `smem`
 *                                           holds 32 values; any block size
 *                                           up to 1024. All threads call.
 *   gs::block_exclusive_scan(v, smem, op, &total)
 *                                           also the whole block's
 *                                           combination, in every thread.
 *
 *   __shared__ int smem[32];
 *   int kept;                                // a stream compaction's slot
 *   int slot = gs::block_exclusive_scan(keep ? 1 : 0, smem, gs::sum<int>(), &kept);
 *
 * C-style names for the same, gs_<scope>_<kind>_<op>_<type>: scope warp
 * (arguments v, lanes) or block (v, smem), kind inclusive or exclusive, op
 * sum, min or max, type f32 (float), f64 (double), i32 (int), u32 (unsigned
 * int), i64 (long long), u64 (unsigned long long), f16 (__half), bf16
 * (__nv_bfloat16): gs_block_inclusive_sum_f32(v, smem), gs_warp_exclusive_max_i64(v,
 * lanes), ... The 16-bit floats' sums take the element and return the
 * float prefix they add up in (their `smem` holds floats; round it with
 * __float2half_rn where a 16-bit prefix is wanted: gs_scan does so); their
 * min and max take and return the 16-bit type, exactly. The generic forms
 * combine the operator's accumulator (gridsync/reduce.cuh says which).
 *
 * Results: the operation order is fixed (a Kogge-Stone warp scan, then the
 * warps left to right), so floating results repeat bitwise; earlier
 * elements are always the left operand. Integer sums wrap; min and max
 * propagate NaN (gridsync/reduce.cuh).
 *
 * How and why each is correct: gridsync/detail/scan/warp_scan.cuh and
 * gridsync/detail/scan/block_scan.cuh. The device-wide scan over a whole array
 * in one launch is the host call gs_scan (gridsync.h).
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below
 * (cuda_fp16.h and cuda_bf16.h only where found: element_types.cuh).
 */
#ifndef GRIDSYNC_SCAN_CUH
#define GRIDSYNC_SCAN_CUH

#include <gridsync/detail/scan/block_scan.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/warp_scan.cuh>

/* The C-style scans of one operator on element type T (suffix): warp and
 * block, inclusive and exclusive, each one line over the generic form on
 * the operator's accumulator A (the element; a float for a 16-bit float's
 * sum, which takes the element and returns, and keeps in smem, floats). */
#define GS__SCAN_OP_NAMES(op, suffix, T, A)                                                    \
    GS_DEVICE A gs_warp_inclusive_##op##_##suffix(T v, unsigned int lanes)                     \
    {                                                                                          \
        return gs::warp_inclusive_scan(gs::op<T>::lift(v, 0), lanes, gs::op<T>());             \
    }                                                                                          \
    GS_DEVICE A gs_warp_exclusive_##op##_##suffix(T v, unsigned int lanes)                     \
    {                                                                                          \
        return gs::warp_exclusive_scan(gs::op<T>::lift(v, 0), lanes, gs::op<T>());             \
    }                                                                                          \
    GS_DEVICE A gs_block_inclusive_##op##_##suffix(T v, A *smem)                               \
    {                                                                                          \
        return gs::block_inclusive_scan(gs::op<T>::lift(v, 0), smem, gs::op<T>());             \
    }                                                                                          \
    GS_DEVICE A gs_block_exclusive_##op##_##suffix(T v, A *smem)                               \
    {                                                                                          \
        return gs::block_exclusive_scan(gs::op<T>::lift(v, 0), smem, gs::op<T>());             \
    }

/* The twelve of one element type (sum, min, max x warp, block x inclusive,
 * exclusive); A: what its sum adds up in. */
#define GS__SCAN_NAMES(suffix, T, A)                                                           \
    GS__SCAN_OP_NAMES(sum, suffix, T, A)                                                       \
    GS__SCAN_OP_NAMES(min, suffix, T, T)                                                       \
    GS__SCAN_OP_NAMES(max, suffix, T, T)

GS__ELEMENT_TYPES(GS__SCAN_NAMES)

#undef GS__SCAN_NAMES
#undef GS__SCAN_OP_NAMES

#endif /* GRIDSYNC_SCAN_CUH */
