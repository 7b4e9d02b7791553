/* cuda_stub_memory.c - the stub runtime's memory: allocations (counted,
 * stub_live_allocations), synchronous copies and memsets, and the
 * asynchronous ones, which run in stream order like its kernels. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_stub_internal.h"

#include <stdlib.h>
#include <string.h>

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    *p = calloc(1, bytes ? bytes : 1);
    if (!*p)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&stub__mu);
    ++stub__live_allocs;
    pthread_mutex_unlock(&stub__mu);
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
    pthread_mutex_lock(&stub__mu);
    --stub__live_allocs;
    pthread_mutex_unlock(&stub__mu);
    return cudaSuccess;
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t stream)
{
    pthread_mutex_lock(&stub__mu);
    stub_op *op = stub__new_op(OP_FREE);
    op->dst = p;
    stub__enqueue(stub__stream_of(stream), op);
    pthread_mutex_unlock(&stub__mu);
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
    pthread_mutex_lock(&stub__mu);
    stub_op *op = stub__new_op(kind);
    op->dst = dst;
    op->src = src;
    op->value = value;
    op->bytes = bytes;
    stub__enqueue(stub__stream_of(stream), op);
    pthread_mutex_unlock(&stub__mu);
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
