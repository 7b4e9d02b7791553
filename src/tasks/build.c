/* build.c - gs_task_plan_build: check the plan, order it, make the blocks'
 * lists and records, and put them on the device with the counters, the
 * blocks' states and the watchdog record. */
#include "tasks_internal.h"

#include <stdlib.h>
#include <string.h>

#include "gridsync/detail/barrier/barrier_layout.h"
#include "../core/error.h"

static size_t round_up(size_t b, size_t to) { return (b + to - 1) / to * to; }

/* Where each part lives in the plan's one device allocation. */
typedef struct layout {
    size_t records, list_begin, counters, block_state, record, total;
} layout;

static layout layout_of(const struct gs_task_plan *p)
{
    layout l;
    l.records = 0;
    l.list_begin = round_up((size_t)p->ntasks * GS_TASK_RECORD_BYTES, 128);
    l.counters = l.list_begin + round_up(((size_t)p->blocks + 1) * sizeof(unsigned int), 128);
    l.block_state =
        l.counters + round_up((size_t)p->ncounters * GS_TASK_COUNTER_STRIDE * 4u, 128);
    l.record = l.block_state + round_up((size_t)p->blocks * GS_TASK_BLOCK_WORDS * 4u, 128);
    l.total = l.record + GS_LINE_WORDS * 4u;
    return l;
}

/* The stage size and the shared memory per block; checked against what
 * every task needs and what the device allows. */
static gs_status size_stages(struct gs_task_plan *p)
{
    unsigned long long largest = GS_TASK_RECORD_BYTES;
    unsigned int largest_task = 0;
    for (unsigned int t = 0; t < p->ntasks; ++t) {
        unsigned long long need = gs__task_need(p->tasks + t);
        if (need > largest) {
            largest = need;
            largest_task = t;
        }
    }
    unsigned long long stage = p->stage_bytes ? p->stage_bytes : largest;
    if (largest > stage)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_build: task %u needs a stage of %llu bytes (its record and "
                        "its inputs, each rounded up to 16), but the stages are %llu bytes",
                        largest_task, largest, stage);
    stage = round_up(stage, GS_TASK_STAGE_ALIGN);
    int optin = 0;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, p->device));
    unsigned long long smem = GS_TASK_SMEM_HEADER + (unsigned long long)p->stages * stage;
    if (smem > (unsigned long long)optin)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_build: %u stages of %llu bytes need %llu bytes of shared "
                        "memory per block, but device %d allows at most %d (task %u needs %llu "
                        "bytes a stage): use fewer stages or smaller tasks",
                        p->stages, stage, smem, p->device, optin, largest_task, largest);
    p->view.stage_bytes = (unsigned int)stage;
    p->smem_bytes = (size_t)smem;
    return GS_SUCCESS;
}

/* Order, lists and records on the host; `records` receives ntasks. */
static gs_status plan_lists(struct gs_task_plan *p, gs_task_record **records)
{
    size_t n = p->ntasks ? p->ntasks : 1;
    p->order = malloc(n * sizeof *p->order);
    p->block_of = malloc(n * sizeof *p->block_of);
    p->position = malloc(n * sizeof *p->position);
    p->list = malloc(n * sizeof *p->list);
    p->list_begin = malloc(((size_t)p->blocks + 1) * sizeof *p->list_begin);
    p->period = malloc((size_t)p->ncounters * sizeof *p->period);
    *records = malloc(n * sizeof **records);
    if (!p->order || !p->block_of || !p->position || !p->list || !p->list_begin || !p->period ||
        !*records)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_task_plan_build: out of host memory");
    char why[1024];
    gs_status st =
        gs__task_order(p->tasks, p->ntasks, p->ncounters, p->order, p->period, why, sizeof why);
    if (st != GS_SUCCESS)
        return gs__fail(st, "gs_task_plan_build: %s", why);
    gs__task_lists(p->tasks, p->ntasks, p->order, p->blocks, p->list_begin, p->list, p->block_of,
                   p->position);
    gs__task_records(p->tasks, p->list, p->ntasks, p->list_begin, p->blocks, p->period, p->stages,
                     *records);
    unsigned long long *own = calloc(p->ncounters ? p->ncounters : 1, sizeof *own);
    if (!own)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_task_plan_build: out of host memory");
    gs__task_mark_own_waits(p->tasks, p->list, p->list_begin, p->blocks, own, *records);
    free(own);
    return GS_SUCCESS;
}

/* Device memory, host flag and event; the records and offsets copied, the
 * rest zeroed (gs__task_rearm). Allocations run in relaxed capture mode so
 * that a capture under way in another thread stays valid. */
