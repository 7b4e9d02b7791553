/* cuda_stub.c - the stand-in CUDA runtime of cuda_stub.h. Only what the
 * library's host files linked into the stubbed tests call, and what the
 * tests themselves call. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_stub.h"

#include <cuda.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum op_kind { OP_KERNEL, OP_MEMSET, OP_COPY, OP_RECORD, OP_FREE };

struct stub_op {
    enum op_kind kind;
    stub_effect effect; /* OP_KERNEL */
    void *arg;
    int held;           /* a held kernel not finished yet */
    void *dst;          /* OP_MEMSET, OP_COPY, OP_FREE */
    const void *src;
    size_t bytes;
    int value;
    struct CUevent_st *event; /* OP_RECORD */
    unsigned long long ticket;
    struct CUstream_st *stream;
    struct stub_op *next;
};

struct op_list {
    stub_op *head, *tail;
};

struct CUstream_st {
    unsigned long long id;
    struct op_list queue;
    int capturing;
    struct CUgraph_st *graph;
};

struct CUevent_st {
    unsigned long long recorded, completed;
};

struct CUgraph_st {
    struct op_list ops; /* templates */
};

struct CUgraphExec_st {
    struct CUgraph_st *graph;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct CUstream_st legacy = {1, {NULL, NULL}, 0, NULL};
static struct CUstream_st per_thread = {2, {NULL, NULL}, 0, NULL};
static unsigned long long next_id = 100;
static int hold_count, held_n, live_allocs;
static stub_op *held_ops[256];
static void (*launch_hook)(void *);
static void *launch_hook_arg;
static int cc_major = 9, ptx_version = 90;
static stub_launch_ex last_ex;
static _Thread_local enum cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal;

static struct CUstream_st *stream_of(cudaStream_t s)
{
    if (s == NULL || s == cudaStreamLegacy)
        return &legacy;
    if (s == cudaStreamPerThread)
        return &per_thread;
    return s;
}

static void append(struct op_list *l, stub_op *op)
{
    op->next = NULL;
    if (l->tail)
        l->tail->next = op;
    else
        l->head = op;
    l->tail = op;
}

static void execute(stub_op *op)
{
    switch (op->kind) {
    case OP_KERNEL:
        if (op->effect)
            op->effect(op->arg);
        break;
    case OP_MEMSET: memset(op->dst, op->value, op->bytes); break;
    case OP_COPY: memcpy(op->dst, op->src, op->bytes); break;
    case OP_RECORD:
        if (op->ticket > op->event->completed)
            op->event->completed = op->ticket;
        break;
    case OP_FREE:
        free(op->dst);
        --live_allocs;
        break;
    }
}

/* Run what can run on `s`; under mu. */
static void run(struct CUstream_st *s)
{
    stub_op *op;
    while ((op = s->queue.head) != NULL && !(op->kind == OP_KERNEL && op->held)) {
        execute(op);
        s->queue.head = op->next;
        if (!s->queue.head)
            s->queue.tail = NULL;
        for (int i = 0; i < held_n; ++i)
            if (held_ops[i] == op)
                held_ops[i] = NULL;
        free(op);
    }
    pthread_cond_broadcast(&cv);
}

/* Put `op` on `s` (or into its capture); under mu. */
static void enqueue(struct CUstream_st *s, stub_op *op)
{
    op->stream = s;
    if (s->capturing) {
        append(&s->graph->ops, op);
        return;
    }
    if (op->kind == OP_RECORD)
        op->ticket = ++op->event->recorded;
    if (op->kind == OP_KERNEL && hold_count > 0) {
        --hold_count;
        op->held = 1;
        if (held_n < (int)(sizeof held_ops / sizeof held_ops[0]))
            held_ops[held_n++] = op;
    }
    append(&s->queue, op);
    run(s);
}

static stub_op *new_op(enum op_kind kind)
{
    stub_op *op = calloc(1, sizeof *op);
    if (!op)
        abort();
    op->kind = kind;
    return op;
}

/* Wait under mu until done(x) or the limit: 1 when done. */
static int wait_for(int (*done)(void *), void *x)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STUB_WAIT_LIMIT_S;
    while (!done(x))
        if (pthread_cond_timedwait(&cv, &mu, &until) != 0)
            return done(x);
    return 1;
}

static int stream_empty(void *s) { return ((struct CUstream_st *)s)->queue.head == NULL; }

static int event_done(void *e)
{
    struct CUevent_st *ev = e;
    return ev->completed >= ev->recorded;
}

/* ------------------------------------------------------------ test side */

stub_op *stub_launch(cudaStream_t stream, stub_effect effect, void *arg, int held)
{
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    stub_op *op = new_op(OP_KERNEL);
    op->effect = effect;
    op->arg = arg;
    op->held = held && !s->capturing;
    enqueue(s, op);
    pthread_mutex_unlock(&mu);
    return held ? op : NULL;
}

