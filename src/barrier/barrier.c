/* barrier.c - creating, configuring and viewing grid barriers. */
#include "barrier_internal.h"

#include <gridsync/detail/barrier/barrier_layout.h>
#include <gridsync/detail/core/tuning.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../runtime/timeout.h"

/* "auto", then every method of the registry (gridsync/barrier_view.h). */
#define GS__BARRIER_METHOD_NAME(constant, name) name,
static const char *const method_names[] = {"auto", GS_BARRIER_METHODS(GS__BARRIER_METHOD_NAME)};
#undef GS__BARRIER_METHOD_NAME
_Static_assert(sizeof method_names / sizeof method_names[0] == GS_BARRIER_METHOD_COUNT,
               "one name per gs_barrier_method");

const char *gs_barrier_method_name(gs_barrier_method method)
{
    if ((int)method < 0 || method >= GS_BARRIER_METHOD_COUNT)
        return "unknown";
    return method_names[method];
}

gs_status gs_barrier_method_parse(const char *name, gs_barrier_method *method)
{
    if (!name)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "barrier method name is NULL");
    if (!method)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_method_parse: the output pointer is NULL");
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m)
        if (strcmp(name, method_names[m]) == 0) {
            *method = (gs_barrier_method)m;
            return GS_SUCCESS;
        }
    char expected[256] = "";
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s%s",
                 m == 0 ? "" : m + 1 == GS_BARRIER_METHOD_COUNT ? " or " : ", ", method_names[m]);
    return gs__fail(GS_ERR_INVALID_ARGUMENT, "unknown barrier method '%s' (expected %s)", name,
                    expected);
}

size_t gs__barrier_state_bytes(unsigned int capacity)
{
    return (size_t)GS_STATE_WORDS(capacity) * sizeof(unsigned int);
}

/* Device state, host flag and event of a new barrier; NULL members on
 * failure are freed by gs_barrier_destroy. Allocations run in relaxed
 * capture mode so that a capture under way in another thread stays valid. */
static gs_status allocate(struct gs_barrier *b)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    unsigned int *mapped = NULL;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc((void **)&b->state, gs__barrier_state_bytes(b->capacity));
    if (err == cudaSuccess)
        err = cudaHostAlloc((void **)&mapped, sizeof *mapped,
                            cudaHostAllocMapped | cudaHostAllocPortable);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&b->last_launch, cudaEventDisableTiming);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&b->graph_launch, cudaEventDisableTiming);
    b->host_flag = mapped;
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaMalloc/cudaHostAlloc/cudaEventCreate(barrier)", __FILE__,
                             __LINE__);
    return gs__barrier_rearm(b);
}

gs_status gs_barrier_create(gs_barrier_t *barrier, gs_barrier_method method)
{
    int dev = 0, sms = 0, per_sm = 0, coop = 0, env_set = 0;
    unsigned long long env_ns = 0;
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_create: barrier is NULL");
    *barrier = NULL;
    if ((int)method < 0 || method >= GS_BARRIER_METHOD_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_create: unknown method %d",
                        (int)method);
    GS_TRY(gs__timeout_from_env(&env_set, &env_ns));
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!coop)
        return gs__fail(GS_ERR_NOT_SUPPORTED,
                        "device %d does not support cooperative launches, which grid "
                        "barriers need to be sure every block is resident", dev);

    struct gs_barrier *b = calloc(1, sizeof *b);
    if (!b)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_barrier_create: out of host memory");
    pthread_mutex_init(&b->lock, NULL);
    b->method = method;
    b->device = dev;
    b->capacity = (unsigned int)(sms * per_sm);
    b->timeout_ns = env_set ? env_ns : GS_BARRIER_DEFAULT_TIMEOUT_NS;
    b->timeout_from_env = env_set;
    gs_status st = allocate(b);
    if (st != GS_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", gs_last_error_detail());
        gs_barrier_destroy(b);
        return gs__fail(st, "%s", why);
    }
    *barrier = b;
    return GS_SUCCESS;
}

/* The state must outlive the last launch, direct or replayed from a graph
 * (a graph launched after the destroy is the caller's error: its kernels
 * would use freed memory). */
