/*
 * tasks_internal.h - the host side of a task plan (internal): the plan
 * object, and the pure steps of gs_task_plan_build (order.c: check and
 * order; lists.c: the blocks' lists and records) and of gs_task_plan_check
 * (cause.c: the watchdog's sentence), exposed for the host tests.
 */
#ifndef GS_TASKS_INTERNAL_H
#define GS_TASKS_INTERNAL_H

#include <pthread.h>

#include "gridsync_tasks.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gs_task_plan {
    int device;
    unsigned int ncounters;
    gs_task_desc *tasks;          /* as added */
    unsigned int ntasks, cap;
    unsigned int stages, stage_bytes; /* stage_bytes 0: the largest need */
    unsigned long long timeout_ns;
    int timeout_from_env;
    int built;

    /* after build */
    unsigned int blocks;
    unsigned int *order;          /* order[i]: the task at place i */
    unsigned int *block_of;       /* per task: its block */
    unsigned int *position;       /* per task: its place in the block's list */
    unsigned int *list_begin;     /* blocks + 1 */
    unsigned int *list;           /* task numbers, block after block */
    unsigned int *period;         /* per counter: its posts per launch */
    size_t smem_bytes;
    unsigned char *device_mem;    /* one allocation: records, offsets, counters, states, record */
    gs_task_view view;
    volatile unsigned int *host_flag; /* host-mapped: the device sets it on a time-out */

    /* the last launch outside a capture (guarded by lock) */
    pthread_mutex_t lock;
    cudaEvent_t last_launch;
    unsigned long long last_stream;
    int launched;
};

/* Zero the counters, the blocks' states and the watchdog record (keeping
 * its host-flag address): a plan's first launch, and the next one after a
 * time-out (build.c). */
gs_status gs__task_rearm(struct gs_task_plan *p);

/* Free what build made (device memory, host flag, event, lists) and mark
 * the plan unbuilt: a failed build, and gs_task_plan_destroy (build.c). */
void gs__task_forget_build(struct gs_task_plan *p);

/* Bytes of a stage a task needs: its record and its inputs, each rounded
 * up to 16 bytes. */
unsigned long long gs__task_need(const gs_task_desc *t);

/* Whether bulk copies can bring every input of `t` (16-byte aligned
 * address and size). */
int gs__task_bulk_ok(const gs_task_desc *t);

/* Check the plan's tasks together (counters' totals, waits that can be
 * met, cycles, inputs written by a task) and find the order: order[i] is
 * the task at place i; period[c] the sum of the posts to counter c. On a
 * bad plan, a sentence in `why` and GS_ERR_INVALID_ARGUMENT (nothing
 * recorded as the thread's error: the caller does). Pure. */
gs_status gs__task_order(const gs_task_desc *tasks, unsigned int ntasks, unsigned int ncounters,
                         unsigned int *order, unsigned int *period, char *why, size_t why_len);

/* The lists of `blocks` blocks in `order`: list_begin (blocks + 1), list
 * (ntasks), block_of and position per task. Pure. */
void gs__task_lists(const gs_task_desc *tasks, unsigned int ntasks, const unsigned int *order,
                    unsigned int blocks, unsigned int *list_begin, unsigned int *list,
                    unsigned int *block_of, unsigned int *position);

/* The records of the lists (one per list place), for stages of
 * `stage_bytes` and `stages` of them. Pure. */
void gs__task_records(const gs_task_desc *tasks, const unsigned int *list, unsigned int ntasks,
                      const unsigned int *list_begin, unsigned int blocks,
                      const unsigned int *period, unsigned int stages, gs_task_record *records);

/* Mark in the records (wait_own) every wait that the block's own earlier
 * tasks satisfy (their posts to the counter within the launch reach the
 * value). `own`: one zero per counter, zeros again on return. Pure. */
void gs__task_mark_own_waits(const gs_task_desc *tasks, const unsigned int *list,
                             const unsigned int *list_begin, unsigned int blocks,
                             unsigned long long *own, gs_task_record *records);

/* What the watchdog found, read back from the device after a time-out. */
typedef struct gs__task_snapshot {
    const unsigned int *record;      /* the watchdog record's line */
    const unsigned int *block_state; /* blocks x GS_TASK_BLOCK_WORDS */
    const unsigned int *counters;    /* per counter, within the launch */
} gs__task_snapshot;

/* The sentence naming the cause of a time-out: the first task, following
 * the chain of waits back from the one that timed out, that was not itself
 * waiting. Pure. */
void gs__task_cause(const struct gs_task_plan *plan, const gs__task_snapshot *snap, char *buf,
                    size_t len);

#ifdef __cplusplus
}
#endif

#endif /* GS_TASKS_INTERNAL_H */
