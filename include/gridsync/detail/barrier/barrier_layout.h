/*
 * gridsync/detail/barrier/barrier_layout.h - where each field of a barrier's device state
 * lives. Shared by the host (allocation, watchdog report) and the device
 * (gridsync/detail/barrier_*.cuh). Offsets are in 32-bit words; every region that is
 * written by one party and polled by others starts on its own 128-byte L2
 * line so that unrelated traffic never queues behind it.
 *
 *   line 0   watchdog record  : flag, barrier number, grid size, observer block, method,
 *                              kind, late arrivals, host mirror of the flag, capacity
 *   line 1   lock counter     : 64-bit, grows by GS_LOCK_STRIDE per barrier
 *   line 2   flip counter     : 32-bit, top bit flips per barrier
 *   line 3   neighbour barriers' launch word: 64-bit {blocks started: low 32,
 *            launch generation: high 32}
 *   where[capacity]           : barrier number each block was waiting at when
 *                               the watchdog fired (0: not waiting)
 *   in[capacity], out[capacity]: lock-free arrive / release flags
 *   group[capacity] lines     : tree arrival groups {count, released}
 *   epoch[capacity] lines     : neighbour barriers: each block's 64-bit epoch
 *   subset[capacity] lines    : subset barriers: one flip counter per slot
 *   partial[2][capacity]      : grid all-reduce: each block's partial, 8 bytes,
 *                               two sets used alternately
 *   flag[capacity]            : flags barrier: each block's count of barriers, one
 *                               32-bit word a block, consecutive (a warp's poll is one
 *                               line); the words past a launch's grid are kept equal to
 *                               the grid's (barrier_flags.cuh)
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_LAYOUT_H
#define GRIDSYNC_DETAIL_BARRIER_LAYOUT_H

#define GS_LINE_WORDS 32u

#define GS_REC_FLAG 0u      /* 0: no time-out; 1: a wait timed out, everybody leaves */
#define GS_REC_CLAIM 1u     /* first observer of a time-out claims the record */
#define GS_REC_BARRIER 2u   /* barrier number (1-based, per launch) that timed out */
#define GS_REC_BLOCKS 3u    /* grid size of the launch */
#define GS_REC_OBSERVER 4u  /* block whose wait timed out first */
#define GS_REC_METHOD 5u
#define GS_REC_KIND 6u      /* GS_REC_KIND_TIMEOUT or GS_REC_KIND_OVERSIZED */
#define GS_REC_LATE 7u      /* 1: some block found the flag up when it arrived and left */
#define GS_REC_HOST_FLAG 8u /* words 8-9: address of a host-mapped word the device sets to 1
                             * with the flag, so the host sees a time-out without a copy */
#define GS_REC_CAPACITY 10u /* the largest grid the state serves (set by the host) */
#define GS_REC_DETAIL 11u   /* words 11..16: what a misuse or a targeted wait was about
                             * (GS_REC_KIND_MISUSE: the GS_MISUSE_* code, then its
                             * arguments; GS_REC_KIND_WAIT_TIMEOUT: the rank or index waited
                             * on, then the value seen and the value expected, 64-bit each;
                             * GS_REC_KIND_TAGGED_TIMEOUT: the writer's rank, the tag seen, 0,
                             * the tag expected, 0) */
#define GS_REC_DETAIL_WORDS 6u

#define GS_REC_KIND_TIMEOUT 1u   /* a wait exceeded the time-out */
#define GS_REC_KIND_OVERSIZED 2u /* a grid larger than the state's capacity used it */
#define GS_REC_KIND_BAD_METHOD 3u /* a view named a method this build does not have */
#define GS_REC_KIND_MISUSE 4u     /* a primitive was called wrongly (GS_MISUSE_* in the detail) */
#define GS_REC_KIND_WAIT_TIMEOUT 5u /* a wait on one block's epoch or one signal timed out */
#define GS_REC_KIND_TAGGED_TIMEOUT 6u /* a wait for a tagged word's tag timed out (detail: the
                                       * writer's rank, the tag seen, 0, the tag expected, 0) */

/* Misuse codes (word GS_REC_DETAIL), each with its arguments (the words after). */
#define GS_MISUSE_NEIGHBOUR_OUTSIDE 1u /* a neighbour rank outside the grid: rank, blocks */
#define GS_MISUSE_SUBSET_OUTSIDE 2u    /* a subset member outside the grid: member, blocks */
#define GS_MISUSE_SUBSET_NOT_MEMBER 3u /* the calling block is not in the subset: slot */
#define GS_MISUSE_SUBSET_TWICE 4u      /* a subset lists a block twice: member, slot */
#define GS_MISUSE_SUBSET_SLOT 5u       /* a subset slot past the capacity: slot */
#define GS_MISUSE_TOKEN 6u             /* gs_grid_wait with a token of another step: token's, view's */
#define GS_MISUSE_SIGNAL_BACKWARDS 7u  /* a signal stored below its value: index, old lo, hi, new lo, hi */
#define GS_MISUSE_SIGNAL_INDEX 8u      /* a signal index past the set: index, count */
#define GS_MISUSE_SUBSET_EMPTY 9u      /* a subset of no blocks: slot */
#define GS_MISUSE_NEIGHBOUR_LAUNCH 10u /* a neighbour barrier's launch count was off: count, blocks */
#define GS_MISUSE_TASK_GRID 11u        /* a task plan launched on another grid: grid, plan's blocks */
#define GS_MISUSE_HALO_GRID 12u        /* a halo used on another grid: grid, halo's blocks */
#define GS_MISUSE_HALO_TYPE 13u        /* a halo used with another value type: bytes, halo's */

#define GS_W_LOCK (1u * GS_LINE_WORDS)
#define GS_W_FLIP (2u * GS_LINE_WORDS)
#define GS_W_NEIGHBOUR_GEN (3u * GS_LINE_WORDS)
#define GS_W_WHERE (4u * GS_LINE_WORDS)

/* The lock barrier's goal grows by this much per barrier (block 0 adds the
 * difference between the stride and the grid size), so the counter is a
 * multiple of the stride between barriers whatever the grid size. */
#define GS_LOCK_STRIDE (1ull << 20)

#define GS_ROUND_LINE(n) ((((n) + GS_LINE_WORDS - 1u) / GS_LINE_WORDS) * GS_LINE_WORDS)
#define GS_W_IN(cap) (GS_W_WHERE + GS_ROUND_LINE(cap))
#define GS_W_OUT(cap) (GS_W_IN(cap) + GS_ROUND_LINE(cap))
#define GS_W_GROUPS(cap) (GS_W_OUT(cap) + GS_ROUND_LINE(cap))
#define GS_W_EPOCHS(cap) (GS_W_GROUPS(cap) + GS_LINE_WORDS * (cap))
#define GS_W_SUBSETS(cap) (GS_W_EPOCHS(cap) + GS_LINE_WORDS * (cap))
#define GS_W_PARTIALS(cap) (GS_W_SUBSETS(cap) + GS_LINE_WORDS * (cap))
#define GS_PARTIAL_SET_WORDS(cap) (2u * GS_ROUND_LINE(cap)) /* 8 bytes per block */
#define GS_W_FLAGS(cap) (GS_W_PARTIALS(cap) + 2u * GS_PARTIAL_SET_WORDS(cap))
#define GS_STATE_WORDS(cap) (GS_W_FLAGS(cap) + GS_ROUND_LINE(cap))

/* tree: words of a group line */
#define GS_GROUP_COUNT 0u    /* arrivals, monotonic (each member adds 1) */
#define GS_GROUP_RELEASED 1u /* value of count at the last release */

#endif /* GRIDSYNC_DETAIL_BARRIER_LAYOUT_H */