void stub_finish(stub_op *op)
{
    pthread_mutex_lock(&mu);
    op->held = 0;
    run(op->stream);
    pthread_mutex_unlock(&mu);
}

void stub_hold_next(int count)
{
    pthread_mutex_lock(&mu);
    hold_count = count;
    held_n = 0;
    pthread_mutex_unlock(&mu);
}

stub_op *stub_held(int i)
{
    pthread_mutex_lock(&mu);
    stub_op *op = i < held_n ? held_ops[i] : NULL;
    pthread_mutex_unlock(&mu);
    return op;
}

void stub_set_launch_hook(void (*hook)(void *arg), void *arg)
{
    pthread_mutex_lock(&mu);
    launch_hook = hook;
    launch_hook_arg = arg;
    pthread_mutex_unlock(&mu);
}

static int read_locked(const int *counter)
{
    pthread_mutex_lock(&mu);
    int n = *counter;
    pthread_mutex_unlock(&mu);
    return n;
}

int stub_live_allocations(void) { return read_locked(&live_allocs); }

void stub_reset(void)
{
    pthread_mutex_lock(&mu);
    hold_count = held_n = 0;
    launch_hook = NULL;
    cc_major = 9;
    ptx_version = 90;
    memset(&last_ex, 0, sizeof last_ex);
    pthread_mutex_unlock(&mu);
}

void stub_set_compute_capability(int major)
{
    pthread_mutex_lock(&mu);
    cc_major = major;
    pthread_mutex_unlock(&mu);
}

void stub_set_ptx_version(int version)
{
    pthread_mutex_lock(&mu);
    ptx_version = version;
    pthread_mutex_unlock(&mu);
}

stub_launch_ex stub_last_launch_ex(void)
{
    pthread_mutex_lock(&mu);
    stub_launch_ex r = last_ex;
    pthread_mutex_unlock(&mu);
    return r;
}

void stub_fail_next_launch_ex(int result)
{
    pthread_mutex_lock(&mu);
    last_ex.fail_next = result;
    pthread_mutex_unlock(&mu);
}

/* -------------------------------------------------------- the runtime */

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    (void)flags;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&mu);
    s->id = next_id++;
    pthread_mutex_unlock(&mu);
    *stream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    int busy = !stream_empty(stream);
    pthread_mutex_unlock(&mu);
    if (busy) /* a test that destroys a busy stream is wrong */
        return cudaErrorInvalidResourceHandle;
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id)
{
    *id = stream_of(stream)->id;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    cudaError_t err = s->capturing        ? cudaErrorStreamCaptureUnsupported
                      : wait_for(stream_empty, s) ? cudaSuccess
                                                  : cudaErrorLaunchTimeout;
    pthread_mutex_unlock(&mu);
    return err;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    int idle = stream_empty(stream_of(stream));
    pthread_mutex_unlock(&mu);
    return idle ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    pthread_mutex_lock(&mu);
    *status = stream_of(stream)->capturing ? cudaStreamCaptureStatusActive
                                           : cudaStreamCaptureStatusNone;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    (void)mode;
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (!g)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    s->capturing = 1;
    s->graph = g;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    *graph = s->graph;
    s->capturing = 0;
    s->graph = NULL;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    enum cudaStreamCaptureMode old = capture_mode;
    capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags)
{
    (void)flags;
    struct CUgraphExec_st *e = calloc(1, sizeof *e);
    if (!e)
        return cudaErrorMemoryAllocation;
    e->graph = graph;
    *exec = e;
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    for (stub_op *t = exec->graph->ops.head; t; t = t->next) {
        stub_op *op = new_op(t->kind);
        *op = *t;
        op->held = 0;
        enqueue(s, op);
    }
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    free(exec);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    for (stub_op *op = graph->ops.head, *next; op; op = next) {
        next = op->next;
        free(op);
    }
    free(graph);
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    (void)flags;
    *event = calloc(1, sizeof **event);
    return *event ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    free(event);
    return cudaSuccess;
}

/* In a capture only an external record becomes a node (as in CUDA: an
 * ordinary one only joins streams within the capture). */
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    pthread_mutex_lock(&mu);
    struct CUstream_st *s = stream_of(stream);
    if (!s->capturing || (flags & cudaEventRecordExternal)) {
        stub_op *op = new_op(OP_RECORD);
        op->event = event;
        enqueue(s, op);
    }
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    pthread_mutex_lock(&mu);
    int done = event_done(event);
    pthread_mutex_unlock(&mu);
    return done ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    pthread_mutex_lock(&mu);
    int done = wait_for(event_done, event);
    pthread_mutex_unlock(&mu);
    return done ? cudaSuccess : cudaErrorLaunchTimeout;
}

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = calloc(1, bytes ? bytes : 1);
    if (!*p)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&mu);
    ++live_allocs;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **p, size_t bytes, cudaStream_t stream)
{
    (void)stream;
    return cudaMalloc(p, bytes);
}

