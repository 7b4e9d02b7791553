/* cuda_stub.c - the stand-in CUDA runtime of cuda_stub.h. Only what the
 * library's host files linked into the stubbed tests call, and what the
 * tests themselves call; the driver entry points it hands out are in
 * cuda_stub_driver.c. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_stub.h"
#include "cuda_stub_internal.h"

#include <cuda.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

pthread_mutex_t stub__mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct CUstream_st legacy = {1, {NULL, NULL}, 0, NULL};
static struct CUstream_st per_thread = {2, {NULL, NULL}, 0, NULL};
static unsigned long long next_id = 100;
static int hold_count, held_n;
int stub__live_allocs;
static stub_op *held_ops[256];
void (*stub__launch_hook)(void *);
void *stub__launch_hook_arg;
static int cc_major = 9;
int stub__ptx_version = 90;
stub_launch_ex stub__last_ex;
static _Thread_local enum cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal;

struct CUstream_st *stub__stream_of(cudaStream_t s)
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
        --stub__live_allocs;
        break;
    }
}

/* Run what can run on `s`; under stub__mu. */
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

/* Put `op` on `s` (or into its capture); under stub__mu. */
void stub__enqueue(struct CUstream_st *s, stub_op *op)
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

stub_op *stub__new_op(enum op_kind kind)
{
    stub_op *op = calloc(1, sizeof *op);
    if (!op)
        abort();
    op->kind = kind;
    return op;
}

/* Wait under stub__mu until done(x) or the limit: 1 when done. */
static int wait_for(int (*done)(void *), void *x)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += STUB_WAIT_LIMIT_S;
    while (!done(x))
        if (pthread_cond_timedwait(&cv, &stub__mu, &until) != 0)
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
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    stub_op *op = stub__new_op(OP_KERNEL);
    op->effect = effect;
    op->arg = arg;
    op->held = held && !s->capturing;
    stub__enqueue(s, op);
    pthread_mutex_unlock(&stub__mu);
    return held ? op : NULL;
}

void stub_finish(stub_op *op)
{
    pthread_mutex_lock(&stub__mu);
    op->held = 0;
    run(op->stream);
    pthread_mutex_unlock(&stub__mu);
}

void stub_hold_next(int count)
{
    pthread_mutex_lock(&stub__mu);
    hold_count = count;
    held_n = 0;
    pthread_mutex_unlock(&stub__mu);
}

stub_op *stub_held(int i)
{
    pthread_mutex_lock(&stub__mu);
    stub_op *op = i < held_n ? held_ops[i] : NULL;
    pthread_mutex_unlock(&stub__mu);
    return op;
}

void stub_set_launch_hook(void (*hook)(void *arg), void *arg)
{
    pthread_mutex_lock(&stub__mu);
    stub__launch_hook = hook;
    stub__launch_hook_arg = arg;
    pthread_mutex_unlock(&stub__mu);
}

static int read_locked(const int *counter)
{
    pthread_mutex_lock(&stub__mu);
    int n = *counter;
    pthread_mutex_unlock(&stub__mu);
    return n;
}

int stub_live_allocations(void) { return read_locked(&stub__live_allocs); }

void stub_reset(void)
{
    pthread_mutex_lock(&stub__mu);
    hold_count = held_n = 0;
    stub__launch_hook = NULL;
    cc_major = 9;
    stub__ptx_version = 90;
    memset(&stub__last_ex, 0, sizeof stub__last_ex);
    pthread_mutex_unlock(&stub__mu);
}

void stub_set_compute_capability(int major)
{
    pthread_mutex_lock(&stub__mu);
    cc_major = major;
    pthread_mutex_unlock(&stub__mu);
}

void stub_set_ptx_version(int version)
{
    pthread_mutex_lock(&stub__mu);
    stub__ptx_version = version;
    pthread_mutex_unlock(&stub__mu);
}

stub_launch_ex stub_last_launch_ex(void)
{
    pthread_mutex_lock(&stub__mu);
    stub_launch_ex r = stub__last_ex;
    pthread_mutex_unlock(&stub__mu);
    return r;
}

void stub_fail_next_launch_ex(int result)
{
    pthread_mutex_lock(&stub__mu);
    stub__last_ex.fail_next = result;
    pthread_mutex_unlock(&stub__mu);
}

/* -------------------------------------------------------- the runtime */

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    (void)flags;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&stub__mu);
    s->id = next_id++;
    pthread_mutex_unlock(&stub__mu);
    *stream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    pthread_mutex_lock(&stub__mu);
    int busy = !stream_empty(stream);
    pthread_mutex_unlock(&stub__mu);
    if (busy) /* a test that destroys a busy stream is wrong */
        return cudaErrorInvalidResourceHandle;
    free(stream);
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id)
{
    *id = stub__stream_of(stream)->id;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    cudaError_t err = s->capturing        ? cudaErrorStreamCaptureUnsupported
                      : wait_for(stream_empty, s) ? cudaSuccess
                                                  : cudaErrorLaunchTimeout;
    pthread_mutex_unlock(&stub__mu);
    return err;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    pthread_mutex_lock(&stub__mu);
    int idle = stream_empty(stub__stream_of(stream));
    pthread_mutex_unlock(&stub__mu);
    return idle ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    pthread_mutex_lock(&stub__mu);
    *status = stub__stream_of(stream)->capturing ? cudaStreamCaptureStatusActive
                                           : cudaStreamCaptureStatusNone;
    pthread_mutex_unlock(&stub__mu);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    (void)mode;
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (!g)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    s->capturing = 1;
    s->graph = g;
    pthread_mutex_unlock(&stub__mu);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    *graph = s->graph;
    s->capturing = 0;
    s->graph = NULL;
    pthread_mutex_unlock(&stub__mu);
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
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    for (stub_op *t = exec->graph->ops.head; t; t = t->next) {
        stub_op *op = stub__new_op(t->kind);
        *op = *t;
        op->held = 0;
        stub__enqueue(s, op);
    }
    pthread_mutex_unlock(&stub__mu);
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
    pthread_mutex_lock(&stub__mu);
    struct CUstream_st *s = stub__stream_of(stream);
    if (!s->capturing || (flags & cudaEventRecordExternal)) {
        stub_op *op = stub__new_op(OP_RECORD);
        op->event = event;
        stub__enqueue(s, op);
    }
    pthread_mutex_unlock(&stub__mu);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    return cudaEventRecordWithFlags(event, stream, 0);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    pthread_mutex_lock(&stub__mu);
    int done = event_done(event);
    pthread_mutex_unlock(&stub__mu);
    return done ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    pthread_mutex_lock(&stub__mu);
    int done = wait_for(event_done, event);
    pthread_mutex_unlock(&stub__mu);
    return done ? cudaSuccess : cudaErrorLaunchTimeout;
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
        pthread_mutex_lock(&stub__mu);
        *value = cc_major;
        pthread_mutex_unlock(&stub__mu);
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
