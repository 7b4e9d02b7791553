/*
 * gridsync/detail/barrier/barrier_method.cuh - the shape of a barrier method on the
 * device (internal): one specialization of gs::detail::barrier_method<M>
 * per method of GS_BARRIER_METHODS (gridsync/barrier_view.h), in the
 * method's own header, is all the dispatch needs.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_METHOD_CUH
#define GRIDSYNC_DETAIL_BARRIER_METHOD_CUH

#include <gridsync/barrier_view.h>

/*
 * Each method is a complete barrier for the calling block: a block barrier
 * first (the writes of all the block's threads happen-before thread 0's
 * release, by cumulativity), the grid-wide step, and a final block barrier
 * with OR (thread 0's acquire happens-before the reads of all the block's
 * threads). The OR carries the watchdog's verdict: nonzero means every thread
 * of the block must leave the kernel. A block that finds the record's flag
 * already up when it arrives (it started after a time-out) leaves without
 * counting as arrived. */

namespace gs {
namespace detail {

/* Which code gs_grid_sync runs inline for a method and a grid size: the two
 * fast paths every kernel carries anyway, or a call (out of line, so that a
 * kernel pays the registers of the rarer methods only once). */
enum barrier_path {
    path_block_barrier = 0, /* one block: a block barrier is the whole barrier */
    path_flip_counter = 1,  /* flip's counter (gs__sync_flip), inline */
    path_call = 2           /* barrier_method<M>::out_of_line, through a call */
};

/* A method M provides (each sync returns nonzero when the block must leave
 * the kernel, the watchdog's verdict):
 *   static barrier_path inline_path(const gs_grid_barrier *b, unsigned int n)
 *       what gs_grid_sync runs inline for a grid of n blocks;
 *   static constexpr bool out_of_line_part
 *       whether inline_path can say path_call;
 *   static int out_of_line(const gs_grid_barrier *b)
 *       what gs_grid_sync runs then (only where out_of_line_part);
 *   static int sync(const gs_grid_barrier *b)
 *       the whole barrier, for the method's own gs_grid_sync_<method>.
 * There is deliberately no general definition: a method listed in
 * GS_BARRIER_METHODS without its specialization does not compile. */
template <int Method>
struct barrier_method;

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_METHOD_CUH */
