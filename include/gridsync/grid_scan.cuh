/*
 * gridsync/grid_scan.cuh - grid scan of one value a block: every thread of
 * block b gets the exclusive prefix over blocks 0 .. b-1 (where its output
 * starts) and the grid's total, in one grid barrier.
 *
 *   #include <gridsync/grid_scan.cuh>
 *   #include <gridsync/scan.cuh>
 *
 *   __global__ void compact(gs_grid_barrier bar, ...)   // a persistent kernel
 *   {
 *       __shared__ unsigned int smem[32];
 *       unsigned int kept, all;   // kept: the block's count, in every thread
 *       unsigned int slot = gs::block_exclusive_scan(keep ? 1u : 0u, smem,
 *                                                    gs::sum<unsigned int>(), &kept);
 *       unsigned int base = gs_grid_exclusive_sum_u32(&bar, kept, &all);
 *       if (keep)
 *           out[written + base + slot] = x;
 *       written += all;
 *       ...
 *   }
 *
 * Names: gs_grid_exclusive_<op>_<type>(&view, block_value, &total), op sum,
 * min, max, type f32, f64, i32, u32, i64, u64 (integer sums wrap); total
 * may be NULL. gs::grid_exclusive_scan(&view, block_value, op, &total) for
 * any operator of gridsync/reduce.cuh's kind on values of at most 8 bytes.
 *
 * Contract: every thread of every block calls it, the same number of
 * times; the block's value is thread 0's block_value (the other threads'
 * are not read: pass the block's count from every thread, or anything).
 * Block 0 gets the operator's identity (0 for a sum). It counts as one
 * barrier of the view (a complete grid barrier: writes before it are
 * visible to every block after it), with the grid barrier's reuse and
 * watchdog, and shares the grid all-reduce's slots (any mix of the two is
 * fine). It meets on the flip counter whatever method the view carries.
 * Deterministic: for a given grid and block shape the results have the
 * same bits on every run; the total has the same bits in every block.
 * How, why correct, what it costs and when: gs::grid_exclusive_scan in
 * gridsync/detail/scoped/grid_scan.cuh.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_GRID_SCAN_CUH
#define GRIDSYNC_GRID_SCAN_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/scoped/grid_scan.cuh>

/* gs_grid_exclusive_{sum,min,max}_<suffix> on element type T. */
#define GS__GRID_SCAN_NAMES(suffix, T)                                                         \
    GS_DEVICE T gs_grid_exclusive_sum_##suffix(gs_grid_barrier *b, T block_value, T *total)    \
    {                                                                                          \
        return gs::grid_exclusive_scan(b, block_value, gs::sum<T>(), total);                   \
    }                                                                                          \
    GS_DEVICE T gs_grid_exclusive_min_##suffix(gs_grid_barrier *b, T block_value, T *total)    \
    {                                                                                          \
        return gs::grid_exclusive_scan(b, block_value, gs::min<T>(), total);                   \
    }                                                                                          \
    GS_DEVICE T gs_grid_exclusive_max_##suffix(gs_grid_barrier *b, T block_value, T *total)    \
    {                                                                                          \
        return gs::grid_exclusive_scan(b, block_value, gs::max<T>(), total);                   \
    }

GS__GRID_SCAN_NAMES(f32, float)
GS__GRID_SCAN_NAMES(f64, double)
GS__GRID_SCAN_NAMES(i32, int)
GS__GRID_SCAN_NAMES(u32, unsigned int)
GS__GRID_SCAN_NAMES(i64, long long)
GS__GRID_SCAN_NAMES(u64, unsigned long long)

#undef GS__GRID_SCAN_NAMES

#endif /* GRIDSYNC_GRID_SCAN_CUH */
