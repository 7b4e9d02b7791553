/*
 * gridsync/detail/barrier/barrier_flags.cuh - the flags method (internal): an
 * all-to-all flag barrier. Each block owns one 32-bit word of the state,
 * flag[b] (consecutive words, barrier_layout.h), counting its barriers; a
 * block arrives with one st.release of its count and leaves once its threads
 * have seen every block's word reach that count (acquire polls). No
 * atomic, no master block: one release and one acquire round trip on the
 * critical path, against flip's returning atomic then polls, or lockfree's
 * two hops through block 0. The public entry point: gs_grid_sync_flags in
 * gridsync/barrier.cuh.
 *
 * How (a grid of n blocks of T threads, 1 < n <= T; one block: a block
 * barrier; more blocks than threads: flip's counter, see below):
 *   1. every thread loads flag[b] (relaxed; only this block writes it) before
 *      the entry block barrier, so that the load's round trip overlaps the
 *      block's arrival; k = that value + 1 is this barrier's count;
 *   2. block barrier; thread 0 stores flag[b] = k (st.release.gpu);
 *   3. thread t < n polls flag[t] with ld.acquire.gpu until it has reached k,
 *      wrap-safe ((int)(flag - k) >= 0), in the library's bounded wait
 *      (barrier_wait.cuh: inline polls, then the watched slow path);
 *   4. the words of blocks past the grid, [n, capacity), are kept equal to the
 *      grid's: block b stores k (relaxed) into its share of them, ceil((capacity
 *      - n) / n) consecutive words from n + b * share (see "reuse" below),
 *      after its polls, off the critical path; a block barrier with OR ends
 *      the barrier and carries the watchdog's verdict.
 * More blocks than threads (n > T): flip's counter (gs__sync_flip: inline in
 *   gs_grid_sync as for flip and tree, out of line in gs_grid_sync_flags,
 *   whose kernels it took from 32 to 40 registers inline). A thread polling
 *   several words needs a loop around the bounded wait, and that loop, in the out-of-line
 *   function every gs_grid_sync kernel carries, raised those kernels'
 *   registers (48 to 56 for tests/gpu/exchange.cuh's kernel on sm_90; one
 *   word a thread keeps them as they were); such grids are where flags is
 *   predicted to lose anyway (see When). The words stay untouched there, so
 *   they stay equal.
 *
 * Why correct (PTX memory model, gpu scope):
 *   - Ordering. Block b's writes before the barrier precede thread 0's
 *     st.release of flag[b] through the entry bar.sync (the release is
 *     cumulative over what bar.sync made thread 0 observe). A poller in
 *     block c leaves on an ld.acquire of flag[b] that reads a value >= k:
 *     a value stored by b's release of k or by a later release of the same
 *     thread (k + 1; only b's thread 0 writes the word, so coherence order is
 *     its program order), which follows the release of k in program order:
 *     either way the acquire synchronizes with a release that b's
 *     pre-barrier writes happen before.
 *     Every word of the grid is read so by a thread of c (thread t reads
 *     word t, n <= T), and c's final bar.sync orders all those acquires before
 *     every thread of c's accesses after the barrier; causality order is
 *     transitive, so every access before the barrier in any block
 *     happens-before every access after it in any block.
 *   - No early pass, and the wrap-safe compare holds. flag[b] reaches k only
 *     when b arrives at its k-th barrier (one store per barrier, counts start
 *     equal: see reuse). While c polls for k, flag[b] is k - 1 (b has not
 *     arrived), k, or k + 1 (b passed barrier k, which it could only do once
 *     every word, c's included, had reached k, and arrived at the next); never
 *     k + 2, which needs b to pass barrier k + 1, i.e. to see c's word at
 *     k + 1, which c has not stored. So flag - k is -1, 0 or 1, and
 *     (int)(flag - k) >= 0 is right across the 2^32 wrap.
 *   - Reuse with no host reset, any grid size. Between launches every word
 *     of [0, capacity) holds the same count: a flags barrier of n blocks
 *     moves the grid's n words (step 2) and every word past the grid (step 3)
 *     to the same k; one block and grids of more blocks than threads touch
 *     none. So the words of any later grid start equal, which the argument
 *     above needs (without step 3, a larger grid would find its new blocks'
 *     words behind the others', and those blocks would pass barriers the
 *     others had not reached). The
 *     step-3 stores are read only by later launches, after the kernel
 *     boundary. A time-out leaves the words unequal; gs_barrier_check
 *     re-arms (zeroes) the state, as for every method.
 *   - Watchdog: the polls are the library's bounded wait. A block that never
 *     arrives leaves its word behind, every arrived block has a thread
 *     polling that word, times out or sees the record raised, and records
 *     the barrier number in where[] (barrier_wait.cuh): the blocks with no
 *     record, named by gs_barrier_check, are exactly the ones whose words
 *     stayed behind. A block that arrives after a time-out (late) leaves.
 *   - An acquire every poll (GS__ACQUIRE_EACH), not relaxed polls and one
 *     closing ld.acquire: the closing load is one more L2 round trip after
 *     the last word arrives. Measured on H200, the acquire polls were
 *     slower, not faster: 2.23 against 1.99 us at 132 blocks
 *     (docs/barrier-design.md), their traffic costing more than the round
 *     trip. The next version should go back to relaxed polls (dropping
 *     GS__ACQUIRE_EACH below), measured with this version's register fix.
 *
 * When: predicted to beat flip and tree at 2 to about 264 blocks; measured
 *   on H200 (docs/barrier-design.md), it does not: 2.23 against flip's
 *   1.05 us at 132 blocks with an acquire every poll (1.99 with relaxed
 *   polls and a closing acquire), 6.2 us at 264 blocks of 1024 threads; the
 *   N pollers a block congest the words' lines. It ties tree on one block.
 *   Prefer tree; flags is the atomic-free design and the example of adding
 *   a method.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_FLAGS_CUH
#define GRIDSYNC_DETAIL_BARRIER_FLAGS_CUH

#include <gridsync/detail/barrier/barrier_flip.cuh>
#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>

/* Step 3: block `rank` stores `count` into its share of the words past a grid
 * of n blocks, ceil((capacity - n) / n) consecutive ones from n + rank * share,
 * so that every word of the state holds the grid's count between launches. */
