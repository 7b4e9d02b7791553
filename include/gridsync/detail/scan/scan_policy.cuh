/*
 * gridsync/detail/scan/scan_policy.cuh - what the single-pass scan
 * (single_pass_scan.cuh) is tuned and called with: its three tilings by
 * length, the policy of an element type and tiling (tuning.h), the tiling
 * and tile size of n elements, and the kernels' argument struct, which the
 * host fills (src/scan/scan.cu).
 */
#ifndef GRIDSYNC_DETAIL_SCAN_POLICY_CUH
#define GRIDSYNC_DETAIL_SCAN_POLICY_CUH

#include <gridsync/detail/core/tuning.h>
#include <gridsync/detail/core/value_traits.cuh>

namespace gs {
namespace detail {

/* The scan's three tilings (tuning.h), chosen by the length in bytes. */
enum scan_tiling_kind {
    scan_short = 0,     /* up to GS_TUNE_SCAN_SHORT_TO_BYTES: 16 KiB tiles, 4 blocks a SM */
    scan_latency = 1,   /* up to GS_TUNE_SCAN_LARGE_FROM_BYTES: 32 KiB tiles */
    scan_bandwidth = 2, /* past it: 56 KiB tiles */
    scan_tilings = 3
};

/* The bytes an element of T counts as where the tilings are chosen and
 * sized: its own, except 4 for the 16-bit floats. Their tiles hold as many
 * elements as 4-byte types' (a thread keeps as many values in registers:
 * a sum's are floats), read as half as many 16-byte vectors of 8. */
template <class T>
__host__ __device__ constexpr long long scan_element_bytes()
{
    return sizeof(T) == 2 ? 4 : (long long)sizeof(T);
}

/* The scan's tuning (tuning.h) for elements of type T and one tiling. */
template <class T, int Tiling = scan_latency>
struct scan_policy {
    static_assert(Tiling == scan_short || Tiling == scan_latency || Tiling == scan_bandwidth,
                  "a scan tiling: scan_short, scan_latency or scan_bandwidth");
    static constexpr int threads = Tiling == scan_short     ? GS_TUNE_SCAN_SHORT_THREADS
                                   : Tiling == scan_latency ? GS_TUNE_SCAN_THREADS
                                                            : GS_TUNE_SCAN_LARGE_THREADS;
    static constexpr int min_blocks = /* per SM */
        Tiling == scan_short     ? GS_TUNE_SCAN_SHORT_MIN_BLOCKS
        : Tiling == scan_latency ? GS_TUNE_SCAN_MIN_BLOCKS
                                 : GS_TUNE_SCAN_LARGE_MIN_BLOCKS;
    static constexpr int width = (int)(16 / sizeof(T)); /* elements per 16-byte vector */
    static constexpr int vectors = (Tiling == scan_short     ? GS_TUNE_SCAN_SHORT_VECTORS
                                    : Tiling == scan_latency ? GS_TUNE_SCAN_VECTORS
                                                             : GS_TUNE_SCAN_LARGE_VECTORS) /
                                   (width == 8 ? 2 : 1); /* 16-bit: vectors of 8 */
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    /* the bandwidth tiling's kernel with its tiles in shared memory and a
     * look-back warp (resident_scan.cuh): whether this tiling and type have
     * one (4-byte types; measured for those only), and the blocks per SM it
     * is compiled for */
    static constexpr bool resident = Tiling == scan_bandwidth && sizeof(T) == 4;
    static constexpr int resident_min_blocks = GS_TUNE_SCAN_LARGE_RESIDENT_MIN_BLOCKS;
    static constexpr int lookback = GS_TUNE_SCAN_LOOKBACK_PER_LANE;
    static constexpr int poll_sleep_ns = GS_TUNE_SCAN_POLL_SLEEP_NS;
    static_assert(threads % 32 == 0 && threads >= 32 && threads <= 1024,
                  "scan threads: a multiple of 32, at most 1024");
    static_assert(vectors >= 1 && vectors <= 8, "scan vectors per thread: 1 to 8");
    static_assert(lookback == 1 || lookback == 2 || lookback == 4, "look-back per lane: 1, 2 or 4");
    /* gridsync.h's error bound for floating sums counts tiles of >= 1024
     * elements and an in-tile depth of at most 32 operations */
    static_assert(tile_items >= 1024, "a tile holds at least 1024 elements");
    static_assert(threads / 32 + vectors + (width - 1) + 5 <= 32,
                  "a tile's operation depth stays within 32");
};

/* The tiling of n elements of T. A function of n and the type alone, never
 * of the GPU: the tile layout, and with it the rounding of a floating sum,
 * must not depend on where the scan runs. */
template <class T>
__host__ __device__ constexpr int scan_tiling_of(long long n)
{
    return n > GS_TUNE_SCAN_LARGE_FROM_BYTES / scan_element_bytes<T>()   ? scan_bandwidth
           : n > GS_TUNE_SCAN_SHORT_TO_BYTES / scan_element_bytes<T>() ? scan_latency
                                                                        : scan_short;
}

/* Elements per tile for n elements of T. */
template <class T>
__host__ __device__ constexpr long long scan_tile_items(long long n)
{
    return scan_tiling_of<T>(n) == scan_bandwidth ? scan_policy<T, scan_bandwidth>::tile_items
           : scan_tiling_of<T>(n) == scan_latency ? scan_policy<T, scan_latency>::tile_items
                                                  : scan_policy<T, scan_short>::tile_items;
}

/* The kernel's arguments (one struct, the same for every element type:
 * the host fills it, src/scan/scan.cu). */
struct scan_args {
    const void *in; /* elements of the kernel's type */
    void *out;
    long long n;
    unsigned long long *descriptors; /* 2 x 8 x sizeof(T) / 4 bytes per tile */
    unsigned int *counters;  /* [0] ticket, 0 between calls; [1] the reductions' done marker;
                                [2] blocks finished (never reset); [3] abort: a call's number */
    unsigned int *fault;     /* host-mapped fault record, or NULL */
    unsigned long long timeout_ns;
    unsigned int seq;        /* the call's number: the descriptors' tag, never 0 */
    unsigned int tiles;      /* ceil(n / tile_items) */
    int exclusive;
    int prefetch_input;      /* 1: `in` is memory of the GPU the kernel runs on, so its blocks
                                prefetch their first tiles into L2 before the launch wait
                                (scan_prefetch_first_tile); 0 (managed or peer memory): they
                                do not */
};

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SCAN_POLICY_CUH */
