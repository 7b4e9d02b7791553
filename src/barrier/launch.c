/* launch.c - launching a grid that is guaranteed to be co-resident, and
 * refusing launches that would misuse a barrier. */
#include "barrier_internal.h"

#include <stdio.h>

#include "../core/driver.h"
#include "../core/error.h"

/* Everything about `barrier` that must hold before a launch of `blocks`
 * blocks on `stream` (its lock held). */
static gs_status check_barrier(gs_barrier_t b, int dev, long long blocks, cudaStream_t stream,
                               int capturing, unsigned long long *stream_id)
{
    if (dev != b->device)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_launch: the barrier belongs to device %d but device %d is current "
                        "(cudaSetDevice(%d) first, or create a barrier on device %d)",
                        b->device, dev, b->device, dev);
    if (blocks > b->capacity)
        return gs__fail(GS_ERR_NOT_CORESIDENT,
                        "%lld blocks requested, the barrier serves at most %u", blocks,
                        b->capacity);
    if (b->checking)
        return gs__fail(GS_ERR_BUSY,
                        "gs_launch: gs_barrier_check is waiting for this barrier's launches and "
                        "reading its watchdog record (in another thread); launch once it has "
                        "returned");
    if (*b->host_flag)
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "gs_launch: an earlier launch on this barrier timed out and its report "
                        "has not been collected: call gs_barrier_check (which reports it and "
                        "re-arms the barrier) before launching again");
    if (capturing)
        return GS_SUCCESS;
    GS_CUDA_TRY(cudaStreamGetId(stream, stream_id));
    if (!b->launched || b->last_stream == *stream_id)
        return GS_SUCCESS; /* nothing earlier, or ordered by the stream */
    cudaError_t done = cudaEventQuery(b->last_launch);
    if (done == cudaErrorNotReady)
        return gs__fail(GS_ERR_BUSY,
                        "gs_launch: this barrier's previous launch, on another stream, is still "
                        "running; two grids on one barrier would mix their arrivals. Launch on "
                        "the same stream, wait for it (gs_barrier_check), or use a second "
                        "barrier");
    if (done != cudaSuccess)
        return gs__cuda_fail(done, "cudaEventQuery(last launch)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

static gs_status launch_locked(cudaFunction_t func, dim3 grid, dim3 block, size_t smem,
                               cudaStream_t stream, void **args, gs_barrier_t barrier, int dev,
                               long long blocks)
{
    const gs__driver_api *drv = NULL;
    unsigned long long stream_id = 0;
    int capturing = 0;
    GS_TRY(gs__driver(&drv));
    GS_TRY(gs__is_capturing(stream, &capturing));
    if (barrier)
        GS_TRY(check_barrier(barrier, dev, blocks, stream, capturing, &stream_id));
    GS_CU_TRY(drv->launch_cooperative((CUfunction)func, grid.x, grid.y, grid.z, block.x, block.y,
                                      block.z, (unsigned int)smem, (CUstream)stream, args),
              "cuLaunchCooperativeKernel");
    if (barrier && !capturing) {
        GS_CUDA_TRY(cudaEventRecord(barrier->last_launch, stream));
        barrier->last_stream = stream_id;
        barrier->launched = 1;
    } else if (barrier) { /* a node every replay records: check and destroy wait for it */
        GS_CUDA_TRY(cudaEventRecordWithFlags(barrier->graph_launch, stream,
                                             cudaEventRecordExternal));
        barrier->captured = 1;
    }
    return GS_SUCCESS;
}

gs_status gs_launch_func(cudaFunction_t func, dim3 grid, dim3 block, size_t dynamic_smem,
                         cudaStream_t stream, void **args, gs_barrier_t barrier)
{
    int sms = 0, per_sm = 0, dev = 0, coop = 0;
    if (!func)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_launch: kernel is NULL");
    GS_TRY(gs__check_launch_shape("gs_launch", grid, block, dynamic_smem));
    long long blocks = (long long)grid.x * grid.y * grid.z;
    long long threads = (long long)block.x * block.y * block.z;

    GS_TRY(gs__occupancy(func, (int)threads, dynamic_smem, &sms, &per_sm));
    if (blocks > (long long)sms * per_sm) {
        char why[256];
        gs_format_coresidency(why, sizeof why, blocks, sms, per_sm, (int)threads);
        return gs__fail(GS_ERR_NOT_CORESIDENT, "%s", why);
    }
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "device %d does not support cooperative launches",
                        dev);
    if (!barrier)
        return launch_locked(func, grid, block, dynamic_smem, stream, args, NULL, dev, blocks);
    pthread_mutex_lock(&barrier->lock);
    gs_status st =
        launch_locked(func, grid, block, dynamic_smem, stream, args, barrier, dev, blocks);
    pthread_mutex_unlock(&barrier->lock);
    return st;
}
