/*
 * gridsync/detail/barrier/barrier_lock.cuh - the lock method (internal): the
 * tutorial's lock-based barrier, made correct. One 64-bit counter: thread 0
 * adds with atom.add.release and polls with ld.acquire until the goal,
 * which grows by a fixed stride each barrier. How, why it is correct and
 * when to prefer it: gs_grid_sync_lock in gridsync/barrier.cuh.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_LOCK_CUH
#define GRIDSYNC_DETAIL_BARRIER_LOCK_CUH

#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>

GS_DEVICE int gs__sync_lock(const gs_grid_barrier *b)
{
    int give_up = 0;
    __syncthreads();
    if (gs__thread_rank() == 0u) {
        unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
        unsigned long long *ctr = (unsigned long long *)(b->state + GS_W_LOCK);
        unsigned long long add = rank == 0u ? GS_LOCK_STRIDE - (n - 1u) : 1ull;
        unsigned long long old = gs__atom_add_release_gpu_u64(ctr, add);
        unsigned long long goal = (old / GS_LOCK_STRIDE + 1ull) * GS_LOCK_STRIDE;
        give_up = gs__wait(b, rank, ctr, GS__UNTIL_GE64, goal, 0u, gs__late(b));
    }
    return __syncthreads_or(give_up);
}

namespace gs {
namespace detail {
template <>
struct barrier_method<GS_BARRIER_LOCK> {
    static constexpr bool out_of_line_part = true;
    static __device__ __forceinline__ barrier_path inline_path(const gs_grid_barrier *,
                                                               unsigned int)
    {
        return path_call;
    }
    static __device__ __forceinline__ int out_of_line(const gs_grid_barrier *b)
    {
        return gs__sync_lock(b);
    }
    static __device__ __forceinline__ int sync(const gs_grid_barrier *b) { return gs__sync_lock(b); }
};
} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_LOCK_CUH */
