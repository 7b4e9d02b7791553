/* error.c - status names and the per-thread failure detail. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char gs_detail[1024];

const char *gs_status_string(gs_status status)
{
    switch (status) {
    case GS_SUCCESS: return "GS_SUCCESS";
    case GS_ERR_INVALID_ARGUMENT: return "GS_ERR_INVALID_ARGUMENT";
    case GS_ERR_CUDA: return "GS_ERR_CUDA";
    case GS_ERR_NO_DEVICE: return "GS_ERR_NO_DEVICE";
    case GS_ERR_NOT_CORESIDENT: return "GS_ERR_NOT_CORESIDENT";
    case GS_ERR_BARRIER_TIMEOUT: return "GS_ERR_BARRIER_TIMEOUT";
    case GS_ERR_OUT_OF_MEMORY: return "GS_ERR_OUT_OF_MEMORY";
    case GS_ERR_NOT_SUPPORTED: return "GS_ERR_NOT_SUPPORTED";
    case GS_ERR_INTERNAL: return "GS_ERR_INTERNAL";
    case GS_ERR_BUSY: return "GS_ERR_BUSY";
    case GS_ERR_MISUSE: return "GS_ERR_MISUSE";
    }
    return "GS_ERR_UNKNOWN_STATUS";
}

const char *gs_last_error_detail(void) { return gs_detail; }

void gs_clear_error(void) { gs_detail[0] = '\0'; }

/* Formats into a scratch buffer first: callers may pass the current detail
 * as an argument ("GPU 1: %s", gs_last_error_detail()) to prefix it. */
gs_status gs__fail(gs_status status, const char *fmt, ...)
{
    char text[sizeof gs_detail];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    memcpy(gs_detail, text, sizeof gs_detail);
    return status;
}

gs_status gs__status_from_cuda(cudaError_t err)
{
    switch (err) {
    case cudaSuccess: return GS_SUCCESS;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
        return GS_ERR_NO_DEVICE;
    case cudaErrorMemoryAllocation: return GS_ERR_OUT_OF_MEMORY;
    default: return GS_ERR_CUDA;
    }
}

gs_status gs__cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    const char *base = strrchr(file, '/');
    return gs__fail(gs__status_from_cuda(err), "%s failed at %s:%d: %s (%s)", call,
                    base ? base + 1 : file, line, cudaGetErrorName(err),
                    cudaGetErrorString(err));
}
