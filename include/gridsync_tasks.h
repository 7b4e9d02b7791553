/*
 * gridsync_tasks.h - the persistent task runtime, host side (C17; part of
 * libgridsync). The device side, which a kernel walks its block's tasks
 * with, is gridsync/tasks.cuh.
 *
 * A plan is a list of tasks ordered by counters. Each task carries an
 * operation code (the user's kernel dispatches on it) and a small argument
 * record; it waits on counters (counter c >= v) before it runs, adds to
 * counters (c += d) when it is done, and may name independent inputs:
 * address ranges it reads that no task of the plan writes. Those inputs do
 * not depend on anything, so a block copies them into a shared-memory stage
 * of its own while earlier tasks still run or wait: the memory system stays
 * busy through every wait (on sm_90, bulk copies counted by mbarriers; on
 * older GPUs, and for inputs that are not 16-byte aligned, the block's
 * threads copy them when the task starts).
 *
 *   gs_task_plan_t plan;
 *   gs_task_plan_create(&plan, layers);                 // counters 0 .. layers-1
 *   for (l...) for (slab...) {
 *       gs_task_desc t = {.op = OP_GEMV, .arg = {l, row0}};
 *       if (l > 0) t.waits[t.nwaits++] = (gs_task_wait){l - 1, slabs};  // layer l-1 done
 *       t.posts[t.nposts++] = (gs_task_post){l, 1};
 *       t.inputs[t.ninputs++] = (gs_task_range){w[l] + row0 * d, rows * d * 2};
 *       gs_task_plan_add(plan, &t, NULL);
 *   }
 *   gs_task_plan_set_stages(plan, 6, 0);                 // 6 stages of the largest task
 *   gs_task_plan_build(plan, blocks);                    // checks, orders, assigns, uploads
 *   gs_task_view view; gs_task_plan_device(plan, &view);
 *   void *args[] = {&view, ...};
 *   gs_task_plan_launch(plan, (const void *)kernel, dim3(256), gs_task_plan_smem_bytes(plan),
 *                       stream, args);
 *   gs_task_plan_check(plan, stream);                    // time-outs, with their cause
 *
 * The plan is checked before anything runs (gs_task_plan_build): every
 * wait can be met by the posts of tasks that can themselves run (no wait
 * that can never finish, no cycle), every task's inputs fit a stage, the
 * stages fit in shared memory, the counters' totals do not overflow; a bad
 * plan gets GS_ERR_INVALID_ARGUMENT and a sentence naming the task and the
 * counter. The host then fixes one order of the tasks in which each one's
 * waits are met by the posts of those before it (the order tasks were added
 * in, wherever it allows), and gives each block a list of tasks in that
 * order (the least loaded block takes the next task, by cost; or the block
 * the task names). Because every list follows one such order and the
 * blocks are co-resident, the earliest unfinished task can always run: the
 * plan cannot deadlock.
 *
 * Counters only grow, across launches too: a launch's waits target
 * (launches before it) x (the counter's posts per launch) + v, so a plan is
 * launched again with no reset (each block counts its launches). Launches
 * of one plan run one at a time, in stream order.
 *
 * Watchdog: every wait is bounded (2 s by default; gs_task_plan_set_timeout,
 * GRIDSYNC_BARRIER_TIMEOUT). A wait that times out records the task, the
 * counter, the value seen and the value needed; every other wait then gives
 * up, the kernel ends, and gs_task_plan_check returns GS_ERR_BARRIER_TIMEOUT
 * with a sentence that names the cause, not the victim: it follows the
 * chain of waiting tasks back, through the tasks that should have posted
 * and had not finished, to the first one that was not waiting (its block
 * left the kernel inside that task's operation, or stopped in it). The
 * state is then re-armed, and the next launch works.
 *
 * Threads: a plan is made (create, add, set, build) by one thread; launch,
 * check, device and the queries are safe from several.
 *
 * Device footprint of a built plan: 288 bytes per task (its record), 4
 * bytes per block + 4 (the lists' offsets), 32 bytes per counter, 32 bytes
 * per block (its state) and 128 bytes (the watchdog record); 4 bytes of
 * pinned host memory. Shared memory per block: gs_task_plan_smem_bytes().
 * Nothing is allocated per launch.
 */
#ifndef GRIDSYNC_TASKS_H
#define GRIDSYNC_TASKS_H

#include "gridsync.h"
#include "gridsync/task_view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_task_plan *gs_task_plan_t;

/* Counter `counter` >= `value` (within one launch). */
typedef struct gs_task_wait {
    unsigned int counter, value;
} gs_task_wait;

/* Counter `counter` += `delta` (>= 1) when the task is done. */
typedef struct gs_task_post {
    unsigned int counter, delta;
} gs_task_post;

/* An address range in device memory. */
typedef struct gs_task_range {
    const void *ptr;
    size_t bytes;
} gs_task_range;

#define GS_TASK_MAX_OUTPUTS 4u

/* gs_task_desc.flags: post this task's counters as soon as it ends, even
 * when the next task of its block posts the same ones (by default such
 * consecutive posts go out together, one release for all of them, when the
 * last of them ends, before the block waits, or when the next task has a
 * wait the block's own tasks met: a release costs a round trip to L2, about
 * 0.6 us on H200, which would otherwise stall each task). */
#define GS_TASK_POST_AT_ONCE 1u

