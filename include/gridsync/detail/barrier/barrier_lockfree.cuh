/*
 * gridsync/detail/barrier/barrier_lockfree.cuh - the lockfree method (internal): the
 * tutorial's lock-free barrier (Xiao & Feng), made correct. Per-block
 * in/out flags (st.release / ld.acquire) with block 0 checking every
 * arrival and releasing every block. How, why it is correct and when to
 * prefer it: gs_grid_sync_lockfree in gridsync/barrier.cuh.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_LOCKFREE_CUH
#define GRIDSYNC_DETAIL_BARRIER_LOCKFREE_CUH

#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>

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
        mine = gs__ld_relaxed_gpu(in + rank) + 1u;
        gs__st_release_gpu(in + rank, mine);
    }
    if (rank == 0u || tid == 0u)
        late = gs__late(b);
    if (rank == 0u) { /* uniform in the block: the checking block */
        for (unsigned int i = tid; i < n && !give_up; i += nthreads)
            give_up = gs__wait(b, rank, in + i, GS__UNTIL_EQ, gs__ld_relaxed_gpu(out + i) + 1u, 0u,
                               late);
        if (__syncthreads_or(give_up))
            return 1;
        for (unsigned int i = tid; i < n; i += nthreads)
            gs__st_release_gpu(out + i, gs__ld_relaxed_gpu(in + i));
    } else if (tid == 0u) {
        give_up = gs__wait(b, rank, out + rank, GS__UNTIL_EQ, mine, 0u, late);
    }
    return __syncthreads_or(give_up);
}

/* lockfree indexes per-block flags: a grid larger than the state's capacity
 * leaves (gs_grid_sync checks that itself before its dispatch). */
GS_DEVICE int gs__sync_lockfree_bounded(const gs_grid_barrier *b)
{
    if (gs__grid_blocks() > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    return gs__sync_lockfree(b);
}

namespace gs {
namespace detail {
template <>
struct barrier_method<GS_BARRIER_LOCKFREE> {
    static constexpr bool out_of_line_part = true;
    static __device__ __forceinline__ barrier_path inline_path(const gs_grid_barrier *,
                                                               unsigned int)
    {
        return path_call;
    }
    static __device__ __forceinline__ int out_of_line(const gs_grid_barrier *b)
    {
        return gs__sync_lockfree(b);
    }
    static __device__ __forceinline__ int sync(const gs_grid_barrier *b)
    {
        return gs__sync_lockfree_bounded(b);
    }
};
} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_LOCKFREE_CUH */
