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

/* ------------------------------------------------------------- waiting */

/* What a wait waits for; each call site passes a constant, so the switch in
 * gs__wait_done folds away in the fast path. By default polls are relaxed
 * loads and, once the condition holds, one ld.acquire of the same word
 * completes the acquire (it reads the value seen or a later one of the same
 * release sequence). With GS__ACQUIRE_EACH every poll is an ld.acquire, as in
 * grid.sync: slower polls, which on a full grid keep the counter's L2 line
 * less congested (2.2 against 3.3 us at 1056 blocks on H200). A fence.acq_rel
 * after a relaxed loop measured ~20% slower than either. */
enum {
    GS__UNTIL_TOPBIT_FLIPS = 0, /* top bit of *p differs from ref's */
    GS__UNTIL_EQ = 1,           /* *p == ref */
    GS__UNTIL_NE = 2,           /* *p != ref */
    GS__UNTIL_GE64 = 3,         /* 64-bit *p >= ref */
    GS__UNTIL_DIFF_EQ = 4,      /* *p - ref == aux */
    GS__ACQUIRE_EACH = 8        /* or-ed in: every poll is an ld.acquire (as grid.sync) */
};

GS_DEVICE int gs__wait_done(const void *p, int until, unsigned long long ref, unsigned int aux)
{
    int cond = until & ~GS__ACQUIRE_EACH;
    if (cond == GS__UNTIL_GE64) {
        unsigned long long v;
        if (until & GS__ACQUIRE_EACH)
            v = gs_ld_acquire_gpu_u64((const unsigned long long *)p);
        else
            asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v >= ref;
    }
    unsigned int v = (until & GS__ACQUIRE_EACH) ? gs_ld_acquire_gpu((const unsigned int *)p)
                                                : gs_ld_relaxed_gpu((const unsigned int *)p);
    switch (cond) {
    case GS__UNTIL_TOPBIT_FLIPS: return ((v ^ (unsigned int)ref) & 0x80000000u) != 0u;
    case GS__UNTIL_EQ: return v == (unsigned int)ref;
    case GS__UNTIL_NE: return v != (unsigned int)ref;
    default: return v - (unsigned int)ref == aux;
    }
}

/* The acquire that ends a successful wait. */
GS_DEVICE void gs__wait_acquire(const void *p, int until)
{
    if (until & GS__ACQUIRE_EACH)
        return; /* the poll that saw it was the acquire */
    if ((until & ~GS__ACQUIRE_EACH) == GS__UNTIL_GE64)
        (void)gs_ld_acquire_gpu_u64((const unsigned long long *)p);
    else
        (void)gs_ld_acquire_gpu((const unsigned int *)p);
}

/* Polls made inline before a wait moves to the watched slow path: ~50 us of
 * polling, far beyond a healthy barrier, so the watchdog costs nothing on
 * the fast path and its registers stay out of the user's kernel. */
#define GS__FAST_POLLS 256u

/* Claim the watchdog record (first observer wins), fill it, raise the flag
 * with release so that readers of the flag see a filled record, then set
 * the host-mapped mirror of the flag, through which gs_launch refuses to
 * start a grid on a barrier whose time-out nobody has collected. */
