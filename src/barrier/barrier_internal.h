/* barrier_internal.h - the host side of a gs_barrier (internal). */
#ifndef GS_BARRIER_INTERNAL_H
#define GS_BARRIER_INTERNAL_H

#include <pthread.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gs_barrier {
    gs_barrier_method method;
    int device;                   /* where the state lives */
    unsigned int capacity;        /* SMs x most blocks an SM can hold */
    unsigned int *state;          /* GS_STATE_WORDS(capacity) words */
    unsigned long long timeout_ns;/* 0: waits are unbounded */
    int timeout_from_env;         /* GRIDSYNC_BARRIER_TIMEOUT set it: set_timeout keeps it */
    unsigned int tree_flat_max;   /* 0: default */
    unsigned int tree_group_size; /* 0: default */
    volatile unsigned int *host_flag; /* host-mapped: the device sets it on a time-out */

    /* The last launch outside a stream capture: launches on another stream
     * are refused until it has finished (gs_launch), and gs_barrier_check
     * waits for it. Launches captured into graphs: each is followed in its
     * graph by an external event-record node of `graph_launch`, so every
     * replay records it and gs_barrier_check and gs_barrier_destroy wait
     * for the last replay launched. While gs_barrier_check waits and reads
     * (without the lock), `checking` makes launches return GS_ERR_BUSY
     * instead of waiting for it. The fields, the time-out and the tree
     * parameters are guarded by `lock`. */
    pthread_mutex_t lock;
    cudaEvent_t last_launch;
    unsigned long long last_stream; /* cudaStreamGetId of its stream */
    int launched;                   /* last_launch has been recorded */
    cudaEvent_t graph_launch;
    int captured;                   /* a launch was captured: graph_launch may be recorded */
    int checking;                   /* gs_barrier_check is under way */
};

/* Bytes of device state for a barrier of this capacity. */
size_t gs__barrier_state_bytes(unsigned int capacity);

/* Re-arm after a time-out: zero the whole state (the kernel that timed out
 * has ended; its counters are inconsistent) and the host flag. */
gs_status gs__barrier_rearm(gs_barrier_t barrier);

/* The watchdog sentence: "barrier #5: 1055/1056 blocks arrived; missing:
 * block 17". `where[i]` is the barrier number block i was waiting at when
 * the watchdog fired (0: it was not waiting). Pure; exposed for tests. */
void gs__format_timeout(char *buf, size_t len, unsigned int barrier_no, unsigned int blocks,
                        const unsigned int *where);

/* The sentence for a GS_REC_KIND_MISUSE record (`rec` is the record's
 * line, barrier_layout.h). Pure; exposed for tests. */
void gs__format_misuse(char *buf, size_t len, const unsigned int *rec);

/* The sentence for a GS_REC_KIND_WAIT_TIMEOUT record: "<what> <target>:
 * block B waited for >= E but it stayed at S (time-out T s)". */
void gs__format_wait_timeout(char *buf, size_t len, const char *what, const unsigned int *rec,
                             double timeout_s);

/* The sentence for a neighbour barrier's GS_REC_KIND_WAIT_TIMEOUT record,
 * naming the cause first: the block(s) furthest behind, from every block's
 * epoch (`epochs[i]` for block i of the `blocks` of the launch: its count
 * of neighbour barriers in the launch's generation, the high half of the
 * epoch waited for), "neighbour barrier: block 37 fell behind: it arrived
 * at 10 neighbour barriers of this launch, the other 131 blocks at 11 to
 * 12; the wait that timed out: <gs__format_wait_timeout's sentence>". With
 * nobody behind the others, the wait's sentence alone. Pure. */
void gs__format_neighbour_timeout(char *buf, size_t len, const unsigned int *rec,
                                  const unsigned long long *epochs, unsigned int blocks,
                                  double timeout_s);

/* The sentence for a GS_REC_KIND_TAGGED_TIMEOUT record: "tagged word from
 * block W: block B waited for tag E but saw tag S (time-out T s)". */
void gs__format_tagged_timeout(char *buf, size_t len, const unsigned int *rec, double timeout_s);

#ifdef __cplusplus
}
#endif

#endif /* GS_BARRIER_INTERNAL_H */
