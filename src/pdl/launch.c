/* launch.c - kernels chained by programmatic dependent launch (PDL): the
 * launch of gs_launch_pdl_func (gridsync.h), with the programmatic
 * stream-serialization attribute where the device and the kernel's code
 * can use it, and as an ordinary stream-ordered launch elsewhere. The
 * device side, gs_pdl_wait and gs_pdl_launch_dependents, and why a chain
 * is correct: include/gridsync/pdl.cuh; when to use it: docs/pdl.md. */
#include "../core/driver.h"
#include "../core/error.h"

/* Whether launches of `func` on the current device may overlap the
 * previous kernel on the stream: compute capability 9.0 or later, and the
 * kernel's code built from PTX 9.0 or later. Code JIT-compiled from older
 * PTX (a build without sm_90) has gs_pdl_wait compiled to nothing: started
 * early, it would read what the previous kernel has not written yet, so it
 * gets an ordinary launch. Asked at every launch, not cached: a driver
 * handle of an unloaded module can come back as another function's, and
 * the two questions cost far less than the launch. */
static gs_status overlaps(const gs__driver_api *drv, CUfunction func, int *yes)
{
    int dev = 0, major = 0, ptx = 0;
    *yes = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9)
        return GS_SUCCESS;
    GS_CU_TRY(drv->func_attribute(&ptx, CU_FUNC_ATTRIBUTE_PTX_VERSION, func),
              "cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_PTX_VERSION)");
    *yes = ptx >= 90;
    return GS_SUCCESS;
}

gs_status gs_pdl_overlaps_func(cudaFunction_t func, int *overlap)
{
    const gs__driver_api *drv = NULL;
    if (!overlap)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_pdl_overlaps: overlap is NULL");
    *overlap = 0;
    if (!func)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_pdl_overlaps: kernel is NULL");
    GS_TRY(gs__driver(&drv));
    return overlaps(drv, (CUfunction)func, overlap);
}

gs_status gs_launch_pdl_func(cudaFunction_t func, dim3 grid, dim3 block, size_t dynamic_smem,
                             cudaStream_t stream, void **args)
{
    const gs__driver_api *drv = NULL;
    int early = 0;
    if (!func)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_launch_pdl: kernel is NULL");
    GS_TRY(gs__check_launch_shape("gs_launch_pdl", grid, block, dynamic_smem));
    GS_TRY(gs__driver(&drv));
    GS_TRY(overlaps(drv, (CUfunction)func, &early));

    CUlaunchAttribute attr[1];
    CUlaunchConfig config = {0};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = block.x;
    config.blockDimY = block.y;
    config.blockDimZ = block.z;
    config.sharedMemBytes = (unsigned int)dynamic_smem;
    config.hStream = (CUstream)stream;
    if (early) {
        /* under stream capture this becomes a programmatic edge of the graph */
        attr[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attr[0].value.programmaticStreamSerializationAllowed = 1;
        config.attrs = attr;
        config.numAttrs = 1;
    }
    GS_CU_TRY(drv->launch_ex(&config, (CUfunction)func, args, NULL), "cuLaunchKernelEx");
    return GS_SUCCESS;
}
