/* barrier_internal.h - the host side of a gs_barrier (internal). */
#ifndef GS_BARRIER_INTERNAL_H
#define GS_BARRIER_INTERNAL_H

#include "gridsync.h"

struct gs_barrier {
    gs_barrier_method method;
    unsigned int capacity;        /* SMs x most blocks an SM can hold */
    unsigned int *state;          /* GS_STATE_WORDS(capacity) words */
    unsigned long long timeout_ns;
    unsigned int tree_flat_max;   /* 0: default */
    unsigned int tree_group_size; /* 0: default */
};

/* Bytes of device state for a barrier of this capacity. */
size_t gs__barrier_state_bytes(unsigned int capacity);

/* Re-arm after a time-out: zero the whole state (the kernel that timed out
 * has ended; its counters are inconsistent). */
gs_status gs__barrier_rearm(gs_barrier_t barrier);

/* The watchdog sentence: "barrier #5: 1055/1056 blocks arrived; missing:
 * block 17". `where[i]` is the barrier number block i was waiting at when
 * the watchdog fired (0: it was not waiting). Pure; exposed for tests. */
void gs__format_timeout(char *buf, size_t len, unsigned int barrier_no, unsigned int blocks,
                        const unsigned int *where);

#endif /* GS_BARRIER_INTERNAL_H */
