/*
 * gridsync/detail/scoped/neighbour_barrier.cuh - barriers with the blocks a block
 * depends on (internal): the neighbour barriers and the subset barrier of
 * gridsync/neighbour.cuh. How they work, why they are correct and when to
 * prefer them: there.
 */
#ifndef GRIDSYNC_DETAIL_NEIGHBOUR_BARRIER_CUH
#define GRIDSYNC_DETAIL_NEIGHBOUR_BARRIER_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>

namespace gs {
namespace detail {

/* The neighbour lists. Each says how many neighbours a block has and the
 * rank of the k-th; a block's own rank stands for "none here" (a grid edge
 * without wrap-around) and is skipped. */
struct neighbours_1d {
    bool wrap;
    __device__ __forceinline__ unsigned int count() const { return 2u; }
    __device__ __forceinline__ unsigned int rank(unsigned int k, unsigned int me,
                                                 unsigned int n) const
    {
        if (k == 0u)
            return me > 0u ? me - 1u : wrap ? n - 1u : me;
        return me + 1u < n ? me + 1u : wrap ? 0u : me;
    }
};

struct neighbours_2d {
    bool wrap, diagonals;
    __device__ __forceinline__ unsigned int count() const { return diagonals ? 8u : 4u; }
    /* (dx, dy) of neighbour k: faces first, then corners. The grid is
     * gridDim.x x gridDim.y per z-layer; a block meets only its own layer. */
    __device__ __forceinline__ unsigned int rank(unsigned int k, unsigned int me,
                                                 unsigned int) const
    {
        /* dx + 1 and dy + 1 in two bits each, neighbour k at bits 2k:
         * dx -1, 1, 0, 0, -1, 1, -1, 1 and dy 0, 0, -1, 1, -1, -1, 1, 1 */
        int w = (int)gridDim.x, h = (int)gridDim.y;
        int x = (int)blockIdx.x + (int)((0x8858u >> (2u * k)) & 3u) - 1;
        int y = (int)blockIdx.y + (int)((0xA085u >> (2u * k)) & 3u) - 1;
        if (wrap) {
            x = (x + w) % w;
            y = (y + h) % h;
        } else if (x < 0 || x >= w || y < 0 || y >= h) {
            return me;
        }
        return (unsigned int)x + gridDim.x * ((unsigned int)y + gridDim.y * blockIdx.z);
    }
};

struct neighbours_list {
    const unsigned int *ranks;
    unsigned int n;
    __device__ __forceinline__ unsigned int count() const { return n; }
    __device__ __forceinline__ unsigned int rank(unsigned int k, unsigned int, unsigned int) const
    {
        return ranks[k];
    }
};

/* Publish this block's next epoch, then wait until every neighbour's epoch
 * has reached it. Every block of the grid calls it the same number of times.
 * Epochs are 64-bit: the launch's generation in the high half, the call's
 * number in the low half. A block learns the generation at its first call:
 * thread 0 adds 1 to the state's launch word {blocks started, generation};
 * the block that completes the count (the grid's last to start) moves the
 * generation on for the next launch and zeroes the count. Every block of a
 * launch therefore gets the same generation, later than any epoch an earlier
 * launch left in the state, whatever its grid size.
 * The release is in two halves (gs__release_fence_gpu, then the epoch's
 * gs__release_store_gpu_u64), and nothing between the call's entry and the
 * fence branches: ptxas makes a branch wait for the loads the calling
 * thread still has in flight, so a load issued just before the call (a
 * prefetch, last step's check) would be waited for by itself before the
 * fence, which waits for it anyway, and the two waits would add up
 * (0.14-0.20 us a step on H200; docs/scoped-sync.md, "What the library's
 * step costs"). The checks and the first call's generation therefore come
 * after the fence. (Where PTX has no fence.release, the fence half is empty
 * and the store is an st.release after the checks, as before.)
 * epoch_known is the same in every thread of the block: each calls with
 * its own copy of the same view, the same number of times (the contract),
 * so the block barrier inside the first call's branch is met by all. */
template <class Neighbours>
static __device__ __forceinline__ void neighbour_sync(gs_grid_barrier *b, const Neighbours &nb)
{
    __shared__ unsigned long long launch_base;
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    unsigned long long *epochs = (unsigned long long *)(b->state + GS_W_EPOCHS(b->capacity));
    const bool publishes = tid == 0u && n > 1u; /* one block: no neighbour, no epoch */
    int give_up = 0;
    b->count += 1u;
    __syncthreads(); /* the block's writes happen-before thread 0's fence */
    if (publishes)
        gs__release_fence_gpu(); /* the release: this fence, then the epoch's store */
    if (n > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    if (n == 1u) /* no neighbour: the block barrier was the whole call */
        return;
    if (!b->epoch_known) { /* the launch's first call (the same in every thread) */
        if (tid == 0u) {
            unsigned long long *word = (unsigned long long *)(b->state + GS_W_NEIGHBOUR_GEN);
            unsigned long long old = gs__atom_add_relaxed_gpu_u64(word, 1ull);
            unsigned int started = (unsigned int)old;
            if (started + 1u == n) /* the last to start: the next launch's generation */
                (void)gs__atom_add_relaxed_gpu_u64(word, (1ull << 32) - n);
            if (started >= n) { /* a launch before this one did not call it from every block */
                gs__raise_misuse(b->state, b->count, b->method, GS_MISUSE_NEIGHBOUR_LAUNCH,
                                 started + 1u, n, 0u, 0u);
                give_up = 1;
            }
            launch_base = old & 0xffffffff00000000ull;
        }
        __syncthreads(); /* launch_base */
        b->epoch = launch_base;
        b->epoch_known = 1u;
    }
    const unsigned long long e = ++b->epoch;
    if (publishes && !give_up)
        gs__release_store_gpu_u64(epochs + rank * (GS_LINE_WORDS / 2u), e);
    /* No look at the watchdog's flag on arrival (every block reading one
     * line each step costs the grid-wide traffic this barrier avoids): a
     * block that starts after a time-out meets neighbours that did arrive,
     * or leaves through the slow path. */
    for (unsigned int k = tid; k < nb.count() && !give_up; k += nt) {
        unsigned int r = nb.rank(k, rank, n);
        if (r >= n) {
            gs__raise_misuse(b->state, b->count, b->method, GS_MISUSE_NEIGHBOUR_OUTSIDE, r, n,
                             0u, 0u);
            give_up = 1;
        } else if (r != rank) {
            give_up = gs__wait_on(b, rank, epochs + r * (GS_LINE_WORDS / 2u),
                                  GS__UNTIL_REACHED64, e, 0u, 0u, r);
        }
    }
    if (__syncthreads_or(give_up)) /* the waiters' acquires before the block's reads */
        asm volatile("exit;");
}

/* The first member listed twice, or ~0u: the diagnosis of a subset
 * barrier that does not complete (a duplicate makes the count fall short),
 * run only once its wait has turned slow. */
static __device__ __noinline__ unsigned int subset_duplicate(const unsigned int *members,
                                                             unsigned int count)
{
    for (unsigned int i = 0; i < count; ++i)
        for (unsigned int j = i + 1u; j < count; ++j)
            if (members[i] == members[j])
                return members[i];
    return ~0u;
}

/* The subset barrier: flip's counter on the slot's line, members[0]
 * playing block 0's part. */
static __device__ __forceinline__ void subset_sync(gs_grid_barrier *b, unsigned int slot,
                                                   const unsigned int *members,
                                                   unsigned int count)
{
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank(), tid = gs__thread_rank();
    b->count += 1u;
    __syncthreads(); /* the block's writes happen-before thread 0's release */
    int give_up = 0;
    if (tid < 32u) {
        unsigned int mine = 0u, outside = 0u, which = 0u;
        for (unsigned int i = tid; i < count; i += 32u) {
            unsigned int m = members[i];
            mine |= m == rank;
            if (m >= n) {
                outside = 1u;
                which = m;
            }
        }
        unsigned int out_lanes = __ballot_sync(0xffffffffu, outside);
        which = __shfl_sync(0xffffffffu, which, out_lanes ? __ffs(out_lanes) - 1 : 0);
        mine = __any_sync(0xffffffffu, mine);
        if (tid == 0u) {
            unsigned int code = count == 0u          ? GS_MISUSE_SUBSET_EMPTY
                                : slot >= b->capacity ? GS_MISUSE_SUBSET_SLOT
                                : out_lanes           ? GS_MISUSE_SUBSET_OUTSIDE
                                : !mine               ? GS_MISUSE_SUBSET_NOT_MEMBER
                                                      : 0u;
            if (code) {
                unsigned int a0 = code == GS_MISUSE_SUBSET_OUTSIDE ? which : slot;
                gs__raise_misuse(b->state, b->count, b->method, code, a0,
                                 code == GS_MISUSE_SUBSET_OUTSIDE ? n : 0u, 0u, 0u);
                give_up = 1;
            } else {
                unsigned int *ctr = b->state + GS_W_SUBSETS(b->capacity) + slot * GS_LINE_WORDS;
                const int until = GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH;
                unsigned int old = gs__atom_add_release_gpu(
                    ctr, rank == members[0] ? 0x80000000u - (count - 1u) : 1u);
                unsigned int late = gs__late(b), done = 0u;
                for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS && !done; ++k)
                    done = gs__wait_done(ctr, until, old, 0u);
                unsigned int twice = done ? ~0u : subset_duplicate(members, count);
                if (twice != ~0u) {
                    gs__raise_misuse(b->state, b->count, b->method, GS_MISUSE_SUBSET_TWICE, twice,
                                     slot, 0u, 0u);
                    give_up = 1;
                } else if (!done || late) {
                    give_up = gs__wait(b, rank, ctr, until, old, 0u, late);
                }
            }
        }
    }
    if (__syncthreads_or(give_up)) /* thread 0's acquire before the block's reads */
        asm volatile("exit;");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_NEIGHBOUR_BARRIER_CUH */
