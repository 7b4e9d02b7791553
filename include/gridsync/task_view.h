/*
 * gridsync/task_view.h - what a kernel receives of a task plan (the
 * persistent task runtime, gridsync/tasks.cuh; the host side is
 * gridsync_tasks.h): the limits of a task, the record each block copies of
 * a task into shared memory, and the view passed by value to kernels.
 * Plain C with no #include, so that NVRTC compiles it.
 */
#ifndef GRIDSYNC_TASK_VIEW_H
#define GRIDSYNC_TASK_VIEW_H

#define GS_TASK_ARGS 4u       /* 64-bit words of a task's argument record */
#define GS_TASK_MAX_WAITS 4u  /* counters a task waits on */
#define GS_TASK_MAX_POSTS 4u  /* counters a task adds to when it is done */
#define GS_TASK_MAX_INPUTS 4u /* independent inputs copied into its stage */
#define GS_TASK_MAX_STAGES 12u

/* Counters are 32-bit and GS_TASK_COUNTER_STRIDE words apart (32 bytes:
 * one L2 sector each). */
#define GS_TASK_COUNTER_STRIDE 8u

/* Bytes at the start of a block's dynamic shared memory that the runtime
 * keeps for itself (the stages' barriers), before the stages. */
#define GS_TASK_SMEM_HEADER 128u
/* Stages start every GS_TASK_STAGE_ALIGN bytes; inputs within a stage too. */
#define GS_TASK_STAGE_ALIGN 128u

/* gs_task_record.flags */
#define GS_TASK_COPY_BY_THREADS 1u /* an input is not 16-byte aligned: the block's threads
                                    * copy the inputs when the task starts (no overlap) */
#define GS_TASK_DEFER_POSTS 2u     /* the next task of the list posts the same counters: this
                                    * task's posts go with its (or before the block waits) */

/* One task as a block sees it: the host writes one record per position of
 * each block's list (records of block b at list_begin[b] .. list_begin[b+1]).
 * In the task's stage the inputs come first, each at input_offset[i]
 * (128-byte aligned: the bulk copies' best), and the record is the stage's
 * last GS_TASK_RECORD_BYTES. The `ahead_*`
 * fields describe the copies of the task GS_TASK stages later in the same
 * list, which the block issues when this task ends. */
typedef struct gs_task_record {
    unsigned long long arg[GS_TASK_ARGS];            /* the user's argument record */
    unsigned int op;                                 /* the user's operation code */
    unsigned int id;                                 /* the task's number in the plan */
    unsigned int nwaits, nposts;
    unsigned int wait_counter[GS_TASK_MAX_WAITS];
    unsigned int wait_value[GS_TASK_MAX_WAITS];      /* within one launch */
    unsigned int wait_period[GS_TASK_MAX_WAITS];     /* all posts to that counter in one launch */
    unsigned int post_counter[GS_TASK_MAX_POSTS];
    unsigned int post_delta[GS_TASK_MAX_POSTS];
    unsigned long long input_src[GS_TASK_MAX_INPUTS];
    unsigned int input_bytes[GS_TASK_MAX_INPUTS];
    unsigned int input_offset[GS_TASK_MAX_INPUTS];   /* from the stage's start */
    unsigned int ninputs, flags;
    unsigned int ahead_n;                            /* bulk copies of the ahead task's inputs */
    unsigned int ahead_bytes;                        /* they and its record bring this many */
    unsigned long long ahead_src[GS_TASK_MAX_INPUTS];
    unsigned int ahead_len[GS_TASK_MAX_INPUTS];
    unsigned int ahead_dst[GS_TASK_MAX_INPUTS];
    unsigned int ahead_valid;                        /* 1: there is a task GS_TASK stages ahead */
    unsigned int wait_own;                           /* bit w: wait w is met by the posts of the
                                                        block's own earlier tasks (no poll) */
    unsigned int reserved[2];
} gs_task_record;

#define GS_TASK_RECORD_BYTES 288u

/* Per block, GS_TASK_BLOCK_WORDS words (32 bytes), written by the block's
 * thread 0, read by the host after a launch (the watchdog's report). */
#define GS_TASK_BLOCK_WORDS 8u
#define GS_TB_EPOCH 0u   /* launches this block has finished (counters' targets grow with it) */
#define GS_TB_DONE 1u    /* tasks of its list finished in the current launch */
#define GS_TB_EXIT 2u    /* GS_TASK_EXIT_*: how it left the current launch */
#define GS_TB_COUNTER 3u /* the counter it left waiting on */
#define GS_TB_SEEN 4u    /* the value it saw there (within the launch) */
#define GS_TB_NEEDED 5u  /* the value it waited for (within the launch) */

#define GS_TASK_EXIT_NONE 0u     /* still running, or it left the kernel from inside an operation */
#define GS_TASK_EXIT_FINISHED 1u /* it finished its list */
#define GS_TASK_EXIT_WAITING 2u  /* it gave up waiting for a counter (time-out, or another's) */
#define GS_TASK_EXIT_COPY 3u     /* it gave up waiting for a stage's inputs to arrive */

/* The device view of a task plan; the host fills it with
 * gs_task_plan_device(). Plain data, passed by value. */
typedef struct gs_task_view {
    const gs_task_record *records;   /* every block's list, block after block */
    const unsigned int *list_begin;  /* blocks + 1 offsets into records */
    unsigned int *counters;          /* ncounters x GS_TASK_COUNTER_STRIDE words */
    unsigned int *block_state;       /* blocks x GS_TASK_BLOCK_WORDS words */
    unsigned int *record;            /* the watchdog record (gridsync/detail/barrier/barrier_layout.h) */
    unsigned long long timeout_ns;   /* 0: waits without a bound */
    unsigned int blocks;             /* the grid the lists were made for */
    unsigned int stages, stage_bytes; /* stage_bytes: a multiple of GS_TASK_STAGE_ALIGN */
    unsigned int ncounters;
} gs_task_view;

#endif /* GRIDSYNC_TASK_VIEW_H */
