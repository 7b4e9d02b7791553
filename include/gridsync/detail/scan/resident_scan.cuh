/*
 * gridsync/detail/scan/resident_scan.cuh - the single-pass scan's bandwidth
 * kernel with its tiles held in shared memory and one warp that looks back
 * (internal; the agent it shares everything else with is
 * gridsync/detail/scan/single_pass_scan.cuh, the measurements are in
 * docs/scan.md).
 *
 * How: the same tiles, tickets, descriptors and look-back as
 * single_pass_scan_kernel, and the same operations on the same operands in
 * the same order, so the two kernels give the same bits for every input.
 * What differs is who waits for what. The block has one control warp
 * (warp 0) and Policy::threads / 32 data warps, each holding the run of
 * the register kernel's warp of the same rank, and two shared buffers of a
 * tile each. With tile i in one buffer and tile i+1 in the other:
 *   - the control warp looks back for tile i (its predecessors'
 *     descriptors only) while the data warps wait for tile i+1's bytes,
 *     read them once (pass 1: each thread's before[], the prefix of the run
 *     before each of its vectors, and the warps' totals) and publish tile
 *     i+1's aggregate;
 *   - the control warp publishes tile i's inclusive prefix and hands the
 *     prefix over; the data warps read tile i again (pass 2), scan each
 *     vector, add before[], the warp's and the tile's prefix, and store;
 *   - they hand tile i's buffer back; the control warp draws the next
 *     ticket and bulk-copies its tile into it (bulk_copy.cuh).
 * So a block has two tiles in flight, the copy of one overlaps the other's
 * look-back, and an SM's loads stop only when all its blocks store at
 * once. On H200 at 2^28 and 2^30 floats (research/probes/scan_pipelined.cu):
 * 0.91-0.92 of a device copy, against 0.82 for one tile a block with every
 * warp waiting out the look-back, and 0.78 for the register kernel.
 *
 * Why correct: the descriptors, the look-back, the tickets and the time-out
 * are the register kernel's (its comment and scan_tile_state.cuh). A tile
 * publishes its aggregate as soon as its bytes are in, whatever the
 * look-backs of earlier tiles do, so drawing a ticket while the block still
 * looks back for an earlier one delays no other tile: a tile waits only on
 * tiles whose tickets were drawn before its own by running blocks, and
 * those publish their aggregates without waiting on anything, so the
 * register kernel's induction holds. Within the block, every handover is a
 * barrier whose arrival synchronizes with its completion
 * (named_barrier.cuh), or an mbarrier phase (bulk_copy.cuh):
 *   - buffer b's bytes and ticket: written by the copy (or the data
 *     threads, for tiles not copied) and by control lane 0 before its
 *     arrival on copied[b]; read by data threads that each observed the
 *     phase (scan_wait_copy);
 *   - the warps' totals: data barrier scan_totals, double-buffered by b;
 *   - the aggregate (data -> control): written by the thread that folds
 *     it, which then arrives on the mbarrier summed[b]; read by control
 *     lane 0 after it observed that phase (one barrier per buffer, so that
 *     the data warps can hand tile i+1's over before the control warp
 *     takes tile i's);
 *   - the prefix and the stop flag (control -> data): scan_prefix_ready
 *     (control arrives, data syncs), double-buffered by b like the totals
 *     (a tile's slot is written again two scan_buffer_free syncs after it
 *     was read);
 *   - the buffer read (data -> control): scan_buffer_free, a sync on both
 *     sides, before the proxy fence and the next bulk copy into it.
 * No thread arrives twice at one instance of scan_prefix_ready: the control
 * warp's next arrival comes after a scan_buffer_free that every data warp
 * reaches only after its sync on the previous instance.
 * copy_gave_up (data -> control) only ever goes from 0 to 1 and is read
 * with volatile accesses: a read that races with the write sees it one
 * tile later, after the summed[] wait that orders it. In place is safe: a tile's elements are
 * read before its stores, and no other tile touches them.
 *
 * Bounded: the look-back gives up after the scan's time-out (recording the
 * fault; the control warp then tells the data warps to stop, and goes on
 * drawing tickets without copies until it draws past the last tile, so the
 * ticket is reset as in the register kernel). A data warp's wait for a copy
 * records the fault after the time-out but never abandons the copy (it
 * traps after a second time-out: scan_wait_copy); the control warp's wait
 * for an aggregate is bounded by the time-out, and ends early once another
 * tile of the call gave up (the data warps always hand one over, so an
 * abandoned phase completes later and the parity holds).
 *
 * When: 4-byte types of the bandwidth tiling, from GS_TUNE_SCAN_RESIDENT_FROM_BYTES,
 * on sm_90 and later (bulk copies); src/scan/scan.cu chooses it by the
 * device. Compiled elsewhere, a launch traps: nothing selects it there.
 */
