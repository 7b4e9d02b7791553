/*
 * gridsync/detail/bounded_wait.cuh - the one bounded wait of gridsync
 * (internal): every wait of a thread for another agent's progress (a block,
 * another GPU, the host) polls through it, so that no wait can hang a GPU.
 * It comes as a whole loop (bounded_wait, bounded_wait_warp: for new waits,
 * the task runtime's among them) and as its parts, which the library's
 * older waits, each tuned and its callers' SASS compared, use inside loops
 * of their own, written out because the loop form changed their callers'
 * code (ptxas allocates a __noinline__ function's registers with its
 * callers', and the look's extra values spilled a loop counter of the
 * tagged exchange; inline, the scan's look-back grew ~40 instructions):
 *   - the barriers' and the scoped primitives' watched slow path
 *     (barrier_wait.cuh) and tagged words (tagged_word.cuh): a deadline
 *     started on entry (wait_deadline_from_now, wait_deadline_reached);
 *   - the scan's look-back and its resident kernel's waits
 *     (scan_tile_state.cuh, resident_scan.cuh): the look (wait_look, the
 *     abort word then the deadline), and wait_polling for the wait for a
 *     bulk copy in flight, which goes on after its time-out;
 *   - the cross-GPU meetings (multi_exchange.cuh, multi_allreduce.cuh): the
 *     deadline started at the first look (wait_deadline_at).
 * Either way: the same polls, the same looks (every 32 or 64 polls), one
 * 64-bit deadline word, one meaning of a time-out of 0.
 *
 * How it works. A wait polls a condition until it holds. Every `Every`
 * polls (a power of two) it takes a look: first at an abort test (another
 * waiter already gave up and raised a flag, or the host called the work
 * off), then at a deadline on %globaltimer. The deadline starts at the
 * first look, `timeout_ns` later (a time-out of 0 is "no bound": the
 * deadline never comes). The wait ends with what ended it:
 *
 *     gs::detail::wait_deadline d = gs::detail::wait_deadline_after(timeout_ns);
 *     int r = gs::detail::bounded_wait<32>(
 *         d, [&] { return gs_ld_relaxed_gpu(word) == expected; },  // poll
 *         [&] { return gs_ld_relaxed_gpu(flag) != 0u; });          // abort test
 *     // r: WAIT_MET, WAIT_ABORTED or WAIT_TIMED_OUT
 *
 * and the caller acts on it: on WAIT_MET it completes its acquire (below),
 * on WAIT_TIMED_OUT it records the time-out (it is the first to see it: a
 * waiter that finds the abort flag up gets WAIT_ABORTED instead and records
 * nothing), then raises the abort flag for the others, and on either of
 * those it leaves. bounded_wait_warp is the same wait for a whole warp
 * whose poll is warp-collective (a window of descriptors read by 32 lanes,
 * an __all_sync): lane 0 takes the looks and every lane gets its answer,
 * so the warp stays converged. One deadline may serve several waits in
 * turn (a look-back over several windows, a meeting polled peer by peer).
 * A wait that has already polled a while inline may start its deadline on
 * entry instead (wait_deadline_from_now), as the barriers' slow paths do.
 * Building blocks for a wait that does not fit (one that goes on after its
 * time-out, as the scan's wait for a bulk copy in flight; a loop whose
 * exact shape matters to its callers' registers): wait_polling (the loop,
 * with a look of the caller's), wait_look, wait_deadline_passed and, for a
 * deadline started on entry (wait_deadline_from_now, or wait_deadline_at
 * from a clock reading the caller took), wait_deadline_reached.
 *
 * Why it is correct.
 *   - Bounded: with timeout_ns > 0, a wait whose condition never holds
 *     takes a look every `Every` polls, and %globaltimer (a GPU-wide
 *     nanosecond clock, monotonic, 64 bits: no wrap in 292 years, and
 *     below the 2^63 that marks a deadline not started) passes the
 *     deadline after timeout_ns, so the wait ends within the time-out plus
 *     `Every` polls (plus the polls before the first look: the deadline
 *     starts there, so a wait met within its first `Every` polls never
 *     reads the clock, and a look costs nothing on a prompt wait).
 *   - Polls and looks are loads the compiler may not merge or hoist: the
 *     caller's poll uses the ld.relaxed/ld.acquire or volatile loads of
 *     memory_order.cuh, and %globaltimer is read by an asm volatile.
 *   - Memory order: the wait itself orders nothing. A poll that sees the
 *     condition through relaxed loads is completed by the caller's acquire
 *     of the same location (an ld.acquire of the word, which reads the
 *     value seen or a later one of the same release sequence, see
 *     barrier_wait.cuh), or the poll is an acquire itself; only then may the
 *     caller read what the condition guards. An abort test should read its
 *     flag relaxed (or acquire, where the flag carries a record to read):
 *     it only decides to leave.
 *   - One report per failure: the abort test comes before the clock, so a
 *     waiter that finds the flag already raised leaves without reporting a
 *     second time-out; where several waiters pass their deadlines at once,
 *     the caller's record is claimed by the first (an atomic CAS, as
 *     barrier_wait.cuh's gs__raise does) and the others' are dropped.
 *
 * When to use it: for every wait on another agent. Keep a few inline polls
 * before it where the wait is usually short and registers matter (the
 * barriers do: GS_TUNE_BARRIER_FAST_POLLS inline polls, then the bounded
 * wait in a __noinline__ slow path, which the fast path pays nothing for).
 * `Every`: 32 where the abort flag is in device memory next to the polled
 * word, 64 where a look is expensive (host-mapped memory over PCIe, a
 * window of 32 descriptors per poll). A deadline is one 64-bit word across
 * the loop. In a __noinline__ function that many kernels call, compare the
 * callers' SASS before and after (cuobjdump -sass): ptxas allocates the
 * registers of a function and its callers together, and a wait that holds
 * more values than the one it replaces can make the callers spill across
 * the call.
 */
