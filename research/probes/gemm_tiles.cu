// gemm_tiles.cu - scratch probe (issue 5): the library's register-tiled
// kernel (gs__sgemm_fast, src/gemm/sgemm_fast.cu) with 64- and 128-tiles
// against cuBLAS SGEMM (pedantic FP32) at square sizes, to pick where
// gs_sgemm switches tiles; TILED16=1 in the environment adds the tutorial's
// 16 x 16 kernel (gs__sgemm_tiled16) up to n = 4096.
// `make research` builds it: build/research/probes/gemm_tiles
// (Its earlier form compiled the kernel's source into itself so that -D
// switches could try other k steps and thread layouts; the layouts and k
// steps it measured are in research/notes/gemm.md, the switches are gone.)
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"

#include "gemm_probe.h"

int main()
{
    cublasHandle_t h; cublasCreate(&h); cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
    int sizes[] = {512, 1024, 2048, 4096, 8192};
    printf("%6s %10s %10s %10s %10s   TFLOP/s, ratio to cuBLAS\n", "n", "cublas", "fast-64", "fast-128", "tiled16");
    for (int n : sizes) {
        float *A, *B, *C; size_t e = (size_t)n * n;
        cudaMalloc(&A, e * 4); cudaMalloc(&B, e * 4); cudaMalloc(&C, e * 4);
        fill<<<1024, 256>>>(A, e, 1); fill<<<1024, 256>>>(B, e, 2);
        gs__sgemm_args p = {n, n, n, 1.0f, A, n, B, n, 0.0f, C, n};
        const float one = 1, zero = 0;
        int reps = n <= 1024 ? 50 : n <= 4096 ? 5 : 2;
        double tc = time_ms([&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, C, n); }, reps);
        double t64 = time_ms([&] { gs__sgemm_fast(&p, 64, 0); }, reps);
        double t128 = time_ms([&] { gs__sgemm_fast(&p, 128, 0); }, reps);
        double t16 = getenv("TILED16") && n <= 4096 ? time_ms([&] { gs__sgemm_tiled16(&p, 0); }, 1) : 0;
        double f = 2.0 * n * n * (double)n / 1e9;
        printf("%6d %10.2f %10.2f %10.2f %10.2f   %.3f %.3f %.3f\n", n, f / tc, f / t64, f / t128, t16 ? f / t16 : 0,
               tc / t64, tc / t128, t16 ? tc / t16 : 0);
        cudaFree(A); cudaFree(B); cudaFree(C);
    }
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
}
