/*
 * scan_kernels.cuh - which kernel of the scan agent serves each row of
 * gs_scan's registry (src/scan/scan.cu: per operator, row and element
 * type), and which translation unit instantiates it (internal).
 *
 * Rows: the three tilings (scan_tiling_kind), the bandwidth tiling's
 * resident kernel, the short and latency tilings' one-tile kernels.
 *
 * Two translation units, compiled in parallel: scan.cu instantiates the
 * kernels of f32, f64, i32 and i64 (66: the resident kernel only for the
 * 4-byte types), scan_kernels_added.cu those of u32, u64, f16 and bf16
 * (63). One unit with all 129 took 37 s of nvcc for sm_90, each half about
 * 19 s (2 shared cores, 2026-11-28). Every row of a type comes from one
 * unit, so a resident kernel sits beside the register kernel it stands in
 * for (their shapes' early_launch agree: scan.cu).
 */
#ifndef GS_SCAN_SCAN_KERNELS_CUH
#define GS_SCAN_SCAN_KERNELS_CUH

#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/resident_scan.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>
#include <gridsync/detail/scan/single_tile_scan.cuh>

namespace gs__scan {

/* The rows of one operator's kernels: one per tiling, then the bandwidth
 * tiling's resident kernel, then the one-tile kernels of the short and
 * latency tilings (one_tile_row + the tiling). */
enum {
    resident_row = gs::detail::scan_tilings,
    one_tile_row,
    kernel_rows = one_tile_row + gs::detail::scan_bandwidth
};

/* Row: a tiling, resident_row (the bandwidth tiling's resident kernel) or
 * one_tile_row + a tiling (its one-tile kernel). */
template <class Op, int Row>
const void *kernel_of()
{
    typedef typename Op::value_type T;
    typedef gs::detail::scan_policy<T, gs::detail::scan_bandwidth> bandwidth;
    if constexpr (Row == resident_row && bandwidth::resident)
        return (const void *)gs::detail::single_pass_scan_resident_kernel<bandwidth, Op>;
    else if constexpr (Row == resident_row)
        return nullptr; /* none for this type: the register kernel runs */
    else if constexpr (Row >= one_tile_row)
        return (const void *)gs::detail::single_tile_scan_kernel<
            gs::detail::scan_policy<T, Row - one_tile_row>, Op>;
    else
        return (const void *)gs::detail::single_pass_scan_kernel<gs::detail::scan_policy<T, Row>,
                                                                 Op>;
}

} // namespace gs__scan

/* Every row of Op: explicit instantiations of kernel_of, declared where
 * `prefix` is extern (another unit defines them), defined where it is
 * empty. */
#define GS__SCAN_ROWS(prefix, Op)                                                              \
    prefix template const void *gs__scan::kernel_of<Op, 0>();                                  \
    prefix template const void *gs__scan::kernel_of<Op, 1>();                                  \
    prefix template const void *gs__scan::kernel_of<Op, 2>();                                  \
    prefix template const void *gs__scan::kernel_of<Op, 3>();                                  \
    prefix template const void *gs__scan::kernel_of<Op, 4>();                                  \
    prefix template const void *gs__scan::kernel_of<Op, 5>();
#define GS__SCAN_KERNELS_OF(prefix, T)                                                         \
    GS__SCAN_ROWS(prefix, gs::sum<T>)                                                          \
    GS__SCAN_ROWS(prefix, gs::min<T>)                                                          \
    GS__SCAN_ROWS(prefix, gs::max<T>)

/* The element types scan_kernels_added.cu instantiates: X(prefix, T). */
#define GS__SCAN_ADDED_TYPES(X, prefix)                                                        \
    X(prefix, unsigned int)                                                                    \
    X(prefix, unsigned long long)                                                              \
    X(prefix, __half)                                                                          \
    X(prefix, __nv_bfloat16)

static_assert(gs__scan::kernel_rows == 6, "GS__SCAN_ROWS names every row");

#endif /* GS_SCAN_SCAN_KERNELS_CUH */
