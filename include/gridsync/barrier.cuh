/*
 * gridsync/barrier.cuh - grid-wide barriers for users' own kernels.
 *
 *   #include <gridsync.h>            // host API: create, launch, check
 *   #include <gridsync/barrier.cuh>  // device API: gs_grid_sync
 *
 *   __global__ void solver(gs_grid_barrier bar, float *x, int n)
 *   {
 *       for (int it = 0; it < 100; ++it) {
 *           phase_one(x, n);
 *           gs_grid_sync(&bar);   // every block's phase_one is visible here
 *           phase_two(x, n);
 *           gs_grid_sync(&bar);
 *       }
 *   }
 *
 * The host creates the barrier (gs_barrier_create), gets the view for the
 * grid (gs_barrier_device), launches with gs_launch (which refuses grids that
 * cannot be co-resident) and collects the watchdog's verdict with
 * gs_barrier_check.
 *
 * Contract
 *   - Every thread of every block calls gs_grid_sync the same number of
 *     times, with a pointer to its own copy of the view (a by-value kernel
 *     parameter is such a copy). The copy counts the barriers of this launch,
 *     which is how a time-out can say "barrier #5".
 *   - Ordering: acquire/release at GPU scope. Every memory access a thread of
 *     the grid made before the barrier happens-before every access any thread
 *     makes after it.
 *   - Reuse: the state serves any number of barriers and launches, of any
 *     grid size up to its capacity, with no reset from the host.
 *   - Watchdog: no wait is unbounded. A wait that exceeds the view's
 *     timeout_ns records the barrier number and the waiting blocks in the
 *     state, and every waiting block of the grid leaves the kernel (its
 *     threads exit); gs_barrier_check then returns GS_ERR_BARRIER_TIMEOUT and
 *     names the blocks that never arrived. A block that starts after the
 *     time-out leaves at its first barrier without being counted as arrived.
 *
 * NVRTC: this header and what it includes have no #include of the C library
 * or the CUDA runtime, so kernels compiled at run time can use it (pass
 * -I<prefix>/include); they launch through gs_launch_func. With nvcc it
 * also includes gridsync.h, as it always has.
 *
 * Methods (gs_barrier_method; the view carries one, resolved on the host;
 * the list is GS_BARRIER_METHODS in gridsync/barrier_view.h):
 *   lock, lockfree, flip - the classic designs of the tutorials
 *                          (docs/tutorials.md) and of cooperative groups,
 *                          made correct;
 *   tree                 - gridsync's own, the fastest; see gs_grid_sync_tree;
 *   flags                - gridsync's all-to-all flags: one release and one
 *                          acquire round trip, no atomic; measured slower
 *                          than flip at every grid of more than one block
 *                          on H200 (2.23 against 1.05 us at 132 blocks);
 *                          see gs_grid_sync_flags.
 */
#ifndef GRIDSYNC_BARRIER_CUH
#define GRIDSYNC_BARRIER_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_dispatch.cuh>
#include <gridsync/detail/barrier/barrier_split.cuh>
#ifndef __CUDACC_RTC__
#include <gridsync.h> /* the host API beside the device one, as before */
#endif

/* ------------------------------------------------- barriers with one method
 * Each ignores the view's method field: for kernels that know their method
 * and want only its registers (26 to 32 on sm_90). Every one is a complete
 * barrier for the calling block: a block barrier first (the writes of all
 * the block's threads happen-before thread 0's release, by cumulativity),
 * the grid-wide step, and a final block barrier (thread 0's acquire
 * happens-before the reads of all the block's threads). On a watchdog
 * time-out the waiting blocks' threads exit the kernel. */

/*
 * gs_grid_sync_tree - gridsync's barrier.
 * Where the time goes (H200, measured with the probes in docs/barrier-design.md):
 * a release fence waits for the block's stores to be acknowledged (~270 ns),
 * an atomic round trip takes ~385 ns, an L2 load ~140 ns, a fence with
 * nothing pending still ~134 ns, a block barrier ~14 ns. grid.sync() pays
 * fence + atomic + polls that each carry an acquire; on full grids the N
 * arrivals and N pollers also queue on one L2 line.
 *
 * How, one block: a block barrier; there is no other block to meet.
 * How, up to flat_max blocks (default 2048): exactly flip (top-bit counter,
 *   atom.add.release, ld.acquire polls), with the grouped path kept out of
 *   line so that the poll loop compiles as in flip. Measured alternatives,
 *   none better across grid sizes (docs/barrier-design.md): relaxed polls with one final
 *   acquire (-1% at 132 blocks, +50% at 1056: faster polls congest the
 *   counter's L2 line), a fire-and-forget red.add with an early read, with or
 *   without a delay before polling, and hardware cluster barriers (~200-500
 *   ns each, and clusters lower co-residency to 992 blocks).
 * How, larger grids (only blocks of <= 64 threads get there): blocks form
 *   groups of G consecutive ranks, each group owning one L2 line
 *   {count, released}. A block reads `released`, adds 1 to `count`
 *   (red.add.release) and polls `released` until it moves. Each thread of
 *   block 0 watches one group's count; after a block barrier every watcher
 *   publishes released = count (st.release). Arrivals spread over N/G lines
 *   and each line has at most G + 1 pollers, at the price of a second release
 *   fence (block 0's) in the chain.
 * Why correct: a release (atom/red/st.release, cumulative over the block
 *   barrier before it) read by an acquire, chained through block barriers:
 *   the PTX model's causality order is transitive. Counters only grow
 *   (mod 2^32) and are equal (grouped) or have their low bits back (flat)
 *   between barriers, so launches of any size reuse them with no reset.
 * When: always; it is what auto uses. Expect grid.sync()'s speed on grids
 *   of one or more blocks per SM (within a few percent) and a block
 *   barrier's speed on one block, with a watchdog and no host reset.
 */
