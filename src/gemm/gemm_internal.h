/* gemm_internal.h - the matrix multiply kernels behind gs_sgemm (internal),
 * callable one by one for the benchmark, the demos and the tests.
 * Every launcher takes the arguments of gs_sgemm, already checked, and
 * enqueues one kernel on `stream`. */
#ifndef GS_GEMM_INTERNAL_H
#define GS_GEMM_INTERNAL_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Seed 003's 16x16 tiled kernel, generalised to m x n x k, leading
 * dimensions, alpha and beta. */
gs_status gs__sgemm_tiled16(const gs__sgemm_args *p, cudaStream_t stream);

/* The same kernel with both barriers removed: wrong on purpose, for the
 * missing-sync demo and the racecheck test. Never used by gs_sgemm. */
gs_status gs__sgemm_tiled16_nosync(const gs__sgemm_args *p, cudaStream_t stream);

/* The fast kernel: 128x128 block tiles (256 threads) or, when those would
 * leave SMs idle, 64x64 (64 threads); see sgemm_fast.cu. `tile` picks 128
 * or 64; 0 picks by size as gs_sgemm does. */
gs_status gs__sgemm_fast(const gs__sgemm_args *p, int tile, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
