/* fill.cu - pseudo-random input in device memory (fill.h): an integer hash
 * of the index and the seed, 24 bits of it scaled to [lo, hi). */
#include "gridsync_internal.h"
#include "harness/fill.h"

static __global__ void fill_uniform(float *x, long long n, float lo, float width,
                                    unsigned int seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned int h = (unsigned int)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        h ^= h >> 12;
        x[i] = lo + (float)(h & 0xffffff) * (1.0f / 16777216.0f) * width;
    }
}

extern "C" gs_status gs_fill_uniform(float *x, long long n, float lo, float hi,
                                     unsigned int seed, cudaStream_t stream)
{
    if (n < 0 || (n > 0 && !x) || !(hi > lo))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_fill_uniform: bad arguments");
    if (n == 0)
        return GS_SUCCESS;
    fill_uniform<<<1024, 256, 0, stream>>>(x, n, lo, hi - lo, seed);
    GS_CUDA_TRY(cudaGetLastError());
    return GS_SUCCESS;
}
