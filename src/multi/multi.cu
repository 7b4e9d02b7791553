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

#include "../barrier/barrier_internal.h"
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
    unsigned int *abort;           /* host-mapped, read by every GPU (multi.cuh) */
    unsigned long long timeout_ns; /* 0: no bound */
    int timeout_from_env;
    char launch_failure[512];      /* the last gs_multi_launch failure, for the check */
};

enum { STATE_WORDS = GS_MULTI_STATE_WORDS };
static_assert(GS_MULTI_ARRIVALS + GS_MULTI_MAX_GPUS <= GS_MULTI_COUNTER, "arrival words overlap the counter");

#define GS_NCCL_TRY(call)                                                                   \
    do {                                                                                    \
        ncclResult_t r_ = (call);                                                           \
        if (r_ != ncclSuccess)                                                              \
            return gs__fail(GS_ERR_CUDA, "%s failed: %s (%s:%d)", #call,                    \
                            ncclGetErrorString(r_), __FILE__, __LINE__);                    \
    } while (0)

/* Make the device of `rank` current. */
#define GS_ON_RANK(m, rank) GS_CUDA_TRY(cudaSetDevice((m)->devices[rank]))

/* Every public call below runs its body between these two, so that it
 * leaves the caller's current device as it found it. */
static gs_status keep_device(int *device)
{
    GS_CUDA_TRY(cudaGetDevice(device));
    return GS_SUCCESS;
}

