/*
 * multi.cu - gridsync_multi.h: a group of local GPUs (NCCL communicators,
 * streams, peer access), reductions combined by NCCL all-reduce, and the
 * cross-GPU barrier's host side (state, launch, watchdog report).
 */
#include <gridsync/multi.cuh>
#include <nccl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

struct gs_multi {
    int size;
    int devices[GS_MULTI_MAX_GPUS];
    ncclComm_t comms[GS_MULTI_MAX_GPUS];
    cudaStream_t streams[GS_MULTI_MAX_GPUS];
    void *scratch[GS_MULTI_MAX_GPUS]; /* 8 bytes per GPU: its partial, then the total */
};

struct gs_multi_barrier {
    gs_multi_t multi;
    gs_barrier_t grid[GS_MULTI_MAX_GPUS];
    unsigned int *state[GS_MULTI_MAX_GPUS];
    unsigned long long timeout_ns;
};

enum { STATE_WORDS = GS_MULTI_ARRIVALS + GS_MULTI_MAX_GPUS };

#define GS_NCCL_TRY(call)                                                                   \
    do {                                                                                    \
        ncclResult_t r_ = (call);                                                           \
        if (r_ != ncclSuccess)                                                              \
            return gs__fail(GS_ERR_CUDA, "%s failed: %s (%s:%d)", #call,                    \
                            ncclGetErrorString(r_), __FILE__, __LINE__);                    \
    } while (0)

/* Run `call` with the device of `rank` current. */
#define GS_ON_RANK(m, rank) GS_CUDA_TRY(cudaSetDevice((m)->devices[rank]))

extern "C" gs_status gs_multi_create(gs_multi_t *out, int ndevices, const int *devices)
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
    m->size = ndevices;
    memcpy(m->devices, devices, (size_t)ndevices * sizeof(int));
    gs_status st = GS_SUCCESS;
    ncclResult_t nr = ncclCommInitAll(m->comms, ndevices, devices);
    if (nr != ncclSuccess)
        st = gs__fail(GS_ERR_CUDA, "ncclCommInitAll failed: %s", ncclGetErrorString(nr));
    for (int r = 0; r < ndevices && st == GS_SUCCESS; ++r) {
        cudaError_t err = cudaSetDevice(devices[r]);
        if (err == cudaSuccess)
            err = cudaStreamCreateWithFlags(&m->streams[r], cudaStreamNonBlocking);
        if (err == cudaSuccess)
            err = cudaMalloc(&m->scratch[r], 8);
        for (int j = 0; j < ndevices && err == cudaSuccess; ++j)
            if (j != r) {
                err = cudaDeviceEnablePeerAccess(devices[j], 0);
                if (err == cudaErrorPeerAccessAlreadyEnabled)
                    err = cudaGetLastError(), err = cudaSuccess;
            }
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "gs_multi_create: stream, scratch or peer access", __FILE__,
                               __LINE__);
    }
    if (st != GS_SUCCESS) {
        gs_multi_destroy(m);
        return st;
    }
    *out = m;
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_destroy(gs_multi_t m)
{
    if (!m)
        return GS_SUCCESS;
    for (int r = 0; r < m->size; ++r) {
        cudaSetDevice(m->devices[r]);
        if (m->streams[r])
            cudaStreamDestroy(m->streams[r]);
        cudaFree(m->scratch[r]);
        if (m->comms[r])
            ncclCommDestroy(m->comms[r]);
    }
    free(m);
    return GS_SUCCESS;
}

extern "C" int gs_multi_size(gs_multi_t m) { return m ? m->size : 0; }
extern "C" int gs_multi_device(gs_multi_t m, int rank)
{
    return m && rank >= 0 && rank < m->size ? m->devices[rank] : -1;
}
extern "C" cudaStream_t gs_multi_stream(gs_multi_t m, int rank)
{
    return m && rank >= 0 && rank < m->size ? m->streams[rank] : (cudaStream_t)0;
}

static gs_status nccl_type(gs_dtype type, ncclDataType_t *t)
{
    switch (type) {
    case GS_FLOAT32: *t = ncclFloat32; return GS_SUCCESS;
    case GS_FLOAT64: *t = ncclFloat64; return GS_SUCCESS;
    case GS_INT32: *t = ncclInt32; return GS_SUCCESS;
    case GS_INT64: *t = ncclInt64; return GS_SUCCESS;
    default: return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi: unknown element type %d", (int)type);
    }
}

/* Partials are in m->scratch[rank]: add them across GPUs, copy rank 0's. */
static gs_status combine(gs_multi_t m, gs_dtype type, void *result)
{
    ncclDataType_t t = ncclFloat32;
    GS_TRY(nccl_type(type, &t));
    GS_NCCL_TRY(ncclGroupStart());
    for (int r = 0; r < m->size; ++r)
        GS_NCCL_TRY(ncclAllReduce(m->scratch[r], m->scratch[r], 1, t, ncclSum, m->comms[r],
                                  m->streams[r]));
    GS_NCCL_TRY(ncclGroupEnd());
    GS_ON_RANK(m, 0);
    GS_CUDA_TRY(cudaMemcpyAsync(result, m->scratch[0], gs_dtype_size(type),
                                cudaMemcpyDeviceToHost, m->streams[0]));
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaStreamSynchronize(m->streams[r]));
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_reduce_sum(gs_multi_t m, gs_dtype type, const void *const *d_in,
                                         long long n, void *result)
{
    if (!m || !d_in || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_reduce_sum: NULL argument");
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        GS_TRY(gs_reduce_sum(type, d_in[r], n, m->scratch[r], m->streams[r]));
    }
    return combine(m, type, result);
}

extern "C" gs_status gs_multi_dot(gs_multi_t m, gs_dtype type, const void *const *d_x,
                                  const void *const *d_y, long long n, void *result)
{
    if (!m || !d_x || !d_y || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_dot: NULL argument");
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        GS_TRY(gs_dot(type, d_x[r], d_y[r], n, m->scratch[r], m->streams[r]));
    }
    return combine(m, type, result);
}

/* ----------------------------------------------------- cross-GPU barrier */

