/*
 * gridsync/detail/scoped/grid_slots.cuh - gs::detail::grid_slot_meeting
 * (internal): the meeting of the grid collectives that carry one value a
 * block (gs::grid_allreduce, gs::grid_exclusive_scan): each block's value in
 * its slot of the barrier state's partials, one arrival at flip's counter,
 * and every block may read every slot after it.
 */
#ifndef GRIDSYNC_DETAIL_GRID_SLOTS_CUH
#define GRIDSYNC_DETAIL_GRID_SLOTS_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_layout.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>

namespace gs {
namespace detail {

/*
 * grid_slot_meeting(&view, x) - thread 0's x becomes its block's slot of
 * the slot set this collective uses; returns that set, whose slots 0 .. n-1
 * (n: the grid's blocks) then hold every block's x. Every thread of every
 * block calls it, after `b->count += 1` (the collective is one barrier of
 * the view) and a block barrier that orders the block's earlier writes
 * (and whatever thread 0 needs for x) before thread 0's release.
 *
 * How: `b->reduces` counts the launch's slot collectives (all-reduces and
 *   scans alike) and its parity picks one of two slot sets; thread 0
 *   stores x in slot `rank` of it and, on a grid of more than one block,
 *   arrives at flip's counter (atom.add.release: block 0 adds
 *   0x80000000 - (n - 1), the others 1, so the top bit flips when the last
 *   arrives) and polls it (ld.acquire) until the bit flips, bounded by the
 *   view's watchdog. A block barrier (bar.sync, __syncthreads_or) then
 *   orders thread 0's acquire before every thread's loads of the set; a
 *   block whose wait gave up leaves the kernel (gs_barrier_check reports
 *   it). It meets on flip's counter whatever method the view carries.
 * Why correct: each slot is stored before its block's release and read
 *   after the reader's acquire of a value every release contributed to, so
 *   every read sees its block's store (happens-before; cumulativity carries
 *   the block's other writes, ordered before thread 0 by the block barrier).
 *   Reuse: a block writes set s for slot collective k + 2 only after it has
 *   passed collective k + 1, a grid barrier that no block reaches before it
 *   has finished reading set s for collective k (its reads are ordered
 *   before its next arrival by the block barriers in between). That holds
 *   whichever kinds collectives k, k + 1 and k + 2 are, as all of them count
 *   in `reduces` and all meet on the same counter; plain grid barriers
 *   (gs_grid_sync, neighbour barriers) between them touch no slot and only
 *   add order. A new launch starts from `reduces` = 0 after a kernel
 *   boundary, which orders everything of the previous one.
 * Cost: one 8-byte store and the flip barrier's arrival and wait.
 * The slot holds 8 bytes: T is at most that.
 */
template <class T>
static __device__ __forceinline__ const T *grid_slot_meeting(gs_grid_barrier *b, T x)
{
    static_assert(sizeof(T) <= 8u, "gridsync: a grid collective's value is at most 8 bytes "
                                   "(its slot in the barrier's state)");
    const unsigned int n = gs__grid_blocks();
    b->reduces += 1u;
    unsigned int *set = b->state + GS_W_PARTIALS(b->capacity) +
                        (b->reduces & 1u) * GS_PARTIAL_SET_WORDS(b->capacity);
    int give_up = 0;
    if (gs__thread_rank() == 0u) {
        unsigned int rank = gs__block_rank();
        ((T *)set)[rank] = x; /* ordered before the release */
        if (n > 1u) {
            unsigned int *ctr = b->state + GS_W_FLIP;
            unsigned int old =
                gs__atom_add_release_gpu(ctr, rank == 0u ? 0x80000000u - (n - 1u) : 1u);
            give_up = gs__wait(b, rank, ctr, GS__UNTIL_TOPBIT_FLIPS | GS__ACQUIRE_EACH, old, 0u,
                               gs__late(b));
        }
    }
    if (__syncthreads_or(give_up)) /* thread 0's acquire before every thread's loads */
        asm volatile("exit;");
    return (const T *)set;
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_GRID_SLOTS_CUH */
