/*
 * gridsync/detail/scan/single_pass_scan.cuh - the single-pass prefix scan: one
 * kernel template behind gs_scan (inclusive and exclusive; sum, min, max of
 * f32, f64, i32, i64, u32, u64, f16, bf16), parameterized by a tuning
 * policy and an operator (gridsync/detail/reduce/reduce_ops.cuh), which says what
 * is read and written (Op::value_type) and what is combined
 * (Op::accumulator: a 16-bit float's sum adds in float, each output rounded
 * back by Op::to_value). Decoupled look-back (Merrill and
 * Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
 * 2016) on tile descriptors that need no clearing between calls, tiles
 * taken from a ticket, and a look-back whose result is the same bits
 * whatever it saw (gridsync/detail/scan/scan_tile_state.cuh); docs/scan.md
 * has the design, and will have the measurements.
 *
 * How: a grid of at most one wave of persistent blocks. A tile is
 * policy::tile_items consecutive elements (16 KiB for lengths up to
 * 512 KiB, 32 KiB up to 8 MiB, 56 KiB past it: tuning.h); tile t
 * covers [t T, t T + T), whoever processes it. A block takes tiles from the ticket (an atomic counter in
 * the workspace) until they run out, drawing its next ticket only after
 * storing its tile (below: why not earlier); a grid of one block per tile
 * draws one ticket per block and no more. Before anything else (before the
 * programmatic-launch wait, while the previous kernel on the stream may
 * still run) each block prefetches the tile of its own index into L2
 * (scan_prefetch_first_tile): the first wave's input is on its way from
 * DRAM before the call may touch it. For each tile:
 *   1. load: warp w owns 32 x items consecutive elements; each lane loads
 *      one 16-byte vector per step (the warp reads 512 contiguous bytes per
 *      instruction), `vectors` steps, streaming (ld.global.cs); misaligned
 *      pointers and the last, partial tile load element by element;
 *   2. scan in registers: within each vector (3 or 1 operations), then
 *      each step's vector totals across the warp (Kogge-Stone,
 *      gs::warp_inclusive_scan), then the steps left to right: each lane
 *      ends with the prefix of everything before its vector in the warp's
 *      run, and each element becomes its prefix within the run (so that
 *      only the elements live through the look-back);
 *   3. the warps' totals through shared memory, folded left to right: the
 *      tile's aggregate and each warp's prefix;
 *   4. thread 0 publishes the aggregate (tile 0 its inclusive prefix at
 *      once), warp 0 looks back for the tile's exclusive prefix P, thread 0
 *      publishes P (+) aggregate;
 *   5. every element: (P (+) the warp's prefix) (+) its prefix within the
 *      run, stored as it was loaded (16-byte vectors when aligned).
 * Exclusive scans shift by one element within each vector: element 0 of
 * the array gets the identity.
 *
 * Why correct: the descriptors' and the look-back's argument is in
 * scan_tile_state.cuh. Within a block, three barriers per tile: (A)
 * orders the warps' totals before anyone folds them, (B) orders thread 0's
 * P before the block reads it, (C) orders thread 0's next ticket; the next
 * tile's writes to shared memory come after all three. Each warp folds the
 * totals of the warps before it before (B): a first draft that folded after
 * a last barrier let another warp store the next tile's total over it
 * (the host emulation catches that race). In place (in == out) is safe:
 * every element is read only by its own tile, into registers, before that
 * tile stores anything. A block's last act is a release add to the count
 * of finished blocks (counters[2], never reset): the host reads it to know
 * that the call no longer touches the workspace before handing it to
 * another stream; the release orders the block's descriptor stores before
 * it. The block that draws the very last ticket (tiles + blocks - 1 draws
 * in all, one that fails per block; tiles draws when the grid has one
 * block per tile, none of which fails) resets the ticket to zero for the
 * next call (an atomic's coherence order puts the reset after every draw).
 *
 * Deterministic: the tiles, each tile's operation order and the prefixes'
 * left fold are fixed by n alone (not by the grid, the device, the
 * alignment or the timing): results repeat bitwise.
 *
 * Bounded: a look-back that waits longer than the time-out gives up; its
 * tile and every later one leave their outputs unwritten, every block still
 * draws its tickets (so the counter still resets) and the host reports the
 * time-out (gs_scan_check).
 *
 * When: every length; one launch per call where CUB launches two (one to
 * clear its descriptors).
 *
 * Why the next ticket is drawn after the stores (measured on H200,
 * docs/scan.md): a ticket drawn as the previous tile starts is a tile
 * whose load begins only when that previous tile's look-back and stores are
 * done; every later tile's look-back waits for its aggregate meanwhile, so
 * the tiles being loaded at any moment are half the blocks' (0.45x CUB at
 * 2^28 floats). Drawn after the stores, every ticket out is a tile being
 * loaded (1.0x CUB and more, for one atomic round trip per tile).
 */
