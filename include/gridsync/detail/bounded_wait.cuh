/*
 * gridsync/detail/bounded_wait.cuh - the one bounded wait of gridsync
 * (internal): every wait of a thread for another agent's progress (a block,
 * another GPU, the host) polls through it, so that no wait can hang a GPU.
 * Its users: the barriers' and the scoped primitives' watched slow path
 * (barrier_wait.cuh), tagged words (tagged_word.cuh), the scan's look-back
 * and its resident kernel's waits (scan_tile_state.cuh, resident_scan.cuh),
 * the cross-GPU meetings (multi_exchange.cuh, multi_allreduce.cuh), and the
 * task runtime.
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
 * Building blocks for a wait that does not fit (one that goes on after its
 * time-out, as the scan's wait for a bulk copy in flight): wait_polling
 * (the loop, with a look of the caller's), wait_look and
 * wait_deadline_passed.
 *
 * Why it is correct.
 *   - Bounded: with timeout_ns > 0, a wait whose condition never holds
 *     takes a look every `Every` polls, and %globaltimer (a GPU-wide
 *     nanosecond clock, monotonic, 64 bits: no wrap) passes the deadline
 *     after timeout_ns, so the wait ends within the time-out plus `Every`
 *     polls (plus the polls before the first look: the deadline starts
 *     there, so a wait met within its first `Every` polls never reads the
 *     clock, and a look costs nothing on a prompt wait).
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
 * window of 32 descriptors per poll).
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

/* A wait's deadline on %globaltimer, started at its first look. */
struct wait_deadline {
    unsigned long long at;         /* 0: not started yet; ~0: never */
    unsigned long long timeout_ns; /* 0: no bound */
};

GS_DEVICE wait_deadline wait_deadline_after(unsigned long long timeout_ns)
{
    wait_deadline d = {0ull, timeout_ns};
    return d;
}

/* One look at the clock: whether the deadline has passed. The first look
 * starts it (and answers no). */
GS_DEVICE bool wait_deadline_passed(wait_deadline &d)
{
    const unsigned long long now = gs_globaltimer_ns();
    if (d.at == 0ull) {
        d.at = d.timeout_ns ? now + d.timeout_ns : ~0ull;
        return false;
    }
    return now >= d.at;
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
