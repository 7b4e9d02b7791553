/*
 * multi.cu - gridsync_multi.h: a group of the local GPUs of one process
 * (NCCL communicators, streams, peer access), what every group has (its
 * ranks, devices, streams, destruction), and reductions combined by an NCCL
 * all-reduce, for every form of group. Groups of one rank per process:
 * group_rank.c; the cross-GPU barrier: barrier.cu, check.cu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi_internal.h"

gs_status gs__keep_device(int *device)
{
    GS_CUDA_TRY(cudaGetDevice(device));
    return GS_SUCCESS;
}

gs_status gs__restore_device(int device, gs_status st)
{
    cudaError_t err = cudaSetDevice(device);
    if (st == GS_SUCCESS && err != cudaSuccess)
        return gs__cuda_fail(err, "cudaSetDevice(caller's device)", __FILE__, __LINE__);
    return st;
}

gs_status gs__multi_setup_rank(gs_multi_t m, int l)
{
    GS_ON_RANK(m, l);
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&m->streams[l], cudaStreamNonBlocking));
    GS_CUDA_TRY(cudaMalloc(&m->scratch[l], GS__MULTI_SCRATCH_BYTES));
    return GS_SUCCESS;
}

static gs_status create_on_devices(gs_multi_t *out, int ndevices, const int *devices)
{
    int count = 0;
    if (!out || !devices || ndevices < 1 || ndevices > GS_MULTI_MAX_GPUS)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_create: need 1..%d devices, got %d",
                        GS_MULTI_MAX_GPUS, ndevices);
    GS_CUDA_TRY(cudaGetDeviceCount(&count));
    for (int i = 0; i < ndevices; ++i) {
        if (devices[i] < 0 || devices[i] >= count)
            return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_create: no device %d (%d present)",
                            devices[i], count);
        for (int j = 0; j < i; ++j)
            if (devices[j] == devices[i])
                return gs__fail(GS_ERR_INVALID_ARGUMENT,
                                "gs_multi_create: device %d given twice", devices[i]);
    }
    for (int i = 0; i < ndevices; ++i)
        for (int j = 0; j < ndevices; ++j) {
            int can = 1;
            if (i != j)
                GS_CUDA_TRY(cudaDeviceCanAccessPeer(&can, devices[i], devices[j]));
            if (!can)
                return gs__fail(GS_ERR_NOT_SUPPORTED,
                                "GPU %d cannot access GPU %d's memory (no peer access)",
                                devices[i], devices[j]);
        }
    struct gs_multi *m = (struct gs_multi *)calloc(1, sizeof *m);
    if (!m)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_multi_create: out of host memory");
    m->size = m->local = ndevices;
    m->owns_comms = 1;
    memcpy(m->devices, devices, (size_t)ndevices * sizeof(int));
    gs_status st = gs__multi_timeout(0.0, &m->timeout_ns);
    ncclResult_t nr = st == GS_SUCCESS ? ncclCommInitAll(m->comms, ndevices, devices) : ncclSuccess;
    if (nr != ncclSuccess)
        st = gs__nccl_fail(nr, "ncclCommInitAll", __FILE__, __LINE__);
    for (int r = 0; r < ndevices && st == GS_SUCCESS; ++r) {
        st = gs__multi_setup_rank(m, r);
        cudaError_t err = cudaSuccess;
        for (int j = 0; j < ndevices && err == cudaSuccess && st == GS_SUCCESS; ++j)
            if (j != r) {
                err = cudaDeviceEnablePeerAccess(devices[j], 0);
                if (err == cudaErrorPeerAccessAlreadyEnabled)
                    err = cudaGetLastError(), err = cudaSuccess;
            }
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
    }
    if (st != GS_SUCCESS) {
        gs_multi_destroy(m);
        return st;
    }
    *out = m;
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_create(gs_multi_t *out, int ndevices, const int *devices)
{
    int caller = 0;
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, create_on_devices(out, ndevices, devices));
}

/* An owned communicator: one process's (blocking, from ncclCommInitAll)
 * destroyed as before; a rank's (non-blocking) finalised, flushing its work
 * within the time-out, then destroyed, or aborted if the flush does not end
 * in time (a rank that is gone). A caller's communicator stays. */
static void release_comm(gs_multi_t m, int l)
{
    int timed_out = 0;
    ncclComm_t comm = m->comms[l];
    m->comms[l] = NULL;
    if (!comm || !m->owns_comms)
        return;
    if (!m->processes) {
        ncclCommDestroy(comm);
        return;
    }
    ncclResult_t r = ncclCommFinalize(comm);
    if ((r == ncclSuccess || r == ncclInProgress) &&
        gs__nccl_settle(comm, gs__now_ns() + m->timeout_ns, &timed_out) == GS_SUCCESS &&
        !timed_out)
        ncclCommDestroy(comm);
    else
        ncclCommAbort(comm);
}

