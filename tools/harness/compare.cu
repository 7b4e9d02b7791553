/* compare.cu - the relative Frobenius difference of two device arrays
 * (compare.h): squared difference and squared norm summed in FP64. */
#include <math.h>

#include "gridsync_internal.h"
#include "harness/compare.h"

static __global__ void squared_sums(const float *x, const float *ref, long long n, double *sums)
{
    double d = 0.0, r = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        double e = (double)x[i] - (double)ref[i];
        d += e * e;
        r += (double)ref[i] * ref[i];
    }
    atomicAdd(&sums[0], d);
    atomicAdd(&sums[1], r);
}

static gs_status sum_squares(const float *x, const float *ref, long long n, cudaStream_t s,
                             double *sums, double host[2])
{
    GS_CUDA_TRY(cudaMemsetAsync(sums, 0, 2 * sizeof(double), s));
    squared_sums<<<264, 256, 0, s>>>(x, ref, n, sums);
    GS_CUDA_TRY(cudaGetLastError());
    GS_CUDA_TRY(cudaMemcpyAsync(host, sums, 2 * sizeof(double), cudaMemcpyDeviceToHost, s));
    GS_CUDA_TRY(cudaStreamSynchronize(s));
    return GS_SUCCESS;
}

extern "C" gs_status gs_relative_difference(const float *x, const float *ref, long long n,
                                            cudaStream_t stream, double *rel)
{
    double *sums = NULL, host[2] = {0.0, 0.0};
    GS_CUDA_TRY(cudaMalloc((void **)&sums, 2 * sizeof(double)));
    gs_status st = sum_squares(x, ref, n, stream, sums, host);
    cudaFree(sums);
    *rel = sqrt(host[0] / (host[1] > 0 ? host[1] : 1.0));
    return st;
}
