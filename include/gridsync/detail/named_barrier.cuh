/*
 * gridsync/detail/named_barrier.cuh - the block's numbered barriers for
 * warps with different roles (internal).
 *
 * How: a block has 16 hardware barriers; __syncthreads() is barrier 0 over
 * every thread. barrier.sync(id, n) waits until n threads (a multiple of
 * 32) have arrived at barrier id. This is the form without .aligned
 * (bar.sync is the .aligned one, which promises that every thread of the
 * block executes the same instruction): the warps of different roles reach
 * a barrier from different places in the code. (barrier.arrive, which
 * counts a producer in without waiting, is ordered by the memory model
 * too, but compute-sanitizer's racecheck reported data handed across an
 * arrive and a sync now and then; resident_scan.cuh hands data between its
 * roles through mbarriers instead, bulk_copy.cuh.)
 *
 * Why correct (PTX ISA, barrier and the memory consistency model): a
 * barrier's sync operation synchronizes with the sync that completes the
 * same barrier, so the shared- and global-memory accesses a thread made
 * before arriving happen before those a thread makes after its sync
 * returns. A barrier completes when `threads` threads
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
 * barrier is an immediate operand: with a register, compute-sanitizer's
 * racecheck did not order accesses across the barrier (20 hazards a launch
 * in gpu_scan's resident kernel). */
template <unsigned int Id>
static __device__ __forceinline__ void named_barrier_sync(unsigned int threads)
{
    static_assert(Id >= 1u && Id <= 15u, "barrier 0 is __syncthreads; 16 barriers a block");
    asm volatile("barrier.sync %0, %1;" ::"n"(Id), "r"(threads) : "memory");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_NAMED_BARRIER_CUH */