static gs_status restore_device(int device, gs_status st)
{
    cudaError_t err = cudaSetDevice(device);
    if (st == GS_SUCCESS && err != cudaSuccess)
        return gs__cuda_fail(err, "cudaSetDevice(caller's device)", __FILE__, __LINE__);
    return st;
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

extern "C" gs_status gs_multi_create(gs_multi_t *out, int ndevices, const int *devices)
{
    int caller = 0;
    GS_TRY(keep_device(&caller));
    return restore_device(caller, create_on_devices(out, ndevices, devices));
}

extern "C" gs_status gs_multi_destroy(gs_multi_t m)
{
    int caller = 0;
    if (!m)
        return GS_SUCCESS;
    GS_TRY(keep_device(&caller));
    for (int r = 0; r < m->size; ++r) {
        cudaSetDevice(m->devices[r]);
        if (m->streams[r])
            cudaStreamDestroy(m->streams[r]);
        cudaFree(m->scratch[r]);
        if (m->comms[r])
            ncclCommDestroy(m->comms[r]);
    }
    free(m);
    return restore_device(caller, GS_SUCCESS);
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

/* gs_multi_reduce_sum (y == NULL) and gs_multi_dot: each GPU's share into
 * its scratch word, then the NCCL sum. A GPU whose call fails is named. */
static gs_status reduce_on_devices(gs_multi_t m, gs_dtype type, const void *const *x,
                                   const void *const *y, long long n, void *result)
{
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        gs_status st = y ? gs_dot(type, x[r], y[r], n, m->scratch[r], m->streams[r])
                         : gs_reduce_sum(type, x[r], n, m->scratch[r], m->streams[r]);
        if (st != GS_SUCCESS)
            return gs__fail(st, "GPU %d (rank %d): %s", m->devices[r], r, gs_last_error_detail());
    }
    return combine(m, type, result);
}

extern "C" gs_status gs_multi_reduce_sum(gs_multi_t m, gs_dtype type, const void *const *d_in,
                                         long long n, void *result)
{
    int caller = 0;
    if (!m || !d_in || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_reduce_sum: NULL argument");
    GS_TRY(keep_device(&caller));
    return restore_device(caller, reduce_on_devices(m, type, d_in, NULL, n, result));
}

extern "C" gs_status gs_multi_dot(gs_multi_t m, gs_dtype type, const void *const *d_x,
                                  const void *const *d_y, long long n, void *result)
{
    int caller = 0;
    if (!m || !d_x || !d_y || !result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_dot: NULL argument");
    GS_TRY(keep_device(&caller));
    return restore_device(caller, reduce_on_devices(m, type, d_x, d_y, n, result));
}

/* ----------------------------------------------------- cross-GPU barrier */

static void destroy_barrier(gs_multi_barrier_t b)
{
    for (int r = 0; r < b->multi->size; ++r) {
        cudaSetDevice(b->multi->devices[r]);
        if (b->grid[r])
            gs_barrier_destroy(b->grid[r]);
        cudaFree(b->state[r]);
    }
    if (b->abort)
        cudaFreeHost(b->abort);
    free(b);
}

extern "C" gs_status gs_multi_barrier_destroy(gs_multi_barrier_t b)
{
    int caller = 0;
    if (!b)
        return GS_SUCCESS;
    GS_TRY(keep_device(&caller));
    destroy_barrier(b);
    return restore_device(caller, GS_SUCCESS);
}

static gs_status create_barrier(gs_multi_t m, struct gs_multi_barrier *b)
{
    int env_set = 0;
    unsigned long long env_ns = 0;
    GS_TRY(gs__timeout_from_env(&env_set, &env_ns));
    b->timeout_ns = env_set ? env_ns : GS_BARRIER_DEFAULT_TIMEOUT_NS;
    b->timeout_from_env = env_set;
    GS_CUDA_TRY(cudaHostAlloc((void **)&b->abort, sizeof *b->abort,
                              cudaHostAllocMapped | cudaHostAllocPortable));
    *b->abort = 0u;
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaMalloc((void **)&b->state[r], STATE_WORDS * sizeof(unsigned int)));
        GS_CUDA_TRY(cudaMemset(b->state[r], 0, STATE_WORDS * sizeof(unsigned int)));
        GS_TRY(gs_barrier_create(&b->grid[r], GS_BARRIER_AUTO));
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_create(gs_multi_t m, gs_multi_barrier_t *out)
{
    int caller = 0;
    if (!m || !out)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_create: NULL argument");
    GS_TRY(keep_device(&caller));
    struct gs_multi_barrier *b = (struct gs_multi_barrier *)calloc(1, sizeof *b);
    if (!b)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_multi_barrier_create: out of host memory");
    b->multi = m;
    gs_status st = create_barrier(m, b);
    if (st != GS_SUCCESS)
        destroy_barrier(b);
    else
        *out = b;
    return restore_device(caller, st);
}

extern "C" gs_status gs_multi_barrier_set_timeout(gs_multi_barrier_t b, double seconds)
{
    if (!b || !(seconds >= 1e-3) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_barrier_set_timeout: need a barrier and 0.001 <= s <= 3600");
    if (!b->timeout_from_env) /* GRIDSYNC_BARRIER_TIMEOUT wins */
        b->timeout_ns = (unsigned long long)(seconds * 1e9);
    return GS_SUCCESS;
}

extern "C" gs_multi_t gs_multi_barrier_group(gs_multi_barrier_t b) { return b ? b->multi : NULL; }

extern "C" gs_status gs_multi_barrier_device(gs_multi_barrier_t b, int rank, unsigned int blocks,
                                             gs_multi_view *v)
{
    if (!b || !v || rank < 0 || rank >= b->multi->size)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_device: bad rank %d", rank);
    memset(v, 0, sizeof *v);
    GS_TRY(gs_barrier_device(b->grid[rank], blocks, &v->grid));
    /* the local grid barrier waits while block 0 meets the other GPUs */
    v->grid.timeout_ns = b->timeout_ns ? 2 * b->timeout_ns + 1000000000ull : 0;
    v->state = b->state[rank];
    for (int j = 0; j < b->multi->size; ++j)
        v->peer_arrivals[j] = b->state[j] + GS_MULTI_ARRIVALS;
    v->abort = b->abort;
    v->timeout_ns = b->timeout_ns;
    v->rank = rank;
    v->size = b->multi->size;
    return GS_SUCCESS;
}

static gs_status launch_all(gs_multi_barrier_t b, const cudaFunction_t *funcs, dim3 grid,
                            dim3 block, size_t smem, void **const *args)
{
    gs_multi_t m = b->multi;
    b->launch_failure[0] = '\0';
    for (int r = 0; r < m->size; ++r) {
        GS_ON_RANK(m, r);
        gs_status st = gs_launch_func(funcs[r], grid, block, smem, m->streams[r], args[r],
                                      b->grid[r]);
        if (st == GS_SUCCESS)
            continue;
        /* the GPUs launched so far would wait for this one until the
         * time-out: call their meetings off */
        *b->abort = 1u;
        snprintf(b->launch_failure, sizeof b->launch_failure,
                 "the launch on GPU %d (rank %d) failed: %s", m->devices[r], r,
                 gs_last_error_detail());
        return gs__fail(st, "%s%s", b->launch_failure,
                        r ? "; the GPUs launched before it were told to stop meeting "
                            "(gs_multi_barrier_check collects them)"
                          : "");
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_launch_func(gs_multi_barrier_t b, const cudaFunction_t *funcs,
                                          dim3 grid, dim3 block, size_t smem, void **const *args)
{
    int caller = 0;
    if (!b || !funcs || !args)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_launch: NULL argument");
    GS_TRY(keep_device(&caller));
    return restore_device(caller, launch_all(b, funcs, grid, block, smem, args));
}

/* Keep the first failure of a sequence of steps that must all run. */
static void keep_first(gs_status *first, char *detail, size_t len, gs_status st)
{
    if (st == GS_SUCCESS || *first != GS_SUCCESS)
        return;
    *first = st;
    snprintf(detail, len, "%s", gs_last_error_detail());
}

/* What the GPUs recorded: broken, which GPUs never arrived, at which epoch. */
typedef struct multi_record {
    int broken, aborted;
    unsigned int missing, epoch;
    gs_status grid_status;
    char grid_detail[512];
} multi_record;

static gs_status read_rank(gs_multi_barrier_t b, int r, multi_record *rec)
{
    unsigned int words[8];
    GS_ON_RANK(b->multi, r);
    GS_CUDA_TRY(cudaMemcpy(words, b->state[r], sizeof words, cudaMemcpyDeviceToHost));
    if (words[GS_MULTI_BROKEN]) {
        rec->broken = 1;
        rec->aborted |= words[GS_MULTI_REC_ABORTED] != 0u;
        rec->missing |= words[GS_MULTI_REC_MISSING];
        if (!rec->epoch || words[GS_MULTI_REC_EPOCH] < rec->epoch)
            rec->epoch = words[GS_MULTI_REC_EPOCH];
    }
    gs_status gst = gs_barrier_check(b->grid[r], b->multi->streams[r]);
    if (gst != GS_SUCCESS && rec->grid_status == GS_SUCCESS) {
        rec->grid_status = gst;
        snprintf(rec->grid_detail, sizeof rec->grid_detail, "GPU %d: %s", b->multi->devices[r],
                 gs_last_error_detail());
    }
    return GS_SUCCESS;
}

static gs_status rearm_rank(gs_multi_barrier_t b, int r)
{
    GS_ON_RANK(b->multi, r);
    GS_CUDA_TRY(cudaMemset(b->state[r], 0, STATE_WORDS * sizeof(unsigned int)));
    GS_CUDA_TRY(cudaDeviceSynchronize());
    return GS_SUCCESS;
}

static gs_status report(gs_multi_barrier_t b, const multi_record *rec)
{
    gs_multi_t m = b->multi;
    char msg[1024] = "";
    size_t len = 0;
    if (rec->broken) {
        len = (size_t)snprintf(msg, sizeof msg, "cross-GPU barrier #%u: ", rec->epoch);
        int listed = 0;
        for (int j = 0; j < m->size && len < sizeof msg; ++j)
            if (rec->missing & (1u << j))
                len += (size_t)snprintf(msg + len, sizeof msg - len, "%sGPU %d", listed++ ? ", " : "",
                                        m->devices[j]);
        if (len < sizeof msg && rec->aborted)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " never arrived (%s)",
                                    b->launch_failure[0] ? b->launch_failure
                                                         : "the meeting was called off");
        else if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, " never arrived (time-out %.3f s)",
                                    b->timeout_ns / 1e9);
    }
    if (rec->grid_status != GS_SUCCESS && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, "%s%s", rec->broken ? "; " : "", rec->grid_detail);
    return gs__fail(GS_ERR_BARRIER_TIMEOUT, "%s", msg);
}

/* Wait, read every GPU's record, and after a failure re-arm every GPU: each
 * step runs on every rank even when an earlier one failed, so the barrier is
 * never left half re-armed; the first failure is returned. */
static gs_status check_all(gs_multi_barrier_t b)
{
    gs_multi_t m = b->multi;
    multi_record rec;
    gs_status first = GS_SUCCESS;
    char detail[1024] = "";
    memset(&rec, 0, sizeof rec);
    for (int r = 0; r < m->size; ++r) {
        cudaError_t err = cudaSetDevice(m->devices[r]);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(m->streams[r]);
        if (err != cudaSuccess)
            keep_first(&first, detail, sizeof detail,
                       gs__cuda_fail(err, "cudaStreamSynchronize(rank's stream)", __FILE__, __LINE__));
    }
    for (int r = 0; r < m->size; ++r)
        keep_first(&first, detail, sizeof detail, read_rank(b, r, &rec));
    /* Re-arm only after a failure: after meetings that all completed, every
     * GPU holds the same epoch and its counter is back at a meeting's start,
     * so the next launch goes on from there (zeroing the words cost a memset
     * and a device synchronization per GPU on every check). */
    const int failed = first != GS_SUCCESS || rec.broken || rec.grid_status != GS_SUCCESS;
    for (int r = 0; r < m->size && failed; ++r)
        keep_first(&first, detail, sizeof detail, rearm_rank(b, r));
    *b->abort = 0u;
    if (first != GS_SUCCESS)
        return gs__fail(first, "%s", detail);
    if (!rec.broken && rec.grid_status == GS_SUCCESS)
        return GS_SUCCESS;
    return report(b, &rec);
}

extern "C" gs_status gs_multi_barrier_check(gs_multi_barrier_t b)
{
    int caller = 0;
    if (!b)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_check: NULL barrier");
    GS_TRY(keep_device(&caller));
    return restore_device(caller, check_all(b));
}