#ifndef GRIDSYNC_DETAIL_SINGLE_PASS_SCAN_CUH
#define GRIDSYNC_DETAIL_SINGLE_PASS_SCAN_CUH

#include <gridsync/detail/scan/scan_policy.cuh>
#include <gridsync/detail/scan/scan_tile_state.cuh>
#include <gridsync/detail/reduce/single_pass.cuh>
#include <gridsync/detail/reduce/single_pass_input.cuh>
#include <gridsync/detail/scan/warp_scan.cuh>

/* Fault injection, for tests only: a test that launches the scan kernels
 * itself may define GS_SCAN_TEST_DELAY(args, tile, point) before including
 * this header, to hold a tile's publisher back just before it publishes
 * the tile's aggregate (point 0) or inclusive prefix (point 1), so that
 * the waits on it (look-backs, the resident kernel's aggregate wait) run
 * past their time-outs at every point of the tile loop (tests/gpu/
 * test_scan.cu). Elsewhere it is nothing. The kernels and the functions
 * they call have internal linkage, so a test's instances never meet the
 * library's. */
#ifndef GS_SCAN_TEST_DELAY
#define GS_SCAN_TEST_DELAY(args, tile, point) ((void)0)
#endif

namespace gs {
namespace detail {

/* Left fold of the first `count` values of smem. */
template <class T, class Op>
GS_DEVICE T scan_fold_shared(const T *smem, unsigned int count, Op op)
{
    T x = smem[0];
    for (unsigned int j = 1u; j < count; ++j)
        x = op(x, smem[j]);
    return x;
}

/* One tile's elements in registers, as accumulators A (Op::lift: the
 * elements themselves, or a 16-bit float's sum's floats): x[v][c] is
 * element warp_base + v * 32 * width + lane * width + c of the tile. */
template <class Policy, class A>
struct scan_items {
    A x[Policy::vectors][Policy::width];
};

/* f(v, c, i) for each of the calling thread's elements x[v][c], i its
 * index in the array (the warp's run starts at `base`). */
template <class Policy, class F>
GS_DEVICE void scan_each(long long base, F f)
{
    const long long lane = threadIdx.x & 31u;
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v)
#pragma unroll
        for (int c = 0; c < Policy::width; ++c)
            f(v, c, base + v * 32 * Policy::width + lane * Policy::width + c);
}

/* The 16-byte vector of step v of the calling lane (p: the warp's run). */
template <class Policy, class T>
GS_DEVICE typename vector16<T>::type *scan_vector(T *p, int v)
{
    typedef typename vector16<T>::type vector;
    return (vector *)(p + v * 32 * Policy::width) + (threadIdx.x & 31u);
}

/* The W elements of one loaded vector q as accumulators (Op::lift; `at`:
 * the index of its first element). */
template <class Op, class T, int W, class V, class A>
GS_DEVICE void scan_unpack(const V &q, A (&x)[W], long long at)
{
    x[0] = Op::lift(element<0, T>(q), at);
    x[1] = Op::lift(element<1, T>(q), at + 1);
    if constexpr (W >= 4) {
        x[2] = Op::lift(element<2, T>(q), at + 2);
        x[3] = Op::lift(element<3, T>(q), at + 3);
    }
    if constexpr (W == 8) {
        x[4] = Op::lift(element<4, T>(q), at + 4);
        x[5] = Op::lift(element<5, T>(q), at + 5);
        x[6] = Op::lift(element<6, T>(q), at + 6);
        x[7] = Op::lift(element<7, T>(q), at + 7);
    }
}

/* Load the calling thread's elements of the warp's run starting at `base`;
 * `full`: all of them exist, else those at or past n get the identity. */
template <class Policy, class Op, class T, class A>
GS_DEVICE void scan_load(scan_items<Policy, A> &it, const T *in, long long base, long long n,
                         bool full, bool aligned)
{
    if (full && aligned) {
        const long long lane_at = base + (long long)(threadIdx.x & 31u) * Policy::width;
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v) {
            typename vector16<T>::type q = __ldcs(scan_vector<Policy>((T *)in + base, v));
            scan_unpack<Op, T>(q, it.x[v], lane_at + v * 32 * Policy::width);
        }
        return;
    }
    scan_each<Policy>(base, [&](int v, int c, long long i) {
        it.x[v][c] = full || i < n ? Op::lift(__ldcs(in + i), i) : Op::identity();
    });
}