#ifndef GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH
#define GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH

#include <gridsync/detail/core/bulk_copy.cuh>
#include <gridsync/detail/core/named_barrier.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>

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

/* The calling lane's vector v (x) into its place in the warp's run `run`
 * (shared or global memory, 16-byte aligned). */
template <class Policy, class T>
GS_DEVICE void scan_write_vector(T *run, int v, const T (&x)[Policy::width])
{
    if constexpr (Policy::width == 4)
        *scan_vector<Policy>(run, v) = {x[0], x[1], x[2], x[3]};
    else
        *scan_vector<Policy>(run, v) = {x[0], x[1]};
}

/* The index of the calling lane's vector v's first element in the warp's
 * run starting at `base`. */
template <class Policy>
GS_DEVICE long long scan_vector_index(long long base, int v)
{
    return base + v * 32 * Policy::width + (threadIdx.x & 31u) * Policy::width;
}

/* Step 1 when the threads load the tile themselves: the calling thread's
 * elements of the warp's run starting at `base` (the identity past n) into
 * its places in `run`, a vector at a time. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_fill_shared(T *run, const T *in, long long base, long long n, bool full,
                                bool aligned)
{
#pragma unroll
    for (int v = 0; v < Policy::vectors; ++v) {
        if (full && aligned) {
            *scan_vector<Policy>(run, v) = __ldcs(scan_vector<Policy>((T *)in + base, v));
        } else {
            T x[Policy::width];
            const long long i = scan_vector_index<Policy>(base, v);
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                x[c] = full || i + c < n ? __ldcs(in + i + c) : Op::identity();
            scan_write_vector<Policy>(run, v, x);
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
            scan_write_vector<Policy>(out + base, v, x);
        } else {
            const long long i = scan_vector_index<Policy>(base, v);
#pragma unroll
            for (int c = 0; c < Policy::width; ++c)
                if (i + c < n)
                    out[i + c] = x[c];
        }
    }
}

/* The resident kernel's threads: the data warps and the control warp. */
template <class Policy>
__host__ __device__ constexpr int scan_resident_threads()
{
    return Policy::threads + 32;
}

/* Bytes of dynamic shared memory the resident kernel of Policy needs: two
 * tiles. */
template <class Policy, class T>
__host__ __device__ constexpr int scan_resident_bytes()
{
    return 2 * Policy::tile_items * (int)sizeof(T);
}

/* The block's barriers besides __syncthreads (named_barrier.cuh). */
enum scan_resident_barrier : unsigned int {
    scan_prefix_ready = 1u,    /* control arrives, data syncs: the tile's prefix, stop */
    scan_buffer_free = 2u,     /* everyone syncs: the tile's buffer read */
    scan_totals = 3u,          /* the data warps: their totals of one tile */
};

/* What the two roles share, besides the buffers. */
template <class T, int DataWarps>
struct scan_resident_shared {
    T warp_total[2][DataWarps];
    T aggregate[2];
    T prefix[2];                /* control -> data: tile i's prefix, in slot i's buffer */
    unsigned int tile[2];       /* the ticket in buffer b; >= tiles: none */
    int stop[2];                /* control -> data: a look-back or a copy gave up */
    volatile int copy_gave_up;  /* data -> control: a copy was late (0 -> 1 only) */
#if GS_HAS_BULK_COPY
    unsigned long long copied[2]; /* buffer b's bytes and ticket are in */
    unsigned long long summed[2]; /* buffer b's aggregate is in (data -> control) */
#endif
};

#if GS_HAS_BULK_COPY