#ifndef GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH
#define GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH

#include <gridsync/detail/grid_geometry.cuh>
#include <gridsync/detail/memory_order.cuh>

namespace gs {
namespace detail {

/* How a bounded wait ended (WAIT_PENDING: a look's answer "go on"). */
enum wait_result {
    WAIT_PENDING = 0,  /* (wait_look only) neither aborted nor past the deadline */
    WAIT_MET = 1,      /* the polled condition held */
    WAIT_ABORTED = 2,  /* the abort test said so: somebody else gave up first */
    WAIT_TIMED_OUT = 3 /* past the deadline: the caller records the time-out */
};

/* A wait's deadline on %globaltimer: one 64-bit word (one register across
 * the poll loop), which holds the time-out with the top bit set until the
 * deadline is started, then the deadline; WAIT_NEVER (all ones): no bound. */
struct wait_deadline {
    unsigned long long word;
};

enum : unsigned long long {
    WAIT_NOT_STARTED = 1ull << 63, /* no %globaltimer reading has it (292 years) */
    WAIT_NEVER = ~0ull
};

/* A deadline `timeout_ns` after the wait's first look (0: no bound; any
 * time-out below 2^63 - 1 ns). */
GS_DEVICE wait_deadline wait_deadline_after(unsigned long long timeout_ns)
{
    wait_deadline d = {WAIT_NOT_STARTED | timeout_ns};
    return d;
}

/* A deadline `timeout_ns` after `now`, a %globaltimer reading the caller
 * has taken anyway (0: no bound). */
GS_DEVICE wait_deadline wait_deadline_at(unsigned long long now, unsigned long long timeout_ns)
{
    wait_deadline d = {timeout_ns ? now + timeout_ns : WAIT_NEVER};
    return d;
}

/* A deadline `timeout_ns` from now (0: no bound), for a wait that has
 * already polled a while inline (the barriers' slow paths: the time-out
 * counts from their entry). */
GS_DEVICE wait_deadline wait_deadline_from_now(unsigned long long timeout_ns)
{
    wait_deadline d = {timeout_ns ? gs_globaltimer_ns() + timeout_ns : WAIT_NEVER};
    return d;
}

/* Whether a deadline started with wait_deadline_from_now has passed: one
 * clock read and one compare (what the barriers' slow paths always did). */
GS_DEVICE bool wait_deadline_reached(const wait_deadline &d)
{
    return gs_globaltimer_ns() >= d.word;
}

/* One look at the clock: whether the deadline has passed. The first look
 * of a deadline not started starts it (and answers no). */
GS_DEVICE bool wait_deadline_passed(wait_deadline &d)
{
    const unsigned long long now = gs_globaltimer_ns();
    if ((d.word & WAIT_NOT_STARTED) != 0ull && d.word != WAIT_NEVER) {
        const unsigned long long timeout_ns = d.word & ~WAIT_NOT_STARTED;
        d.word = timeout_ns ? now + timeout_ns : WAIT_NEVER;
        return false;
    }
    return now >= d.word;
}

/* One look: the abort test first, then the clock. WAIT_ABORTED,
 * WAIT_TIMED_OUT or WAIT_PENDING. */
template <class Aborted>
GS_DEVICE int wait_look(wait_deadline &d, Aborted aborted)
{
    if (aborted())
        return WAIT_ABORTED;
    return wait_deadline_passed(d) ? WAIT_TIMED_OUT : WAIT_PENDING;
}

/* An abort test for waits nobody calls off (only the clock ends them). */
struct wait_never_aborted {
    __device__ __forceinline__ bool operator()() const { return false; }
};

/* The loop both waits below share: poll until `poll()` is true
 * (WAIT_MET); every `Every` polls `look()` (WAIT_PENDING: go on). */
template <unsigned int Every, class Poll, class Look>
GS_DEVICE int wait_polling(Poll poll, Look look)
{
    static_assert(Every > 0u && (Every & (Every - 1u)) == 0u, "look every 2^k polls");
    for (unsigned int polls = 1u;; ++polls) {
        if (poll())
            return WAIT_MET;
        if ((polls & (Every - 1u)) != 0u)
            continue;
        const int r = look();
        if (r != WAIT_PENDING)
            return r;
    }
}

/* Poll until `poll()` is true (WAIT_MET), taking a look every `Every`
 * polls: WAIT_ABORTED or WAIT_TIMED_OUT end it. One thread. */
template <unsigned int Every, class Poll, class Aborted>
GS_DEVICE int bounded_wait(wait_deadline &d, Poll poll, Aborted aborted)
{
    return wait_polling<Every>(poll, [&] { return wait_look(d, aborted); });
}

/* This thread's lane in its warp, right for blocks of any shape: %laneid
 * (the host emulation of tests/host/cuda_emulation.h: the linear thread
 * rank's low bits, which is what the hardware's lane is). */
GS_DEVICE unsigned int wait_lane(void)
{
#if defined(__CUDA_ARCH__)
    unsigned int lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
#else
    return gs__thread_rank() & 31u;
#endif
}

/* The same for the 32 lanes of a warp, all calling, whose `poll()` gives
 * every lane the same answer (it is warp-collective: a ballot, an
 * __all_sync): lane 0 takes the looks (only its deadline is started) and
 * every lane returns its answer. */
template <unsigned int Every, class Poll, class Aborted>
GS_DEVICE int bounded_wait_warp(wait_deadline &d, Poll poll, Aborted aborted)
{
    return wait_polling<Every>(poll, [&] {
        int r = WAIT_PENDING;
        if (wait_lane() == 0u)
            r = wait_look(d, aborted);
        return __shfl_sync(0xffffffffu, r, 0);
    });
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH */
