/*
 * compact.cu - stream compaction with a prefix scan: keep the elements of
 * an array that pass a test, in order, packed at the front of another.
 *
 * Three steps on the GPU: mark every element (1 keep, 0 drop); an
 * exclusive prefix sum of the marks gives each kept element its slot
 * (gs_scan_exclusive_sum, one launch); scatter. The marks and slots are
 * int32, the data float. The result is checked against the CPU.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc compact.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_compact [elements]
 */
#include <gridsync.h>

#include <stdio.h>
#include <stdlib.h>

#include "example_check.h"

static __device__ bool keep(float v) { return v > 0.75f; }

static __global__ void mark(const float *x, int *flags, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        flags[i] = keep(x[i]) ? 1 : 0;
}

static __global__ void scatter(const float *x, const int *slots, float *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        if (keep(x[i]))
            out[slots[i]] = x[i];
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 10000000;
    if (n < 1 || n > (1ll << 30)) {
        fprintf(stderr, "usage: example_compact [elements, 1 .. 2^30]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    float *h = (float *)malloc((size_t)n * sizeof(float));
    float *h_out = (float *)malloc((size_t)n * sizeof(float));
    if (!h || !h_out) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    unsigned long long state = 12345;
    for (long long i = 0; i < n; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        h[i] = (float)(state >> 40) / 16777216.0f; /* [0, 1) */
    }
    float *x, *out;
    int *flags, *slots, last_slot = 0, last_flag = 0;
    CHECK(cudaMalloc((void **)&x, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&out, (size_t)n * sizeof(float)));
    CHECK(cudaMalloc((void **)&flags, (size_t)n * sizeof(int)));
    CHECK(cudaMalloc((void **)&slots, (size_t)n * sizeof(int)));
    CHECK(cudaMemcpy(x, h, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));

    mark<<<1024, 256>>>(x, flags, n);
    CHECK(cudaGetLastError());
    GS_CHECK(gs_scan_exclusive_sum(GS_INT32, flags, slots, n, 0)); /* slot of each kept one */
    scatter<<<1024, 256>>>(x, slots, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&last_slot, slots + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&last_flag, flags + n - 1, sizeof(int), cudaMemcpyDeviceToHost));
    GS_CHECK(gs_scan_check(0)); /* waits; reports a scan that gave up, if any */
    long long kept = (long long)last_slot + last_flag;
    CHECK(cudaMemcpy(h_out, out, (size_t)kept * sizeof(float), cudaMemcpyDeviceToHost));

    long long want = 0, wrong = 0;
    for (long long i = 0; i < n; ++i)
        if (h[i] > 0.75f)
            wrong += want >= kept || h_out[want++] != h[i];
    printf("compact: kept %lld of %lld elements (the CPU: %lld), %lld misplaced\n", kept, n, want,
           wrong);
    cudaFree(x);
    cudaFree(out);
    cudaFree(flags);
    cudaFree(slots);
    free(h);
    free(h_out);
    return kept == want && wrong == 0 ? 0 : 1;
}
