/* barrier.c - creating, configuring and viewing grid barriers. */
#include "barrier_internal.h"

#include <gridsync/barrier_layout.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

static const char *const method_names[GS_BARRIER_METHOD_COUNT] = {
    "auto", "lock", "lockfree", "flip", "tree",
};

const char *gs_barrier_method_name(gs_barrier_method method)
{
    if ((int)method < 0 || method >= GS_BARRIER_METHOD_COUNT)
        return "unknown";
    return method_names[method];
}

gs_status gs_barrier_method_parse(const char *name, gs_barrier_method *method)
{
    if (!name || !method)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "barrier method name is NULL");
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m)
        if (strcmp(name, method_names[m]) == 0) {
            *method = (gs_barrier_method)m;
            return GS_SUCCESS;
        }
    return gs__fail(GS_ERR_INVALID_ARGUMENT,
                    "unknown barrier method '%s' (expected auto, lock, lockfree, flip or tree)",
                    name);
}

size_t gs__barrier_state_bytes(unsigned int capacity)
{
    return (size_t)GS_STATE_WORDS(capacity) * sizeof(unsigned int);
}

gs_status gs_barrier_create(gs_barrier_t *barrier, gs_barrier_method method)
{
    int dev = 0, sms = 0, per_sm = 0, coop = 0;
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_create: barrier is NULL");
    *barrier = NULL;
    if ((int)method < 0 || method >= GS_BARRIER_METHOD_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_create: unknown method %d",
                        (int)method);
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
    b->method = method;
    b->capacity = (unsigned int)(sms * per_sm);
    b->timeout_ns = GS_BARRIER_DEFAULT_TIMEOUT_NS;

    size_t bytes = gs__barrier_state_bytes(b->capacity);
    cudaError_t err = cudaMalloc((void **)&b->state, bytes);
    if (err == cudaSuccess)
        err = cudaMemset(b->state, 0, bytes);
    if (err != cudaSuccess) {
        gs_status st = gs__cuda_fail(err, "cudaMalloc/cudaMemset(barrier state)", __FILE__,
                                     __LINE__);
        if (b->state)
            cudaFree(b->state);
        free(b);
        return st;
    }
    *barrier = b;
    return GS_SUCCESS;
}

gs_status gs_barrier_destroy(gs_barrier_t barrier)
{
    if (!barrier)
        return GS_SUCCESS;
    cudaError_t err = cudaFree(barrier->state);
    free(barrier);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaFree(barrier state)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs_barrier_set_timeout(gs_barrier_t barrier, double seconds)
{
    if (!barrier)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_barrier_set_timeout: barrier is NULL");
    if (!(seconds >= 1e-3) || !isfinite(seconds) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "barrier time-out must be between 0.001 and 3600 s, got %g", seconds);
    barrier->timeout_ns = (unsigned long long)(seconds * 1e9);
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
    barrier->tree_flat_max = flat_max;
    barrier->tree_group_size = group_size;
    return GS_SUCCESS;
}

/* Default measured on H200 (see docs/barrier-design.md): the flat counter
 * with a poll delay beats the grouped variant at every grid of >= 128-thread
 * blocks (up to 2112 blocks); groups only for the huge grids of tiny blocks. */
enum { GS_TREE_FLAT_MAX_DEFAULT = 2048 };

static unsigned int tree_flat_max(const struct gs_barrier *b)
{
    return b->tree_flat_max ? b->tree_flat_max : GS_TREE_FLAT_MAX_DEFAULT;
}

/* auto is tree: a block barrier on one block, flip's counter up to 2048
 * blocks, grouped arrival beyond (see gridsync/barrier.cuh and
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
    view->timeout_ns = barrier->timeout_ns;
    view->method = (int)gs_barrier_method_for(barrier, blocks);
    view->capacity = barrier->capacity;
    view->group_size = barrier->tree_group_size;
    view->flat_max = tree_flat_max(barrier);
    return GS_SUCCESS;
}

gs_status gs__barrier_rearm(gs_barrier_t barrier)
{
    GS_CUDA_TRY(cudaMemset(barrier->state, 0, gs__barrier_state_bytes(barrier->capacity)));
    return GS_SUCCESS;
}