/* Store y[v][c] where loaded from, as elements (Op::to_value). */
template <class Policy, class Op, class T, class A>
GS_DEVICE void scan_store(const scan_items<Policy, A> &y, T *out, long long base, long long n,
                          bool full, bool aligned)
{
    if (full && aligned) {
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v) {
            const A(&x)[Policy::width] = y.x[v];
            if constexpr (Policy::width == 4) {
                *scan_vector<Policy>(out + base, v) = {Op::to_value(x[0]), Op::to_value(x[1]),
                                                       Op::to_value(x[2]), Op::to_value(x[3])};
            } else if constexpr (Policy::width == 2) {
                *scan_vector<Policy>(out + base, v) = {Op::to_value(x[0]), Op::to_value(x[1])};
            } else {
#if GS_HAS_16BIT_FLOATS
                *scan_vector<Policy>(out + base, v) = {
                    pair16(Op::to_value(x[0]), Op::to_value(x[1])),
                    pair16(Op::to_value(x[2]), Op::to_value(x[3])),
                    pair16(Op::to_value(x[4]), Op::to_value(x[5])),
                    pair16(Op::to_value(x[6]), Op::to_value(x[7]))};
#endif
            }
        }
        return;
    }
    scan_each<Policy>(base, [&](int v, int c, long long i) {
        if (full || i < n)
            out[i] = Op::to_value(y.x[v][c]);
    });
}

/* One vector scanned within itself, in place: x[c] becomes the prefix of
 * its elements 0 .. c. */
template <int W, class Op, class T>
GS_DEVICE void scan_vector_within(T (&x)[W], Op op)
{
#pragma unroll
    for (int c = 1; c < W; ++c)
        x[c] = op(x[c - 1], x[c]);
}

/* Each of the calling thread's vectors scanned within itself. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_within_vectors(scan_items<Policy, T> &it, Op op)
{
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v)
        scan_vector_within(it.x[v], op);
}

/* From lane_incl[v], the inclusive scan across the warp of each step's
 * vector totals: sets before[v], the prefix of everything in the warp's run
 * before this lane's vector v (the identity for lane 0 of step 0), and
 * returns the warp's total. */
template <int V, class Op, class T>
GS_DEVICE T scan_run_before(const T (&lane_incl)[V], T (&before)[V], Op op)
{
    const unsigned int lane = threadIdx.x & 31u;
    T carry = Op::identity();
#pragma unroll
    for (int v = 0; v < V; ++v) {
        T lane_before = value_traits<T>::shuffle_up(0xffffffffu, lane_incl[v], 1u);
        T step_total = value_traits<T>::shuffle(0xffffffffu, lane_incl[v], 31);
        if (v == 0) {
            before[0] = lane == 0u ? Op::identity() : lane_before;
            carry = step_total;
        } else {
            before[v] = lane == 0u ? carry : op(carry, lane_before);
            carry = op(carry, step_total);
        }
    }
    return carry;
}

/* Step 2 for the calling thread: scans within each vector in place
 * (scan_within_vectors), returns the warp's total and sets before[v]
 * (scan_run_before). */
template <class Policy, class Op, class T>
GS_DEVICE T scan_warp_run(scan_items<Policy, T> &it, T (&before)[Policy::vectors], Op op)
{
    T lane_incl[Policy::vectors];
    scan_within_vectors(it, op);
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v)
        lane_incl[v] = warp_inclusive_scan(it.x[v][Policy::width - 1], 32u, op);
    return scan_run_before(lane_incl, before, op);
}

/* One scanned vector's elements become their prefixes within the warp's
 * run, inclusive or exclusive (exclusive shifts by one element within the
 * vector: its element 0 gets `before`, the identity for lane 0 of step 0). */
template <int W, class Op, class T>
GS_DEVICE void scan_vector_run_prefix(T (&x)[W], T before, bool exclusive, Op op)
{
    if (exclusive) {
#pragma unroll
        for (int c = W - 1; c > 0; --c)
            x[c] = op(before, x[c - 1]);
        x[0] = before;
    } else {
#pragma unroll
        for (int c = 0; c < W; ++c)
            x[c] = op(before, x[c]);
    }
}

