/*
 * gridsync/detail/scan/scan_tile_state.cuh - the tile descriptors of the
 * single-pass scan and the decoupled look-back over them (internal; the
 * agent is gridsync/detail/scan/single_pass_scan.cuh, the design and its
 * memory-model argument docs/scan.md).
 *
 * Descriptors. Every tile t has two slots in the workspace: its aggregate
 * (the combination of its own elements) and its inclusive prefix (of
 * elements 0 .. end of t). A value travels in 64-bit words, each holding 32
 * bits of the value in its low half and a tag in its high half: the call's
 * sequence number (workspace.h; never 0, different for every call on a
 * workspace until it wraps after 2^32 - 1 calls, when the host zeroes the
 * descriptors). A 2- or 4-byte value is one word, an 8-byte value two (low
 * half, high half). A slot is valid for this call when every one of its words
 * carries this call's tag.
 *
 * Why that needs no initialisation between calls: whatever a slot holds
 * from an earlier call carries that call's (different) tag, so it reads as
 * "not yet published"; one launch per call, where CUB clears its
 * descriptors with a second kernel first.
 *
 * Memory model (PTX ISA, memory consistency model):
 *   - every word is written once per call, by st.relaxed.gpu, and read by
 *     ld.relaxed.gpu: morally strong accesses to one naturally aligned
 *     64-bit location, hence single-copy atomic. A reader sees either the
 *     whole word of this call (tag and value together) or an older word
 *     (older tag): never a mix of this call's tag with another value.
 *   - the payload is the data itself: nothing else is read on the strength
 *     of a descriptor, so no release/acquire pair is needed (a tile reads
 *     only the values inside the words).
 *   - an 8-byte value takes two words, written with one st.relaxed.v2.u64
 *     and read with one ld.relaxed.v2.u64. PTX models a vector access as
 *     one scalar access per element, in no particular order, so the pair is
 *     NOT read or written atomically: a reader may see this call's low word
 *     and an older high word. That is harmless because each word carries
 *     its own tag: the slot is valid only when both tags are this call's,
 *     and each slot is written once per call, so two words both tagged with
 *     this call are the two halves of the one value written.
 *   - the aggregate slot is written before the inclusive slot (program
 *     order of one thread); a reader does not rely on that order: it takes
 *     whichever slots it finds valid.
 *
 * The look-back (one warp, for tile t > 0). The windows are 32 x K tiles
 * (K = GS_TUNE_SCAN_LOOKBACK_PER_LANE); lane l reads tiles lo + 32k + l.
 * It polls the window below t until the tiles above its highest inclusive
 * prefix h all have their aggregates, then folds: x = P(h), then
 * x = op(x, a(j)) for j = h+1 .. t-1, one at a time, left to right. With no
 * inclusive prefix in the window (all aggregates there), it walks to the
 * window below, and so on; once a prefix is found it folds that window from
 * h, the windows it walked past (read again, aggregates only) and the first
 * window, in tile order.
 *
 * Deterministic: the scan's prefixes are defined as a left fold of the tile
 * aggregates, P(t) = op(P(t-1), a(t)), P(0) = a(0), and every tile publishes
 * exactly that. Folding one aggregate at a time onto a published P(h) is
 * the same sequence of operations on the same operands as the chain itself,
 * so the look-back gives P(t-1) bit for bit whichever h it found, however
 * far back the published prefixes were at that moment. (CUB instead reduces
 * the window's aggregates with a warp tree first and adds that to the
 * prefix: in floating point the result then depends on which flags the
 * window saw, so on timing.) The price is a sequential fold: a dependent
 * operation per tile passed, ~4 cycles each for float, against an L2 round
 * trip of ~600 ns per window read.
 *
 * Forward progress: a tile's index is its ticket (an atomic counter), so
 * the tiles a look-back waits for were drawn earlier by blocks that are
 * already running and that process their tickets in increasing order; by
 * induction on the ticket every tile gets its prefix, without assuming that
 * the hardware starts blocks in index order (which CUB's blockIdx-ordered
 * look-back relies on).
 *
 * Bounded: the look-back is the warp's bounded wait (bounded_wait.cuh):
 * lane 0 looks at the call's abort word and at the deadline every 64
 * polls. Past the time-out (GRIDSYNC_BARRIER_TIMEOUT, 2 s by default) it
 * gives up: it sets the abort word to the call's number (every other
 * waiting tile then gives up at its next look) and writes the host-mapped
 * fault record of the call's stream (scan_record_fault), which gs_scan
 * and gs_scan_check on that stream report.
 */