/* A task. Zero-initialize it, then fill what applies. */
typedef struct gs_task_desc {
    unsigned int op;                       /* the user's operation code */
    unsigned long long arg[GS_TASK_ARGS];  /* the user's arguments (gs_task_arg on the device) */
    unsigned int nwaits;
    gs_task_wait waits[GS_TASK_MAX_WAITS];
    unsigned int nposts;
    gs_task_post posts[GS_TASK_MAX_POSTS];
    unsigned int ninputs;                  /* independent inputs, copied into its stage */
    gs_task_range inputs[GS_TASK_MAX_INPUTS];
    unsigned int noutputs;                 /* what it writes, if the caller says: checked to
                                              overlap no task's independent input */
    gs_task_range outputs[GS_TASK_MAX_OUTPUTS];
    int block;                             /* 0: the plan chooses; b + 1: block b runs it */
    unsigned int flags;                    /* GS_TASK_POST_AT_ONCE */
    double cost;                           /* relative time, for the assignment; 0: its input
                                              bytes plus 4 KiB */
} gs_task_desc;

/* A plan with `counters` counters (1 .. 2^24), on the current device. */
GS_API gs_status gs_task_plan_create(gs_task_plan_t *plan, unsigned int counters);
GS_API gs_status gs_task_plan_destroy(gs_task_plan_t plan);

/* Add a task; `id` (may be NULL) receives its number, 0, 1, ... in the
 * order of the calls. Checks the task alone (counter numbers, deltas,
 * inputs); the whole plan is checked by gs_task_plan_build. Not after
 * build. */
GS_API gs_status gs_task_plan_add(gs_task_plan_t plan, const gs_task_desc *task, unsigned int *id);

/* The shared-memory stages each block copies inputs into: `stages` (1 to
 * GS_TASK_MAX_STAGES; default 2) of `stage_bytes` each (0: what the
 * largest task needs, the default). A task needs its inputs, each rounded
 * up to 128 bytes, plus GS_TASK_RECORD_BYTES. More stages let a block's
 * copies run further ahead of its waits. Before build. */
GS_API gs_status gs_task_plan_set_stages(gs_task_plan_t plan, unsigned int stages,
                                         unsigned int stage_bytes);

/* Bound on every wait (default 2 s, at least 1 ms; 0 waits without a
 * bound). GRIDSYNC_BARRIER_TIMEOUT, when set, wins (gs_barrier_create).
 * It holds for the views taken after it (gs_task_plan_device). */
GS_API gs_status gs_task_plan_set_timeout(gs_task_plan_t plan, double seconds);

/* Check the plan, order its tasks, make the lists of a grid of `blocks`
 * blocks and copy everything to the device. After this the plan takes no
 * more tasks. */
GS_API gs_status gs_task_plan_build(gs_task_plan_t plan, unsigned int blocks);

/* Dynamic shared memory the runtime needs per block (header and stages);
 * a kernel that needs some of its own passes more and uses the rest (from
 * this offset on). 0 before build. */
GS_API size_t gs_task_plan_smem_bytes(gs_task_plan_t plan);

/* The view to pass to the kernel (after build). */
GS_API gs_status gs_task_plan_device(gs_task_plan_t plan, gs_task_view *view);

/* Where build put task `id`: its block and its position in the block's
 * list; and `order[i]`, the task at place i of the order the lists follow
 * (order holds one entry per task). For tests and tools. */
GS_API gs_status gs_task_plan_where(gs_task_plan_t plan, unsigned int id, unsigned int *block,
                                    unsigned int *position);
GS_API gs_status gs_task_plan_order(gs_task_plan_t plan, unsigned int *order);

/* The number of tasks. */
GS_API unsigned int gs_task_plan_size(gs_task_plan_t plan);

/* Launch the kernel `func` (a driver handle, as gs_launch_func) on the
 * plan: a grid of the plan's blocks, refused if not co-resident
 * (GS_ERR_NOT_CORESIDENT) or if `dynamic_smem` is below
 * gs_task_plan_smem_bytes; refused while an earlier launch's time-out has
 * not been collected by gs_task_plan_check (GS_ERR_BARRIER_TIMEOUT), or
 * while a launch of the plan on another stream may still run (GS_ERR_BUSY).
 * `args` is the kernel's argument array, one of which is the plan's view.
 * Asynchronous; can be captured into a CUDA graph. */
GS_API gs_status gs_task_plan_launch_func(gs_task_plan_t plan, cudaFunction_t func, dim3 block,
                                          size_t dynamic_smem, cudaStream_t stream, void **args);

/* gs_task_plan_launch_func for a __global__ function pointer (whatever CUDA
 * runtime the program links, as gs_launch). */
static inline gs_status gs_task_plan_launch(gs_task_plan_t plan, const void *kernel, dim3 block,
                                            size_t dynamic_smem, cudaStream_t stream,
                                            void **args)
{
    cudaFunction_t func;
    gs_status st = gs__kernel_func(kernel, &func);
    if (st != GS_SUCCESS)
        return st;
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    if (stream == 0)
        stream = cudaStreamPerThread;
#endif
    return gs_task_plan_launch_func(plan, func, block, dynamic_smem, stream, args);
}

/* Wait for `stream` and the plan's last launch, then report its watchdog:
 * GS_SUCCESS, or GS_ERR_BARRIER_TIMEOUT with the cause, such as
 *   "task 1234 (op 2, block 37, 10th of its 48) never finished: block 37
 *    left the kernel while running it; waiting on it: task 1300 (block 38)
 *    for counter 5 >= 12 (saw 11) <- task 1500 (block 40) ..."
 * Either way the plan is ready for its next launch (after a time-out its
 * counters and blocks' states are re-armed). */
GS_API gs_status gs_task_plan_check(gs_task_plan_t plan, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GRIDSYNC_TASKS_H */
