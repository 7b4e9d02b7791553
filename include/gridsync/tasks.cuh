/*
 * gridsync/tasks.cuh - the persistent task runtime, device side: a kernel's
 * blocks walk lists of tasks ordered by counters, while the independent
 * inputs of their next tasks stream into shared memory (the host side, the
 * plan: gridsync_tasks.h).
 *
 *   #include <gridsync/tasks.cuh>
 *
 *   __global__ void decode(gs_task_view plan, Model m)
 *   {
 *       extern __shared__ __align__(128) unsigned char smem[];
 *       gs_task_runner r;
 *       gs_task_t t;
 *       gs_task_begin(&r, &plan, smem);
 *       while (gs_task_next(&r, &t)) {             // its inputs are in, its waits met
 *           switch (gs_task_op(&t)) {
 *           case OP_GEMV:
 *               gemv(m, gs_task_arg(&t, 0), gs_task_input(&t, 0));   // weights, staged
 *               break;
 *           }
 *           gs_task_end(&r, &t);                   // post its counters
 *       }
 *   }
 *
 * Contract
 *   - Every thread of the block calls gs_task_begin once, then gs_task_next
 *     until it returns 0, and gs_task_end after each task; all three are
 *     block-collective (they contain block barriers). The kernel's grid is
 *     the plan's (gs_task_plan_launch makes it so), and its dynamic shared
 *     memory starts with gs_task_plan_smem_bytes(plan) bytes for the
 *     runtime (the rest is the kernel's).
 *   - gs_task_next returns a task once its stage holds its record and its
 *     independent inputs (gs_task_input(&t, i), in shared memory, 16-byte
 *     aligned, in the order the task named them) and every counter it waits
 *     on has reached its value, or the block's own earlier tasks posted
 *     that value (the host marks such waits and the block does not poll
 *     them): everything the tasks that posted those values wrote before they
 *     ended is visible to every thread of the block (acquire/release at GPU
 *     scope, or, for the block's own tasks, block order; tasks/runner.cuh
 *     argues it). Read such data with ordinary loads after gs_task_next.
 *   - gs_task_end posts the task's counters once every thread of the block
 *     has returned to it: what the block wrote for the task is released.
 *   - gs_task_next returns 0 at the end of the list, and also when a wait
 *     gave up (time-out, or another block's): then the block must leave
 *     (return from the kernel); gs_task_plan_check reports why.
 *   - A task's stage is the block's until gs_task_end: an operation may use
 *     its first gs_task_stage_bytes() bytes as scratch once it has read its
 *     inputs (the runtime's record of the task follows them: never write it).
 * When: chains and graphs of dependent steps whose steps read large inputs
 * that do not depend on earlier steps (batch-1 decode: every layer's weights;
 * solvers' matrices; wavefront tiles' constants). The copies of later tasks
 * overlap every wait, which neither a kernel boundary (PDL starts only the
 * next kernel early) nor a grid barrier does. Where steps read nothing
 * independent and every step needs the whole grid, a CUDA graph with
 * programmatic dependent launch is as fast and simpler.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_TASKS_CUH
#define GRIDSYNC_TASKS_CUH

#include <gridsync/task_view.h>
#include <gridsync/detail/tasks/runner.cuh>

typedef gs_task gs_task_t;

/* Start walking the block's list; `smem` is the kernel's dynamic shared
 * memory (aligned to 128 bytes). */
GS_DEVICE void gs_task_begin(gs_task_runner *r, const gs_task_view *plan, void *smem)
{
    gs__task_begin(r, plan, smem);
}

/* The next task, once its inputs are in and its waits are met: 1; 0 when
 * the list is done or the block must leave. */
GS_DEVICE int gs_task_next(gs_task_runner *r, gs_task_t *t) { return gs__task_next(r, t); }

/* The task is done: post its counters, refill its stage. */
GS_DEVICE void gs_task_end(gs_task_runner *r, const gs_task_t *t) { gs__task_end(r, t); }

/* The task's operation code, its number in the plan, argument i. */
GS_DEVICE unsigned int gs_task_op(const gs_task_t *t) { return t->op; }
GS_DEVICE unsigned int gs_task_id(const gs_task_t *t) { return t->id; }
GS_DEVICE unsigned long long gs_task_arg(const gs_task_t *t, unsigned int i)
{
    return t->rec->arg[i];
}

/* Independent input i in shared memory, its size, and where it came from. */
GS_DEVICE const void *gs_task_input(const gs_task_t *t, unsigned int i)
{
    return t->stage + t->rec->input_offset[i];
}
GS_DEVICE unsigned int gs_task_input_bytes(const gs_task_t *t, unsigned int i)
{
    return t->rec->input_bytes[i];
}

/* The task's stage (its inputs, and what is left of it), as scratch for
 * the operation once it has read its inputs: gs_task_stage_bytes(r) bytes
 * (the runtime's record of the task follows them). */
GS_DEVICE unsigned char *gs_task_stage(const gs_task_t *t) { return t->stage; }
GS_DEVICE unsigned int gs_task_stage_bytes(const gs_task_runner *r)
{
    return r->v.stage_bytes - GS_TASK_RECORD_BYTES;
}

/* Launches of the plan that finished before this one (the same for every
 * block): data a kernel tags per launch can use it. */
GS_DEVICE unsigned int gs_task_launch_index(const gs_task_runner *r) { return r->epoch; }

#endif /* GRIDSYNC_TASKS_CUH */
