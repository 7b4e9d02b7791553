/*
 * error.h - internal: recording failures for gs_last_error_detail().
 *
 * Every failing path sets the calling thread's detail sentence and returns a
 * status, so a caller only ever needs `return gs__fail(...)`. CUDA runtime
 * calls go through GS_CUDA_TRY, which records the call text, file, line and
 * the CUDA error name.
 */
#ifndef GS_CORE_ERROR_H
#define GS_CORE_ERROR_H

#include "gridsync.h"

#if defined(__GNUC__)
#define GS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GS_PRINTF(a, b)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Record `fmt` as the thread's detail and return `status`. */
gs_status gs__fail(gs_status status, const char *fmt, ...) GS_PRINTF(2, 3);

/* Record a failed CUDA call and return the matching status:
 * GS_ERR_NO_DEVICE, GS_ERR_OUT_OF_MEMORY or GS_ERR_CUDA. */
gs_status gs__cuda_fail(cudaError_t err, const char *call, const char *file, int line);

/* Status a CUDA error maps to. */
gs_status gs__status_from_cuda(cudaError_t err);

/* Occupancy of the kernel `func` on the current device (device.c). */
gs_status gs__occupancy(cudaFunction_t func, int block_threads, size_t dynamic_smem,
                        int *sm_count, int *blocks_per_sm);

#ifdef __cplusplus
}
#endif

#define GS_CUDA_TRY(call)                                                              \
    do {                                                                               \
        cudaError_t gs_err_ = (call);                                                  \
        if (gs_err_ != cudaSuccess)                                                    \
            return gs__cuda_fail(gs_err_, #call, __FILE__, __LINE__);                  \
    } while (0)

#define GS_TRY(expr)                                                                   \
    do {                                                                               \
        gs_status gs_st_ = (expr);                                                     \
        if (gs_st_ != GS_SUCCESS)                                                      \
            return gs_st_;                                                             \
    } while (0)

#endif /* GS_CORE_ERROR_H */