static __device__ __noinline__ void gs__raise(unsigned int *state, unsigned int kind,
                                              unsigned int count, unsigned int rank, int method)
{
    if (gs_atom_cas_relaxed_gpu(state + GS_REC_CLAIM, 0u, 1u) == 0u) {
        gs_st_relaxed_gpu(state + GS_REC_BARRIER, count);
        gs_st_relaxed_gpu(state + GS_REC_BLOCKS, gridDim.x * gridDim.y * gridDim.z);
        gs_st_relaxed_gpu(state + GS_REC_OBSERVER, rank);
        gs_st_relaxed_gpu(state + GS_REC_METHOD, (unsigned int)method);
        gs_st_relaxed_gpu(state + GS_REC_KIND, kind);
        gs_st_release_gpu(state + GS_REC_FLAG, 1u);
        unsigned int *host = *(unsigned int *const *)(state + GS_REC_HOST_FLAG);
        if (host)
            asm volatile("st.relaxed.sys.global.u32 [%0], 1;" ::"l"(host) : "memory");
    }
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

/* Everything the watched wait needs, gathered in memory only when a wait
 * goes slow, so that the call costs the fast path no registers. */
typedef struct gs__waiter {
    unsigned int *state;
    const void *p;
    unsigned long long ref, timeout_ns;
    unsigned int aux, count, rank, late;
    int until, method;
} gs__waiter;

/*
 * The watched wait (out of line): keeps polling; every 32 polls looks at the
 * record's flag (somebody else timed out: leave) and at %globaltimer (past
 * the deadline: raise the time-out, leave). A waiter that leaves records the
 * barrier number it was waiting at in where[rank]: the host names the blocks
 * that have no such record as missing. A block that finds the flag already
 * up when its wait turns slow (~36 us after arriving) is taken to have
 * started after the time-out and leaves unrecorded.
 * Returns 0 when the condition came true, 1 when the caller must leave.
 */
static __device__ __noinline__ int gs__wait_slow(const gs__waiter *w)
{
    if (gs__grid_blocks() > gs_ld_relaxed_gpu(w->state + GS_REC_CAPACITY)) {
        /* a plain launch of a grid the state cannot hold (gs__leave_oversized):
         * leave before where[rank] is written */
        gs__raise(w->state, GS_REC_KIND_OVERSIZED, w->count, w->rank, w->method);
        return 1;
    }
    /* a time-out of 0 is "off" (GRIDSYNC_BARRIER_TIMEOUT=off): no deadline */
    unsigned long long deadline = w->timeout_ns ? gs_globaltimer_ns() + w->timeout_ns : ~0ull;
    if (w->late || gs_ld_relaxed_gpu(w->state + GS_REC_FLAG) != 0u) {
        gs_st_relaxed_gpu(w->state + GS_REC_LATE, 1u); /* reported by gs_barrier_check */
        return 1;
    }
    for (unsigned int spins = 1;; ++spins) {
        if (gs__wait_done(w->p, w->until, w->ref, w->aux)) {
            /* After a time-out, blocks that left go on to later barriers and
             * their arrivals can make this condition come true: with the
             * flag up, this block leaves (recorded) instead of passing. */
            if (gs_ld_relaxed_gpu(w->state + GS_REC_FLAG) != 0u)
                break;
            gs__wait_acquire(w->p, w->until);
            return 0;
        }
        if ((spins & 31u) != 0u)
            continue;
        if (gs_ld_relaxed_gpu(w->state + GS_REC_FLAG) == 0u) {
            if (gs_globaltimer_ns() < deadline)
                continue;
            gs__raise(w->state, GS_REC_KIND_TIMEOUT, w->count, w->rank, w->method);
        }
        break;
    }
    gs_st_relaxed_gpu(w->state + GS_W_WHERE + w->rank, w->count);
    return 1;
}

/* Wait until the condition holds: inline polls first, then the watched slow
 * path. `late` is the record's flag as read just after arriving: nonzero
 * means a time-out happened before this block arrived, so the counters may
 * be inconsistent and the condition may come true for no reason: such a
 * block leaves through the slow path even then. It is tested only once the
 * condition holds, by which time its load (issued with the first poll) has
 * returned: no extra round trip on the fast path. Returns 1 when the caller
 * must leave the kernel (watchdog). */
GS_DEVICE int gs__wait(const gs_grid_barrier *b, unsigned int rank, const void *p, int until,
                       unsigned long long ref, unsigned int aux, unsigned int late)
{
    for (unsigned int k = 0; k < GS__FAST_POLLS; ++k)
        if (gs__wait_done(p, until, ref, aux)) {
            if (late)
                break;
            gs__wait_acquire(p, until);
            return 0;
        }
    gs__waiter w = {b->state, p, ref, b->timeout_ns, aux, b->count, rank, late, until, b->method};
    return gs__wait_slow(&w);
}

/* The record's flag, read right after arriving (never before: a load ahead
 * of a release makes the release wait for it, ~140 ns on H200). */
GS_DEVICE unsigned int gs__late(const gs_grid_barrier *b)
{
    return gs_ld_relaxed_gpu(b->state + GS_REC_FLAG);
}

/* --------------------------------------------------------------- methods
 * Each method is a complete barrier for the calling block: a block barrier
 * first (the writes of all the block's threads happen-before thread 0's
 * release, by cumulativity), the grid-wide step, and a final block barrier
 * with OR (thread 0's acquire happens-before the reads of all the block's
 * threads). The OR carries the watchdog's verdict: nonzero means every thread
 * of the block must leave the kernel. A block that finds the record's flag
 * already up when it arrives (it started after a time-out) leaves without
 * counting as arrived. */

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
 * When: a reference. One atomic round trip, then polling, all on one L2
 *   line: as fast as flip; slower than tree on one block and on full grids.
 */
GS_DEVICE int gs__sync_lock(const gs_grid_barrier *b)
{
    int give_up = 0;
    __syncthreads();
    if (gs__thread_rank() == 0u) {
        unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
        unsigned long long *ctr = (unsigned long long *)(b->state + GS_W_LOCK);
        unsigned long long add = rank == 0u ? GS_LOCK_STRIDE - (n - 1u) : 1ull;
        unsigned long long old = gs_atom_add_release_gpu_u64(ctr, add);
        unsigned long long goal = (old / GS_LOCK_STRIDE + 1ull) * GS_LOCK_STRIDE;
        give_up = gs__wait(b, rank, ctr, GS__UNTIL_GE64, goal, 0u, gs__late(b));
    }
    return __syncthreads_or(give_up);
}

/*
 * flip - one 32-bit counter whose top bit flips every barrier (the scheme of
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
GS_DEVICE int gs__sync_flip(const gs_grid_barrier *b)
{
    int give_up = 0;
    __syncthreads();
    if (gs__thread_rank() == 0u) {
        unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
        unsigned int *ctr = b->state + GS_W_FLIP;
        unsigned int old = gs_atom_add_release_gpu(ctr, rank == 0u ? 0x80000000u - (n - 1u) : 1u);
        give_up = gs__wait(b, rank, ctr, GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, old, 0u,
                           gs__late(b));
    }
    return __syncthreads_or(give_up);
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
 *   to poll: slower than the others at every size.
 */
GS_DEVICE int gs__sync_lockfree(const gs_grid_barrier *b)
{
    unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
    unsigned int tid = gs__thread_rank(), nthreads = gs__block_threads();
    unsigned int *in = b->state + GS_W_IN(b->capacity);
    unsigned int *out = b->state + GS_W_OUT(b->capacity);
    unsigned int mine = 0u, late = 0u;
    int give_up = 0;
    __syncthreads();
    if (tid == 0u) {
        mine = gs_ld_relaxed_gpu(in + rank) + 1u;
        gs_st_release_gpu(in + rank, mine);
    }
    if (rank == 0u || tid == 0u)
        late = gs__late(b);
    if (rank == 0u) { /* uniform in the block: the checking block */
        for (unsigned int i = tid; i < n && !give_up; i += nthreads)
            give_up = gs__wait(b, rank, in + i, GS__UNTIL_EQ, gs_ld_relaxed_gpu(out + i) + 1u, 0u,
                               late);
        if (__syncthreads_or(give_up))
            return 1;
        for (unsigned int i = tid; i < n; i += nthreads)
            gs_st_release_gpu(out + i, gs_ld_relaxed_gpu(in + i));
    } else if (tid == 0u) {
        give_up = gs__wait(b, rank, out + rank, GS__UNTIL_EQ, mine, 0u, late);
    }
    return __syncthreads_or(give_up);
}

/* Tree geometry for a grid of n blocks with nthreads threads per block:
 * groups of g consecutive blocks, at most nthreads groups so that each
 * thread of block 0 watches at most one. */
GS_DEVICE unsigned int gs__tree_group(const gs_grid_barrier *b, unsigned int n,
                                      unsigned int nthreads)
{
    unsigned int g = b->group_size ? b->group_size : 32u;
    unsigned int least = (n + nthreads - 1u) / nthreads;
    return g > least ? g : least;
}

/* tree's grouped path; called out of line (gs__sync_reference): only huge
 * grids of tiny blocks take it, and inline it changed the code generated for
 * the common flat path (a reconvergence region around the poll loop: 1.3
 * against 1.05 us at 264 blocks on H200). */
GS_DEVICE int gs__sync_tree_grouped(const gs_grid_barrier *b)
{
    unsigned int n = gs__grid_blocks(), rank = gs__block_rank(), tid = gs__thread_rank();
    int give_up = 0;
    unsigned int g = gs__tree_group(b, n, gs__block_threads());
    unsigned int ngroups = (n + g - 1u) / g;
    unsigned int *groups = b->state + GS_W_GROUPS(b->capacity);
    unsigned int *line = groups + (rank / g) * GS_LINE_WORDS;
    unsigned int *watched = groups + tid * GS_LINE_WORDS;
    int watcher = rank == 0u && tid < ngroups;
    unsigned int seen = 0u, base = 0u, late = 0u; /* late: see gs__wait_slow */
    if (tid == 0u)
        seen = gs_ld_relaxed_gpu(line + GS_GROUP_RELEASED);
    if (watcher)
        base = gs_ld_relaxed_gpu(watched + GS_GROUP_RELEASED);
    __syncthreads();
    if (tid == 0u)
        gs_red_add_release_gpu(line + GS_GROUP_COUNT, 1u);
    if (rank == 0u) { /* uniform in the block: block 0 watches the groups */
        unsigned int size = tid == ngroups - 1u ? n - tid * g : g;
        if (watcher)
            give_up = gs__wait(b, rank, watched + GS_GROUP_COUNT, GS__UNTIL_DIFF_EQ, base, size,
                               late);
        int any = __syncthreads_or(give_up);
        if (!any && watcher)
            gs_st_release_gpu(watched + GS_GROUP_RELEASED, base + size);
        return any;
    }
    if (tid == 0u)
        give_up = gs__wait(b, rank, line + GS_GROUP_RELEASED, GS__UNTIL_NE, seen, 0u, late);
    return __syncthreads_or(give_up);
}

/* The methods that run out of line: lock, lockfree and tree's grouped path
 * (one function, so a kernel pays their registers once). */
static __device__ __noinline__ int gs__sync_reference(gs_grid_barrier view)
{
    switch (view.method) {
    case GS_BARRIER_LOCK: return gs__sync_lock(&view);
    case GS_BARRIER_LOCKFREE: return gs__sync_lockfree(&view);
    default: return gs__sync_tree_grouped(&view);
    }
}
static __device__ __noinline__ int gs__sync_grouped_call(gs_grid_barrier view)
{
    return gs__sync_tree_grouped(&view);
}

/*
 * tree - gridsync's barrier.
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
GS_DEVICE int gs__sync_tree(const gs_grid_barrier *b)
{
    unsigned int n = gs__grid_blocks();
    if (n == 1u) {
        __syncthreads();
        return 0;
    }
    if (n <= b->flat_max)
        return gs__sync_flip(b);
    if (n > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    return gs__sync_grouped_call(*b);
}

/* ----------------------------------------------------------- entry point */

/*
 * gs_grid_sync - barrier across every thread of the grid.
 * All threads of every block must call it, the same number of times, each
 * with a pointer to its own copy of the view. On a watchdog time-out every
 * waiting block's threads exit the kernel (see the file comment); otherwise
 * it returns once every block has arrived.
 */
/* Leave the kernel when the watchdog says so (block-uniform). */
#define GS__GRID_SYNC_WITH(method_fn, b)                                                  \
    do {                                                                                   \
        (b)->count += 1u;                                                                  \
        if (method_fn(b))                                                                  \
            asm volatile("exit;");                                                         \
    } while (0)

/* Barriers with a fixed method, ignoring the view's method field: for
 * kernels that know their method and want only its registers. */
static __device__ __forceinline__ void gs_grid_sync_tree(gs_grid_barrier *b)
{
    GS__GRID_SYNC_WITH(gs__sync_tree, b);
}
static __device__ __forceinline__ void gs_grid_sync_flip(gs_grid_barrier *b)
{
    GS__GRID_SYNC_WITH(gs__sync_flip, b);
}
static __device__ __forceinline__ void gs_grid_sync_lock(gs_grid_barrier *b)
{
    GS__GRID_SYNC_WITH(gs__sync_lock, b);
}
GS_DEVICE int gs__sync_lockfree_bounded(const gs_grid_barrier *b)
{
    if (gs__grid_blocks() > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    return gs__sync_lockfree(b);
}
static __device__ __forceinline__ void gs_grid_sync_lockfree(gs_grid_barrier *b)
{
    GS__GRID_SYNC_WITH(gs__sync_lockfree_bounded, b);
}

/*
 * gs_grid_sync - barrier across every thread of the grid, with the method the
 * view carries (flip and tree's common paths, which auto resolves to,
 * inline; lock, lockfree and tree's grouped path through a call). All
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
    unsigned int n = gs__grid_blocks();
    int tree = b->method == GS_BARRIER_TREE, give_up = 0;
    b->count += 1u;
    if (n > b->capacity) /* lockfree and tree's grouped path index per block */
        gs__leave_oversized(b->state, b->count, b->method);
    if (tree && n == 1u)
        __syncthreads(); /* tree on one block */
    else if (b->method == GS_BARRIER_FLIP || (tree && n <= b->flat_max))
        give_up = gs__sync_flip(b); /* flip, and tree's flat path, inline */
    else
        give_up = gs__sync_reference(*b); /* lock, lockfree, tree's grouped path */
    if (give_up)
        asm volatile("exit;");
}

#endif /* GRIDSYNC_BARRIER_CUH */
