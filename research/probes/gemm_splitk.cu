// gemm_splitk.cu - scratch probe (issue 16): the split-k kernel at every
// (tile, slices) and the stream-k kernel in both tiles against cuBLAS SGEMM
// (pedantic FP32) and the unsplit fast kernel on the shapes where gs_sgemm
// may split, and the plan's choice (src/gemm/sgemm_plan.c), to calibrate
// the cost model's constants in tuning.h.
// `make research` builds it: build/research/probes/gemm_splitk
// Each line: the shape, cuBLAS TFLOP/s, then ratios to cuBLAS (> 1: faster):
// unsplit, gs_sgemm (its plan in brackets: tile/slices, or tile/sk for
// stream-k), stream-k in 128- and 64-tiles, the best split (tile, slices).
#include <cublas_v2.h>
#include <stdio.h>

#include "gridsync_internal.h"

#include "gemm_probe.h"

int main()
{
    cublasHandle_t h; cublasCreate(&h); cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
    int dev = 0, sms = 0; cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const int shapes[][3] = {{256, 256, 8192}, {512, 512, 512}, {768, 768, 768}, {1024, 1024, 1024},
                             {1024, 1024, 4096}, {1024, 1024, 16384}, {1536, 1536, 1536},
                             {2048, 2048, 2048}, {512, 512, 16384}, {1500, 1500, 1500},
                             {1792, 1792, 1792}, {2560, 2560, 2560}, {3001, 2999, 1537},
                             {4096, 4096, 4096}};
    const int splits[] = {2, 3, 4, 6, 8, 12, 16};
    printf("%d SMs\n%-18s %8s %8s %18s %7s %7s %8s   all (tile/slices: ratio)\n", sms,
           "m x n x k", "cublas", "unsplit", "gs_sgemm [plan]", "sk 128", "sk 64", "best split");
    for (auto &s : shapes) {
        const int m = s[0], n = s[1], k = s[2];
        float *A, *B, *C;
        cudaMalloc(&A, (size_t)m * k * 4); cudaMalloc(&B, (size_t)k * n * 4); cudaMalloc(&C, (size_t)m * n * 4);
        fill<<<1024, 256>>>(A, (long long)m * k, 1); fill<<<1024, 256>>>(B, (long long)k * n, 2);
        gs__sgemm_args p = {m, n, k, 1.0f, A, k, B, n, 0.0f, C, n};
        const float one = 1, zero = 0;
        double f = 2.0 * m * n * (double)k / 1e9;
        int reps = f < 5 ? 50 : f < 100 ? 10 : 3;
        double tc = time_ms([&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n); }, reps);
        double tu = time_ms([&] { gs__sgemm_fast(&p, 0, 0); }, reps);
        double ta = time_ms([&] { gs_sgemm(m, n, k, 1.0f, A, k, B, n, 0.0f, C, n, 0); }, reps);
        gs__sgemm_plan plan = gs__sgemm_plan_for(m, n, k, sms, 0);
        double sk128 = time_ms([&] { gs__sgemm_streamk(&p, 128, 0); }, reps);
        double sk64 = time_ms([&] { gs__sgemm_streamk(&p, 64, 0); }, reps);
        char all[1024] = ""; int used = 0; double best = 1e30; int bt = 0, bs = 0;
        for (int tile : {128, 64})
            for (int sp : splits) {
                int per = 0;
                if (gs__sgemm_slices(k, sp, &per) != sp) continue;
                double t = time_ms([&] { gs__sgemm_splitk(&p, tile, sp, 0); }, reps);
                if (t < best) { best = t; bt = tile; bs = sp; }
                used += snprintf(all + used, sizeof all - used, " %d/%d:%.2f", tile, sp, tc / t);
            }
        char name[32], chose[40];
        snprintf(name, sizeof name, "%dx%dx%d", m, n, k);
        if (plan.streamk)
            snprintf(chose, sizeof chose, "%.3f [%d/sk]", tc / ta, plan.tile);
        else
            snprintf(chose, sizeof chose, "%.3f [%d/%d]", tc / ta, plan.tile, plan.splits);
        printf("%-18s %8.2f %8.3f %18s %7.3f %7.3f %4.3f %d/%d  %s\n", name, f / tc, tc / tu, chose,
               tc / sk128, tc / sk64, tc / best, bt, bs, all);
        cudaFree(A); cudaFree(B); cudaFree(C);
    }
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
}
