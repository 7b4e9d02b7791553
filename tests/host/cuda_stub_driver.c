/* cuda_stub_driver.c - the driver entry points the stub runtime hands
 * out through cudaGetDriverEntryPointByVersion (occupancy, cooperative and
 * extended launches, function attributes, error names): what the
 * library's launch paths call. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_stub_internal.h"

#include <cuda.h>

#include <string.h>

static CUresult stub_occupancy(int *blocks, CUfunction f, int threads, size_t smem)
{
    (void)f, (void)threads, (void)smem;
    *blocks = 8;
    return CUDA_SUCCESS;
}

static CUresult stub_launch_cooperative(CUfunction f, unsigned int gx, unsigned int gy,
                                        unsigned int gz, unsigned int bx, unsigned int by,
                                        unsigned int bz, unsigned int smem, CUstream stream,
                                        void **params)
{
    (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)smem;
    (void)params;
    pthread_mutex_lock(&stub__mu);
    void (*hook)(void *) = stub__launch_hook;
    void *arg = stub__launch_hook_arg;
    pthread_mutex_unlock(&stub__mu);
    if (hook)
        hook(arg);
    pthread_mutex_lock(&stub__mu);
    stub__enqueue(stub__stream_of((cudaStream_t)stream), stub__new_op(OP_KERNEL));
    pthread_mutex_unlock(&stub__mu);
    return CUDA_SUCCESS;
}

/* cuLaunchKernelEx: recorded (stub_last_launch_ex), then enqueued as a
 * kernel as cuLaunchCooperativeKernel's launches are. */
static CUresult stub_launch_ex_fn(const CUlaunchConfig *config, CUfunction f, void **params,
                                  void **extra)
{
    (void)f, (void)params, (void)extra;
    pthread_mutex_lock(&stub__mu);
    CUresult fail = (CUresult)stub__last_ex.fail_next;
    stub__last_ex.fail_next = CUDA_SUCCESS;
    if (fail != CUDA_SUCCESS) {
        pthread_mutex_unlock(&stub__mu);
        return fail;
    }
    stub__last_ex.grid[0] = config->gridDimX;
    stub__last_ex.grid[1] = config->gridDimY;
    stub__last_ex.grid[2] = config->gridDimZ;
    stub__last_ex.block[0] = config->blockDimX;
    stub__last_ex.block[1] = config->blockDimY;
    stub__last_ex.block[2] = config->blockDimZ;
    stub__last_ex.smem = config->sharedMemBytes;
    stub__last_ex.stream = (cudaStream_t)config->hStream;
    stub__last_ex.programmatic = 0;
    for (unsigned int i = 0; i < config->numAttrs; ++i)
        stub__last_ex.programmatic |=
            config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
            config->attrs[i].value.programmaticStreamSerializationAllowed;
    stub__last_ex.count++;
    stub__enqueue(stub__stream_of((cudaStream_t)config->hStream), stub__new_op(OP_KERNEL));
    pthread_mutex_unlock(&stub__mu);
    return CUDA_SUCCESS;
}

static CUresult stub_func_attribute(int *value, CUfunction_attribute attr, CUfunction f)
{
    (void)f;
    pthread_mutex_lock(&stub__mu);
    *value = attr == CU_FUNC_ATTRIBUTE_PTX_VERSION ? stub__ptx_version : 0;
    pthread_mutex_unlock(&stub__mu);
    return CUDA_SUCCESS;
}

static CUresult stub_error_name(CUresult r, const char **name)
{
    *name = r == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_STUB";
    return CUDA_SUCCESS;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                             unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *status)
{
    (void)version, (void)flags;
    CUresult (*occupancy)(int *, CUfunction, int, size_t) = stub_occupancy;
    CUresult (*launch)(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int,
                       unsigned int, unsigned int, unsigned int, CUstream, void **) =
        stub_launch_cooperative;
    CUresult (*error_name)(CUresult, const char **) = stub_error_name;
    CUresult (*launch_ex)(const CUlaunchConfig *, CUfunction, void **, void **) =
        stub_launch_ex_fn;
    CUresult (*func_attribute)(int *, CUfunction_attribute, CUfunction) = stub_func_attribute;
    *status = cudaDriverEntryPointSuccess;
    if (strcmp(symbol, "cuOccupancyMaxActiveBlocksPerMultiprocessor") == 0)
        memcpy(fn, &occupancy, sizeof occupancy);
    else if (strcmp(symbol, "cuLaunchCooperativeKernel") == 0)
        memcpy(fn, &launch, sizeof launch);
    else if (strcmp(symbol, "cuGetErrorName") == 0)
        memcpy(fn, &error_name, sizeof error_name);
    else if (strcmp(symbol, "cuLaunchKernelEx") == 0)
        memcpy(fn, &launch_ex, sizeof launch_ex);
    else if (strcmp(symbol, "cuFuncGetAttribute") == 0)
        memcpy(fn, &func_attribute, sizeof func_attribute);
    else
        *status = cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}