#ifndef GRIDSYNC_DETAIL_SCAN_TILE_STATE_CUH
#define GRIDSYNC_DETAIL_SCAN_TILE_STATE_CUH

#include <gridsync/detail/core/bounded_wait.cuh>
#include <gridsync/detail/core/fault_record.h>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/core/tuning.h>
#include <gridsync/detail/core/value_traits.cuh>

namespace gs {
namespace detail {

/* ------------------------------------------------------- values as words */

/* The bits of a 2-, 4- or 8-byte value, and back. */
template <class T> struct scan_bits;
template <> struct scan_bits<float> {
    static __device__ __forceinline__ unsigned long long to(float v) { return __float_as_uint(v); }
    static __device__ __forceinline__ float from(unsigned long long b)
    {
        return __uint_as_float((unsigned int)b);
    }
};
template <> struct scan_bits<int> {
    static __device__ __forceinline__ unsigned long long to(int v) { return (unsigned int)v; }
    static __device__ __forceinline__ int from(unsigned long long b) { return (int)(unsigned int)b; }
};
template <> struct scan_bits<unsigned int> {
    static __device__ __forceinline__ unsigned long long to(unsigned int v) { return v; }
    static __device__ __forceinline__ unsigned int from(unsigned long long b)
    {
        return (unsigned int)b;
    }
};
template <> struct scan_bits<unsigned long long> {
    static __device__ __forceinline__ unsigned long long to(unsigned long long v) { return v; }
    static __device__ __forceinline__ unsigned long long from(unsigned long long b) { return b; }
};
#if GS_HAS_16BIT_FLOATS
template <class T> struct scan_bits16 {
    static __device__ __forceinline__ unsigned long long to(T v) { return bits16<T>::to(v); }
    static __device__ __forceinline__ T from(unsigned long long b)
    {
        return bits16<T>::from((unsigned short)b);
    }
};
template <> struct scan_bits<__half> : scan_bits16<__half> {};
template <> struct scan_bits<__nv_bfloat16> : scan_bits16<__nv_bfloat16> {};
#endif
template <> struct scan_bits<double> {
    static __device__ __forceinline__ unsigned long long to(double v)
    {
        return (unsigned long long)__double_as_longlong(v);
    }
    static __device__ __forceinline__ double from(unsigned long long b)
    {
        return __longlong_as_double((long long)b);
    }
};
template <> struct scan_bits<long long> {
    static __device__ __forceinline__ unsigned long long to(long long v)
    {
        return (unsigned long long)v;
    }
    static __device__ __forceinline__ long long from(unsigned long long b) { return (long long)b; }
};

/* The descriptors of one call: tile t's aggregate at desc + 2 W t, its
 * inclusive prefix at desc + 2 W t + W, W = words per value. */
template <class T>
struct scan_tile_state {
    static constexpr int words = sizeof(T) == 8 ? 2 : 1;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "values of 2, 4 or 8 bytes");
    unsigned long long *desc;
    unsigned int seq; /* the call's tag */