/* One thread: wait for the phase `parity` of a barrier that other threads
 * of the block complete, bounded by the call's time-out (bounded_wait.cuh);
 * 1 when it gave up (past the time-out, the fault recorded:
 * scan_record_fault) or when another tile of the call already had (the
 * abort word, read every 64 polls). */
GS_DEVICE int scan_wait_thread(unsigned long long *bar, unsigned int parity,
                               const scan_watch &watch)
{
    wait_deadline deadline = {0ull}; /* started at the first look */
    for (unsigned int polls = 1u; !bulk_barrier_try_wait(bar, parity); ++polls)
        if ((polls & 63u) == 0u && scan_give_up_thread(watch, deadline))
            return 1;
    return 0;
}

/* A data warp, every lane: wait for the phase `parity` of a buffer's
 * barrier, each lane observing it itself (its acquire orders the copy's
 * bytes before that lane's reads). A copy in flight is never abandoned
 * (its bytes would land in a buffer the block has moved on from): past the
 * call's time-out lane 0 records the fault (unless the call was already
 * aborted) and the warp goes on waiting; past scan_copy_trap_ns more (a
 * copy of valid memory lands in microseconds; this is for a GPU that no
 * longer completes them) it traps, ending the kernel with an error rather
 * than hanging the GPU. The warp's polling loop of bounded_wait.cuh with a
 * look of its own (lane 0 looks at the deadline, the warp never gives up).
 * Returns 1 when the copy was late (the fault recorded, or the call
 * already aborted). */
constexpr unsigned long long scan_copy_trap_ns = 10000000000ull; /* 10 s */

GS_DEVICE int scan_wait_copy(unsigned long long *bar, unsigned int parity,
                             const scan_watch &watch)
{
    wait_deadline deadline = wait_deadline_after(watch.timeout_ns);
    int late = 0;
    (void)wait_polling<64>(
        [&] { return __all_sync(0xffffffffu, bulk_barrier_try_wait(bar, parity)) != 0; },
        [&] {
            if ((threadIdx.x & 31u) == 0u && wait_deadline_passed(deadline)) {
                if (late)
                    __trap(); /* a bulk copy that did not land */
                scan_record_fault(watch); /* unless another tile of the call did */
                late = 1;
                deadline = wait_deadline_after(scan_copy_trap_ns);
            }
            late = __shfl_sync(0xffffffffu, late, 0);
            return (int)WAIT_PENDING;
        });
    return late;
}

/* The control warp: tickets, copies, look-backs, inclusive prefixes. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_resident_control(const scan_args &a, T *buffers,
                                     scan_resident_shared<T, Policy::threads / 32> &s)
{
    constexpr unsigned int all = scan_resident_threads<Policy>();
    Op op;
    const unsigned int lane = threadIdx.x & 31u;
    const T *const in = (const T *)a.in;
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    /* a grid of one block per tile: one ticket each, none fails */
    const bool one_each = gridDim.x == a.tiles;
    const unsigned int last_draw = one_each ? a.tiles - 1u : a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    unsigned int in_order = 0u; /* one block: no ticket, the tiles in order */
    auto draw = [&]() {
        if (gridDim.x == 1u)
            return in_order++;
        const unsigned int t = gs__atom_add_relaxed_gpu(a.counters, 1u);
        if (t == last_draw)
            gs__st_relaxed_gpu(a.counters, 0u);
        return t;
    };
    /* lane 0: tile t into buffer b, by one bulk copy, or the ticket alone
     * (a tile the data threads load, or none) */
    auto fetch = [&](unsigned int b, unsigned int t, int stop) {
        s.tile[b] = t;
        if (!stop && t < a.tiles && scan_full_tile<Policy>(a, t) && in_aligned)
            bulk_copy_to_shared(buffers + (long long)b * Policy::tile_items,
                                in + (long long)t * Policy::tile_items,
                                (unsigned int)(Policy::tile_items * sizeof(T)), &s.copied[b]);
        else
            bulk_barrier_arrive(&s.copied[b]);
    };
    unsigned int t = 0u, next = 0u;
    if (lane == 0u) {
        t = draw();
        fetch(0u, t, 0);
        if (t < a.tiles) {
            next = one_each ? a.tiles : draw();
            fetch(1u, next, 0);
        }
    }
    t = __shfl_sync(0xffffffffu, t, 0);
    next = __shfl_sync(0xffffffffu, next, 0);
    unsigned int b = 0u, summed_parity = 0u; /* bit b: the phase of summed[b] awaited next */
    int stop = 0;
    while (t < a.tiles) {
        T prefix = Op::identity();
        int gave_up = 0;
        const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, t, a.tiles};
        if (!stop && t > 0u)
            gave_up = !scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(
                state, (int)t, op, watch, prefix);
        if (lane == 0u) {
            /* tile t's aggregate */
            gave_up |= scan_wait_thread(&s.summed[b], (summed_parity >> b) & 1u, watch);
            stop = stop || gave_up || s.copy_gave_up;
            if (!stop && t > 0u) {
                GS_SCAN_TEST_DELAY(a, t, 1);
                state.publish_inclusive((int)t, op(prefix, s.aggregate[b]));
            }
            s.prefix[b] = prefix;
            s.stop[b] = stop;
        }
        summed_parity ^= 1u << b;
        stop = __shfl_sync(0xffffffffu, stop, 0);
        named_barrier_arrive<scan_prefix_ready>(all);
        named_barrier_sync<scan_buffer_free>(all); /* buffer b read */
        if (next >= a.tiles)
            break;
        unsigned int after = 0u;
        if (lane == 0u) {
            after = one_each ? a.tiles : draw();
            fetch(b, after, stop);
        }
        t = next;
        next = __shfl_sync(0xffffffffu, after, 0);
        b ^= 1u;
    }
}

