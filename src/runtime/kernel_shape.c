/* kernel_shape.c - a small, locked cache of per-(device, kernel) launch
 * shapes. Kernels are the library's own (a few dozen), devices a handful. */
#include "kernel_shape.h"

#include <pthread.h>

#include "../core/error.h"

enum { GS_MAX_SHAPES = 128 };

typedef struct entry {
    int device;
    const void *kernel;
    int threads, dynamic_smem;
    gs__kernel_shape shape;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry cache[GS_MAX_SHAPES];
static int cached;

static int find(int device, const void *kernel, int threads, int dynamic_smem,
                gs__kernel_shape *shape)
{
    for (int i = 0; i < cached; ++i)
        if (cache[i].device == device && cache[i].kernel == kernel &&
            cache[i].threads == threads && cache[i].dynamic_smem == dynamic_smem) {
            *shape = cache[i].shape;
            return 1;
        }
    return 0;
}

static gs_status query_now(int device, const void *kernel, int threads, int dynamic_smem,
                           gs__kernel_shape *shape)
{
    size_t free_bytes = 0;
    int major = 0, optin = 0;
    struct cudaFuncAttributes attr;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&shape->sms, cudaDevAttrMultiProcessorCount, device));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    GS_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel));
    /* a build without sm_90 code JIT-compiles older PTX on sm_90: its
     * kernels have no griddepcontrol and no bulk copies */
    shape->early_launch = major >= 9 && attr.ptxVersion >= 90;
    shape->async_copy = major >= 8 && attr.ptxVersion >= 80;
    GS_CUDA_TRY(cudaMemGetInfo(&free_bytes, &shape->total_bytes));
    if (dynamic_smem > 48 * 1024) {
        GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        if (dynamic_smem > optin) { /* this device cannot run it */
            shape->per_sm = 0;
            return GS_SUCCESS;
        }
        GS_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         dynamic_smem));
    }
    GS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&shape->per_sm, kernel, threads,
                                                              (size_t)dynamic_smem));
    return GS_SUCCESS;
}

/* The first call of a kernel may come inside a stream capture (this
 * thread's or another's): its queries run in relaxed capture mode, so that
 * they neither fail nor invalidate the capture. */
static gs_status query(int device, const void *kernel, int threads, int dynamic_smem,
                       gs__kernel_shape *shape)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    gs_status st = query_now(device, kernel, threads, dynamic_smem, shape);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    return st;
}

gs_status gs__kernel_shape_get(int device, const void *kernel, int threads, int dynamic_smem,
                               gs__kernel_shape *shape)
{
    pthread_mutex_lock(&lock);
    int hit = find(device, kernel, threads, dynamic_smem, shape);
    pthread_mutex_unlock(&lock);
    if (hit)
        return GS_SUCCESS;
    /* outside the lock: it may be slow */
    GS_TRY(query(device, kernel, threads, dynamic_smem, shape));
    pthread_mutex_lock(&lock);
    if (!find(device, kernel, threads, dynamic_smem, &(gs__kernel_shape){0}) &&
        cached < GS_MAX_SHAPES)
        cache[cached++] = (entry){device, kernel, threads, dynamic_smem, *shape};
    pthread_mutex_unlock(&lock);
    return GS_SUCCESS;
}
