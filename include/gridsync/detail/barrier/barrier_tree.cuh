/*
 * gridsync/detail/barrier/barrier_tree.cuh - the tree method (internal), gridsync's
 * own: a block barrier on one block, flip's counter up to flat_max blocks,
 * and beyond that grouped arrival: blocks count in on one L2 line per group
 * of consecutive blocks (red.add.release), block 0's threads each watch one
 * group and release it (st.release). How, why it is correct and when to
 * prefer it: gs_grid_sync_tree in gridsync/barrier.cuh; the measurements:
 * docs/barrier-design.md.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_TREE_CUH
#define GRIDSYNC_DETAIL_BARRIER_TREE_CUH

#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>
#include <gridsync/detail/barrier/barrier_flip.cuh>
#include <gridsync/detail/core/tuning.h>

/* Tree geometry for a grid of n blocks with nthreads threads per block:
 * groups of g consecutive blocks, at most nthreads groups so that each
 * thread of block 0 watches at most one. */
GS_DEVICE unsigned int gs__tree_group(const gs_grid_barrier *b, unsigned int n,
                                      unsigned int nthreads)
{
    unsigned int g = b->group_size ? b->group_size : GS_TUNE_TREE_GROUP;
    unsigned int least = (n + nthreads - 1u) / nthreads;
    return g > least ? g : least;
}

/* tree's grouped path; called out of line (gs__sync_out_of_line,
 * gs__sync_grouped_call): only huge
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
        seen = gs__ld_relaxed_gpu(line + GS_GROUP_RELEASED);
    if (watcher)
        base = gs__ld_relaxed_gpu(watched + GS_GROUP_RELEASED);
    __syncthreads();
    if (tid == 0u)
        gs__red_add_release_gpu(line + GS_GROUP_COUNT, 1u);
    if (rank == 0u) { /* uniform in the block: block 0 watches the groups */
        unsigned int size = tid == ngroups - 1u ? n - tid * g : g;
        if (watcher)
            give_up = gs__wait(b, rank, watched + GS_GROUP_COUNT, GS__UNTIL_DIFF_EQ, base, size,
                               late);
        int any = __syncthreads_or(give_up);
        if (!any && watcher)
            gs__st_release_gpu(watched + GS_GROUP_RELEASED, base + size);
        return any;
    }
    if (tid == 0u)
        give_up = gs__wait(b, rank, line + GS_GROUP_RELEASED, GS__UNTIL_NE, seen, 0u, late);
    return __syncthreads_or(give_up);
}

static __device__ __noinline__ int gs__sync_grouped_call(gs__view_core core)
{
    gs_grid_barrier view = gs__view_of(core);
    return gs__sync_tree_grouped(&view);
}

/* The whole tree barrier: a block barrier on one block, flip's counter up
 * to flat_max blocks (inline), grouped arrival beyond (out of line). */
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
    return gs__sync_grouped_call(gs__core_of(b));
}

namespace gs {
namespace detail {
template <>
struct barrier_method<GS_BARRIER_TREE> {
    static constexpr bool out_of_line_part = true;
    static __device__ __forceinline__ barrier_path inline_path(const gs_grid_barrier *b,
                                                               unsigned int n)
    {
        return n == 1u ? path_block_barrier : n <= b->flat_max ? path_flip_counter : path_call;
    }
    static __device__ __forceinline__ int out_of_line(const gs_grid_barrier *b)
    {
        return gs__sync_tree_grouped(b);
    }
    static __device__ __forceinline__ int sync(const gs_grid_barrier *b) { return gs__sync_tree(b); }
};
} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_TREE_CUH */
