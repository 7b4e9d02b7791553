/* device.c - selecting a GPU for a tool (device.h). */
#include "common/device.h"

#include "gridsync_internal.h"

gs_status gs_select_device(int ordinal, gs_device_info *info)
{
    gs_status st = gs_device_query(ordinal, info);
    if (st != GS_SUCCESS)
        return st;
    GS_CUDA_TRY(cudaSetDevice(ordinal));
    return GS_SUCCESS;
}