    __device__ __forceinline__ unsigned long long word(unsigned long long bits) const
    {
        return ((unsigned long long)seq << 32) | (bits & 0xffffffffull);
    }
    __device__ __forceinline__ bool tagged(unsigned long long w) const
    {
        return (unsigned int)(w >> 32) == seq;
    }
    __device__ __forceinline__ void publish(unsigned long long *slot, T v) const
    {
        unsigned long long b = scan_bits<T>::to(v);
        if constexpr (words == 1)
            gs__st_relaxed_gpu_u64(slot, word(b));
        else
            gs__st_relaxed_gpu_v2_u64(slot, word(b), word(b >> 32));
    }
    /* One thread; the aggregate first, the inclusive prefix when known. */
    __device__ __forceinline__ void publish_aggregate(int t, T v) const
    {
        publish(desc + 2ll * words * t, v);
    }
    __device__ __forceinline__ void publish_inclusive(int t, T v) const
    {
        publish(desc + 2ll * words * t + words, v);
    }
    /* Tile t as this lane sees it now: `incl` when its inclusive prefix is
     * published (and wanted), `valid` when that or its aggregate is;
     * `value` the inclusive prefix if incl, else the aggregate. */
    __device__ __forceinline__ void read(int t, bool inclusive_too, bool &incl, bool &valid,
                                         T &value) const
    {
        const unsigned long long *slot = desc + 2ll * words * t;
        unsigned long long a0, a1, i0, i1;
        if constexpr (words == 1) {
            gs__ld_relaxed_gpu_v2_u64(slot, &a0, &i0); /* the aggregate and the prefix side by side */
            incl = inclusive_too && tagged(i0);
            valid = incl || tagged(a0);
            value = scan_bits<T>::from(incl ? i0 : a0);
        } else {
            gs__ld_relaxed_gpu_v2_u64(slot, &a0, &a1);
            i0 = i1 = 0ull;
            if (inclusive_too)
                gs__ld_relaxed_gpu_v2_u64(slot + 2, &i0, &i1);
            incl = inclusive_too && tagged(i0) && tagged(i1);
            valid = incl || (tagged(a0) && tagged(a1));
            unsigned long long lo = incl ? i0 : a0, hi = incl ? i1 : a1;
            value = scan_bits<T>::from((lo & 0xffffffffull) | (hi << 32));
        }
    }
};

/* ------------------------------------------------------------ the watch */

/* What bounds a look-back, from the kernel's arguments. */
struct scan_watch {
    unsigned int *abort;           /* == seq once a tile of this call gave up */
    unsigned int *fault;           /* host-mapped: the stream's record (fault_record.h) */
    unsigned long long timeout_ns; /* 0: wait without a bound */
    unsigned int seq, tile, tiles;
};

/* The abort test of a scan's bounded waits (bounded_wait.cuh): another
 * tile of this call gave up. */
GS_DEVICE auto scan_aborted(const scan_watch &w)
{
    return [&w] { return gs__ld_relaxed_gpu(w.abort) == w.seq; };
}

/* One thread of a tile that timed out records the fault: the abort word
 * first (device memory, where the other tiles look), exchanged, so that of
 * the tiles of one call that time out together only the first goes on;
 * then the host-mapped record of its stream (fault_record.h): the details
 * and the flag, raised last with a system-scope release so that a host that
 * sees the flag sees the details, or, while the flag is still up with an
 * earlier fault the host has not reported, only the count of later ones:
 * the first fault is never overwritten. */
GS_DEVICE void scan_record_fault(const scan_watch &w)
{
    if (gs__atom_exch_relaxed_gpu(w.abort, w.seq) == w.seq || !w.fault)
        return; /* another tile of this call records it */
    if (gs__ld_acquire_sys(w.fault + GS_FAULT_FLAG) == 0u) {
        gs__st_relaxed_sys(w.fault + GS_FAULT_CALL, w.seq);
        gs__st_relaxed_sys(w.fault + GS_FAULT_WHERE, w.tile);
        gs__st_relaxed_sys(w.fault + GS_FAULT_OF, w.tiles);
        gs__st_release_sys(w.fault + GS_FAULT_FLAG, 1u);
    } else {
        gs__st_release_sys(w.fault + GS_FAULT_LATER,
                          gs__ld_acquire_sys(w.fault + GS_FAULT_LATER) + 1u);
    }
}

/* One thread decides: 1 when the wait must give up: the call was aborted
 * (the abort word), or this wait is past its deadline (bounded_wait.cuh's
 * deadline, started at the first look: a zero word is one not started yet),
 * in which case it records the fault (scan_record_fault). */
GS_DEVICE int scan_give_up_thread(const scan_watch &w, wait_deadline &deadline)
{
    const unsigned long long now = gs__globaltimer_ns();
    if (scan_aborted(w)())
        return 1;
    if (deadline.word == 0ull) {
        deadline = wait_deadline_at(now, w.timeout_ns);
        return 0;
    }
    if (now < deadline.word)
        return 0;
    scan_record_fault(w);
    return 1;
}

/* The same for a warp: lane 0 decides, every lane gets the answer (the
 * scan's blocks are 1-D: the lane is threadIdx.x's low bits). */
GS_DEVICE int scan_give_up(const scan_watch &w, wait_deadline &deadline)
{
    int up = 0;
    if ((threadIdx.x & 31u) == 0u)
        up = scan_give_up_thread(w, deadline);
    return __shfl_sync(0xffffffffu, up, 0);
}

/* ---------------------------------------------------------- the windows */

/* One window as the warp sees it: this lane's K entries (tiles
 * lo + 32 k + lane) and, uniform in the warp, which entries are inclusive
 * and which are valid. */
template <class T, int K>
struct scan_window {
    T value[K];
    unsigned int incl[K], valid[K];
};

/* Read the window at `lo` once (tiles before 0 count as valid, never used). */
template <class T, int K>
GS_DEVICE void scan_read_window(const scan_tile_state<T> &s, int lo, bool inclusive_too,
                                scan_window<T, K> &w)
{
    int lane = (int)(threadIdx.x & 31u);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        int t = lo + 32 * k + lane;
        bool incl = false, valid = true;
        T v = T();
        if (t >= 0)
            s.read(t, inclusive_too, incl, valid, v);
        w.value[k] = v;
        w.incl[k] = __ballot_sync(0xffffffffu, incl);
        w.valid[k] = __ballot_sync(0xffffffffu, valid);
    }
}

