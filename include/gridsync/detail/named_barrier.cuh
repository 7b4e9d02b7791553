/*
 * gridsync/detail/named_barrier.cuh - the block's numbered barriers for
 * warps with different roles (internal).
 *
 * How: a block has 16 hardware barriers; __syncthreads() is barrier 0 over
 * every thread. barrier.sync(id, n) waits until n threads (a multiple of
 * 32) have arrived at barrier id; barrier.arrive(id, n) counts the calling
 * warp in and goes on without waiting. A producer warp that arrives and a
 * consumer warp that syncs on the same barrier hand data over without the
 * producer stopping. These are the forms without .aligned (bar.sync and
 * bar.arrive are the .aligned ones, which promise that every thread of the
 * block executes the same instruction): the warps of different roles reach
 * a barrier from different places in the code.
 *
 * Why correct (PTX ISA, barrier and the memory consistency model): a
 * barrier's arrive, sync or red operation synchronizes with the sync or red
 * that completes the same barrier, so the shared- and global-memory
 * accesses a thread made before arriving happen before those a thread
 * makes after its sync returns. A barrier is reused only after it
 * completed: every caller here alternates between arriving and syncing so
 * that a thread cannot arrive twice at one instance of a barrier.
 */
#ifndef GRIDSYNC_DETAIL_NAMED_BARRIER_CUH
#define GRIDSYNC_DETAIL_NAMED_BARRIER_CUH

namespace gs {
namespace detail {

/* Wait at barrier `id` (1-15) until `threads` threads have arrived. */
static __device__ __forceinline__ void named_barrier_sync(unsigned int id, unsigned int threads)
{
    asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* Count the calling warp in at barrier `id` (1-15) and go on. */
static __device__ __forceinline__ void named_barrier_arrive(unsigned int id, unsigned int threads)
{
    asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_NAMED_BARRIER_CUH */