gs_status gs_barrier_destroy(gs_barrier_t barrier)
{
    if (!barrier)
        return GS_SUCCESS;
    cudaError_t err = cudaSuccess;
    if (barrier->launched)
        err = cudaEventSynchronize(barrier->last_launch);
    if (barrier->captured) {
        cudaError_t e = cudaEventSynchronize(barrier->graph_launch);
        err = err != cudaSuccess ? err : e;
    }
    if (barrier->last_launch)
        cudaEventDestroy(barrier->last_launch);
    if (barrier->graph_launch)
        cudaEventDestroy(barrier->graph_launch);
    if (barrier->state) {
        cudaError_t e = cudaFree(barrier->state);
        err = err != cudaSuccess ? err : e;
    }
    if (barrier->host_flag)
        cudaFreeHost((void *)barrier->host_flag);
    pthread_mutex_destroy(&barrier->lock);
    free(barrier);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaEventSynchronize/cudaFree(barrier)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs_barrier_set_timeout(gs_barrier_t barrier, double seconds)
{
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_set_timeout: barrier is NULL");
    if (!(seconds >= 1e-3) || !isfinite(seconds) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "barrier time-out must be between 0.001 and 3600 s, got %g", seconds);
    pthread_mutex_lock(&barrier->lock);
    if (!barrier->timeout_from_env) /* GRIDSYNC_BARRIER_TIMEOUT wins */
        barrier->timeout_ns = (unsigned long long)(seconds * 1e9);
    pthread_mutex_unlock(&barrier->lock);
    return GS_SUCCESS;
}

gs_status gs_barrier_set_tree_params(gs_barrier_t barrier, unsigned int flat_max,
                                     unsigned int group_size)
{
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_set_tree_params: barrier is NULL");
    if (group_size > barrier->capacity)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "tree group size %u exceeds the capacity %u",
                        group_size, barrier->capacity);
    pthread_mutex_lock(&barrier->lock);
    barrier->tree_flat_max = flat_max;
    barrier->tree_group_size = group_size;
    pthread_mutex_unlock(&barrier->lock);
    return GS_SUCCESS;
}

/* Default: GS_TUNE_TREE_FLAT_MAX (tuning.h, measured on H200). */
static unsigned int tree_flat_max(const struct gs_barrier *b)
{
    return b->tree_flat_max ? b->tree_flat_max : GS_TUNE_TREE_FLAT_MAX;
}

/* auto is tree: a block barrier on one block, flip's counter up to
 * GS_TUNE_TREE_FLAT_MAX blocks, grouped arrival beyond (see gridsync/barrier.cuh and
 * docs/barrier-design.md for the measurements behind it). */
gs_barrier_method gs_barrier_method_for(gs_barrier_t barrier, unsigned int blocks)
{
    (void)blocks;
    if (!barrier)
        return GS_BARRIER_AUTO;
    return barrier->method == GS_BARRIER_AUTO ? GS_BARRIER_TREE : barrier->method;
}

gs_status gs_barrier_device(gs_barrier_t barrier, unsigned int blocks, gs_grid_barrier *view)
{
    if (!barrier || !view)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_device: barrier or view is NULL");
    if (blocks == 0 || blocks > barrier->capacity)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "a grid of %u blocks is outside this barrier's range 1..%u", blocks,
                        barrier->capacity);
    memset(view, 0, sizeof *view);
    view->state = barrier->state;
    view->method = (int)gs_barrier_method_for(barrier, blocks);
    view->capacity = barrier->capacity;
    pthread_mutex_lock(&barrier->lock);
    view->timeout_ns = barrier->timeout_ns;
    view->group_size = barrier->tree_group_size;
    view->flat_max = tree_flat_max(barrier);
    pthread_mutex_unlock(&barrier->lock);
    return GS_SUCCESS;
}

gs_status gs__barrier_rearm(gs_barrier_t barrier)
{
    /* words GS_REC_HOST_FLAG .. GS_REC_CAPACITY: what the device reads of the host */
    unsigned int words[3] = {0, 0, barrier->capacity};
    void *mapped = NULL;
    GS_CUDA_TRY(cudaHostGetDevicePointer(&mapped, (void *)barrier->host_flag, 0));
    memcpy(words, &mapped, sizeof mapped);
    GS_CUDA_TRY(cudaMemset(barrier->state, 0, gs__barrier_state_bytes(barrier->capacity)));
    /* a copy from pageable memory returns once it is done, after the memset */
    GS_CUDA_TRY(cudaMemcpy(barrier->state + GS_REC_HOST_FLAG, words, sizeof words,
                           cudaMemcpyHostToDevice));
    *barrier->host_flag = 0u;
    return GS_SUCCESS;
}
