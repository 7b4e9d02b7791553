/*
 * gridsync_internal.h - the library internals that in-tree programs (the
 * tools, the tests) may use: recording failures for gs_last_error_detail(),
 * and the matrix multiply kernels one by one. Installed nowhere: in-tree
 * targets reach it through the CMake INTERFACE target `gridsync_internal`.
 * Nothing here is part of the public API; it may change with any commit.
 */
#ifndef GRIDSYNC_INTERNAL_H
#define GRIDSYNC_INTERNAL_H

#include "gridsync.h"
#include <gridsync/detail/core/tuning.h>

#if defined(__GNUC__)
#define GS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GS_PRINTF(a, b)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ failure recording
 * Every failing path sets the calling thread's detail sentence and returns a
 * status, so a caller only ever needs `return gs__fail(...)`. CUDA runtime
 * calls go through GS_CUDA_TRY, which records the call text, file, line and
 * the CUDA error name. */

/* Record `fmt` as the thread's detail and return `status`. (Exported, GS_API,
 * for libgridsync_multi, which records its failures in libgridsync's detail;
 * not API: cmake/exported-internals.txt.) */
GS_API gs_status gs__fail(gs_status status, const char *fmt, ...) GS_PRINTF(2, 3);

/* Record a failed CUDA call and return the matching status:
 * GS_ERR_NO_DEVICE, GS_ERR_OUT_OF_MEMORY or GS_ERR_CUDA. (Exported for
 * libgridsync_multi, as gs__fail.) */
GS_API gs_status gs__cuda_fail(cudaError_t err, const char *call, const char *file, int line);

/* Status a CUDA error maps to. */
gs_status gs__status_from_cuda(cudaError_t err);

/* -------------------------------------------------------- matrix multiply
 * The kernels behind gs_sgemm, callable one by one (benchmarks, demos,
 * tests). Each launcher takes the arguments of gs_sgemm, already checked,
 * and enqueues one kernel on `stream`. */

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

/* The tutorial's 16x16 tiled kernel (docs/tutorials.md), generalised to
 * m x n x k, leading dimensions, alpha and beta. */
gs_status gs__sgemm_tiled16(const gs__sgemm_args *p, cudaStream_t stream);

/* The register-tiled kernel: 128x128 block tiles (256 threads) or 64x64 (64
 * threads); `tile` picks 128 or 64, 0 picks by size as gs_sgemm does. */
gs_status gs__sgemm_fast(const gs__sgemm_args *p, int tile, cudaStream_t stream);

/* The split-k kernel: tiles of `tile` (128 or 64), k cut into `splits`
 * slices (1 .. GS_TUNE_SGEMM_MAX_SPLIT; fewer where k's steps of 8 do not
 * make that many: gs__sgemm_slices), the partial tiles summed in slice order
 * by each tile's last arriving block. One launch; bits independent of
 * timing. */
gs_status gs__sgemm_splitk(const gs__sgemm_args *p, int tile, int splits, cudaStream_t stream);

/* The stream-k kernel: tiles of `tile` (128 or 64), the tiles' k steps
 * divided evenly among one wave of resident blocks, each tile's partial
 * tiles summed in block order by its last arriving block. One launch; bits
 * independent of timing (they depend on the GPU's SM count). */
gs_status gs__sgemm_streamk(const gs__sgemm_args *p, int tile, cudaStream_t stream);

/* Whether every pointer and leading dimension allows 16-byte vectors (the
 * interior tiles' unguarded path; the wide tile everywhere). */
static inline int gs__sgemm_vector_ok(const gs__sgemm_args *p)
{
    return ((unsigned long long)p->a & 15ull) == 0 && ((unsigned long long)p->b & 15ull) == 0 &&
           ((unsigned long long)p->c & 15ull) == 0 && p->lda % 4 == 0 && p->ldb % 4 == 0 &&
           p->ldc % 4 == 0;
}

/* Whether the wide-tile kernel takes these operands: gs__sgemm_vector_ok,
 * k a positive multiple of the k step (8), and at least one whole 128 x 256
 * tile with n a multiple of 4 (a tile crossing m or n computes the last
 * whole tile's rows or columns, which must start on a vector:
 * sgemm_wide.cu). */