GS_DEVICE void gs__flags_keep_in_step(unsigned int *flags, unsigned int n, unsigned int capacity,
                                      unsigned int rank, unsigned int count)
{
    const unsigned int share = (capacity - 1u) / n; /* ceil((capacity - n) / n) */
    const unsigned int first = n + rank * share;
    const unsigned int end = first + share < capacity ? first + share : capacity;
    for (unsigned int i = first + gs__thread_rank(); i < end; i += gs__block_threads())
        gs__st_relaxed_gpu(flags + i, count);
}

/* The barrier on a grid of 1 < n <= (threads a block, capacity) blocks
 * (steps 1-4 above). */
GS_DEVICE int gs__sync_flags_grid(const gs_grid_barrier *b)
{
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank(), tid = gs__thread_rank();
    unsigned int *flags = b->state + GS_W_FLAGS(b->capacity);
    const unsigned int count = gs__ld_relaxed_gpu(flags + rank) + 1u; /* before arriving */
    int give_up = 0;
    __syncthreads();
    if (tid == 0u)
        gs__st_release_gpu(flags + rank, count);
    if (tid < n) /* late: the record's flag, read after arriving (gs__wait_slow) */
        give_up = gs__wait(b, rank, flags + tid, GS__UNTIL_REACHED | GS__ACQUIRE_EACH, count, 0u,
                           gs__late(b));
    gs__flags_keep_in_step(flags, n, b->capacity, rank, count); /* off the critical path */
    return __syncthreads_or(give_up);
}

/* gs__sync_flags_grid out of line for gs_grid_sync_flags, with flip's
 * counter for grids of more blocks than threads, as tree's grouped path
 * (gs__sync_grouped_call): inline, either took the exchange kernels of
 * `gridsync bench barrier` to 40 registers on sm_90 (six blocks of 256
 * threads an SM instead of eight), against 32 so. */
static __device__ __noinline__ int gs__sync_flags_call(gs__view_core core)
{
    gs_grid_barrier view = gs__view_of(core);
    if (gs__grid_blocks() > gs__block_threads())
        return gs__sync_flip(&view);
    return gs__sync_flags_grid(&view);
}

/* The whole flags barrier: a block barrier on one block, flip's counter on
 * grids of more blocks than threads (neither touches a word: the words stay
 * equal), the flags between; a grid larger than the state's capacity leaves
 * (gs_grid_sync checks that itself before its dispatch). */
GS_DEVICE int gs__sync_flags(const gs_grid_barrier *b)
{
    const unsigned int n = gs__grid_blocks();
    if (n == 1u) {
        __syncthreads();
        return 0;
    }
    if (n > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    return gs__sync_flags_call(gs__core_of(b));
}

namespace gs {
namespace detail {
template <>
struct barrier_method<GS_BARRIER_FLAGS> {
    static constexpr bool out_of_line_part = true;
    static __device__ __forceinline__ barrier_path inline_path(const gs_grid_barrier *,
                                                               unsigned int n)
    {
        return n == 1u                    ? path_block_barrier
               : n > gs__block_threads() ? path_flip_counter
                                         : path_call;
    }
    static __device__ __forceinline__ int out_of_line(const gs_grid_barrier *b)
    {
        return gs__sync_flags_grid(b);
    }
    static __device__ __forceinline__ int sync(const gs_grid_barrier *b) { return gs__sync_flags(b); }
};
} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_FLAGS_CUH */
