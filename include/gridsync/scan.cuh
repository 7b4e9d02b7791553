/*
 * gridsync/scan.cuh - warp and block prefix scans for users' own kernels.
 *
 * Generic forms (namespace gs), over a value type and an operator functor
 * (gs::sum<T>, gs::min<T>, gs::max<T>, gs::argmin<T>, gs::argmax<T>, or a
 * user's own of that shape: gridsync/detail/reduce_ops.cuh):
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
 * sum, min or max, type f32 (float), f64 (double), i32 (int), i64 (long
 * long): gs_block_inclusive_sum_f32(v, smem), gs_warp_exclusive_max_i64(v,
 * lanes), ...
 *
 * Results: the operation order is fixed (a Kogge-Stone warp scan, then the
 * warps left to right), so floating results repeat bitwise; earlier
 * elements are always the left operand. Integer sums wrap; min and max
 * propagate NaN (gridsync/reduce.cuh).
 *
 * How and why each is correct: gridsync/detail/warp_scan.cuh and
 * gridsync/detail/block_scan.cuh. The device-wide scan over a whole array
 * in one launch is the host call gs_scan (gridsync.h).
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_SCAN_CUH
#define GRIDSYNC_SCAN_CUH

#include <gridsync/detail/block_scan.cuh>
#include <gridsync/detail/memory_order.cuh>
#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/warp_scan.cuh>

/* The twelve C-style scans of one element type (sum, min, max x warp,
 * block x inclusive, exclusive), each one line over the generic form. */
#define GS__SCAN_NAMES(suffix, T)                                                              \
    GS_DEVICE T gs_warp_inclusive_sum_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_inclusive_scan(v, lanes, gs::sum<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_warp_inclusive_min_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_inclusive_scan(v, lanes, gs::min<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_warp_inclusive_max_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_inclusive_scan(v, lanes, gs::max<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_warp_exclusive_sum_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_exclusive_scan(v, lanes, gs::sum<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_warp_exclusive_min_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_exclusive_scan(v, lanes, gs::min<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_warp_exclusive_max_##suffix(T v, unsigned int lanes)                        \
    {                                                                                          \
        return gs::warp_exclusive_scan(v, lanes, gs::max<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_inclusive_sum_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_inclusive_scan(v, smem, gs::sum<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_inclusive_min_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_inclusive_scan(v, smem, gs::min<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_inclusive_max_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_inclusive_scan(v, smem, gs::max<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_exclusive_sum_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_exclusive_scan(v, smem, gs::sum<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_exclusive_min_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_exclusive_scan(v, smem, gs::min<T>());                                \
    }                                                                                          \
    GS_DEVICE T gs_block_exclusive_max_##suffix(T v, T *smem)                                  \
    {                                                                                          \
        return gs::block_exclusive_scan(v, smem, gs::max<T>());                                \
    }

GS__SCAN_NAMES(f32, float)
GS__SCAN_NAMES(f64, double)
GS__SCAN_NAMES(i32, int)
GS__SCAN_NAMES(i64, long long)

#undef GS__SCAN_NAMES

#endif /* GRIDSYNC_SCAN_CUH */