static gs_status upload(struct gs_task_plan *p, const gs_task_record *records)
{
    layout l = layout_of(p);
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    unsigned int *mapped = NULL;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc((void **)&p->device_mem, l.total);
    if (err == cudaSuccess)
        err = cudaHostAlloc((void **)&mapped, sizeof *mapped,
                            cudaHostAllocMapped | cudaHostAllocPortable);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&p->last_launch, cudaEventDisableTiming);
    p->host_flag = mapped;
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaMalloc/cudaHostAlloc/cudaEventCreate(task plan)", __FILE__,
                             __LINE__);
    unsigned char *d = p->device_mem;
    GS_CUDA_TRY(cudaMemcpy(d + l.records, records, (size_t)p->ntasks * sizeof *records,
                           cudaMemcpyHostToDevice));
    GS_CUDA_TRY(cudaMemcpy(d + l.list_begin, p->list_begin,
                           ((size_t)p->blocks + 1) * sizeof *p->list_begin,
                           cudaMemcpyHostToDevice));
    p->view.records = (const gs_task_record *)(d + l.records);
    p->view.list_begin = (const unsigned int *)(d + l.list_begin);
    p->view.counters = (unsigned int *)(d + l.counters);
    p->view.block_state = (unsigned int *)(d + l.block_state);
    p->view.record = (unsigned int *)(d + l.record);
    p->view.timeout_ns = p->timeout_ns;
    p->view.blocks = p->blocks;
    p->view.stages = p->stages;
    p->view.ncounters = p->ncounters;
    return gs__task_rearm(p);
}

gs_status gs__task_rearm(struct gs_task_plan *p)
{
    layout l = layout_of(p);
    /* words GS_REC_HOST_FLAG .. GS_REC_CAPACITY of the record: the host flag's
     * device address, and capacity 0 (no where[] region behind the record) */
    unsigned int words[3] = {0, 0, 0};
    void *mapped = NULL;
    GS_CUDA_TRY(cudaHostGetDevicePointer(&mapped, (void *)p->host_flag, 0));
    memcpy(words, &mapped, sizeof mapped);
    GS_CUDA_TRY(cudaMemset(p->device_mem + l.counters, 0, l.total - l.counters));
    /* a copy from pageable memory returns once it is done, after the memset */
    GS_CUDA_TRY(cudaMemcpy(p->view.record + GS_REC_HOST_FLAG, words, sizeof words,
                           cudaMemcpyHostToDevice));
    *p->host_flag = 0u;
    return GS_SUCCESS;
}

void gs__task_forget_build(struct gs_task_plan *p)
{
    if (p->last_launch)
        cudaEventDestroy(p->last_launch);
    if (p->device_mem)
        cudaFree(p->device_mem);
    if (p->host_flag)
        cudaFreeHost((void *)p->host_flag);
    p->last_launch = NULL;
    p->device_mem = NULL;
    p->host_flag = NULL;
    free(p->order);
    free(p->block_of);
    free(p->position);
    free(p->list);
    free(p->list_begin);
    free(p->period);
    p->order = p->block_of = p->position = p->list = p->list_begin = p->period = NULL;
    p->blocks = 0;
}

gs_status gs_task_plan_build(gs_task_plan_t p, unsigned int blocks)
{
    if (!p)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_build: plan is NULL");
    if (p->built)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_task_plan_build: the plan is built already");
    if (blocks < 1 || blocks > (1u << 20))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_build: %u blocks; give 1 to 2^20 (at most what can be "
                        "co-resident: gs_max_coresident_blocks)",
                        blocks);
    int dev = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    if (dev != p->device)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_task_plan_build: the plan belongs to device %d but device %d is "
                        "current",
                        p->device, dev);
    for (unsigned int t = 0; t < p->ntasks; ++t)
        if (p->tasks[t].block > 0 && (unsigned int)p->tasks[t].block > blocks)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "gs_task_plan_build: task %u names block %d, but the grid has %u "
                            "blocks",
                            t, p->tasks[t].block - 1, blocks);
    p->blocks = blocks;
    gs_status sized = size_stages(p);
    if (sized != GS_SUCCESS) {
        p->blocks = 0;
        return sized;
    }
    gs_task_record *records = NULL;
    gs_status st = plan_lists(p, &records);
    if (st == GS_SUCCESS)
        st = upload(p, records);
    free(records);
    if (st != GS_SUCCESS) {
        gs__task_forget_build(p); /* the plan can be fixed and built again */
        return st;
    }
    p->built = 1;
    return GS_SUCCESS;
}