/* The highest inclusive entry of the window, -1 when there is none. */
template <class T, int K>
GS_DEVICE int scan_highest_inclusive(const scan_window<T, K> &w)
{
    int h = -1;
#pragma unroll
    for (int k = K - 1; k >= 0; --k)
        if (h < 0 && w.incl[k] != 0u)
            h = 32 * k + 31 - __clz((int)w.incl[k]);
    return h;
}

/* Whether every entry above h is valid (h = -1: every entry). */
template <class T, int K>
GS_DEVICE bool scan_ready_above(const scan_window<T, K> &w, int h)
{
    bool ready = true;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        int first = h + 1 - 32 * k; /* the first needed entry's lane in row k */
        unsigned int need = first <= 0 ? 0xffffffffu : first >= 32 ? 0u : 0xffffffffu << first;
        ready = ready && (w.valid[k] & need) == need;
    }
    return ready;
}

enum { SCAN_GAVE_UP = -2 };

/* Poll the window at `lo` until it is ready; returns its highest inclusive
 * entry, -1 when every entry has its aggregate and none is inclusive (or
 * when only aggregates were asked for), SCAN_GAVE_UP when the watch says so
 * (every 64 polls: scan_give_up; `deadline` is the whole look-back's).
 * The polls of the warp's bounded wait (bounded_wait.cuh), written out: its
 * loop form added ~40 instructions to every scan kernel and moved the
 * registers of its tile loads (cuobjdump). SleepNs: nanoseconds to back off
 * after a window that was not ready. */
template <class T, int K, int SleepNs>
GS_DEVICE int scan_wait_window(const scan_tile_state<T> &s, int lo, bool inclusive_too,
                               scan_window<T, K> &w, const scan_watch &watch,
                               wait_deadline &deadline)
{
    for (unsigned int polls = 1u;; ++polls) {
        scan_read_window(s, lo, inclusive_too, w);
        int h = scan_highest_inclusive(w);
        if (scan_ready_above(w, h))
            return h;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
        if constexpr (SleepNs > 0)
            __nanosleep(SleepNs);
#endif
        if ((polls & 63u) == 0u && scan_give_up(watch, deadline))
            return SCAN_GAVE_UP;
    }
}

/* x = op(x, entry j) for the window's entries j = from .. 32 K - 1, one at
 * a time, in tile order. Every lane computes the same x. */