cudaError_t cudaFree(void *p)
{
    if (!p)
        return cudaSuccess;
    free(p);
    pthread_mutex_lock(&mu);
    --live_allocs;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    stub_op *op = new_op(OP_FREE);
    op->dst = p;
    enqueue(stream_of(stream), op);
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned int flags)
{
    (void)flags;
    *p = calloc(1, bytes ? bytes : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags)
{
    (void)flags;
    *device = host;
    return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int value, size_t bytes)
{
    memset(p, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    (void)kind;
    memcpy(dst, src, bytes);
    return cudaSuccess;
}

/* A memset or a copy on `stream`. */
static cudaError_t enqueue_data(enum op_kind kind, void *dst, const void *src, int value,
                                size_t bytes, cudaStream_t stream)
{
    pthread_mutex_lock(&mu);
    stub_op *op = new_op(kind);
    op->dst = dst;
    op->src = src;
    op->value = value;
    op->bytes = bytes;
    enqueue(stream_of(stream), op);
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream)
{
    return enqueue_data(OP_MEMSET, p, NULL, value, bytes, stream);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)kind;
    return enqueue_data(OP_COPY, dst, src, 0, bytes, stream);
}

cudaError_t cudaGetDevice(int *device)
{
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (device != 0)
        return cudaErrorInvalidDevice;
    switch (attr) {
    case cudaDevAttrMultiProcessorCount: *value = 132; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = 32; break;
    case cudaDevAttrCooperativeLaunch: *value = 1; break;
    case cudaDevAttrMemoryPoolsSupported: *value = 1; break;
    case cudaDevAttrComputeCapabilityMajor:
        pthread_mutex_lock(&mu);
        *value = cc_major;
        pthread_mutex_unlock(&mu);
        break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = 232448; break;
    default: *value = 0;
    }
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    memset(prop, 0, sizeof *prop);
    strcpy(prop->name, "stub GPU");
    prop->major = 9;
    prop->multiProcessorCount = 132;
    return device == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaDriverGetVersion(int *version)
{
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    (void)func;
    memset(attr, 0, sizeof *attr);
    attr->ptxVersion = 90;
    attr->binaryVersion = 90;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    (void)func, (void)attr, (void)value;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int threads, size_t smem)
{
    (void)func, (void)threads, (void)smem;
    *blocks = 8;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    *free_bytes = *total = (size_t)80 << 30;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void) { return cudaSuccess; }

const char *cudaGetErrorName(cudaError_t error)
{
    switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    default: return "cudaErrorStub";
    }
}

const char *cudaGetErrorString(cudaError_t error)
{
    return error == cudaSuccess ? "no error" : "an error of the stub runtime";
}

/* ------------------------------------------------ driver entry points */

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
    pthread_mutex_lock(&mu);
    void (*hook)(void *) = launch_hook;
    void *arg = launch_hook_arg;
    pthread_mutex_unlock(&mu);
    if (hook)
        hook(arg);
    pthread_mutex_lock(&mu);
    enqueue(stream_of((cudaStream_t)stream), new_op(OP_KERNEL));
    pthread_mutex_unlock(&mu);
    return CUDA_SUCCESS;
}

/* cuLaunchKernelEx: recorded (stub_last_launch_ex), then enqueued as a
 * kernel as cuLaunchCooperativeKernel's launches are. */
static CUresult stub_launch_ex_fn(const CUlaunchConfig *config, CUfunction f, void **params,
                                  void **extra)
{
    (void)f, (void)params, (void)extra;
    pthread_mutex_lock(&mu);
    CUresult fail = (CUresult)last_ex.fail_next;
    last_ex.fail_next = CUDA_SUCCESS;
    if (fail != CUDA_SUCCESS) {
        pthread_mutex_unlock(&mu);
        return fail;
    }
    last_ex.grid[0] = config->gridDimX;
    last_ex.grid[1] = config->gridDimY;
    last_ex.grid[2] = config->gridDimZ;
    last_ex.block[0] = config->blockDimX;
    last_ex.block[1] = config->blockDimY;
    last_ex.block[2] = config->blockDimZ;
    last_ex.smem = config->sharedMemBytes;
    last_ex.stream = (cudaStream_t)config->hStream;
    last_ex.programmatic = 0;
    for (unsigned int i = 0; i < config->numAttrs; ++i)
        last_ex.programmatic |=
            config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION &&
            config->attrs[i].value.programmaticStreamSerializationAllowed;
    last_ex.count++;
    enqueue(stream_of((cudaStream_t)config->hStream), new_op(OP_KERNEL));
    pthread_mutex_unlock(&mu);
    return CUDA_SUCCESS;
}

static CUresult stub_func_attribute(int *value, CUfunction_attribute attr, CUfunction f)
{
    (void)f;
    pthread_mutex_lock(&mu);
    *value = attr == CU_FUNC_ATTRIBUTE_PTX_VERSION ? ptx_version : 0;
    pthread_mutex_unlock(&mu);
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
