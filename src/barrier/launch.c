/* launch.c - launching a grid that is guaranteed to be co-resident. */
#include "barrier_internal.h"

#include <stdio.h>

#include "../core/error.h"

gs_status gs_launch(const void *kernel, dim3 grid, dim3 block, size_t dynamic_smem,
                    cudaStream_t stream, void **args, gs_barrier_t barrier)
{
    int sms = 0, per_sm = 0, dev = 0, coop = 0;
    if (!kernel)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_launch: kernel is NULL");
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
        block.z == 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_launch: grid (%u,%u,%u) and block (%u,%u,%u) must have no zero "
                        "dimension", grid.x, grid.y, grid.z, block.x, block.y, block.z);
    long long blocks = (long long)grid.x * grid.y * grid.z;
    long long threads = (long long)block.x * block.y * block.z;
    if (threads > 1024)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_launch: %lld threads per block, at most 1024 are allowed", threads);

    GS_TRY(gs__occupancy(kernel, (int)threads, dynamic_smem, &sms, &per_sm));
    if (blocks > (long long)sms * per_sm) {
        char why[256];
        gs_format_coresidency(why, sizeof why, blocks, sms, per_sm, (int)threads);
        return gs__fail(GS_ERR_NOT_CORESIDENT, "%s", why);
    }
    if (barrier && blocks > barrier->capacity)
        return gs__fail(GS_ERR_NOT_CORESIDENT,
                        "%lld blocks requested, the barrier serves at most %u", blocks,
                        barrier->capacity);
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "device %d does not support cooperative launches",
                        dev);
    GS_CUDA_TRY(cudaLaunchCooperativeKernel(kernel, grid, block, args, dynamic_smem, stream));
    return GS_SUCCESS;
}
