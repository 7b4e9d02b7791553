/* sgemm.c - gs_sgemm: argument checks, then the kernel (gridsync_internal.h),
 * for GS_GEMM_AUTO the one the plan picks (sgemm_plan.c): unsplit, split-k
 * or stream-k, in the wide tile (sgemm_wide.cu) where that runs and pays. */
#include <limits.h>
#include <string.h>

#include "../core/error.h"

static const char *const names[GS_GEMM_KERNEL_COUNT] = {"auto", "fast", "tiled16", "splitk",
                                                         "streamk"};

const char *gs_gemm_kernel_name(gs_gemm_kernel kernel)
{
    return (int)kernel >= 0 && kernel < GS_GEMM_KERNEL_COUNT ? names[kernel] : "unknown";
}

gs_status gs_gemm_kernel_parse(const char *name, gs_gemm_kernel *kernel)
{
    if (!name)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gemm kernel name is NULL");
    if (!kernel)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_gemm_kernel_parse: the output pointer is NULL");
    for (int i = 0; i < GS_GEMM_KERNEL_COUNT; ++i)
        if (strcmp(name, names[i]) == 0) {
            *kernel = (gs_gemm_kernel)i;
            return GS_SUCCESS;
        }
    return gs__fail(GS_ERR_INVALID_ARGUMENT, "unknown gemm kernel '%s' (auto, fast, tiled16, splitk, streamk)",
                    name);
}

/* Rows a grid can cover: gridDim.y <= 65535 blocks of 16 rows (tiled16). */
#define GS_SGEMM_MAX_ROWS (65535 * 16)
/* The kernels index in int: a size up to this leaves room for a whole tile
 * (128) and a k step past it without overflow. */
#define GS_SGEMM_MAX_DIM (INT_MAX - 255)

static gs_status check(const gs__sgemm_args *p)
{
    if (p->m < 1 || p->n < 1 || p->k < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: sizes must be >= 1, got m=%d n=%d k=%d",
                        p->m, p->n, p->k);
    if (p->n > GS_SGEMM_MAX_DIM || p->k > GS_SGEMM_MAX_DIM)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_sgemm: n=%d k=%d: sizes above %d are not supported", p->n, p->k,
                        GS_SGEMM_MAX_DIM);
    if (p->m > GS_SGEMM_MAX_ROWS)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: m=%d rows exceed the %d a grid covers",
                        p->m, GS_SGEMM_MAX_ROWS);
    if (p->lda < p->k)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: lda=%d is smaller than k=%d", p->lda,
                        p->k);
    if (p->ldb < p->n)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: ldb=%d is smaller than n=%d", p->ldb,
                        p->n);
    if (p->ldc < p->n)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: ldc=%d is smaller than n=%d", p->ldc,
                        p->n);
    if (!p->a || !p->b || !p->c)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: matrix %s is NULL",
                        !p->a ? "A" : !p->b ? "B" : "C");
    int dev = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    /* device memory of the current device, or managed memory (memory_location.c) */
    enum cudaMemoryType type;
    GS_TRY(gs__gpu_memory_on("gs_sgemm", "A", p->a, dev, &type));
    GS_TRY(gs__gpu_memory_on("gs_sgemm", "B", p->b, dev, &type));
    return gs__gpu_memory_on("gs_sgemm", "C", p->c, dev, &type);
}

gs_status gs_sgemm_with(gs_gemm_kernel kernel, int m, int n, int k, float alpha, const float *a,
                        int lda, const float *b, int ldb, float beta, float *c, int ldc,
                        cudaStream_t stream)
{
    gs__sgemm_args p = {m, n, k, alpha, a, lda, b, ldb, beta, c, ldc};
    if ((int)kernel < 0 || kernel >= GS_GEMM_KERNEL_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_sgemm: unknown kernel %d", (int)kernel);
    GS_TRY(check(&p));
    if (kernel == GS_GEMM_TILED16)
        return gs__sgemm_tiled16(&p, stream);
    if (kernel == GS_GEMM_FAST)
        return gs__sgemm_fast(&p, 0, stream);
    int dev = 0, sms = 0, built = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    gs__sgemm_plan plan = gs__sgemm_plan_for(m, n, k, sms,
                                             kernel == GS_GEMM_SPLITK    ? GS__SGEMM_SPLIT
                                             : kernel == GS_GEMM_STREAMK ? GS__SGEMM_STREAM
                                                                         : GS__SGEMM_CHOOSE);
    if (kernel == GS_GEMM_AUTO && gs__sgemm_wide_ok(&p)) { /* the wide tile where it pays */
        GS_TRY(gs__sgemm_wide_built_for(dev, &built));
        const int wide = gs__sgemm_wide_pick(&p, sms, built, plan);
        if (wide > 0)
            return gs__sgemm_wide(&p, wide, stream);
    }
    if (plan.streamk)
        return gs__sgemm_streamk(&p, plan.tile, stream);
    if (plan.splits > 1)
        return gs__sgemm_splitk(&p, plan.tile, plan.splits, stream);
    return gs__sgemm_fast(&p, plan.tile, stream);
}

gs_status gs_sgemm(int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                   int ldb, float beta, float *c, int ldc, cudaStream_t stream)
{
    return gs_sgemm_with(GS_GEMM_AUTO, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
}