static inline int gs__sgemm_wide_ok(const gs__sgemm_args *p)
{
    return gs__sgemm_vector_ok(p) && p->k >= 8 && p->k % 8 == 0 &&
           p->m >= GS_TUNE_SGEMM_WIDE_TILE_M && p->n >= GS_TUNE_SGEMM_WIDE_TILE_N &&
           p->n % 4 == 0;
}

/* Whether the wide tile runs on device `dev` (the current one): an sm_80+
 * GPU, and this build holds the kernel's cp.async code for it (a build for
 * older architectures only runs there as JIT-compiled PTX, where the kernel
 * is a trap). *built = 1 or 0; from the kernel-shape cache
 * (src/runtime/kernel_shape.h), once per device. */
gs_status gs__sgemm_wide_built_for(int dev, int *built);

/* The wide-tile kernel (sgemm_wide.cu): 128 x 256 tiles of C, k cut into
 * `splits` slices (1: unsplit; as gs__sgemm_splitk otherwise). Needs
 * gs__sgemm_wide_ok operands and gs__sgemm_wide_built_for; refuses others. */
gs_status gs__sgemm_wide(const gs__sgemm_args *p, int splits, cudaStream_t stream);

/* The slices that k makes when its steps of 8 are cut into `splits` (at
 * least 1) slices of *slice_steps steps each (the last may be shorter; none
 * is empty). */
int gs__sgemm_slices(int k, int splits, int *slice_steps);

/* How gs_sgemm runs m x n x k on a GPU of `sms` SMs (src/gemm/sgemm_plan.c):
 * the block tile (128 or 64) and either the k slices (1: unsplit, the fast
 * kernel; more: split-k) or stream-k (`streamk` 1, `splits` 1). `force`:
 * GS__SGEMM_CHOOSE picks the cheapest by the cost model; GS__SGEMM_SPLIT
 * (GS_GEMM_SPLITK) the best split even where no split pays, unless k has a
 * single step; GS__SGEMM_STREAM (GS_GEMM_STREAMK) stream-k in the tile the
 * model prefers. Pure. */
typedef struct gs__sgemm_plan {
    int tile, splits, streamk;
} gs__sgemm_plan;
enum { GS__SGEMM_CHOOSE = 0, GS__SGEMM_SPLIT = 1, GS__SGEMM_STREAM = 2 };
gs__sgemm_plan gs__sgemm_plan_for(int m, int n, int k, int sms, int force);

/* Whether gs_sgemm runs `plan` (gs__sgemm_plan_for's GS__SGEMM_CHOOSE) in
 * the wide tile instead, on a GPU of `sms` SMs that runs it, for operands
 * it takes: the slices to cut k into (1: unsplit), or 0 to keep the plan.
 * Taken where the plan runs 128-tiles unsplit or split-k and the wide
 * tiles' waves, counted at GS_TUNE_SGEMM_WIDE_WAVE_PCT percent of their
 * time (the wide tile is that much faster a tile), cost no more than the
 * 128-tiles' (src/gemm/sgemm_plan.c). Pure. */
int gs__sgemm_wide_slices(int m, int n, int k, int sms, gs__sgemm_plan plan);

/* The slices gs_sgemm (GS_GEMM_AUTO) runs `p` with in the wide tile, on a
 * GPU of `sms` SMs where it runs (`built`: gs__sgemm_wide_built_for) and
 * the plan for the 128- and 64-tiles is `plan`; 0 where it keeps that
 * plan. */
static inline int gs__sgemm_wide_pick(const gs__sgemm_args *p, int sms, int built,
                                      gs__sgemm_plan plan)
{
    return built && gs__sgemm_wide_ok(p) ? gs__sgemm_wide_slices(p->m, p->n, p->k, sms, plan)
                                         : 0;
}

/* ------------------------------------------------------------- reductions */

/* Reduction workspaces currently cached (for tests). */
int gs__ws_cached_count(void);

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

#endif /* GRIDSYNC_INTERNAL_H */
