/* signals.c - signal sets: counters blocks publish and wait on (the device
 * side is gridsync/signal.cuh), their watchdog record and its report. */
#include "barrier_internal.h"

#include <gridsync/detail/barrier/barrier_layout.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../runtime/timeout.h"

enum { GS_SIGNALS_MAX = 1 << 24 };

struct gs_signals {
    int device;
    unsigned int count;
    unsigned int capacity;         /* blocks the record's where[] can name */
    unsigned int *record;          /* GS_W_WHERE + where[capacity] words */
    unsigned long long *values;    /* count * GS_SIGNAL_STRIDE */
    unsigned long long timeout_ns; /* guarded by `lock` */
    int timeout_from_env;
    pthread_mutex_t lock;
};

static size_t record_bytes(unsigned int capacity)
{
    return (size_t)(GS_W_WHERE + GS_ROUND_LINE(capacity)) * sizeof(unsigned int);
}

static size_t values_bytes(unsigned int count)
{
    return (size_t)count * GS_SIGNAL_STRIDE * sizeof(unsigned long long);
}

/* Zero record and counters on `stream`; the record's capacity word says
 * how many blocks where[] holds (the device's slow path reads it). */
static gs_status rearm(gs_signals_t s, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaMemsetAsync(s->record, 0, record_bytes(s->capacity), stream));
    GS_CUDA_TRY(cudaMemsetAsync(s->values, 0, values_bytes(s->count), stream));
    /* capacity is < 2^24: its bytes are set one by one (a memset of one
     * word per byte value would need a copy, which a capture would refuse) */
    for (int byte = 0; byte < 4; ++byte) {
        unsigned char v = (unsigned char)(s->capacity >> (8 * byte));
        if (v)
            GS_CUDA_TRY(cudaMemsetAsync((unsigned char *)(s->record + GS_REC_CAPACITY) + byte,
                                        v, 1, stream));
    }
    return GS_SUCCESS;
}

gs_status gs_signals_create(gs_signals_t *signals, unsigned int count)
{
    int dev = 0, sms = 0, per_sm = 0, env_set = 0;
    unsigned long long env_ns = 0;
    if (!signals)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_signals_create: signals is NULL");
    *signals = NULL;
    if (count == 0 || count > GS_SIGNALS_MAX)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_signals_create: %u counters requested, 1 to %d allowed", count,
                        GS_SIGNALS_MAX);
    GS_TRY(gs__timeout_from_env(&env_set, &env_ns));
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, dev));
    struct gs_signals *s = calloc(1, sizeof *s);
    if (!s)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_signals_create: out of host memory");
    pthread_mutex_init(&s->lock, NULL);
    s->device = dev;
    s->count = count;
    s->capacity = (unsigned int)(sms * per_sm);
    s->timeout_ns = env_set ? env_ns : GS_BARRIER_DEFAULT_TIMEOUT_NS;
    s->timeout_from_env = env_set;
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc((void **)&s->record, record_bytes(s->capacity));
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&s->values, values_bytes(count));
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    gs_status st = err == cudaSuccess ? GS_SUCCESS
                                      : gs__cuda_fail(err, "cudaMalloc(signals)", __FILE__,
                                                      __LINE__);
    if (st == GS_SUCCESS)
        st = rearm(s, 0);
    if (st == GS_SUCCESS && (err = cudaStreamSynchronize(0)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaStreamSynchronize(signals)", __FILE__, __LINE__);
    if (st != GS_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", gs_last_error_detail());
        gs_signals_destroy(s);
        return gs__fail(st, "%s", why);
    }
    *signals = s;
    return GS_SUCCESS;
}

gs_status gs_signals_destroy(gs_signals_t signals)
{
    if (!signals)
        return GS_SUCCESS;
    cudaError_t err = cudaSuccess;
    if (signals->record)
        err = cudaFree(signals->record);
    if (signals->values) {
        cudaError_t e = cudaFree(signals->values);
        err = err != cudaSuccess ? err : e;
    }
    pthread_mutex_destroy(&signals->lock);
    free(signals);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaFree(signals)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs_signals_set_timeout(gs_signals_t signals, double seconds)
{
    if (!signals)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_signals_set_timeout: signals is NULL");
    if (!(seconds >= 1e-3) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "signal time-out must be between 0.001 and 3600 s, got %g", seconds);
    pthread_mutex_lock(&signals->lock);
    if (!signals->timeout_from_env)
        signals->timeout_ns = (unsigned long long)(seconds * 1e9);
    pthread_mutex_unlock(&signals->lock);
    return GS_SUCCESS;
}

gs_status gs_signals_device(gs_signals_t signals, gs_signal_set *view)
{
    if (!signals || !view)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_signals_device: signals or view is NULL");
    memset(view, 0, sizeof *view);
    view->values = signals->values;
    view->record = signals->record;
    pthread_mutex_lock(&signals->lock);
    view->timeout_ns = signals->timeout_ns;
    pthread_mutex_unlock(&signals->lock);
    view->count = signals->count;
    return GS_SUCCESS;
}

gs_status gs_signals_reset(gs_signals_t signals, cudaStream_t stream)
{
    if (!signals)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_signals_reset: signals is NULL");
    return rearm(signals, stream);
}

gs_status gs_signals_check(gs_signals_t signals, cudaStream_t stream)
{
    unsigned int rec[GS_LINE_WORDS];
    char msg[512];
    if (!signals)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_signals_check: signals is NULL");
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    GS_CUDA_TRY(cudaMemcpy(rec, signals->record, sizeof rec, cudaMemcpyDeviceToHost));
    if (rec[GS_REC_FLAG] == 0)
        return GS_SUCCESS;
    gs_status st = GS_ERR_BARRIER_TIMEOUT;
    if (rec[GS_REC_KIND] == GS_REC_KIND_MISUSE) {
        gs__format_misuse(msg, sizeof msg, rec);
        st = GS_ERR_MISUSE;
    } else {
        pthread_mutex_lock(&signals->lock);
        const double timeout_s = signals->timeout_ns / 1e9;
        pthread_mutex_unlock(&signals->lock);
        gs__format_wait_timeout(msg, sizeof msg, "signal", rec, timeout_s);
    }
    GS_TRY(rearm(signals, stream));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return gs__fail(st, "%s", msg);
}
