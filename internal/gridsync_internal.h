/*
 * gridsync_internal.h - the library's internal API that the tools (bench,
 * demo, check) and the tests may use: recording a failure for
 * gs_last_error_detail(), and the deliberately broken tiled16 kernel of the
 * missing-sync demo. Declarations only; the definitions are in libgridsync.
 * Installed nowhere: user programs see only the public headers.
 * CMake: link the INTERFACE target gridsync_internal.
 */
#ifndef GRIDSYNC_INTERNAL_H
#define GRIDSYNC_INTERNAL_H

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

/* The arguments of gs_sgemm, for one kernel at a time. */
typedef struct gs__sgemm_args {
    int m, n, k;
    float alpha;
    const float *a;
    int lda;
    const float *b;
    int ldb;
    float beta;
    float *c;
    int ldc;
} gs__sgemm_args;

/* The tutorial's 16x16 tiled kernel with both barriers removed: wrong on
 * purpose, for the missing-sync demo and the racecheck test. */
gs_status gs__sgemm_tiled16_nosync(const gs__sgemm_args *p, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Return from the calling function with the recorded failure when a CUDA
 * runtime call fails. */
#define GS_CUDA_TRY(call)                                                              \
    do {                                                                               \
        cudaError_t gs_err_ = (call);                                                  \
        if (gs_err_ != cudaSuccess)                                                    \
            return gs__cuda_fail(gs_err_, #call, __FILE__, __LINE__);                  \
    } while (0)

/* Return from the calling function with a failed status. */
#define GS_TRY(expr)                                                                   \
    do {                                                                               \
        gs_status gs_st_ = (expr);                                                     \
        if (gs_st_ != GS_SUCCESS)                                                      \
            return gs_st_;                                                             \
    } while (0)

#endif /* GRIDSYNC_INTERNAL_H */
