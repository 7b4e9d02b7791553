/* plan.c - making a task plan: creation, tasks, settings, queries. Building
 * it (check, order, lists, upload) is build.c; launching and the watchdog,
 * launch.c. */
#include "tasks_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/timeout.h"
#include "../core/error.h"

gs_status gs_task_plan_create(gs_task_plan_t *plan, unsigned int counters)
{
    int dev = 0, env_set = 0;
    unsigned long long env_ns = 0;
    if (!plan)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_create: plan is NULL");
    *plan = NULL;
    if (counters < 1 || counters > (1u << 24))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_create: %u counters; give 1 to 2^24", counters);
    GS_TRY(gs__timeout_from_env(&env_set, &env_ns));
    GS_CUDA_TRY(cudaGetDevice(&dev));
    struct gs_task_plan *p = calloc(1, sizeof *p);
    if (!p)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_task_plan_create: out of host memory");
    p->device = dev;
    p->ncounters = counters;
    p->stages = 2;
    p->timeout_ns = env_set ? env_ns : GS_BARRIER_DEFAULT_TIMEOUT_NS;
    p->timeout_from_env = env_set;
    pthread_mutex_init(&p->lock, NULL);
    *plan = p;
    return GS_SUCCESS;
}

gs_status gs_task_plan_destroy(gs_task_plan_t p)
{
    if (!p)
        return GS_SUCCESS;
    gs_status st = GS_SUCCESS;
    if (p->launched) {
        cudaError_t err = cudaEventSynchronize(p->last_launch);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaEventSynchronize(last launch)", __FILE__, __LINE__);
    }
    gs__task_forget_build(p);
    free(p->tasks);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return st;
}

/* The checks of one task that need no other task. */
static gs_status check_task(const struct gs_task_plan *p, const gs_task_desc *t, unsigned int id)
{
    if (t->nwaits > GS_TASK_MAX_WAITS || t->nposts > GS_TASK_MAX_POSTS ||
        t->ninputs > GS_TASK_MAX_INPUTS || t->noutputs > GS_TASK_MAX_OUTPUTS)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_add: task %u has %u waits, %u posts, %u inputs and %u "
                        "outputs; at most %u, %u, %u and %u",
                        id, t->nwaits, t->nposts, t->ninputs, t->noutputs, GS_TASK_MAX_WAITS,
                        GS_TASK_MAX_POSTS, GS_TASK_MAX_INPUTS, GS_TASK_MAX_OUTPUTS);
    for (unsigned int i = 0; i < t->nwaits; ++i)
        if (t->waits[i].counter >= p->ncounters)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_add: task %u waits on counter %u, but the plan has "
                            "%u counters (0 to %u)",
                            id, t->waits[i].counter, p->ncounters, p->ncounters - 1);
    for (unsigned int i = 0; i < t->nposts; ++i) {
        if (t->posts[i].counter >= p->ncounters)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_add: task %u posts to counter %u, but the plan has "
                            "%u counters (0 to %u)",
                            id, t->posts[i].counter, p->ncounters, p->ncounters - 1);
        if (t->posts[i].delta == 0 || t->posts[i].delta > 0x7fffffffu)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_add: task %u posts %u to counter %u; a post adds 1 "
                            "to 2^31 - 1",
                            id, t->posts[i].delta, t->posts[i].counter);
    }
    for (unsigned int i = 0; i < t->ninputs; ++i)
        if (!t->inputs[i].ptr || t->inputs[i].bytes == 0 || t->inputs[i].bytes > 0x40000000u)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_add: task %u's input %u is %zu bytes at %p; an input "
                            "is 1 byte to 1 GiB of device memory",
                            id, i, t->inputs[i].bytes, t->inputs[i].ptr);
    for (unsigned int i = 0; i < t->noutputs; ++i)
        if (!t->outputs[i].ptr && t->outputs[i].bytes > 0)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_add: task %u's output %u is NULL", id, i);
    if (t->block < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_add: task %u's block field is %d; give 0 (the plan "
                        "chooses) or b + 1 for block b",
                        id, t->block);
    if (t->flags & ~GS_TASK_POST_AT_ONCE)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_add: task %u has unknown flags 0x%x", id, t->flags);
    if (!(t->cost >= 0.0) || isinf(t->cost))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_add: task %u's cost %g; give 0 or a finite positive cost",
                        id, t->cost);
    return GS_SUCCESS;
}

