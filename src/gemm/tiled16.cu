/*
 * tiled16.cu - the launcher of the tutorial's 16x16 tiled kernel
 * (gridsync/detail/gemm/sgemm_tiled16.cuh: how it works and why it is correct).
 */
#include <gridsync/detail/gemm/sgemm_tiled16.cuh>

#include "../core/error.h"

enum { TILE = GS_TUNE_SGEMM_TILED16_TILE };

static gs_status launch(const void *kernel, const gs__sgemm_args *p, cudaStream_t stream)
{
    dim3 grid((unsigned int)((p->n + TILE - 1) / TILE), (unsigned int)((p->m + TILE - 1) / TILE));
    void *args[] = {(void *)p};
    GS_CUDA_TRY(cudaLaunchKernel(kernel, grid, dim3(TILE, TILE), args, 0, stream));
    return GS_SUCCESS;
}

extern "C" gs_status gs__sgemm_tiled16(const gs__sgemm_args *p, cudaStream_t stream)
{
    return launch((const void *)gs::detail::sgemm_tiled16<true, gs__sgemm_args>, p, stream);
}