/* Each element becomes its prefix within the warp's run, after
 * scan_warp_run. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_run_prefixes(scan_items<Policy, T> &it, const T (&before)[Policy::vectors],
                                 bool exclusive, Op op)
{
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v)
        scan_vector_run_prefix(it.x[v], before[v], exclusive, op);
}

/* x = op(prefix, x) for each of the calling thread's elements. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_add_prefix(scan_items<Policy, T> &it, T prefix, Op op)
{
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v)
#pragma unroll
        for (int c = 0; c < Policy::width; ++c)
            it.x[v][c] = op(prefix, it.x[v][c]);
}

/* Step 5 for the calling thread: every element becomes (P (+) its warp's
 * prefix) (+) its prefix within the run, stored where it was loaded from. */
template <class Policy, class Op, class A, class T>
GS_DEVICE void scan_tile_store(scan_items<Policy, A> &it, A prefix, A warp_prefix,
                               unsigned int warp, T *out, long long base, long long n, bool full,
                               bool aligned, Op op)
{
    if (warp > 0u)
        prefix = op(prefix, warp_prefix);
    scan_add_prefix(it, prefix, op);
    scan_store<Policy, Op>(it, out, base, n, full, aligned);
}

/* Whether tile t has all Policy::tile_items elements below a.n (else its
 * last elements get the identity on load and are not stored). */
template <class Policy>
GS_DEVICE bool scan_full_tile(const scan_args &a, unsigned int t)
{
    return (long long)t * Policy::tile_items + Policy::tile_items <= a.n;
}

/* First in every scan kernel, before single_pass_begin: prefetch into L2
 * the tile of the block's index (single_pass_prefetch_l2: safe before the
 * programmatic-launch wait), where a.prefetch_input says the input is this
 * GPU's memory. Tickets are drawn in order and a grid never has more blocks
 * than tiles, so these are the first gridDim.x tiles whichever block draws
 * which: with one block per tile the whole input. In the tile loop a block
 * that starts early may draw a second ticket before a late block draws its
 * first, and the resident kernel's blocks draw two tickets at once; there
 * the prefetch covers the first gridDim.x tiles, not each block's own. */
template <class Policy, class T>
GS_DEVICE void scan_prefetch_first_tile(const scan_args &a)
{
    const long long first = (long long)blockIdx.x * Policy::tile_items;
    if (a.prefetch_input && first < a.n) {
        const long long left = a.n - first;
        single_pass_prefetch_l2((const T *)a.in + first,
                                (left < Policy::tile_items ? left : Policy::tile_items) *
                                    (long long)sizeof(T));
    }
}

/* A tile's aggregate published for the look-backs of later tiles; tile 0,
 * which has no predecessor, publishes it as its inclusive prefix at once
 * (and not at all when it is the only tile). By the publishing thread. */
template <class T>
GS_DEVICE void scan_publish_tile_aggregate(const scan_tile_state<T> &state, const scan_args &a,
                                           unsigned int tile, T aggregate)
{
    if (tile > 0u)
        state.publish_aggregate((int)tile, aggregate);
    else if (a.tiles > 1u)
        state.publish_inclusive(0, aggregate);
}

/* Step 4, by warp 0 (all 32 lanes) after barrier (A): the tile's aggregate
 * from the warps' totals in `s_warp`, published (tile 0 publishes its
 * inclusive prefix at once); the look-back for P, the tile's exclusive
 * prefix (the identity for tile 0); P (+) aggregate published. Returns 1
 * when the look-back gave up (nothing more published), else 0. `fold`:
 * scan_look_back's (shared memory to fold the first window through, or
 * NULL). */
template <class Policy, class T, class Op>
GS_DEVICE int scan_tile_look_back(const scan_tile_state<T> &state, const scan_args &a,
                                  unsigned int tile, const T *s_warp, Op op, T &prefix,
                                  T *fold = nullptr)
{
    const T aggregate = scan_fold_shared(s_warp, (unsigned int)(Policy::threads / 32), op);
    const bool publisher = threadIdx.x == 0u;
    prefix = Op::identity();
    if (publisher)
        GS_SCAN_TEST_DELAY(a, tile, 0);
    /* the same call on both paths, written out for tile 0 because the
     * one-call form changes all 36 register kernels' SASS (cuobjdump) */
    if (tile == 0u) {
        if (publisher)
            scan_publish_tile_aggregate(state, a, 0u, aggregate);
        return 0;
    }
    if (publisher)
        scan_publish_tile_aggregate(state, a, tile, aggregate);
    const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, tile, a.tiles};
    if (!scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(state, (int)tile, op, watch,
                                                                   prefix, fold))
        return 1;
    if (publisher) {
        GS_SCAN_TEST_DELAY(a, tile, 1);
        state.publish_inclusive((int)tile, op(prefix, aggregate));
    }
    return 0;
}

