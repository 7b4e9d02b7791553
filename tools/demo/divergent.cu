/*
 * divergent.cu - seed 004's dot product and its "incorrect optimisation"
 * (CUDA by Example, 5.3.1): the second __syncthreads() moved inside
 * `if (cacheIndex < i)`, so that only the threads that wrote wait.
 *
 * Why it is wrong: __syncthreads() must be reached by every thread of the
 * block (or none). In the broken kernel the threads with cacheIndex >= i
 * skip it. What happens is undefined: on older GPUs the block hung; since
 * Volta the barrier counts arrivals per warp, and a barrier inside a
 * divergent branch may complete early, deadlock or give a wrong sum,
 * depending on the GPU and the compiler. `gridsync demo divergent-barrier`
 * runs it in a child process under a time limit, so it never hangs the
 * caller.
 */
#include "gridsync_internal.h"
#include "demo/demos.h"

enum { THREADS = 256, BLOCKS = 32 };

#define GS__SEED004_DOT(name, BROKEN)                                                       \
    static __global__ void name(const float *a, const float *b, float *c, int n)            \
    {                                                                                       \
        __shared__ float cache[THREADS];                                                    \
        int tid = threadIdx.x + blockIdx.x * blockDim.x;                                    \
        int cacheIndex = threadIdx.x;                                                       \
        float temp = 0;                                                                     \
        while (tid < n) {                                                                   \
            temp += a[tid] * b[tid];                                                        \
            tid += blockDim.x * gridDim.x;                                                  \
        }                                                                                   \
        cache[cacheIndex] = temp;                                                           \
        __syncthreads();                                                                    \
        int i = blockDim.x / 2;                                                             \
        while (i != 0) {                                                                    \
            if (cacheIndex < i) {                                                           \
                cache[cacheIndex] += cache[cacheIndex + i];                                 \
                if (BROKEN)                                                                 \
                    __syncthreads(); /* the seed's broken placement */                      \
            }                                                                               \
            if (!BROKEN)                                                                    \
                __syncthreads();                                                            \
            i /= 2;                                                                         \
        }                                                                                   \
        if (cacheIndex == 0)                                                                \
            c[blockIdx.x] = cache[0];                                                       \
    }

GS__SEED004_DOT(dot_correct, 0)
GS__SEED004_DOT(dot_broken, 1)

static __global__ void fill(float *a, float *b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2);
    }
}

extern "C" gs_status gs_demo_divergent_dot(int broken, int n, double *result, double *expected)
{
    float *a = NULL, *b = NULL, *c = NULL, partial[BLOCKS];
    if (n < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "divergent dot: n must be >= 1");
    GS_CUDA_TRY(cudaMalloc((void **)&a, (size_t)n * sizeof(float)));
    GS_CUDA_TRY(cudaMalloc((void **)&b, (size_t)n * sizeof(float)));
    GS_CUDA_TRY(cudaMalloc((void **)&c, sizeof partial));
    fill<<<64, 256>>>(a, b, n);
    if (broken)
        dot_broken<<<BLOCKS, THREADS>>>(a, b, c, n);
    else
        dot_correct<<<BLOCKS, THREADS>>>(a, b, c, n);
    GS_CUDA_TRY(cudaGetLastError());
    GS_CUDA_TRY(cudaMemcpy(partial, c, sizeof partial, cudaMemcpyDeviceToHost));
    double sum = 0.0, exact = 0.0;
    for (int i = 0; i < BLOCKS; ++i)
        sum += partial[i];
    for (int i = 0; i < n; ++i)
        exact += (double)(i % 7 - 3) * (double)(i % 5 - 2);
    *result = sum;
    *expected = exact;
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return GS_SUCCESS;
}
