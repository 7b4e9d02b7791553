/*
 * error.h - internal: recording failures for gs_last_error_detail(), and the
 * library's own internals that programs outside it never need.
 *
 * The recording API itself (gs__fail, gs__cuda_fail, GS_CUDA_TRY, GS_TRY)
 * is declared in internal/gridsync_internal.h, which in-tree tools reach
 * through the CMake target `gridsync_internal`; this header forwards to it
 * so library sources keep one include.
 */
#ifndef GS_CORE_ERROR_H
#define GS_CORE_ERROR_H

#include "../../internal/gridsync_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether `stream` is being captured into a graph (device.c): then nothing
 * may wait, query the stream's id or record events the host will query. */
gs_status gs__is_capturing(cudaStream_t stream, int *capturing);

/* The checks every launch of the caller's kernel makes first (device.c):
 * no zero dimension, at most 1024 threads a block, shared memory that fits
 * a launch's 32 bits; else GS_ERR_INVALID_ARGUMENT with "`who`: ..." */
gs_status gs__check_launch_shape(const char *who, dim3 grid, dim3 block, size_t dynamic_smem);

/* Where the memory at `p` lives (memory_location.c): its type. Device memory of a
 * GPU other than `dev` (the current one; managed memory is anyone's) is
 * refused: GS_ERR_INVALID_ARGUMENT with "`who`: `what` is memory of device
 * ... but device `dev` is current; ...". Host memory is the caller's to
 * refuse or to take. */
gs_status gs__memory_on(const char *who, const char *what, const void *p, int dev,
                        enum cudaMemoryType *type);

/* gs__memory_on for an array a kernel reads or writes: host memory is
 * refused too ("<who>: <what> is host memory; it must be device (or
 * managed) memory"); *type says device or managed. */
gs_status gs__gpu_memory_on(const char *who, const char *what, const void *p, int dev,
                            enum cudaMemoryType *type);

/* Occupancy of the kernel `func` on the current device (device.c). */
gs_status gs__occupancy(cudaFunction_t func, int block_threads, size_t dynamic_smem,
                        int *sm_count, int *blocks_per_sm);

#ifdef __cplusplus
}
#endif

#endif /* GS_CORE_ERROR_H */
