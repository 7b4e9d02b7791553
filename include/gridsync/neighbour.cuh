/*
 * gridsync/neighbour.cuh - barriers with only the blocks a block depends
 * on: its neighbours in a 1-D or 2-D layout, any list of blocks, or a
 * subset of the grid that meets by itself.
 *
 *   #include <gridsync/neighbour.cuh>
 *
 *   __global__ void heat(gs_grid_barrier bar, float *u0, float *u1, int n, int steps)
 *   {
 *       for (int s = 0; s < steps; ++s) {
 *           step(u0, u1, n);                     // reads the halo of blocks b-1 and b+1
 *           gs_neighbour_sync_1d(&bar, 0);       // wait for those two only
 *           swap(u0, u1);
 *       }
 *   }
 *
 * The view is the grid barrier's (gs_barrier_create, gs_barrier_device,
 * gs_launch, gs_barrier_check): one object, one watchdog, one check.
 *
 * Neighbour barriers (gs_neighbour_sync_1d, _2d, gs_neighbour_sync_list)
 * Contract: every thread of every block calls it, the same number of times
 *   in a launch (the lists may differ from block to block). When block b
 *   returns from its k-th call, every block on b's list has made its k-th
 *   call, and every write those blocks made before it happens-before b's
 *   reads after it (acquire/release at GPU scope). Blocks not on the list
 *   may be anywhere. A block is at most one call ahead of every block it
 *   lists; with symmetric lists (the 1-D and 2-D ones are) two buffers,
 *   for even and odd steps, are therefore enough for halos.
 * How: each block has an epoch on its own L2 line. A call adds one to the
 *   block's epoch, publishes it (a block barrier, then thread 0's
 *   release: on sm_90 a fence.release with nothing ahead of it that waits
 *   for the caller's loads in flight, then a relaxed store of the epoch;
 *   elsewhere an st.release), and thread k polls neighbour k's epoch
 *   (relaxed loads) until it has reached the block's own, then reads it
 *   once more with ld.acquire; a block barrier ends the call. Nothing is shared by more
 *   than a block and its neighbours: no counter every block queues on, so
 *   the time per step does not grow with the grid.
 * Why correct: the neighbour's release of epoch e (its fence and store)
 *   follows its writes (block barrier, cumulativity); the closing
 *   ld.acquire reads e or a later value of that block's epoch, each
 *   written by a release that follows those writes, so it synchronizes
 *   with it; the closing block barrier orders it before the block's reads.
 *   Reuse with no reset: an epoch is 64-bit, the launch's generation
 *   above the call's number. At its first call each block takes the
 *   generation from the state's launch word with one atomic add (which
 *   also counts the blocks started); the grid's last block to start moves
 *   the generation on for the next launch. So every epoch a launch waits
 *   for is later than any an earlier launch left, whatever its grid size
 *   (compared as a wrap-safe 64-bit difference).
 * Misuse: a neighbour rank outside the grid (a list's) ends the launch
 *   with GS_ERR_MISUSE naming the block and the rank; so does a launch
 *   count left short by an earlier launch in which some block never called
 *   a neighbour barrier. A wait that times out
 *   names the block waited on, its epoch and the one expected.
 * When: stencils and any program whose blocks exchange data only with a
 *   few others. Expect a step to cost about one release and one acquire
 *   hop at any grid size, where a grid barrier grows with the grid
 *   (`gridsync bench sync`).
 *
 * Subset barrier (gs_subset_sync)
 * Contract: the blocks of `members` (the same list, in the same order, in
 *   every member) meet; the others do not call it. `slot` (0 .. capacity-1)
 *   names the counter the subset meets on: subsets in use at the same time
 *   need different slots (for example the subset's first member when the
 *   subsets are disjoint). Every thread of a member block calls it.
 * How: flip's counter on the slot's own line, members[0] in block 0's
 *   part: it adds 2^31 - (count - 1), the others 1, and all poll until the
 *   top bit flips. The counter's low bits return to their value, so the
 *   slot is reusable by any subset later, with no reset.
 * Why correct: as gs_grid_sync_flip, over the members.
 * Misuse: a member outside the grid, a calling block that is not a member,
 *   an empty list or a slot past the capacity end the launch with
 *   GS_ERR_MISUSE; a list naming a block twice is diagnosed as soon as the
 *   wait turns slow (the count falls short, so it cannot complete).
 * When: groups of blocks that cooperate on one piece of work (a row of
 *   tiles, a pipeline stage) and need not wait for the rest of the grid.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_NEIGHBOUR_CUH
#define GRIDSYNC_NEIGHBOUR_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/scoped/neighbour_barrier.cuh>

/* Flags of the neighbour barriers. */
#define GS_NEIGHBOURS_WRAP 1u     /* periodic: the first and the last block are neighbours */
#define GS_NEIGHBOURS_DIAGONAL 2u /* 2-D: the four corner neighbours too (9-point stencils) */

/* Blocks rank - 1 and rank + 1 (the block's linear rank). */
static __device__ __forceinline__ void gs_neighbour_sync_1d(gs_grid_barrier *b, unsigned int flags)
{
    gs::detail::neighbours_1d nb = {(flags & GS_NEIGHBOURS_WRAP) != 0u};
    gs::detail::neighbour_sync(b, nb);
}

/* Blocks (x +- 1, y) and (x, y +- 1) of a gridDim.x x gridDim.y grid (each
 * z-layer by itself), with the corners under GS_NEIGHBOURS_DIAGONAL. */
static __device__ __forceinline__ void gs_neighbour_sync_2d(gs_grid_barrier *b, unsigned int flags)
{
    gs::detail::neighbours_2d nb = {(flags & GS_NEIGHBOURS_WRAP) != 0u,
                                    (flags & GS_NEIGHBOURS_DIAGONAL) != 0u};
    gs::detail::neighbour_sync(b, nb);
}

/* The blocks of `ranks` (linear ranks; this block's own is skipped): any
 * dependency pattern, one list per block. */
static __device__ __forceinline__ void gs_neighbour_sync_list(gs_grid_barrier *b,
                                                              const unsigned int *ranks,
                                                              unsigned int count)
{
    gs::detail::neighbours_list nb = {ranks, count};
    gs::detail::neighbour_sync(b, nb);
}

static __device__ __forceinline__ void gs_subset_sync(gs_grid_barrier *b, unsigned int slot,
                                                      const unsigned int *members,
                                                      unsigned int count)
{
    gs::detail::subset_sync(b, slot, members, count);
}

#endif /* GRIDSYNC_NEIGHBOUR_CUH */
