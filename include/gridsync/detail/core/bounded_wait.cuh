/*
 * gridsync/detail/core/bounded_wait.cuh - the parts of gridsync's one bounded
 * wait (internal): every wait of a thread for another agent's progress (a
 * block, another GPU, the host) bounds itself with them, so that no wait
 * can hang a GPU. Each wait writes its own poll loop around them, tuned
 * and its callers' SASS compared (ptxas allocates a __noinline__
 * function's registers with its callers', and a generic loop's extra
 * values spilled a loop counter of the tagged exchange; inline, the scan's
 * look-back grew ~40 instructions):
 *   - the barriers' and the scoped primitives' watched slow path and the
 *     task counters' (barrier_wait.cuh: gs::detail::wait_slow, one instance
 *     per condition),
 *     tagged words (tagged_word.cuh) and the task runtime's wait for its
 *     copies (tasks/runner.cuh): a deadline started on entry
 *     (wait_deadline_from_now, wait_deadline_reached);
 *   - the scan's look-back and the cross-GPU meetings (scan_tile_state.cuh,
 *     multi_exchange.cuh, multi_allreduce.cuh): the deadline started at the
 *     first look, from a clock reading the caller took (wait_deadline_at);
 *   - the scan's resident kernel's wait for a bulk copy in flight, which
 *     goes on after its time-out (resident_scan.cuh): wait_polling with a
 *     look of its own (wait_deadline_after, wait_deadline_passed).
 * Everywhere: the same polls, a look every 32 or 64 polls (an abort test
 * first, another waiter already gave up or the host called the work off,
 * then the clock), one 64-bit deadline word, one meaning of a time-out of
 * 0 (no bound: the deadline never comes).
 *
 * Why it is correct.
 *   - Bounded: with timeout_ns > 0, a wait whose condition never holds
 *     takes a look every `Every` polls, and %globaltimer (a GPU-wide
 *     nanosecond clock, monotonic, 64 bits: no wrap in 292 years, and
 *     below the 2^63 that marks a deadline not started) passes the
 *     deadline after timeout_ns, so the wait ends within the time-out plus
 *     `Every` polls (plus the polls before the first look, where the
 *     deadline starts there: a wait met within its first `Every` polls
 *     never reads the clock).
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
 * window of 32 descriptors per poll). In a __noinline__ function that many
 * kernels call, compare the callers' SASS before and after (cuobjdump
 * -sass): a wait that holds more values than the one it replaces can make
 * the callers spill across the call.
 */
#ifndef GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH
#define GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH

#include <gridsync/detail/core/grid_geometry.cuh>
#include <gridsync/detail/core/memory_order.cuh>

namespace gs {
namespace detail {

/* What wait_polling's loop and its look answer. */
enum wait_result {
    WAIT_PENDING = 0, /* (a look) go on polling */
    WAIT_MET = 1      /* the polled condition held */
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
    wait_deadline d = {timeout_ns ? gs__globaltimer_ns() + timeout_ns : WAIT_NEVER};
    return d;
}

/* Whether a deadline started with wait_deadline_from_now has passed: one
 * clock read and one compare (what the barriers' slow paths always did). */
GS_DEVICE bool wait_deadline_reached(const wait_deadline &d)
{
    return gs__globaltimer_ns() >= d.word;
}

/* One look at the clock: whether the deadline has passed. The first look
 * of a deadline not started starts it (and answers no). */
GS_DEVICE bool wait_deadline_passed(wait_deadline &d)
{
    const unsigned long long now = gs__globaltimer_ns();
    if ((d.word & WAIT_NOT_STARTED) != 0ull && d.word != WAIT_NEVER) {
        const unsigned long long timeout_ns = d.word & ~WAIT_NOT_STARTED;
        d.word = timeout_ns ? now + timeout_ns : WAIT_NEVER;
        return false;
    }
    return now >= d.word;
}

/* A poll loop with a look of the caller's: poll until `poll()` is true
 * (WAIT_MET); every `Every` polls `look()` (WAIT_PENDING: go on; any other
 * answer ends the loop with it). */
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

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BOUNDED_WAIT_CUH */
