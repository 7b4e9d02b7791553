/*
 * gridsync/signal_view.h - what a kernel receives of a signal set (the
 * counters blocks publish and wait on, gridsync/signal.cuh): the view
 * struct passed by value to kernels. Plain C with no #include, so that
 * NVRTC compiles it; gridsync.h includes it for the host.
 */
#ifndef GRIDSYNC_SIGNAL_VIEW_H
#define GRIDSYNC_SIGNAL_VIEW_H

/* Counters are 64-bit and GS_SIGNAL_STRIDE counters apart (32 bytes: one
 * L2 sector each), so that a counter's writers and pollers share its
 * sector with no other counter's. */
#define GS_SIGNAL_STRIDE 4u

/* The device view of a signal set; the host fills it with
 * gs_signals_device(). Plain data. */
typedef struct gs_signal_set {
    unsigned long long *values; /* count counters, GS_SIGNAL_STRIDE apart */
    unsigned int *record;       /* the watchdog record (gridsync/detail/barrier/barrier_layout.h) */
    unsigned long long timeout_ns;
    unsigned int count;
    unsigned int reserved;
} gs_signal_set;

#endif /* GRIDSYNC_SIGNAL_VIEW_H */
