/* driver.c - the driver entry points of driver.h, looked up once. */
#include "driver.h"

#include <pthread.h>
#include <string.h>

#include "error.h"

static gs__driver_api api;
static gs_status api_status = GS_ERR_INTERNAL;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The version of each entry point's signature as declared in cuda.h. */
static cudaError_t entry(const char *name, void **fn)
{
    enum cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    cudaError_t err = cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &found);
#else
    cudaError_t err = cudaGetDriverEntryPoint(name, fn, cudaEnableDefault, &found);
#endif
    if (err == cudaSuccess && found != cudaDriverEntryPointSuccess)
        err = cudaErrorSymbolNotFound;
    return err;
}

static void look_up(void)
{
    static const char *const names[] = {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
                                        "cuLaunchCooperativeKernel", "cuGetErrorName",
                                        "cuLaunchKernelEx", "cuFuncGetAttribute"};
    enum { N = sizeof names / sizeof names[0] };
    void *fns[N] = {NULL};
    for (int i = 0; i < N; ++i) {
        cudaError_t err = entry(names[i], &fns[i]);
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            api_status = gs__status_from_cuda(err);
            return;
        }
    }
    memcpy(&api.occupancy, &fns[0], sizeof fns[0]);
    memcpy(&api.launch_cooperative, &fns[1], sizeof fns[1]);
    memcpy(&api.error_name, &fns[2], sizeof fns[2]);
    memcpy(&api.launch_ex, &fns[3], sizeof fns[3]);
    memcpy(&api.func_attribute, &fns[4], sizeof fns[4]);
    api_status = GS_SUCCESS;
}

gs_status gs__driver(const gs__driver_api **out)
{
    pthread_once(&once, look_up);
    *out = &api;
    if (api_status != GS_SUCCESS)
        return gs__fail(api_status, "cannot reach the CUDA driver (cudaGetDriverEntryPoint "
                                    "failed): no NVIDIA GPU or driver found");
    return GS_SUCCESS;
}

gs_status gs__driver_fail(CUresult r, const char *call, const char *file, int line)
{
    const char *name = NULL, *base = strrchr(file, '/');
    if (api.error_name == NULL || api.error_name(r, &name) != CUDA_SUCCESS || name == NULL)
        name = "CUDA_ERROR_UNKNOWN";
    gs_status st = r == CUDA_ERROR_OUT_OF_MEMORY ? GS_ERR_OUT_OF_MEMORY
                   : r == CUDA_ERROR_NO_DEVICE    ? GS_ERR_NO_DEVICE
                                                  : GS_ERR_CUDA;
    return gs__fail(st, "%s failed at %s:%d: %s", call, base ? base + 1 : file, line, name);
}