extern "C" gs_status gs_multi_destroy(gs_multi_t m)
{
    int caller = 0;
    if (!m)
        return GS_SUCCESS;
    GS_TRY(gs__keep_device(&caller));
    for (int r = 0; r < m->local; ++r) {
        cudaSetDevice(m->devices[r]);
        if (m->streams[r] && !m->aborted)
            cudaStreamDestroy(m->streams[r]);
        if (!m->aborted) /* else an aborted NCCL kernel may still hold it */
            cudaFree(m->scratch[r]);
        release_comm(m, r);
    }
    gs__multi_leave(m);
    free(m->peers);
    free(m);
    return gs__restore_device(caller, GS_SUCCESS);
}

extern "C" int gs_multi_size(gs_multi_t m) { return m ? m->size : 0; }
extern "C" int gs_multi_local_ranks(gs_multi_t m) { return m ? m->local : 0; }
extern "C" int gs_multi_rank(gs_multi_t m, int l)
{
    return m && l >= 0 && l < m->local ? m->first_rank + l : -1;
}
extern "C" int gs_multi_device(gs_multi_t m, int l)
{
    return m && l >= 0 && l < m->local ? m->devices[l] : -1;
}
extern "C" cudaStream_t gs_multi_stream(gs_multi_t m, int l)
{
    return m && l >= 0 && l < m->local ? m->streams[l] : (cudaStream_t)0;
}
extern "C" ncclComm_t gs_multi_comm(gs_multi_t m, int l)
{
    return m && l >= 0 && l < m->local ? m->comms[l] : (ncclComm_t)0;
}

extern "C" gs_status gs_multi_set_timeout(gs_multi_t m, double seconds)
{
    if (!m || !(seconds >= 1e-3) || seconds > 86400.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_set_timeout: need a group and 0.001 <= s <= 86400");
    __atomic_store_n(&m->timeout_ns, (unsigned long long)(seconds * 1e9), __ATOMIC_RELAXED);
    return GS_SUCCESS;
}

static gs_status nccl_type(gs_dtype type, ncclDataType_t *t)
{
    switch (type) {
    case GS_FLOAT32: *t = ncclFloat32; return GS_SUCCESS;
    case GS_FLOAT64: *t = ncclFloat64; return GS_SUCCESS;
    case GS_INT32: *t = ncclInt32; return GS_SUCCESS;
    case GS_INT64: *t = ncclInt64; return GS_SUCCESS;
    case GS_UINT32: *t = ncclUint32; return GS_SUCCESS;
    case GS_UINT64: *t = ncclUint64; return GS_SUCCESS;
    default: return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi: unknown element type %d", (int)type);
    }
}

/* Partials are in m->scratch[local rank]: add them across the group (an
 * all-reduce: every rank gets the total), wait (bounded), copy local rank
 * 0's. The copy comes after the wait: a copy into pageable memory would
 * block on a rank that never comes. */
static gs_status combine(gs_multi_t m, gs_dtype type, void *result)
{
    ncclDataType_t t = ncclFloat32;
    gs_dtype sum_type = type; /* a sum of 16-bit floats is a float */
    GS_TRY(gs_reduce_result_type(GS_REDUCE_SUM, type, &sum_type));
    GS_TRY(nccl_type(sum_type, &t));
    GS_TRY(gs__multi_allreduce_scratch(m, 1, t, ncclSum));
    GS_TRY(gs__multi_wait(m, "gs_multi_reduce_sum/gs_multi_dot"));
    GS_ON_RANK(m, 0);
    GS_CUDA_TRY(
        cudaMemcpy(result, m->scratch[0], gs_dtype_size(sum_type), cudaMemcpyDeviceToHost));
    return GS_SUCCESS;
}

/* gs_multi_reduce_sum (y == NULL) and gs_multi_dot: each GPU's share into
 * its scratch word, then the NCCL sum. A GPU whose call fails is named. */
static gs_status reduce_on_devices(gs_multi_t m, gs_dtype type, const void *const *x,
                                   const void *const *y, long long n, void *result)
{
    GS_TRY(gs__multi_usable(m, y ? "gs_multi_dot" : "gs_multi_reduce_sum"));
    for (int r = 0; r < m->local; ++r) {
        GS_ON_RANK(m, r);
        gs_status st = y ? gs_dot(type, x[r], y[r], n, m->scratch[r], m->streams[r])
                         : gs_reduce_sum(type, x[r], n, m->scratch[r], m->streams[r]);
        if (st != GS_SUCCESS)
            return gs__fail(st, "GPU %d (rank %d): %s", m->devices[r], m->first_rank + r,
                            gs_last_error_detail());
    }
    return combine(m, type, result);
}

extern "C" gs_status gs_multi_reduce_sum(gs_multi_t m, gs_dtype type, const void *const *d_in,
                                         long long n, void *result)
{
    int caller = 0;
    if (!m || !d_in || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_reduce_sum: NULL argument");
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, reduce_on_devices(m, type, d_in, NULL, n, result));
}

extern "C" gs_status gs_multi_dot(gs_multi_t m, gs_dtype type, const void *const *d_x,
                                  const void *const *d_y, long long n, void *result)
{
    int caller = 0;
    if (!m || !d_x || !d_y || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_dot: NULL argument");
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, reduce_on_devices(m, type, d_x, d_y, n, result));
}