/*
 * The kernel. Every block: draw a ticket; while it names a tile, process
 * the tile (drawing the next ticket as it starts); then count itself out.
 *
 * Why tiles come from a ticket and not from blockIdx: a look-back waits
 * for the tiles before its own. With tile = blockIdx, tile b could wait for
 * a block b - 1 that the hardware has not started (nothing promises that
 * blocks start in index order, or that a grid fits at once when other work
 * shares the GPU); if every SM slot then held a later block spinning in its
 * look-back, the grid would never finish. With tickets, a tile's index
 * says when it was taken: the tiles it waits for were taken earlier by
 * blocks that are running and that finish their tickets in increasing
 * order, so by induction on the ticket every tile finishes, whatever the
 * scheduler does (it only has to keep running the warps it started).
 */
template <class Policy, class Op>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    single_pass_scan_kernel(const scan_args a)
{
    typedef typename Op::value_type T;  /* the elements */
    typedef typename Op::accumulator A; /* what is combined: T, or float for 16-bit sums */
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ A s_warp[nwarps];
    __shared__ A s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ int s_gave_up;
    scan_prefetch_first_tile<Policy, T>(a);
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    const bool out_aligned = ((unsigned long long)out & 15ull) == 0ull;
    /* a grid of one block per tile: one ticket each, none fails */
    const bool one_each = gridDim.x == a.tiles;
    const unsigned int last_draw = one_each ? a.tiles - 1u : a.tiles + gridDim.x - 1u;
    const scan_tile_state<A> state = {a.descriptors, a.seq};
    if (tid == 0u) {
        /* one block: no ticket, the tiles in order */
        s_tile = gridDim.x == 1u ? 0u : gs__atom_add_relaxed_gpu(a.counters, 1u);
        if (gridDim.x > 1u && s_tile == last_draw)
            gs__st_relaxed_gpu(a.counters, 0u);
        s_gave_up = 0;
    }
    __syncthreads();
    unsigned int tile = s_tile;
    int gave_up = 0;
    while (tile < a.tiles) {
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = scan_full_tile<Policy>(a, tile);
        scan_items<Policy, A> it;
        if (!gave_up) {
            scan_load<Policy, Op>(it, in, base, a.n, full, in_aligned);
            A before[Policy::vectors];
            A warp_total = scan_warp_run<Policy>(it, before, op);
            if ((tid & 31u) == 0u)
                s_warp[warp] = warp_total;
            /* each element's prefix within the warp's run, before the
             * look-back: before[] need not live through it */
            scan_run_prefixes(it, before, a.exclusive != 0, op);
        }
        __syncthreads(); /* (A) the warps' totals are in shared memory */
        /* read before (B): after it, a warp may already write the next tile's total */
        A warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u && !gave_up)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u && !gave_up) {
            A prefix;
            gave_up = scan_tile_look_back<Policy>(state, a, tile, s_warp, op, prefix);
            if (tid == 0u) {
                s_prefix = prefix;
                s_gave_up = gave_up;
            }
        }
        __syncthreads(); /* (B) the tile's prefix */
        if (!gave_up && s_gave_up == 0)
            scan_tile_store<Policy>(it, s_prefix, warp_prefix, warp, out, base, a.n, full,
                                    out_aligned, op);
        gave_up = s_gave_up; /* once a tile gave up, so does every later one */
        if (one_each)
            break;
        if (tid == 0u) {
            /* the next ticket, now that this block can start it at once;
             * s_tile was last read before (A) */
            const unsigned int next = gridDim.x == 1u ? tile + 1u
                                                      : gs__atom_add_relaxed_gpu(a.counters, 1u);
            s_tile = next;
            if (gridDim.x > 1u && next == last_draw)
                gs__st_relaxed_gpu(a.counters, 0u);
        }
        __syncthreads(); /* (C) the next ticket */
        tile = s_tile;
    }
    __syncthreads(); /* every thread's part done before thread 0 counts the block out */
    if (tid == 0u)
        gs__red_add_release_gpu(a.counters + 2, 1u);
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SINGLE_PASS_SCAN_CUH */
