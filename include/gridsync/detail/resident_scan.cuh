/*
 * gridsync/detail/resident_scan.cuh - the single-pass scan's bandwidth
 * kernel with the tile held in shared memory (internal; the agent it shares
 * everything else with is gridsync/detail/single_pass_scan.cuh, the
 * measurements are in docs/scan-notes.md).
 *
 * How: the same tiles, tickets, descriptors and look-back as
 * single_pass_scan_kernel, and the same operations on the same operands in
 * the same order, so the two kernels give the same bits for every input.
 * What differs is where a tile waits out its look-back. The register kernel
 * keeps the tile in registers from its load to its store: 72 registers a
 * thread, 2 blocks per SM, and while both blocks look back (an L2 round
 * trip or two each) the SM has no loads in flight. Here:
 *   1. thread 0 draws the ticket and copies the tile into the block's
 *      shared buffer with one bulk copy (bulk_copy.cuh); the threads wait
 *      for its bytes (thread 0 on the barrier, the rest at a block barrier).
 *      A partial last tile, an input that is not 16-byte aligned, and GPUs
 *      before sm_90 load the elements with the threads instead;
 *   2. each thread reads its vectors and scans them within the warp's run
 *      (scan_warp_run): what outlives this pass is before[], the prefix of
 *      the run before each of the thread's vectors (8 values);
 *   3. the warps' totals, the aggregate, the look-back and the tile's
 *      prefix, as in the register kernel;
 *   4. each thread reads its vectors again, scans each within itself (the
 *      operations of step 2 again), adds before[], its warp's and the
 *      tile's prefix, and stores them;
 *   5. after a block barrier (nobody reads the buffer any more) thread 0
 *      draws the next ticket and starts its copy.
 * Only 40 registers a thread live through the look-back, so 3 blocks fit
 * on an SM (3 x 56 KiB of shared memory): one block's copy is in flight
 * while the others look back. On H200 at 2^28 and 2^30 floats: 0.84-0.85
 * of a device copy, against 0.78 for the register kernel.
 *
 * Why correct: the descriptors, the look-back, the tickets and the
 * time-out are the register kernel's (its comment and
 * scan_tile_state.cuh). In shared memory, each thread writes (when it loads
 * the tile itself) and reads only its own vectors in steps 1, 2 and 4
 * (program order); the bulk copy's bytes
 * reach the block through thread 0's wait on the barrier and the block
 * barrier after it (D); the next copy starts after barrier (C), which every
 * thread reaches only after its last read of the buffer, and the issuing
 * thread fences the generic proxy's accesses before the async proxy's
 * writes (bulk_copy.cuh). The ticket travels in s_tile: written by thread 0
 * after (C), read after (D). In place is safe: a tile's elements are read
 * (copied) before its stores, and no other tile touches them.
 *
 * Bounded: thread 0's wait for a copy gives up after the scan's time-out
 * (as a look-back does, recording the fault); the look-back is the
 * register kernel's.
 *
 * When: lengths of the bandwidth tiling (past GS_TUNE_SCAN_LARGE_FROM_BYTES)
 * on sm_90 and later; src/scan/scan.cu chooses it by the device.
 */
#ifndef GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH
#define GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH

#include <gridsync/detail/bulk_copy.cuh>
#include <gridsync/detail/single_pass_scan.cuh>

