/*
 * gridsync/barrier_view.h - what a kernel receives of a grid barrier: the
 * list of barrier methods and the view struct passed by value to kernels.
 *
 * Plain C with no #include at all, so that device code compiled at run time
 * by NVRTC (which provides no C library headers) can use it; gridsync.h
 * includes it for the host, gridsync/barrier.cuh for the device.
 */
#ifndef GRIDSYNC_BARRIER_VIEW_H
#define GRIDSYNC_BARRIER_VIEW_H

/*
 * The barrier methods, one line each: the enum constant and the name that
 * gs_barrier_method_name and gs_barrier_method_parse use. Values follow the
 * list (lock is 1, ...); a new method goes at the end, so values never
 * change. This list is the registry: the enum below, the host's names and
 * the device dispatch (gridsync/detail/barrier/barrier_dispatch.cuh, which does not
 * compile while a listed method has no device implementation) derive from
 * it. How each method works, why it is correct and when to prefer it:
 * gridsync/barrier.cuh.
 */
#define GS_BARRIER_METHODS(X)                                                               \
    X(GS_BARRIER_LOCK, "lock")         /* the tutorial's lock-based barrier: one counter */  \
    X(GS_BARRIER_LOCKFREE, "lockfree") /* the tutorial's lock-free one (Xiao & Feng) */      \
    X(GS_BARRIER_FLIP, "flip")         /* one counter whose top bit flips (grid.sync's) */   \
    X(GS_BARRIER_TREE, "tree")         /* gridsync's: flip's counter, groups on huge grids */\
    X(GS_BARRIER_FLAGS, "flags")       /* gridsync's: a flag per block, each polls all */

typedef enum gs_barrier_method {
    GS_BARRIER_AUTO = 0, /* the recommended method: currently tree */
#define GS__BARRIER_METHOD_CONSTANT(constant, name) constant,
    GS_BARRIER_METHODS(GS__BARRIER_METHOD_CONSTANT)
#undef GS__BARRIER_METHOD_CONSTANT
    GS_BARRIER_METHOD_COUNT /* auto and every listed method */
} gs_barrier_method;

/* The device view of a barrier: pass it by value as a kernel argument and
 * call gs_grid_sync(&view) inside the kernel (see gridsync/barrier.cuh).
 * Plain data; the host fills it with gs_barrier_device(). */
typedef struct gs_grid_barrier {
    unsigned int *state;      /* device memory owned by the gs_barrier */
    unsigned long long timeout_ns;
    int method;               /* gs_barrier_method, never AUTO here */
    unsigned int count;       /* barriers passed in this launch (per thread) */
    unsigned int capacity;    /* largest grid the state can serve */
    unsigned int group_size;  /* tree: blocks per arrival group (0: default) */
    unsigned int flat_max;    /* tree: grids up to this size use one counter */
    unsigned int epoch_known; /* neighbour barriers: 0 until the block's first one */
    unsigned long long epoch; /* neighbour barriers: this block's epoch, once known */
    unsigned int reduces;     /* grid all-reduces in this launch (picks their slot set) */
    unsigned int split_phase; /* split-phase barrier: (count << 1 | flip's top bit) after
                               * the block's last wait, seen by its polling thread; 0: none */
} gs_grid_barrier;

#endif /* GRIDSYNC_BARRIER_VIEW_H */
