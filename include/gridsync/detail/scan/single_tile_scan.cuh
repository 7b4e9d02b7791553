/*
 * gridsync/detail/scan/single_tile_scan.cuh - the single-pass scan for grids of
 * one block per tile: the short arrays, where a call is latency (a launch, a
 * ticket, a load, one look-back, a store) rather than bandwidth. Behind
 * gs_scan for the short and latency tilings whenever the grid has one block
 * per tile (src/scan/scan.cu); the tile loop of single_pass_scan.cuh serves
 * every other grid.
 *
 * How: the tile of single_pass_scan_kernel, once: prefetch the tile of the
 * block's index into L2 before the programmatic-launch wait (with one block
 * per tile, the whole input: at 2^19 floats 0.55-0.7 us of a 5.2 us call
 * in `gridsync bench scan`, whose calls follow one another back to back on
 * data not in L2), draw a ticket, load the
 * tile, scan it in registers, fold the warps' totals (barrier A), publish
 * the aggregate, look back, publish the inclusive prefix (barrier B),
 * store. The same tiles, the same operations on the same operands in the
 * same order, so the same bits as the tile loop (gpu_scan_kernels checks it).
 * Three things differ, each measured on H200 at 2^19 floats (64 tiles of
 * 32 KiB; research/notes/scan.md, "One tile a block"):
 *   - the block counts itself out right after barrier B, before its
 *     stores, instead of after them (0.3-0.4 us a call: a release after the
 *     stores waits for all of them to be acknowledged before its add even
 *     leaves the SM, and the kernel cannot end before the add lands);
 *   - no tile loop and no give-up state carried between tiles (about
 *     0.15 us: the loop keeps the ticket draw and the state's registers
 *     live across the tile);
 *   - the look-back folds its first window through shared memory
 *     (scan_fold_from_shared; 0.2-0.3 us).
 *
 * Why correct: the tile's argument is single_pass_scan_kernel's (barriers A
 * and B, in place, the descriptors' in scan_tile_state.cuh); each block
 * draws one ticket, every draw names a tile, and the block that draws the
 * last one (tiles - 1) resets the counter for the next call. The count-out
 * (counters[2]) says that the block no longer touches the workspace; its
 * last accesses all come before barrier B: the ticket draw and reset and
 * the two publications (thread 0's own, before its release in program
 * order), the look-back's reads (warp 0's, consumed before barrier B, so
 * ordered before the release by the barrier and its cumulativity), and on
 * a give-up the abort word (lane 0 of warp 0: thread 0). The stores that
 * follow go to the user's output, which the workspace's count does not
 * cover (the stream orders it). Forward progress: tickets, as in the tile
 * loop (a tile waits only on tiles drawn earlier by running blocks); no
 * block need be co-resident with another.
 *
 * Bounded: the look-back gives up at the time-out (scan_tile_state.cuh);
 * the tile is then left unwritten, the block still counts itself out, and
 * gs_scan_check reports the fault.
 *
 * When: grids of one block per tile (at most one wave of the kernel:
 * short arrays). The tile loop draws a ticket per tile and so needs no
 * particular grid.
 */
#ifndef GRIDSYNC_DETAIL_SINGLE_TILE_SCAN_CUH
#define GRIDSYNC_DETAIL_SINGLE_TILE_SCAN_CUH

#include <gridsync/detail/scan/single_pass_scan.cuh>

namespace gs {
namespace detail {

/* Launched on exactly a.tiles blocks. */
template <class Policy, class Op>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    single_tile_scan_kernel(const scan_args a)
{
    typedef typename Op::value_type T;  /* the elements */
    typedef typename Op::accumulator A; /* what is combined */
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ A s_warp[nwarps];
    __shared__ A s_fold[32 * Policy::lookback]; /* warp 0's look-back */
    __shared__ A s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ int s_gave_up;
    scan_prefetch_first_tile<Policy, T>(a); /* all tiles: one block per tile */
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const scan_tile_state<A> state = {a.descriptors, a.seq};
    if (tid == 0u) {
        /* one block: no ticket */
        s_tile = gridDim.x == 1u ? 0u : gs__atom_add_relaxed_gpu(a.counters, 1u);
        if (gridDim.x > 1u && s_tile == a.tiles - 1u)
            gs__st_relaxed_gpu(a.counters, 0u);
        s_gave_up = 0;
    }
    __syncthreads();
    const unsigned int tile = s_tile;
    /* a ticket past the tiles (never, launched as gs_scan does): count out */
    if (tile < a.tiles) {
        const long long base =
            (long long)tile * Policy::tile_items + (long long)warp * Policy::warp_items;
        const bool full = scan_full_tile<Policy>(a, tile);
        scan_items<Policy, A> it;
        /* steps 1 to 3 as the tile loop writes them out (the same code as a
         * shared function moves the tile loop's schedule: cuobjdump) */
        scan_load<Policy, Op>(it, in, base, a.n, full, ((unsigned long long)in & 15ull) == 0ull);
        {
            A before[Policy::vectors];
            const A warp_total = scan_warp_run<Policy>(it, before, op);
            if ((tid & 31u) == 0u)
                s_warp[warp] = warp_total;
            scan_run_prefixes(it, before, a.exclusive != 0, op);
        }
        __syncthreads(); /* (A) the warps' totals */
        A warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u) {
            A prefix;
            const int gave_up =
                scan_tile_look_back<Policy>(state, a, tile, s_warp, op, prefix, s_fold);
            if (tid == 0u) {
                s_prefix = prefix;
                s_gave_up = gave_up;
            }
        }
        __syncthreads(); /* (B) the tile's prefix; the workspace's last use */
        if (tid == 0u)
            gs__red_add_release_gpu(a.counters + 2, 1u);
        if (s_gave_up == 0)
            scan_tile_store<Policy>(it, s_prefix, warp_prefix, warp, out, base, a.n, full,
                                    ((unsigned long long)out & 15ull) == 0ull, op);
    } else if (tid == 0u) {
        gs__red_add_release_gpu(a.counters + 2, 1u);
    }
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SINGLE_TILE_SCAN_CUH */
