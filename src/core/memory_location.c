/* memory_location.c - where a pointer lives (error.h: gs__memory_on), the
 * one check of the host calls that take device arrays (gs_scan, the
 * single-pass reductions, gs_sgemm), and the refusal of host memory for the
 * arrays a kernel reads or writes (gs__gpu_memory_on). Apart from device.c so that the host tests'
 * stubbed runtime (tests/host/library.cmake), which links device.c, needs
 * no cudaPointerGetAttributes. */
#include "error.h"

gs_status gs__memory_on(const char *who, const char *what, const void *p, int dev,
                        enum cudaMemoryType *type)
{
    struct cudaPointerAttributes attr;
    GS_CUDA_TRY(cudaPointerGetAttributes(&attr, p));
    if (attr.type == cudaMemoryTypeDevice && attr.device != dev)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: %s is memory of device %d but device %d is current; make its "
                        "device current first (cudaSetDevice(%d))",
                        who, what, attr.device, dev, attr.device);
    *type = attr.type;
    return GS_SUCCESS;
}

gs_status gs__gpu_memory_on(const char *who, const char *what, const void *p, int dev,
                            enum cudaMemoryType *type)
{
    GS_TRY(gs__memory_on(who, what, p, dev, type));
    if (*type != cudaMemoryTypeDevice && *type != cudaMemoryTypeManaged)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: %s is host memory; it must be device (or managed) memory", who, what);
    return GS_SUCCESS;
}