namespace gs {
namespace detail {

/* The calling lane's vector v of the warp's run `run` in shared memory. */
template <class Policy, class T>
GS_DEVICE void scan_read_vector(T (&x)[Policy::width], T *run, int v)
{
    typename vector16<T>::type q = *scan_vector<Policy>(run, v);
    x[0] = component<0>(q);
    x[1] = component<1>(q);
    if constexpr (Policy::width == 4) {
        x[2] = component<2>(q);
        x[3] = component<3>(q);
    }
}

/* Step 1 when the threads load the tile themselves: the calling thread's
 * elements of the warp's run starting at `base` (the identity past n) into
 * its places in `run`, a vector at a time. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_fill_shared(T *run, const T *in, long long base, long long n, bool full,
                                bool aligned)
{
    typedef typename vector16<T>::type vector;
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v) {
        if (full && aligned) {
            *scan_vector<Policy>(run, v) = __ldcs(scan_vector<Policy>((T *)in + base, v));
        } else {
            T x[Policy::width];
            const long long i = base + v * 32 * Policy::width + (threadIdx.x & 31u) * Policy::width;
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                x[c] = full || i + c < n ? __ldcs(in + i + c) : Op::identity();
            if constexpr (Policy::width == 4)
                *scan_vector<Policy>(run, v) = vector{x[0], x[1], x[2], x[3]};
            else
                *scan_vector<Policy>(run, v) = vector{x[0], x[1]};
        }
    }
}

/* Pass 2 (step 4), a vector at a time: the calling thread's elements read
 * again, scanned within their vector as in pass 1, then given the run's
 * prefix (before[v], inclusive or exclusive), the warp's and the tile's
 * (`prefix`), and stored: as 16-byte vectors, or (a partial tile or a
 * misaligned output) element by element below n. */
template <class Policy, bool Exclusive, bool VectorStore, class T, class Op>
GS_DEVICE void scan_resident_pass2(T *run, const T (&before)[Policy::vectors], T prefix, T *out,
                                   long long base, long long n, Op op)
{
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v) {
        T x[Policy::width];
        scan_read_vector<Policy>(x, run, v);
        scan_vector_within(x, op);
        scan_vector_run_prefix(x, before[v], Exclusive, op);
#pragma unroll
        for (int c = 0; c < Policy::width; ++c)
            x[c] = op(prefix, x[c]);
        if constexpr (VectorStore) {
            if constexpr (Policy::width == 4)
                *scan_vector<Policy>(out + base, v) = {x[0], x[1], x[2], x[3]};
            else
                *scan_vector<Policy>(out + base, v) = {x[0], x[1]};
        } else {
            const long long i = base + v * 32 * Policy::width + (threadIdx.x & 31u) * Policy::width;
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                if (i + c < n)
                    out[i + c] = x[c];
        }
    }
}

/* Bytes of dynamic shared memory the resident kernel of Policy needs. */
template <class Policy, class T>
__host__ __device__ constexpr int scan_resident_bytes()
{
    return Policy::tile_items * (int)sizeof(T);
}

/* Launched on sm_90 and later only (src/scan/scan.cu); compiled for every
 * architecture, where it loads with the threads (one block per SM bound:
 * sm_75 holds 1024 threads an SM). */
template <class Policy, class Op>
static __global__ void __launch_bounds__(Policy::threads,
                                         GS_HAS_BULK_COPY ? Policy::resident_min_blocks : 1)
    single_pass_scan_resident_kernel(const scan_args a)
{
    typedef typename Op::value_type T;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    extern __shared__ __align__(128) unsigned char scan_resident_buffer[];
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ int s_gave_up;
#if GS_HAS_BULK_COPY
    __shared__ unsigned long long s_copied; /* the bulk copy's barrier */
#endif
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    T *const run = (T *)scan_resident_buffer + (long long)warp * Policy::warp_items;
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    const bool out_aligned = ((unsigned long long)out & 15ull) == 0ull;
    const bool one_each = gridDim.x == a.tiles;
    const unsigned int last_draw = one_each ? a.tiles - 1u : a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    auto full_tile = [&](unsigned int t) {
        return (long long)t * Policy::tile_items + Policy::tile_items <= a.n;
    };
    /* tiles the bulk copy brings in; the others the threads load */
    auto copied = [&](unsigned int t) { return GS_HAS_BULK_COPY && in_aligned && full_tile(t); };
    /* thread 0: the next tile (the first: `first`) and its copy */
    auto take = [&](bool first, int gave_up, bool &pending) {
        unsigned int t;
        if (gridDim.x == 1u) /* one block: no ticket, the tiles in order */
            t = first ? 0u : s_tile + 1u;
        else
            t = gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (gridDim.x > 1u && t == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
        s_tile = t;
        pending = false;
#if GS_HAS_BULK_COPY
        if (!gave_up && t < a.tiles && copied(t)) {
            bulk_copy_to_shared(scan_resident_buffer, in + (long long)t * Policy::tile_items,
                                (unsigned int)(Policy::tile_items * sizeof(T)), &s_copied);
            pending = true;
        }
#else
        (void)gave_up;
#endif
    };
    bool pending = false;
#if GS_HAS_BULK_COPY
    unsigned int parity = 0u;
#endif
    if (tid == 0u) {
#if GS_HAS_BULK_COPY
        bulk_barrier_init(&s_copied, 1u);
#endif
        s_gave_up = 0;
    }
    __syncthreads(); /* the barrier initialized */
    if (tid == 0u)
        take(true, 0, pending);
    for (;;) {
#if GS_HAS_BULK_COPY
        if (tid == 0u && pending) {
            const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, s_tile,
                                      a.tiles};
            unsigned long long deadline = 0ull;
            for (unsigned int polls = 1u; !bulk_barrier_try_wait(&s_copied, parity); ++polls)
                if ((polls & 63u) == 0u && scan_give_up_thread(watch, deadline)) {
                    s_gave_up = 1; /* the copy's phase is abandoned: no copy after it */
                    break;
                }
            parity ^= 1u;
        }
#endif
        __syncthreads(); /* (D) the tile's ticket and its bytes */
        const unsigned int tile = s_tile;
        if (tile >= a.tiles)
            break;
        int gave_up = s_gave_up;
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = full_tile(tile);
        T before[Policy::vectors];
        if (!gave_up) {
            /* pass 1, a vector at a time: only before[] outlives it */
            if (!copied(tile))
                scan_fill_shared<Policy, Op>(run, in, base, a.n, full, in_aligned);
            T lane_incl[Policy::vectors];
#pragma unroll
            for (int v = 0; v < Policy::vectors; ++v) {
                T x[Policy::width];
                scan_read_vector<Policy>(x, run, v);
                scan_vector_within(x, op);
                lane_incl[v] = warp_inclusive_scan(x[Policy::width - 1], 32u, op);
            }
            T warp_total = scan_run_before(lane_incl, before, op);
            if ((tid & 31u) == 0u)
                s_warp[warp] = warp_total;
        }
        __syncthreads(); /* (A) the warps' totals are in shared memory */
        T warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u && !gave_up)
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u && !gave_up) {
            T prefix;
            gave_up = scan_tile_look_back<Policy>(state, a, tile, s_warp, op, prefix);
            if (tid == 0u) {
                s_prefix = prefix;
                s_gave_up = gave_up;
            }
        }
        __syncthreads(); /* (B) the tile's prefix */
        if (!gave_up && s_gave_up == 0) {
            T base_prefix = s_prefix;
            if (warp > 0u)
                base_prefix = op(base_prefix, warp_prefix);
            /* pass 2: straight-line code for each case */
            const T p = base_prefix;
            if (full && out_aligned) {
                if (a.exclusive)
                    scan_resident_pass2<Policy, true, true>(run, before, p, out, base, a.n, op);
                else
                    scan_resident_pass2<Policy, false, true>(run, before, p, out, base, a.n, op);
            } else {
                if (a.exclusive)
                    scan_resident_pass2<Policy, true, false>(run, before, p, out, base, a.n, op);
                else
                    scan_resident_pass2<Policy, false, false>(run, before, p, out, base, a.n, op);
            }
        }
        gave_up = s_gave_up; /* once a tile gave up, so does every later one */
        if (one_each)
            break;
        __syncthreads(); /* (C) the buffer and s_tile read by everyone */
        if (tid == 0u)
            take(false, gave_up, pending);
    }
    __syncthreads(); /* every thread's part done before thread 0 counts the block out */
    if (tid == 0u)
        gs_red_add_release_gpu(a.counters + 2, 1u);
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH */
