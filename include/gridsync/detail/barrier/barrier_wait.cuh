/*
 * gridsync/detail/barrier/barrier_wait.cuh - how every barrier method waits
 * (internal): inline polls first (GS_TUNE_BARRIER_FAST_POLLS, tuning.h),
 * then a watched slow path out of line that bounds the wait by the view's
 * time-out (the library's one bounded wait, bounded_wait.cuh), records who
 * was waiting where, and makes the grid leave. The
 * watchdog record's layout: gridsync/detail/barrier/barrier_layout.h.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_WAIT_CUH
#define GRIDSYNC_DETAIL_BARRIER_WAIT_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_layout.h>
#include <gridsync/detail/core/bounded_wait.cuh>
#include <gridsync/detail/core/grid_geometry.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/core/tuning.h>

/* What a wait waits for; each call site passes a constant, so the switch in
 * gs__wait_done folds away in the fast path. By default polls are relaxed
 * loads and, once the condition holds, one ld.acquire of the same word
 * completes the acquire (it reads the value seen or a later one: of the
 * same release sequence for a counter, or, for a word only its owner
 * writes, such as a neighbour's epoch, one stored by a later release of
 * that owner). With GS__ACQUIRE_EACH every poll is an ld.acquire, as in
 * grid.sync: slower polls, which on a full grid keep the counter's L2 line
 * less congested (2.2 against 3.3 us at 1056 blocks on H200). A fence.acq_rel
 * after a relaxed loop measured ~20% slower than either. */
enum {
    GS__UNTIL_TOPBIT_FLIPS = 0, /* top bit of *p differs from ref's */
    GS__UNTIL_EQ = 1,           /* *p == ref */
    GS__UNTIL_NE = 2,           /* *p != ref */
    GS__UNTIL_GE64 = 3,         /* 64-bit *p >= ref */
    GS__UNTIL_DIFF_EQ = 4,      /* *p - ref == aux */
    GS__UNTIL_REACHED = 5,      /* *p has reached ref: (int)(*p - ref) >= 0, wrap-safe */
    GS__UNTIL_REACHED64 = 6,    /* 64-bit: (long long)(*p - ref) >= 0, wrap-safe */
    GS__ACQUIRE_EACH = 8,       /* or-ed in: every poll is an ld.acquire (as grid.sync) */
    GS__UNTIL_CONDITION = 7     /* the condition's bits */
};

GS_DEVICE int gs__wait_done(const void *p, int until, unsigned long long ref, unsigned int aux)
{
    int cond = until & GS__UNTIL_CONDITION;
    if (cond == GS__UNTIL_GE64 || cond == GS__UNTIL_REACHED64) {
        unsigned long long v;
        if (until & GS__ACQUIRE_EACH)
            v = gs__ld_acquire_gpu_u64((const unsigned long long *)p);
        else
            v = gs__ld_relaxed_gpu_u64((const unsigned long long *)p);
        return cond == GS__UNTIL_GE64 ? v >= ref : (long long)(v - ref) >= 0;
    }
    unsigned int v = (until & GS__ACQUIRE_EACH) ? gs__ld_acquire_gpu((const unsigned int *)p)
                                                : gs__ld_relaxed_gpu((const unsigned int *)p);
    switch (cond) {
    case GS__UNTIL_TOPBIT_FLIPS: return ((v ^ (unsigned int)ref) & 0x80000000u) != 0u;
    case GS__UNTIL_EQ: return v == (unsigned int)ref;
    case GS__UNTIL_NE: return v != (unsigned int)ref;
    case GS__UNTIL_REACHED: return (int)(v - (unsigned int)ref) >= 0;
    default: return v - (unsigned int)ref == aux;
    }
}

/* The acquire that ends a successful wait. */
GS_DEVICE void gs__wait_acquire(const void *p, int until)
{
    if (until & GS__ACQUIRE_EACH)
        return; /* the poll that saw it was the acquire */
    int cond = until & GS__UNTIL_CONDITION;
    if (cond == GS__UNTIL_GE64 || cond == GS__UNTIL_REACHED64)
        (void)gs__ld_acquire_gpu_u64((const unsigned long long *)p);
    else
        (void)gs__ld_acquire_gpu((const unsigned int *)p);
}

/* Claim the watchdog record (first observer wins), fill it (with up to
 * GS_REC_DETAIL_WORDS words of detail when `detail` is not NULL), raise the
 * flag with release so that readers of the flag see a filled record, then
 * set the host-mapped mirror of the flag, through which gs_launch refuses to
 * start a grid on a barrier whose time-out nobody has collected. */
static __device__ __noinline__ void gs__raise_detail(unsigned int *state, unsigned int kind,
                                                     unsigned int count, unsigned int rank,
                                                     int method, const unsigned int *detail)
{
    if (gs__atom_cas_relaxed_gpu(state + GS_REC_CLAIM, 0u, 1u) == 0u) {
        gs__st_relaxed_gpu(state + GS_REC_BARRIER, count);
        gs__st_relaxed_gpu(state + GS_REC_BLOCKS, gridDim.x * gridDim.y * gridDim.z);
        gs__st_relaxed_gpu(state + GS_REC_OBSERVER, rank);
        gs__st_relaxed_gpu(state + GS_REC_METHOD, (unsigned int)method);
        gs__st_relaxed_gpu(state + GS_REC_KIND, kind);
        for (unsigned int i = 0; detail && i < GS_REC_DETAIL_WORDS; ++i)
            gs__st_relaxed_gpu(state + GS_REC_DETAIL + i, detail[i]);
        gs__st_release_gpu(state + GS_REC_FLAG, 1u);
        unsigned int *host = *(unsigned int *const *)(state + GS_REC_HOST_FLAG);
        if (host)
            asm volatile("st.relaxed.sys.global.u32 [%0], 1;" ::"l"(host) : "memory");
    }
}

/* gs__raise_detail without detail, its own function (the barriers' slow
 * paths call only this one: fewer registers for their kernels). */
static __device__ __noinline__ void gs__raise(unsigned int *state, unsigned int kind,
                                              unsigned int count, unsigned int rank, int method)
{
    if (gs__atom_cas_relaxed_gpu(state + GS_REC_CLAIM, 0u, 1u) == 0u) {
        gs__st_relaxed_gpu(state + GS_REC_BARRIER, count);
        gs__st_relaxed_gpu(state + GS_REC_BLOCKS, gridDim.x * gridDim.y * gridDim.z);
        gs__st_relaxed_gpu(state + GS_REC_OBSERVER, rank);
        gs__st_relaxed_gpu(state + GS_REC_METHOD, (unsigned int)method);
        gs__st_relaxed_gpu(state + GS_REC_KIND, kind);
        gs__st_release_gpu(state + GS_REC_FLAG, 1u);
        unsigned int *host = *(unsigned int *const *)(state + GS_REC_HOST_FLAG);
        if (host)
            asm volatile("st.relaxed.sys.global.u32 [%0], 1;" ::"l"(host) : "memory");
    }
}

/* A misuse: the record names it (GS_MISUSE_* and up to five arguments). */
static __device__ __noinline__ void gs__raise_misuse(unsigned int *state, unsigned int count,
                                                     int method, unsigned int code,
                                                     unsigned int a0, unsigned int a1,
                                                     unsigned int a2, unsigned int a3,
                                                     unsigned int a4 = 0u)
{
    unsigned int detail[GS_REC_DETAIL_WORDS] = {code, a0, a1, a2, a3, a4};
    gs__raise_detail(state, GS_REC_KIND_MISUSE, count, gs__block_rank(), method, detail);
}

/* A grid larger than the state's capacity would index past it (lockfree's
 * flags, tree's group lines, the watchdog's where[]): every block leaves at
 * its first barrier, and gs_barrier_check says why. Only plain launches get
 * here (gs_launch refuses such grids). lock, flip and tree's flat path touch
 * no per-block word on their fast path: such a grid, never co-resident,
 * cannot complete their barrier and is caught by the slow path. Never
 * returns, so that calling it costs the caller no registers. */
static __device__ __noinline__ __attribute__((noreturn)) void
gs__leave_oversized(unsigned int *state, unsigned int count, int method)
{
    if (gs__thread_rank() == 0u)
        gs__raise(state, GS_REC_KIND_OVERSIZED, count, gs__block_rank(), method);
    asm volatile("exit;");
    __builtin_unreachable();
}

/* What the out-of-line barrier paths need of a view, passed to them by
 * value: the view's fields for the scoped primitives stay behind, so that
 * the call costs the caller no more registers than it did without them. */
typedef struct gs__view_core {
    unsigned int *state;
    unsigned long long timeout_ns;
    int method;
    unsigned int count, capacity, group_size, flat_max;
} gs__view_core;

GS_DEVICE gs__view_core gs__core_of(const gs_grid_barrier *b)
{
    gs__view_core c = {b->state,    b->timeout_ns,  b->method, b->count,
                       b->capacity, b->group_size, b->flat_max};
    return c;
}

GS_DEVICE gs_grid_barrier gs__view_of(gs__view_core c)
{
    gs_grid_barrier v = {};
    v.state = c.state;
    v.timeout_ns = c.timeout_ns;
    v.method = c.method;
    v.count = c.count;
    v.capacity = c.capacity;
    v.group_size = c.group_size;
    v.flat_max = c.flat_max;
    return v;
}

/* Everything the watched wait needs, gathered in memory only when a wait
 * goes slow, so that the call costs the fast path no registers. */
typedef struct gs__waiter {
    unsigned int *state;
    const void *p;
    unsigned long long ref, timeout_ns;
    unsigned int aux, count, rank, late;
    int until, method;
    unsigned int target; /* the block or signal waited on; ~0u: the whole grid */
} gs__waiter;

/* A wait's time-out: the grid's barrier's record, or, for a wait on one
 * block or signal, the one waited on, what it saw and what it expected.
 * Out of line, so that its registers do not count against the wait. */
static __device__ __noinline__ void gs__raise_timeout(const gs__waiter *w)
{
    if (w->target == ~0u) {
        gs__raise(w->state, GS_REC_KIND_TIMEOUT, w->count, w->rank, w->method);
        return;
    }
    int cond = w->until & GS__UNTIL_CONDITION;
    unsigned long long seen = cond == GS__UNTIL_GE64 || cond == GS__UNTIL_REACHED64
                                  ? *(const volatile unsigned long long *)w->p
                                  : *(const volatile unsigned int *)w->p;
    unsigned int detail[GS_REC_DETAIL_WORDS] = {w->target,
                                                (unsigned int)seen,
                                                (unsigned int)(seen >> 32),
                                                (unsigned int)w->ref,
                                                (unsigned int)(w->ref >> 32),
                                                0u};
    gs__raise_detail(w->state, GS_REC_KIND_WAIT_TIMEOUT, w->count, w->rank, w->method, detail);
}

namespace gs {
namespace detail {

/*
 * The watched wait (out of line): keeps polling; every 32 polls looks at the
 * record's flag (somebody else timed out: leave) and at the deadline, the
 * bounded wait's (bounded_wait.cuh), started on entry (past it: raise the
 * time-out, leave). A waiter that leaves records the barrier number it was
 * waiting at in where[rank]: the host names the blocks that have no such
 * record as missing. A block that finds the flag already up when its wait
 * turns slow (~36 us after arriving) is taken to have started after the
 * time-out and leaves unrecorded.
 *
 * One instance per condition (Until, a constant: gs__wait_slow picks it), with
 * the operands in registers: the loop is a poll, a compare and a branch,
 * where one function for every condition reloaded them from the waiter in
 * local memory and dispatched on the condition before each poll (0.12 us a
 * hand-off on H200, research/notes/tasks.md run 10). The loop is written out
 * rather than bounded_wait's (the same polls and looks): that form spilled a
 * loop counter of the tagged exchange.
 *
 * Genuine: the word grows only through work really done (the task
 * runtime's counters: a block that gives up a wait leaves without posting),
 * so it cannot come true through a time-out and the flag is not read once
 * it does. Every other wait reads the flag after its condition holds: after
 * a time-out, blocks that left go on to later barriers and their arrivals
 * can make the condition come true; with the flag up, this block leaves
 * (recorded) instead of passing.
 * Returns 0 when the condition came true, 1 when the caller must leave.
 */
template <int Until, bool Genuine>
static __device__ __noinline__ int wait_slow(const gs__waiter *w)
{
    const void *const p = w->p;
    const unsigned long long ref = w->ref;
    const unsigned int aux = w->aux;
    const unsigned int *const flag = w->state + GS_REC_FLAG;
    if (!Genuine && w->target == ~0u &&
        gs__grid_blocks() > gs__ld_relaxed_gpu(w->state + GS_REC_CAPACITY)) {
        /* a plain launch of a grid the state cannot hold (gs__leave_oversized):
         * leave before where[rank] is written */
        gs__raise(w->state, GS_REC_KIND_OVERSIZED, w->count, w->rank, w->method);
        return 1;
    }
    /* a time-out of 0 is "off" (GRIDSYNC_BARRIER_TIMEOUT=off): no deadline */
    const wait_deadline deadline = wait_deadline_from_now(w->timeout_ns);
    if ((!Genuine && w->late) || gs__ld_relaxed_gpu(flag) != 0u) {
        gs__st_relaxed_gpu(w->state + GS_REC_LATE, 1u); /* reported by gs_barrier_check */
        return 1;
    }
    for (unsigned int spins = 1;; ++spins) {
        if (gs__wait_done(p, Until, ref, aux)) {
            if (!Genuine && gs__ld_relaxed_gpu(flag) != 0u)
                break;
            gs__wait_acquire(p, Until);
            return 0;
        }
        if ((spins & 31u) != 0u)
            continue;
        if (gs__ld_relaxed_gpu(flag) == 0u) {
            if (!wait_deadline_reached(deadline))
                continue;
            gs__raise_timeout(w);
        }
        break;
    }
    /* where[rank]: a signal's waiter may come from a grid larger than
     * where[]; a task plan's record has none (its capacity is 0) */
    if (w->rank < gs__ld_relaxed_gpu(w->state + GS_REC_CAPACITY))
        gs__st_relaxed_gpu(w->state + GS_W_WHERE + w->rank, w->count);
    return 1;
}

/* wait_slow's instance for `until`: the 14 conditions (7 with and without
 * GS__ACQUIRE_EACH). Every call site passes a constant, and the tests fold
 * to one call; a `until` known only at run time would compile all 14
 * instances behind a chain of compares (about 2,700 lines of SASS), so keep
 * it constant. The last instance takes any value not matched before. */
template <bool Genuine, int U = 0>
static __device__ __forceinline__ int wait_slow_for(const gs__waiter *w, int until)
{
    constexpr int last = GS__UNTIL_REACHED64 | GS__ACQUIRE_EACH;
    if constexpr (U == last)
        return wait_slow<U, Genuine>(w);
    else if constexpr ((U & GS__UNTIL_CONDITION) > GS__UNTIL_REACHED64) /* not a condition */
        return wait_slow_for<Genuine, U + 1>(w, until);
    else
        return until == U ? wait_slow<U, Genuine>(w) : wait_slow_for<Genuine, U + 1>(w, until);
}

} // namespace detail
} // namespace gs

/* The watched wait for the waiter's condition (w->until). */
GS_DEVICE int gs__wait_slow(const gs__waiter *w)
{
    return gs::detail::wait_slow_for<false>(w, w->until);
}

/* The watched wait of a 32-bit counter that grows only through work really
 * done (the task runtime's counters): until (int)(*p - ref) >= 0, every
 * poll an ld.acquire, and no read of the flag once it holds (Genuine). */
GS_DEVICE int gs__wait_slow_counter(const gs__waiter *w)
{
    return gs::detail::wait_slow<GS__UNTIL_REACHED | GS__ACQUIRE_EACH, true>(w);
}

/* Wait until the condition holds: inline polls first, then the watched slow
 * path. `late` is the record's flag as read just after arriving: nonzero
 * means a time-out happened before this block arrived, so the counters may
 * be inconsistent and the condition may come true for no reason: such a
 * block leaves through the slow path even then. It is tested only once the
 * condition holds, by which time its load (issued with the first poll) has
 * returned: no extra round trip on the fast path. Returns 1 when the caller
 * must leave the kernel (watchdog). */
GS_DEVICE int gs__wait_on(const gs_grid_barrier *b, unsigned int rank, const void *p, int until,
                          unsigned long long ref, unsigned int aux, unsigned int late,
                          unsigned int target)
{
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k)
        if (gs__wait_done(p, until, ref, aux)) {
            if (late)
                break;
            gs__wait_acquire(p, until);
            return 0;
        }
    gs__waiter w = {b->state, p,    ref,   b->timeout_ns, aux, b->count, rank,
                    late,     until, b->method, target};
    return gs__wait_slow(&w);
}

/* A wait of the whole grid's barrier (no single block to name). */
GS_DEVICE int gs__wait(const gs_grid_barrier *b, unsigned int rank, const void *p, int until,
                       unsigned long long ref, unsigned int aux, unsigned int late)
{
    return gs__wait_on(b, rank, p, until, ref, aux, late, ~0u);
}

/* The record's flag, read right after arriving (never before: a load ahead
 * of a release makes the release wait for it, ~140 ns on H200). */
GS_DEVICE unsigned int gs__late(const gs_grid_barrier *b)
{
    return gs__ld_relaxed_gpu(b->state + GS_REC_FLAG);
}

#endif /* GRIDSYNC_DETAIL_BARRIER_WAIT_CUH */
