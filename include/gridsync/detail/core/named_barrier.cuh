/*
 * gridsync/detail/core/named_barrier.cuh - the block's numbered barriers for
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
 * makes after its sync returns. A barrier completes when `threads` threads
 * have arrived, so a caller must make sure that no thread arrives at the
 * next instance of a barrier before the current one completed (PTX: "care
 * must be taken to keep a warp from executing more barrier instructions
 * than intended"); each caller says why at its barriers.
 */
#ifndef GRIDSYNC_DETAIL_NAMED_BARRIER_CUH
#define GRIDSYNC_DETAIL_NAMED_BARRIER_CUH

namespace gs {
namespace detail {

/* Wait at barrier Id (1-15) until `threads` threads have arrived. The
 * barrier is an immediate operand: compute-sanitizer's racecheck did not
 * order accesses across an arrive and a sync whose barrier was a register
 * (20 hazards a launch in the scan test's resident kernel, none with the same
 * handover on immediate barriers). */
template <unsigned int Id>
static __device__ __forceinline__ void named_barrier_sync(unsigned int threads)
{
    static_assert(Id >= 1u && Id <= 15u, "barrier 0 is __syncthreads; 16 barriers a block");
    asm volatile("barrier.sync %0, %1;" ::"n"(Id), "r"(threads) : "memory");
}

/* Count the calling warp in at barrier Id (1-15) and go on. */
template <unsigned int Id>
static __device__ __forceinline__ void named_barrier_arrive(unsigned int threads)
{
    static_assert(Id >= 1u && Id <= 15u, "barrier 0 is __syncthreads; 16 barriers a block");
    asm volatile("barrier.arrive %0, %1;" ::"n"(Id), "r"(threads) : "memory");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_NAMED_BARRIER_CUH */