/* The data warps: passes 1 and 2 of every tile, aggregates. */
template <class Policy, class Op, class T>
GS_DEVICE void scan_resident_data(const scan_args &a, T *buffers,
                                  scan_resident_shared<T, Policy::threads / 32> &s)
{
    constexpr unsigned int all = scan_resident_threads<Policy>();
    constexpr unsigned int nwarps = Policy::threads / 32;
    Op op;
    const unsigned int lane = threadIdx.x & 31u, warp = (threadIdx.x >> 5) - 1u;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    const bool in_aligned = ((unsigned long long)in & 15ull) == 0ull;
    const bool out_aligned = ((unsigned long long)out & 15ull) == 0ull;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    auto run_of = [&](unsigned int b) {
        return buffers + (long long)b * Policy::tile_items + (long long)warp * Policy::warp_items;
    };
    unsigned int parity = 0u; /* bit b: the phase of buffer b awaited next */
    /* the ticket in buffer b, once its bytes are in */
    /* for_tile: the tile the fault record names if the copy is late (the
     * tile before the copied one, whose ticket is known only once it landed;
     * the record reads "from tile X on", which stays true) */
    auto wait = [&](unsigned int b, unsigned int for_tile) {
        const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, for_tile,
                                  a.tiles};
        if (scan_wait_copy(&s.copied[b], (parity >> b) & 1u, watch) && lane == 0u)
            s.copy_gave_up = 1;
        parity ^= 1u << b;
        return s.tile[b];
    };
    /* pass 1 of tile t in buffer b: before[], the warp's prefix, and (one
     * thread) the tile's aggregate, published */
    auto first = [&](unsigned int t, unsigned int b, int stop, T (&before)[Policy::vectors],
                     T &warp_prefix) {
        if (!stop) {
            T *const run = run_of(b);
            const long long base = (long long)t * Policy::tile_items +
                                   (long long)warp * Policy::warp_items;
            const bool full = scan_full_tile<Policy>(a, t);
            if (!(full && in_aligned))
                scan_fill_shared<Policy, Op>(run, in, base, a.n, full, in_aligned);
            T lane_incl[Policy::vectors];
#pragma unroll
            for (int v = 0; v < Policy::vectors; ++v) {
                T x[Policy::width];
                scan_read_vector<Policy>(x, run, v);
                scan_vector_within(x, op);
                lane_incl[v] = warp_inclusive_scan(x[Policy::width - 1], 32u, op);
            }
            const T total = scan_run_before(lane_incl, before, op);
            if (lane == 0u)
                s.warp_total[b][warp] = total;
        }
        named_barrier_sync<scan_totals>(Policy::threads);
        if (!stop) {
            warp_prefix = warp > 0u ? scan_fold_shared(s.warp_total[b], warp, op) : Op::identity();
            if (warp == 0u && lane == 0u) {
                const T aggregate = scan_fold_shared(s.warp_total[b], nwarps, op);
                s.aggregate[b] = aggregate;
                GS_SCAN_TEST_DELAY(a, t, 0);
                if (!s.copy_gave_up)
                    scan_publish_tile_aggregate(state, a, t, aggregate);
            }
        }
        if (warp == 0u && lane == 0u) /* the aggregate (or the stop) to the control warp */
            bulk_barrier_arrive(&s.summed[b]);
    };
    T before[Policy::vectors], before_next[Policy::vectors];
    T warp_prefix = Op::identity(), warp_prefix_next = Op::identity();
    unsigned int b = 0u;
    int stop = 0;
    unsigned int t = wait(0u, 0u);
    if (t < a.tiles)
        first(t, 0u, 0, before, warp_prefix);
    while (t < a.tiles) {
        const unsigned int next = wait(b ^ 1u, t);
        if (next < a.tiles)
            first(next, b ^ 1u, stop, before_next, warp_prefix_next);
        named_barrier_sync<scan_prefix_ready>(all); /* tile t's prefix */
        stop = s.stop[b];
        if (!stop) {
            const T p = warp > 0u ? op(s.prefix[b], warp_prefix) : s.prefix[b];
            T *const run = run_of(b);
            const long long base = (long long)t * Policy::tile_items +
                                   (long long)warp * Policy::warp_items;
            /* pass 2: straight-line code for each case */
            if (scan_full_tile<Policy>(a, t) && out_aligned) {
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
        /* a sync, not an arrival: the control warp is here already (it
         * arrived at scan_prefix_ready just before) */
        named_barrier_sync<scan_buffer_free>(all);
        t = next;
#pragma unroll
        for (int v = 0; v < Policy::vectors; ++v)
            before[v] = before_next[v];
        warp_prefix = warp_prefix_next;
        b ^= 1u;
    }
}

#endif /* GS_HAS_BULK_COPY */

/* Launched with scan_resident_threads<Policy>() threads and
 * scan_resident_bytes<Policy, T>() bytes of dynamic shared memory, on sm_90
 * and later only (src/scan/scan.cu). */
template <class Policy, class Op>
static __global__ void __launch_bounds__(scan_resident_threads<Policy>(),
                                         GS_HAS_BULK_COPY ? Policy::resident_min_blocks : 1)
    single_pass_scan_resident_kernel(const scan_args a)
{
    static_assert(same_type<typename Op::value_type, typename Op::accumulator>::value,
                  "the resident kernel combines the elements themselves (4-byte types)");
#if GS_HAS_BULK_COPY
    typedef typename Op::value_type T;
    extern __shared__ __align__(128) unsigned char scan_resident_buffer[];
    __shared__ scan_resident_shared<T, Policy::threads / 32> s;
    T *const buffers = (T *)scan_resident_buffer;
    scan_prefetch_first_tile<Policy, T>(a); /* before the wait: single_pass_scan.cuh */
    single_pass_begin();
    if (threadIdx.x == 0u) {
        bulk_barrier_init(&s.copied[0], 1u);
        bulk_barrier_init(&s.copied[1], 1u);
        bulk_barrier_init(&s.summed[0], 1u);
        bulk_barrier_init(&s.summed[1], 1u);
        s.copy_gave_up = 0;
        s.stop[0] = s.stop[1] = 0;
    }
    __syncthreads(); /* the barriers initialized */
    if (threadIdx.x < 32u)
        scan_resident_control<Policy, Op>(a, buffers, s);
    else
        scan_resident_data<Policy, Op>(a, buffers, s);
    __syncthreads(); /* every thread's part done before thread 0 counts the block out */
    if (threadIdx.x == 0u)
        gs__red_add_release_gpu(a.counters + 2, 1u);
#else
    (void)a;
    __trap(); /* no bulk copies before sm_90: the launcher never selects this kernel here */
#endif
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_RESIDENT_SCAN_CUH */