namespace gs {
/* gs::grid_sync<M>(&view): the barrier of method M (a GS_BARRIER_* constant
 * other than AUTO), fixed at compile time, exactly as gs_grid_sync_<m>: for
 * code that is generic over the methods (the benchmark measures every
 * method of GS_BARRIER_METHODS this way). */
template <int Method>
static __device__ __forceinline__ void grid_sync(gs_grid_barrier *b)
{
    detail::grid_sync_with<Method>(b);
}
} // namespace gs

static __device__ __forceinline__ void gs_grid_sync_tree(gs_grid_barrier *b)
{
    gs::detail::grid_sync_with<GS_BARRIER_TREE>(b);
}

/*
 * gs_grid_sync_flip - one 32-bit counter whose top bit flips every barrier (the scheme of
 *   cooperative groups' grid.sync()).
 * How: block 0 adds 0x80000000 - (N - 1), every other block adds 1
 *   (atom.add.release); once all N have arrived the low bits are back to
 *   their old value and the top bit has flipped. Thread 0 polls
 *   (ld.acquire on every poll, exactly as grid.sync does) until the top bit
 *   differs from the one its atomic returned.
 * Why correct: as lock. Nothing is ever reset, and since the sum added per
 *   barrier is exactly 2^31 for any N, launches of any size reuse the word.
 * When: the reference for grid.sync(): the same algorithm, plus a watchdog.
 */
static __device__ __forceinline__ void gs_grid_sync_flip(gs_grid_barrier *b)
{
    gs::detail::grid_sync_with<GS_BARRIER_FLIP>(b);
}

/*
 * gs_grid_sync_lock - the tutorial's lock-based barrier (docs/tutorials.md),
 *   made correct.
 * How: thread 0 of each block adds to one 64-bit counter (atom.add.release)
 *   and polls it (ld.acquire) until it reaches the goal, which grows every
 *   barrier. The tutorial grows the goal by the grid size N, which ties the
 *   counter to one N; here block 0 adds GS_LOCK_STRIDE - (N - 1) and the
 *   others 1, so the goal grows by the fixed stride, the counter is a
 *   multiple of it between barriers and any later launch, of any size, can
 *   reuse it. The goal is derived from the value the atomic returns.
 * Why correct: the release on the add and the acquire on the poll that sees
 *   the goal order every block's pre-barrier writes before every block's
 *   post-barrier reads. The tutorial polled a volatile with no fences.
 * When: a reference. One atomic round trip, then polling, all on one L2
 *   line: as fast as flip; slower than tree on one block and on full grids.
 */
static __device__ __forceinline__ void gs_grid_sync_lock(gs_grid_barrier *b)
{
    gs::detail::grid_sync_with<GS_BARRIER_LOCK>(b);
}

/*
 * gs_grid_sync_lockfree - the tutorial's lock-free barrier (Xiao & Feng,
 *   docs/tutorials.md), made correct.
 * How: each block i owns in[i] and out[i], equal between barriers. Arrival:
 *   thread 0 of block i sets in[i] = out[i] + 1 (st.release). Block 0 checks:
 *   its threads share the N flags (thread t takes t, t + blockDim, ...),
 *   each waits until in[i] has moved past out[i] (ld.acquire); a block
 *   barrier; then each sets out[i] = in[i] (st.release). Thread 0 of block i
 *   waits until out[i] equals its in[i] (ld.acquire).
 * Fixes to the tutorial's: any N and any block size (it needs
 *   blockDim >= gridDim), `==` where it had `if (tid_in_blk = 0)`, release
 *   and acquire where it had plain volatile accesses, and a per-block
 *   generation instead of a goal the caller must pass.
 * Why correct: block i's release of in[i] synchronizes with the checking
 *   thread's acquire; the checking block's barrier plus the release of out[j]
 *   carries that (cumulativity) to block j's acquire of out[j].
 * When: a reference. No atomics, but two hops through block 0 and N flags
 *   to poll: slower than the others at every size.
 */
static __device__ __forceinline__ void gs_grid_sync_lockfree(gs_grid_barrier *b)
{
    gs::detail::grid_sync_with<GS_BARRIER_LOCKFREE>(b);
}

