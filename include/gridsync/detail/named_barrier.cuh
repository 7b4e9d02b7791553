/*
 * gridsync/detail/named_barrier.cuh - the block's numbered barriers for
 * warps with different roles (internal).
 *
 * How: a block has 16 hardware barriers; __syncthreads() is barrier 0 over
 * every thread. bar.sync(id, n) waits until n threads (a multiple of 32)
 * have arrived at barrier id; bar.arrive(id, n) counts the calling warp in
 * and goes on without waiting. A producer warp that arrives and a consumer
 * warp that syncs on the same barrier hand data over without the producer
 * stopping.
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
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* Count the calling warp in at barrier `id` (1-15) and go on. */
static __device__ __forceinline__ void named_barrier_arrive(unsigned int id, unsigned int threads)
{
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_NAMED_BARRIER_CUH */
