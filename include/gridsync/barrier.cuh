/*
 * gridsync/barrier.cuh - grid-wide barriers for users' own kernels.
 *
 *   #include <gridsync.h>
 *   #include <gridsync/barrier.cuh>
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
 * Methods (gs_barrier_method; the view carries one, resolved on the host):
 *   lock, lockfree, flip - the classic designs of the seeds and of
 *                          cooperative groups, made correct;
 *   tree                 - gridsync's own, the fastest; see gs_grid_sync_tree.
 */
#ifndef GRIDSYNC_BARRIER_CUH
#define GRIDSYNC_BARRIER_CUH

#include <gridsync.h>
#include <gridsync/barrier_layout.h>
#include <gridsync/memory_order.cuh>

/* ------------------------------------------------------------- geometry */

GS_DEVICE unsigned int gs__block_rank(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

GS_DEVICE unsigned int gs__grid_blocks(void) { return gridDim.x * gridDim.y * gridDim.z; }

GS_DEVICE unsigned int gs__thread_rank(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

GS_DEVICE unsigned int gs__block_threads(void) { return blockDim.x * blockDim.y * blockDim.z; }

/* ------------------------------------------------------------- watchdog */

/* Per-wait watchdog. The clock is read only every 32 polls and the deadline
 * is set at the first reading, so a barrier that completes within a few
 * microseconds never touches the timer: the bound costs nothing on the fast
 * path. Every 32 polls the wait also looks at the record's flag, so once any
 * block has timed out every other waiter leaves within microseconds. */
typedef struct gs__watch {
    unsigned int spins;
    unsigned long long deadline;
} gs__watch;

/* Claim the watchdog record (first observer wins), fill it, then raise the
 * flag with release so that the filled record is what readers see. */
GS_DEVICE void gs__raise_timeout(const gs_grid_barrier *b, unsigned int rank)
{
    unsigned int *rec = b->state;
    if (gs_atom_cas_relaxed_gpu(rec + GS_REC_CLAIM, 0u, 1u) == 0u) {
        gs_st_relaxed_gpu(rec + GS_REC_BARRIER, b->count);
        gs_st_relaxed_gpu(rec + GS_REC_BLOCKS, gs__grid_blocks());
        gs_st_relaxed_gpu(rec + GS_REC_OBSERVER, rank);
        gs_st_relaxed_gpu(rec + GS_REC_METHOD, (unsigned int)b->method);
        gs_st_release_gpu(rec + GS_REC_FLAG, 1u);
    }
}

/* One poll's worth of watchdog. Returns 1 when the caller must give up: the
 * record's flag is up (somebody timed out) or this wait just timed out. A
 * giving-up waiter records which barrier it was waiting at. */
GS_DEVICE int gs__watch_tick(const gs_grid_barrier *b, gs__watch *w, unsigned int rank)
{
    if ((++w->spins & 31u) != 0u)
        return 0;
    int give_up = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG) != 0u;
    if (!give_up) {
        unsigned long long now = gs_globaltimer_ns();
        if (w->deadline == 0ull) {
            w->deadline = now + b->timeout_ns;
            return 0;
        }
        if (now < w->deadline)
            return 0;
        gs__raise_timeout(b, rank);
        give_up = 1;
    }
    gs_st_relaxed_gpu(b->state + GS_W_WHERE + rank, b->count);
    return 1;
}

/* Spin until (*p & mask) != (ref & mask) [flip-style], or give up. */
#define GS__WAIT_WHILE(cond, b, rank, give_up)                                         \
    do {                                                                               \
        gs__watch gs__w = {0u, 0ull};                                                  \
        while (cond) {                                                                 \
            if (gs__watch_tick((b), &gs__w, (rank))) {                                 \
                (give_up) = 1;                                                         \
                break;                                                                 \
            }                                                                          \
        }                                                                              \
    } while (0)

/* --------------------------------------------------------------- methods
 * Each method runs between two block barriers (see gs_grid_sync): the first
 * makes the writes of all the block's threads happen-before thread 0's
 * release (cumulativity), the second makes thread 0's acquire happen-before
 * the reads of all the block's threads. Each returns nonzero when the
 * calling thread must give up (watchdog). */

/*
 * lock - the seed's lock-based barrier, made correct.
 * How: thread 0 of each block adds to one 64-bit counter (atom.add.release)
 *   and polls it (ld.acquire) until it reaches the goal, which grows every
 *   barrier. The seed grows the goal by the grid size N, which ties the
 *   counter to one N; here block 0 adds GS_LOCK_STRIDE - (N - 1) and the
 *   others 1, so the goal grows by the fixed stride, the counter is a
 *   multiple of it between barriers and any later launch, of any size, can
 *   reuse it. The goal is derived from the value the atomic returns.
 * Why correct: the release on the add and the acquire on the poll that sees
 *   the goal order every block's pre-barrier writes before every block's
 *   post-barrier reads. The seed polled a volatile with no fences.
 * When: a reference. One atomic round trip then polling, all on one L2 line:
 *   as fast as flip, slower than tree beyond a few dozen blocks.
 */
GS_DEVICE int gs__sync_lock(const gs_grid_barrier *b, unsigned int rank, unsigned int n)
{
    unsigned long long *ctr = (unsigned long long *)(b->state + GS_W_LOCK);
    unsigned int stop = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
    unsigned long long add = rank == 0u ? GS_LOCK_STRIDE - (n - 1u) : 1ull;
    unsigned long long old = gs_atom_add_release_gpu_u64(ctr, add);
    if (stop)
        return 1;
    unsigned long long goal = (old / GS_LOCK_STRIDE + 1ull) * GS_LOCK_STRIDE;
    int give_up = 0;
    GS__WAIT_WHILE(gs_ld_acquire_gpu_u64(ctr) < goal, b, rank, give_up);
    return give_up;
}

/*
 * flip - one 32-bit counter whose top bit flips every barrier (the scheme of
 *   cooperative groups' grid.sync()).
 * How: block 0 adds 0x80000000 - (N - 1), every other block adds 1
 *   (atom.add.release); once all N have arrived the low bits are back to
 *   their old value and the top bit has flipped. Thread 0 polls
 *   (ld.acquire) until the top bit differs from the one its atomic returned.
 * Why correct: as lock. Nothing is ever reset, and since the sum added per
 *   barrier is exactly 2^31 for any N, launches of any size reuse the word.
 * When: the reference for grid.sync(); our own implementation of it, with a
 *   watchdog. Beyond a few dozen blocks prefer tree.
 */
GS_DEVICE int gs__sync_flip(const gs_grid_barrier *b, unsigned int rank, unsigned int n)
{
    unsigned int *ctr = b->state + GS_W_FLIP;
    unsigned int stop = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
    unsigned int add = rank == 0u ? 0x80000000u - (n - 1u) : 1u;
    unsigned int old = gs_atom_add_release_gpu(ctr, add);
    if (stop)
        return 1;
    int give_up = 0;
    GS__WAIT_WHILE(((gs_ld_acquire_gpu(ctr) ^ old) & 0x80000000u) == 0u, b, rank, give_up);
    return give_up;
}

/*
 * lockfree - the seed's lock-free barrier (Xiao & Feng), made correct.
 * How: each block i owns in[i] and out[i], equal between barriers. Arrival:
 *   thread 0 of block i sets in[i] = out[i] + 1 (st.release). Block 0 checks:
 *   its threads share the N flags (thread t takes t, t + blockDim, ...),
 *   each waits until in[i] has moved past out[i] (ld.acquire); a block
 *   barrier; then each sets out[i] = in[i] (st.release). Thread 0 of block i
 *   waits until out[i] equals its in[i] (ld.acquire).
 * Fixes to the seed: any N and any block size (the seed needs
 *   blockDim >= gridDim), `==` where it had `if (tid_in_blk = 0)`, release
 *   and acquire where it had plain volatile accesses, and a per-block
 *   generation instead of a goal the caller must pass.
 * Why correct: block i's release of in[i] synchronizes with the checking
 *   thread's acquire; the checking block's barrier plus the release of out[j]
 *   carries that (cumulativity) to block j's acquire of out[j].
 * When: a reference. No atomics, but two hops through block 0 and N flags
 *   to poll: slower than tree at every size.
 */
GS_DEVICE int gs__sync_lockfree(const gs_grid_barrier *b, unsigned int rank, unsigned int n,
                                unsigned int tid, unsigned int nthreads)
{
    unsigned int *in = b->state + GS_W_IN(b->capacity);
    unsigned int *out = b->state + GS_W_OUT(b->capacity);
    int give_up = 0;
    unsigned int mine = 0u, stop = 0u;
    if (tid == 0u) {
        stop = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
        mine = gs_ld_relaxed_gpu(in + rank) + 1u;
        gs_st_release_gpu(in + rank, mine);
    }
    if (rank == 0u) { /* uniform in the block: the checking block */
        if (tid == 0u && stop)
            give_up = 1;
        for (unsigned int i = tid; i < n && !give_up; i += nthreads) {
            unsigned int want = gs_ld_relaxed_gpu(out + i) + 1u;
            GS__WAIT_WHILE(gs_ld_acquire_gpu(in + i) != want, b, rank, give_up);
        }
        if (__syncthreads_or(give_up))
            return 1;
        for (unsigned int i = tid; i < n; i += nthreads)
            gs_st_release_gpu(out + i, gs_ld_relaxed_gpu(in + i));
        return 0;
    }
    if (tid == 0u) {
        if (stop)
            return 1;
        GS__WAIT_WHILE(gs_ld_acquire_gpu(out + rank) != mine, b, rank, give_up);
    }
    return give_up;
}

/* Tree geometry for a grid of n blocks with nthreads threads per block:
 * groups of g consecutive blocks, at most nthreads groups so that each
 * thread of the checking block watches at most one. */
GS_DEVICE unsigned int gs__tree_group(const gs_grid_barrier *b, unsigned int n,
                                      unsigned int nthreads)
{
    unsigned int g = b->group_size ? b->group_size : 8u;
    unsigned int least = (n + nthreads - 1u) / nthreads;
    return g > least ? g : least;
}

/*
 * tree - gridsync's barrier.
 * Where the time goes in flip and lock at full occupancy: ~N arrivals
 * serialised on one L2 line, ~N pollers hammering that same line, and an
 * atomic round trip before polling even starts. tree removes all three.
 *
 * How, small grids (N <= flat_max): one counter with flip's top-bit
 *   scheme, but thread 0 reads the counter before arriving and arrives with
 *   a fire-and-forget red.add.release, so it starts polling at once instead
 *   of waiting a round trip for the atomic's old value; polls are relaxed
 *   and one fence.acq_rel completes the acquire. (The early read is sound:
 *   this thread saw the previous flip, and the top bit cannot flip again
 *   before it arrives.)
 * How, large grids: blocks form groups of G consecutive ranks (default 8;
 *   at most one group per thread of block 0). Each group owns one L2 line
 *   {count, released}. A block reads `released`, then adds 1 to `count`
 *   (red.add.release) and polls `released` until it moves. Block 0's
 *   threads each watch one group's count (relaxed polls, then an acquire
 *   fence); after a block barrier every watcher publishes
 *   released = count (fence + relaxed store). Arrivals spread over N/G lines
 *   in parallel instead of queueing on one; each line has at most G + 1
 *   pollers; no thread waits for an atomic's return value.
 * Why correct: member release (red.release) -> watcher acquire (fence after
 *   relaxed poll) -> block barrier in block 0 -> watcher release (fence
 *   before store) -> member acquire (fence after relaxed poll): a chain of
 *   release/acquire pairs and CTA barriers, transitive in the PTX model.
 *   `count` and `released` only grow (mod 2^32) and are equal between
 *   barriers, so launches of any size reuse them.
 * When: always (it is what auto uses). The one-block case is a block
 *   barrier alone: no other block exists to synchronize with.
 */
GS_DEVICE int gs__sync_tree(const gs_grid_barrier *b, unsigned int rank, unsigned int n,
                            unsigned int tid, unsigned int nthreads)
{
    int give_up = 0;
    if (n == 1u)
        return 0;
    if (n <= b->flat_max) {
        if (tid != 0u)
            return 0;
        unsigned int *ctr = b->state + GS_W_FLAT;
        unsigned int stop = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
        unsigned int old = gs_ld_relaxed_gpu(ctr);
        gs_red_add_release_gpu(ctr, rank == 0u ? 0x80000000u - (n - 1u) : 1u);
        if (stop)
            return 1;
        GS__WAIT_WHILE(((gs_ld_relaxed_gpu(ctr) ^ old) & 0x80000000u) == 0u, b, rank, give_up);
        gs_fence_acq_rel_gpu();
        return give_up;
    }

    unsigned int g = gs__tree_group(b, n, nthreads);
    unsigned int *groups = b->state + GS_W_GROUPS(b->capacity);
    unsigned int stop = 0u, seen = 0u;
    unsigned int *line = groups + (rank / g) * GS_LINE_WORDS;
    if (tid == 0u) {
        stop = gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
        seen = gs_ld_relaxed_gpu(line + GS_GROUP_RELEASED);
        gs_red_add_release_gpu(line + GS_GROUP_COUNT, 1u);
    }
    if (rank == 0u) { /* uniform in the block: block 0 watches the groups */
        unsigned int ngroups = (n + g - 1u) / g;
        unsigned int *mine = groups + tid * GS_LINE_WORDS;
        unsigned int base = 0u, size = 0u;
        if (tid == 0u && stop)
            give_up = 1;
        if (tid < ngroups && !give_up) {
            size = tid == ngroups - 1u ? n - tid * g : g;
            base = gs_ld_relaxed_gpu(mine + GS_GROUP_RELEASED);
            GS__WAIT_WHILE(gs_ld_relaxed_gpu(mine + GS_GROUP_COUNT) - base != size, b, rank,
                           give_up);
            gs_fence_acq_rel_gpu();
        }
        if (__syncthreads_or(give_up))
            return 1;
        if (tid < ngroups) {
            gs_fence_acq_rel_gpu();
            gs_st_relaxed_gpu(mine + GS_GROUP_RELEASED, base + size);
        }
        return 0;
    }
    if (tid == 0u) {
        if (stop)
            return 1;
        GS__WAIT_WHILE(gs_ld_relaxed_gpu(line + GS_GROUP_RELEASED) == seen, b, rank, give_up);
        gs_fence_acq_rel_gpu();
    }
    return give_up;
}

/* ----------------------------------------------------------- entry point */

/*
 * gs_grid_sync - barrier across every thread of the grid.
 * All threads of every block must call it, the same number of times. On a
 * watchdog time-out every waiting block's threads exit the kernel (see the
 * file comment); otherwise it returns once every block has arrived.
 */
static __device__ __forceinline__ void gs_grid_sync(gs_grid_barrier *b)
{
    unsigned int n = gs__grid_blocks();
    unsigned int rank = gs__block_rank();
    unsigned int tid = gs__thread_rank();
    unsigned int nthreads = gs__block_threads();
    int give_up;

    b->count += 1u;
    __syncthreads();
    switch (b->method) {
    case GS_BARRIER_LOCK:
        give_up = tid == 0u ? gs__sync_lock(b, rank, n) : 0;
        break;
    case GS_BARRIER_FLIP:
        give_up = tid == 0u ? gs__sync_flip(b, rank, n) : 0;
        break;
    case GS_BARRIER_LOCKFREE:
        give_up = gs__sync_lockfree(b, rank, n, tid, nthreads);
        break;
    default:
        give_up = gs__sync_tree(b, rank, n, tid, nthreads);
        break;
    }
    if (__syncthreads_or(give_up))
        asm volatile("exit;");
}

#endif /* GRIDSYNC_BARRIER_CUH */