/*
 * gs_grid_sync_flags - an all-to-all flag barrier: each block owns one word
 *   and every block polls every word.
 * How: thread 0 of block b stores b's count of barriers (its word + 1,
 *   loaded while the block arrives) into its word (st.release); the block's
 *   thread t < N polls word t (ld.acquire) until it has reached that
 *   count. One block: a block barrier; more blocks than threads a block: flip's counter
 *   (a loop of waits per thread would cost every gs_grid_sync kernel
 *   registers). The words of blocks past the grid are kept equal to the
 *   grid's, so that a later, larger grid finds its words equal.
 * Why correct: block b's release (cumulative over the block barrier before
 *   it) is read by an acquire of every other block, whose final block barrier
 *   carries it to all its threads. A word is one count behind, level, or one
 *   ahead of the count polled for (never two: that needs the poller's own
 *   next store), so the wrap-safe compare holds. The full argument:
 *   gridsync/detail/barrier/barrier_flags.cuh.
 * When: on H200, never yet: it measured 2.23 us a barrier at 132 blocks
 *   against flip's 1.05 (the N pollers a block congest the words' lines),
 *   6.2 us at 264 blocks of 1024 threads, and ties tree on one block;
 *   docs/barrier-design.md has the tables. Kept as the atomic-free design
 *   and as the recipe's example of a method; prefer tree (GS_BARRIER_AUTO).
 */
static __device__ __forceinline__ void gs_grid_sync_flags(gs_grid_barrier *b)
{
    gs::detail::grid_sync_with<GS_BARRIER_FLAGS>(b);
}

/* ------------------------------------------------ split-phase grid barrier */

/*
 * gs_grid_arrive / gs_grid_wait - the grid barrier in two halves, with
 * independent work between them:
 *
 *   write_halo(x);                              // what others will read
 *   gs_grid_token t = gs_grid_arrive(&bar);     // "my writes are done"
 *   update_interior(x);                         // needs nobody else's data
 *   gs_grid_wait(&bar, t);                      // everybody's writes visible
 *   update_boundary(x);                         // reads others' halos
 *
 * Contract: as gs_grid_sync (every thread of every block calls both, the
 *   same number of times; reuse with no reset; the watchdog), with no
 *   other barrier of the same view between an arrive and its wait (a token
 *   of another step is reported as a misuse). Writes made between arrive
 *   and wait are not covered by this barrier.
 * How: arrive is flip's arrival (a block barrier, then thread 0's
 *   red.add.release on the flip counter); nothing comes back, so thread 0
 *   goes on with its work as soon as its fence lets it. The poller (lane 0
 *   of the last warp) already holds the counter's top bit from before the
 *   arrival: its own last wait saw it, or it loads it ahead of the block
 *   barrier. wait is flip's wait, in the poller: ld.acquire until the top
 *   bit differs (the first poll no sooner than a few clocks a block after
 *   the arrival, so that on large grids the polls let the arrivals land),
 *   then a block barrier. Thread 0's fence and the poller's
 *   round trip stall different warps, so they overlap. It meets on the
 *   flip counter whatever method the view carries (it is tree's counter up
 *   to flat_max blocks), so it mixes freely with gs_grid_sync in one
 *   kernel.
 * Why correct: flip's argument (gs_grid_sync_flip), split at the point
 *   where the arriving block no longer needs to stand still: the release
 *   covers the block's writes before arrive (block barrier, cumulativity);
 *   the acquire in wait precedes the block's reads after it (block
 *   barrier). The top bit flips once per barrier, when the last block
 *   arrives, so it cannot flip between the poller's load (ordered before
 *   thread 0's release by the block barrier) and this block's arrival;
 *   a bit remembered from the poller's last wait stays right as long as
 *   no barrier of the view ran since (every barrier counts in the view).
 * When: whenever a block has work that does not depend on the others
 *   between producing what they need and consuming what they produce. The
 *   barrier's latency hides behind that work (`gridsync bench sync`
 *   measures arrive + W + wait against W alone). Cooperative groups has the
 *   same shape (grid.barrier_arrive/barrier_wait), without a watchdog.
 */
static __device__ __forceinline__ gs_grid_token gs_grid_arrive(gs_grid_barrier *b)
{
    return gs__grid_arrive(b);
}

static __device__ __forceinline__ void gs_grid_wait(gs_grid_barrier *b, gs_grid_token token)
{
    gs__grid_wait(b, token);
}

/* ----------------------------------------------------------- entry point */

/*
 * gs_grid_sync - barrier across every thread of the grid, with the method the
 * view carries (flip and tree's common paths, which auto resolves to,
 * inline; the other methods through a call). All
 * threads of every block must call it, the same number of times, each with a
 * pointer to its own copy of the view. On a watchdog time-out every waiting
 * block's threads exit the kernel (see the file comment); otherwise it
 * returns once every block has arrived. The run-time choice costs registers
 * (about 48 on sm_90, against 26 to 32 for one method's own function, because
 * the out-of-line methods' registers count against the kernel): a kernel that
 * needs every register can call the method's own function instead.
 */
static __device__ __forceinline__ void gs_grid_sync(gs_grid_barrier *b)
{
    gs::detail::grid_sync_any(b);
}

#endif /* GRIDSYNC_BARRIER_CUH */
