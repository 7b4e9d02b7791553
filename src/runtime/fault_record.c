/* fault_record.c - the host side of the fault records a scan's kernels
 * write (gridsync/detail/core/fault_record.h): making one (host-mapped,
 * zeroed), taking its fault, and the one record of the calls captured into
 * graphs (fault_record.h). */
#define _POSIX_C_SOURCE 200809L
#include "fault_record.h"

#include <gridsync/detail/core/fault_record.h>

#include <pthread.h>
#include <string.h>

#include "../core/error.h"

/* A fault record: host-mapped, portable (one address for every device),
 * zeroed. Relaxed capture mode: a capture under way stays valid. */
gs_status gs__fault_record_new(volatile unsigned int **host, unsigned int **device)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    void *p = NULL, *d = NULL;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaHostAlloc(&p, GS_FAULT_WORDS * sizeof(unsigned int),
                                    cudaHostAllocMapped | cudaHostAllocPortable);
    if (err == cudaSuccess)
        err = cudaHostGetDevicePointer(&d, p, 0);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess) {
        if (p)
            cudaFreeHost(p);
        return gs__cuda_fail(err, "cudaHostAlloc(fault record)", __FILE__, __LINE__);
    }
    for (unsigned int i = 0; i < GS_FAULT_WORDS; ++i)
        ((volatile unsigned int *)p)[i] = 0u;
    *device = (unsigned int *)d;
    __atomic_store_n(host, (volatile unsigned int *)p, __ATOMIC_RELEASE);
    return GS_SUCCESS;
}

/* Take the record's fault (fault_record.h): the flag with acquire, then the
 * details and the count of later faults, then the flag lowered. `seen`:
 * the later count at the last take. */
int gs__fault_record_take(volatile unsigned int *rec, unsigned int *seen, gs__ws_fault *f)
{
    memset(f, 0, sizeof *f);
    if (!rec)
        return 0;
    f->described = __atomic_load_n(&rec[GS_FAULT_FLAG], __ATOMIC_ACQUIRE) != 0u;
    if (f->described) {
        f->call = rec[GS_FAULT_CALL];
        f->where = rec[GS_FAULT_WHERE];
        f->of = rec[GS_FAULT_OF];
    }
    unsigned int later = __atomic_load_n(&rec[GS_FAULT_LATER], __ATOMIC_ACQUIRE);
    f->later = later - *seen;
    *seen = later;
    if (f->described)
        __atomic_store_n(&rec[GS_FAULT_FLAG], 0u, __ATOMIC_RELEASE);
    return f->described || f->later;
}

/* The record of the calls captured into graphs: one per process. */
static pthread_mutex_t graph_fault_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned int *graph_fault;
static unsigned int *graph_fault_device;
static unsigned int graph_later_seen;

gs_status gs__fault_record_graph(unsigned int **device)
{
    gs_status st = GS_SUCCESS;
    pthread_mutex_lock(&graph_fault_lock);
    if (!graph_fault)
        st = gs__fault_record_new(&graph_fault, &graph_fault_device);
    *device = graph_fault_device;
    pthread_mutex_unlock(&graph_fault_lock);
    return st;
}

int gs__ws_graph_fault_take(gs__ws_fault *fault)
{
    pthread_mutex_lock(&graph_fault_lock);
    int any = gs__fault_record_take(graph_fault, &graph_later_seen, fault);
    pthread_mutex_unlock(&graph_fault_lock);
    return any;
}
