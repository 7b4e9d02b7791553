/*
 * gemm_race_target.cu - one 64x64x64 multiply with the tutorial's 16x16 tiled
 * kernel ("sync", the library's) or its twin without barriers ("nosync",
 * instantiated here from the library's template), for racecheck_nosync.sh:
 * compute-sanitizer racecheck must report shared-memory hazards on the
 * nosync kernel and none on the real one. Exit 77 without a GPU.
 */
#include <stdio.h>
#include <string.h>

#include <gridsync/detail/gemm/sgemm_tiled16.cuh>

#include "gridsync_internal.h"
#include "gpu_test.h"

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "sync") != 0 && strcmp(argv[1], "nosync") != 0)) {
        fprintf(stderr, "usage: %s sync|nosync\n", argv[0]);
        return 2;
    }
    gs_test_require_gpu("gemm_race_target");
    const int n = 64;
    float *d;
    CUDA_OK(cudaMalloc((void **)&d, 3u * n * n * sizeof(float)));
    CUDA_OK(cudaMemset(d, 0x3c, 2u * n * n * sizeof(float))); /* nonzero inputs */
    gs__sgemm_args p = {n, n, n, 1.0f, d, n, d + n * n, n, 0.0f, d + 2 * n * n, n};
    if (strcmp(argv[1], "sync") == 0) {
        GS_OK(gs__sgemm_tiled16(&p, 0));
    } else {
        const unsigned int tile = GS_TUNE_SGEMM_TILED16_TILE;
        gs::detail::sgemm_tiled16<false, gs__sgemm_args>
            <<<dim3((n + tile - 1) / tile, (n + tile - 1) / tile), dim3(tile, tile)>>>(p);
        CUDA_OK(cudaGetLastError());
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaFree(d));
    printf("gemm_race_target: %s kernel ran\n", argv[1]);
    return 0;
}
