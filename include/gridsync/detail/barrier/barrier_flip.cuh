/*
 * gridsync/detail/barrier/barrier_flip.cuh - the flip method (internal): one 32-bit
 * counter whose top bit flips every barrier (cooperative groups' scheme).
 * Thread 0 adds with atom.add.release and polls with ld.acquire until the
 * top bit differs from the one its add returned. How, why it is correct and
 * when to prefer it: gs_grid_sync_flip in gridsync/barrier.cuh. It is also
 * tree's path for grids up to flat_max blocks, and one of gs_grid_sync's
 * two inline paths.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_FLIP_CUH
#define GRIDSYNC_DETAIL_BARRIER_FLIP_CUH

#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>

GS_DEVICE int gs__sync_flip(const gs_grid_barrier *b)
{
    int give_up = 0;
    __syncthreads();
    if (gs__thread_rank() == 0u) {
        unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
        unsigned int *ctr = b->state + GS_W_FLIP;
        unsigned int old = gs__atom_add_release_gpu(ctr, rank == 0u ? 0x80000000u - (n - 1u) : 1u);
        give_up = gs__wait(b, rank, ctr, GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, old, 0u,
                           gs__late(b));
    }
    return __syncthreads_or(give_up);
}

namespace gs {
namespace detail {
template <>
struct barrier_method<GS_BARRIER_FLIP> {
    static constexpr bool out_of_line_part = false;
    static __device__ __forceinline__ barrier_path inline_path(const gs_grid_barrier *,
                                                               unsigned int)
    {
        return path_flip_counter;
    }
    static __device__ __forceinline__ int sync(const gs_grid_barrier *b) { return gs__sync_flip(b); }
};
} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_FLIP_CUH */