template <class T, int K, class Op>
GS_DEVICE T scan_fold_from(const scan_window<T, K> &w, int from, T x, Op op)
{
#pragma unroll
    for (int k = 0; k < K; ++k) {
        int lane = from - 32 * k;
#pragma unroll 4
        for (int l = lane > 0 ? lane : 0; l < 32; ++l)
            x = op(x, value_traits<T>::shuffle(0xffffffffu, w.value[k], l));
    }
    return x;
}

/* The same fold through shared memory: each lane stores its entries into
 * `fold` (32 x K values, the calling warp's own), then every lane folds
 * them from there, reading each entry from one address (a broadcast) instead
 * of a shuffle per entry. The same operations on the same operands in the
 * same order, so the same bits. Measured on H200 (research/notes/scan.md, "One
 * tile a block"): 0.2-0.3 us less a look-back across a 64-tile window. */
template <class T, int K, class Op>
GS_DEVICE T scan_fold_from_shared(const scan_window<T, K> &w, int from, T x, Op op, T *fold)
{
    const int lane = (int)(threadIdx.x & 31u);
#pragma unroll
    for (int k = 0; k < K; ++k)
        fold[32 * k + lane] = w.value[k];
    __syncwarp();
#pragma unroll 8
    for (int j = from; j < 32 * K; ++j)
        x = op(x, fold[j]);
    __syncwarp(); /* every lane read the entries before a later fold stores others */
    return x;
}

/* The window's entry h, in every lane. */
template <class T, int K>
GS_DEVICE T scan_entry(const scan_window<T, K> &w, int h)
{
    /* a shuffle per row, then a choice: picking the row first compiles to
     * w.value[h >> 5], an array indexed at run time, in local memory */
    T x = value_traits<T>::shuffle(0xffffffffu, w.value[0], h & 31);
#pragma unroll
    for (int k = 1; k < K; ++k) {
        T y = value_traits<T>::shuffle(0xffffffffu, w.value[k], h & 31);
        x = (h >> 5) == k ? y : x;
    }
    return x;
}

/*
 * The exclusive prefix of tile t > 0, P(t-1), in every lane of the calling
 * warp (all 32 lanes call); false when it gave up (watch). See the file
 * comment for the walk and why its result does not depend on timing.
 * `fold`: 32 x K values of shared memory for the calling warp, to fold the
 * first window through (scan_fold_from_shared), or NULL to fold it with
 * shuffles.
 */
template <class T, int K, int SleepNs, class Op>
GS_DEVICE bool scan_look_back(const scan_tile_state<T> &s, int t, Op op, const scan_watch &watch,
                              T &prefix, T *fold = nullptr)
{
    constexpr int window = 32 * K;
    wait_deadline deadline = {0ull}; /* started at the first look */
    scan_window<T, K> first, w;
    int lo = t - window;
    int h = scan_wait_window<T, K, SleepNs>(s, lo, true, first, watch, deadline);
    if (h == SCAN_GAVE_UP)
        return false;
    if (h >= 0) { /* the common case: a prefix within the first window */
        prefix = fold ? scan_fold_from_shared(first, h + 1, scan_entry(first, h), op, fold)
                      : scan_fold_from(first, h + 1, scan_entry(first, h), op);
        return true;
    }
    const int first_lo = lo;
    do { /* every tile of the window has only its aggregate: further back */
        lo -= window;
        h = scan_wait_window<T, K, SleepNs>(s, lo, true, w, watch, deadline);
        if (h == SCAN_GAVE_UP)
            return false;
    } while (h < 0);
    T x = scan_fold_from(w, h + 1, scan_entry(w, h), op);
    for (int mid = lo + window; mid < first_lo; mid += window) { /* walked past: aggregates */
        if (scan_wait_window<T, K, SleepNs>(s, mid, false, w, watch, deadline) == SCAN_GAVE_UP)
            return false;
        x = scan_fold_from(w, 0, x, op);
    }
    prefix = scan_fold_from(first, 0, x, op);
    return true;
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SCAN_TILE_STATE_CUH */