gs_status gs_task_plan_add(gs_task_plan_t p, const gs_task_desc *task, unsigned int *id)
{
    if (!p || !task)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_add: %s is NULL",
                        !p ? "plan" : "task");
    if (p->built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_add: the plan is built; it takes no more tasks");
    if (p->ntasks >= 0x7fffffffu)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_add: a plan holds 2^31 - 1 tasks");
    GS_TRY(check_task(p, task, p->ntasks));
    if (p->ntasks == p->cap) {
        unsigned int cap = p->cap ? (p->cap > 0x3fffffffu ? 0x7fffffffu : p->cap * 2) : 64;
        gs_task_desc *grown = realloc(p->tasks, (size_t)cap * sizeof *grown);
        if (!grown)
            return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_task_plan_add: out of host memory");
        p->tasks = grown;
        p->cap = cap;
    }
    p->tasks[p->ntasks] = *task;
    if (id)
        *id = p->ntasks;
    ++p->ntasks;
    return GS_SUCCESS;
}

gs_status gs_task_plan_set_stages(gs_task_plan_t p, unsigned int stages, unsigned int stage_bytes)
{
    if (!p)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_set_stages: plan is NULL");
    if (p->built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_set_stages: the plan is built; set the stages before");
    if (stages < 1 || stages > GS_TASK_MAX_STAGES)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_set_stages: %u stages; give 1 to %u", stages,
                        GS_TASK_MAX_STAGES);
    if (stage_bytes != 0 && stage_bytes < GS_TASK_RECORD_BYTES)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_set_stages: a stage of %u bytes cannot hold a task's "
                        "record (%u bytes); give 0 for what the largest task needs",
                        stage_bytes, GS_TASK_RECORD_BYTES);
    p->stages = stages;
    p->stage_bytes = stage_bytes;
    return GS_SUCCESS;
}

gs_status gs_task_plan_set_timeout(gs_task_plan_t p, double seconds)
{
    if (!p)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_set_timeout: plan is NULL");
    if (!(seconds == 0.0 || (seconds >= 0.001 && seconds <= 3600.0)))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_set_timeout: %g s; give 0.001 to 3600 seconds, or 0 for "
                        "waits without a bound",
                        seconds);
    pthread_mutex_lock(&p->lock);
    if (!p->timeout_from_env) {
        p->timeout_ns = (unsigned long long)llround(seconds * 1e9);
        p->view.timeout_ns = p->timeout_ns;
    }
    pthread_mutex_unlock(&p->lock);
    return GS_SUCCESS;
}

size_t gs_task_plan_smem_bytes(gs_task_plan_t p) { return p && p->built ? p->smem_bytes : 0; }

unsigned int gs_task_plan_size(gs_task_plan_t p) { return p ? p->ntasks : 0; }

gs_status gs_task_plan_device(gs_task_plan_t p, gs_task_view *view)
{
    if (!p || !view)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_device: %s is NULL",
                        !p ? "plan" : "view");
    if (!p->built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_device: build the plan first (gs_task_plan_build)");
    pthread_mutex_lock(&p->lock);
    *view = p->view;
    pthread_mutex_unlock(&p->lock);
    return GS_SUCCESS;
}

gs_status gs_task_plan_where(gs_task_plan_t p, unsigned int id, unsigned int *block,
                             unsigned int *position)
{
    if (!p || !p->built || id >= p->ntasks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_where: %s", !p ? "plan is NULL"
                                                 : !p->built ? "build the plan first"
                                                             : "no such task");
    if (block)
        *block = p->block_of[id];
    if (position)
        *position = p->position[id];
    return GS_SUCCESS;
}

gs_status gs_task_plan_order(gs_task_plan_t p, unsigned int *order)
{
    if (!p || !p->built || !order)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_order: %s",
                        !p ? "plan is NULL" : !order ? "order is NULL" : "build the plan first");
    memcpy(order, p->order, (size_t)p->ntasks * sizeof *order);
    return GS_SUCCESS;
}