extern "C" gs_status gs_multi_barrier_destroy(gs_multi_barrier_t b)
{
    if (!b)
        return GS_SUCCESS;
    for (int r = 0; r < b->multi->size; ++r) {
        cudaSetDevice(b->multi->devices[r]);
        if (b->grid[r])
            gs_barrier_destroy(b->grid[r]);
        cudaFree(b->state[r]);
    }
    free(b);
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_create(gs_multi_t m, gs_multi_barrier_t *out)
{
    if (!m || !out)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_create: NULL argument");
    struct gs_multi_barrier *b = (struct gs_multi_barrier *)calloc(1, sizeof *b);
    if (!b)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_multi_barrier_create: out of host memory");
    b->multi = m;
    b->timeout_ns = GS_BARRIER_DEFAULT_TIMEOUT_NS;
    gs_status st = GS_SUCCESS;
    for (int r = 0; r < m->size && st == GS_SUCCESS; ++r) {
        cudaError_t err = cudaSetDevice(m->devices[r]);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&b->state[r], STATE_WORDS * sizeof(unsigned int));
        if (err == cudaSuccess)
            err = cudaMemset(b->state[r], 0, STATE_WORDS * sizeof(unsigned int));
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "gs_multi_barrier_create: state", __FILE__, __LINE__);
        else
            st = gs_barrier_create(&b->grid[r], GS_BARRIER_AUTO);
    }
    if (st != GS_SUCCESS) {
        gs_multi_barrier_destroy(b);
        return st;
    }
    *out = b;
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_set_timeout(gs_multi_barrier_t b, double seconds)
{
    if (!b || !(seconds > 0.0) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_set_timeout: need 0 < s <= 3600");
    b->timeout_ns = (unsigned long long)(seconds * 1e9);
    /* a GPU's own grid barrier waits while block 0 waits for the others:
     * give it the cross-GPU time-out and then some */
    for (int r = 0; r < b->multi->size; ++r)
        GS_TRY(gs_barrier_set_timeout(b->grid[r], 2.0 * seconds + 1.0));
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_device(gs_multi_barrier_t b, int rank, unsigned int blocks,
                                             gs_multi_view *v)
{
    if (!b || !v || rank < 0 || rank >= b->multi->size)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_device: bad rank %d", rank);
    memset(v, 0, sizeof *v);
    GS_TRY(gs_barrier_device(b->grid[rank], blocks, &v->grid));
    if (b->timeout_ns == GS_BARRIER_DEFAULT_TIMEOUT_NS)
        v->grid.timeout_ns = 2 * b->timeout_ns + 1000000000ull;
    v->state = b->state[rank];
    for (int j = 0; j < b->multi->size; ++j)
        v->peer_arrivals[j] = b->state[j] + GS_MULTI_ARRIVALS;
    v->timeout_ns = b->timeout_ns;
    v->rank = rank;
    v->size = b->multi->size;
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_launch(gs_multi_barrier_t b, const void *kernel, dim3 grid,
                                     dim3 block, size_t smem, void **const *args)
{
    if (!b || !kernel || !args)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_launch: NULL argument");
    for (int r = 0; r < b->multi->size; ++r) {
        GS_ON_RANK(b->multi, r);
        gs_status st = gs_launch(kernel, grid, block, smem, b->multi->streams[r], args[r],
                                 b->grid[r]);
        if (st != GS_SUCCESS)
            return gs__fail(st, "GPU %d (rank %d): %s", b->multi->devices[r], r,
                            gs_last_error_detail());
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_check(gs_multi_barrier_t b)
{
    if (!b)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_check: NULL barrier");
    gs_multi_t m = b->multi;
    char msg[1024] = "";
    size_t len = 0;
    unsigned int missing = 0, epoch = 0;
    int broken = 0;
    gs_status grid_status = GS_SUCCESS;
    char grid_detail[512] = "";
    for (int r = 0; r < m->size; ++r) { /* wait for every GPU first */
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaStreamSynchronize(m->streams[r]));
    }
    for (int r = 0; r < m->size; ++r) {
        unsigned int words[4];
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaMemcpy(words, b->state[r], sizeof words, cudaMemcpyDeviceToHost));
        if (words[GS_MULTI_BROKEN]) {
            broken = 1;
            missing |= words[GS_MULTI_REC_MISSING];
            if (!epoch || words[GS_MULTI_REC_EPOCH] < epoch)
                epoch = words[GS_MULTI_REC_EPOCH];
        }
        gs_status gst = gs_barrier_check(b->grid[r], m->streams[r]);
        if (gst != GS_SUCCESS && grid_status == GS_SUCCESS) {
            grid_status = gst;
            snprintf(grid_detail, sizeof grid_detail, "GPU %d: %s", m->devices[r],
                     gs_last_error_detail());
        }
    }
    for (int r = 0; r < m->size; ++r) { /* re-arm: epochs and records back to zero */
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaMemset(b->state[r], 0, STATE_WORDS * sizeof(unsigned int)));
        GS_CUDA_TRY(cudaDeviceSynchronize());
    }
    if (!broken && grid_status == GS_SUCCESS)
        return GS_SUCCESS;
    if (broken) {
        len = (size_t)snprintf(msg, sizeof msg, "cross-GPU barrier #%u: ", epoch);
        int listed = 0;
        for (int j = 0; j < m->size && len < sizeof msg; ++j)
            if (missing & (1u << j))
                len += (size_t)snprintf(msg + len, sizeof msg - len, "%sGPU %d", listed++ ? ", " : "",
                                        m->devices[j]);
        if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " never arrived (time-out %.3f s)",
                                    b->timeout_ns / 1e9);
    }
    if (grid_status != GS_SUCCESS && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, "%s%s", broken ? "; " : "", grid_detail);
    return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s", msg);
}
