/* multi_consumer.cu - a user's program on the installed multi-GPU part
 * (gridsync_multi.h, gridsync/multi.cuh, gridsync/multi_allreduce.cuh):
 * every visible GPU (one is enough) meets 50 times in a persistent kernel,
 * all-reducing a value across the GPUs each time, and sums a vector
 * together; the local-rank calls of the one-process form. Exit 0 right, 77
 * without a GPU, 1 wrong. */
#include <gridsync/multi.cuh>
#include <gridsync/multi_allreduce.cuh>

#include <stdio.h>

static __global__ void fill_half(float *x, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        x[i] = 0.5f;
}

/* *wrong counts the threads' all-reduces that were not threads x blocks x
 * GPUs halves (exact in double). */
static __global__ void meet(gs_multi_view v, int rounds, unsigned int *wrong)
{
    const double want = 0.5 * blockDim.x * gridDim.x * v.size;
    for (int r = 0; r < rounds; ++r) {
        gs_multi_sync(&v);
        if (gs_multi_allreduce_sum_f64(&v, 0.5) != want)
            atomicAdd(wrong, 1u);
    }
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        gs_status st_ = (call);                                                            \
        if (st_ != GS_SUCCESS) {                                                           \
            fprintf(stderr, "%s: %s: %s\n", #call, gs_status_string(st_),                  \
                    gs_last_error_detail());                                               \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

int main(void)
{
    int count = 0, rounds = 50;
    if (gs_device_count(&count) == GS_ERR_NO_DEVICE) {
        printf("multi_consumer: no GPU, nothing to run\n");
        return 77;
    }
    int devices[GS_MULTI_MAX_GPUS], size = count < GS_MULTI_MAX_GPUS ? count : GS_MULTI_MAX_GPUS;
    for (int r = 0; r < size; ++r)
        devices[r] = r;
    gs_multi_t m;
    gs_multi_barrier_t bar;
    CHECK(gs_multi_create(&m, size, devices));
    CHECK(gs_multi_barrier_create(m, &bar));
    if (gs_multi_local_ranks(m) != size || gs_multi_rank(m, size - 1) != size - 1 ||
        gs_multi_barrier_path(bar, NULL) != GS_MULTI_PATH_DEVICE) {
        fprintf(stderr, "multi_consumer: local ranks %d, path %d\n", gs_multi_local_ranks(m),
                (int)gs_multi_barrier_path(bar, NULL));
        return 1;
    }
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][3], **args[GS_MULTI_MAX_GPUS];
    const void *parts[GS_MULTI_MAX_GPUS];
    unsigned int *wrong[GS_MULTI_MAX_GPUS];
    const long long n = 1 << 20;
    for (int r = 0; r < size; ++r) {
        float *x = NULL;
        CHECK(gs_multi_barrier_device(bar, r, 4, &views[r]));
        cudaSetDevice(devices[r]);
        if (cudaMalloc((void **)&x, n * sizeof *x) != cudaSuccess ||
            cudaMalloc((void **)&wrong[r], sizeof *wrong[r]) != cudaSuccess ||
            cudaMemset(wrong[r], 0, sizeof *wrong[r]) != cudaSuccess)
            return 1;
        argv[r][0] = &views[r];
        argv[r][1] = &rounds;
        argv[r][2] = &wrong[r];
        args[r] = argv[r];
        fill_half<<<256, 256>>>(x, n); /* the sum is exact in float */
        if (cudaDeviceSynchronize() != cudaSuccess)
            return 1;
        parts[r] = x;
    }
    CHECK(gs_multi_launch(bar, (const void *)meet, dim3(4), dim3(128), 0, args));
    CHECK(gs_multi_barrier_check(bar));
    unsigned int wrong_rounds = 0;
    for (int r = 0; r < size; ++r) {
        unsigned int w = 1;
        cudaSetDevice(devices[r]);
        if (cudaMemcpy(&w, wrong[r], sizeof w, cudaMemcpyDeviceToHost) != cudaSuccess)
            return 1;
        wrong_rounds += w;
    }
    float total = -1.0f;
    CHECK(gs_multi_reduce_sum(m, GS_FLOAT32, parts, n, &total));
    float expected = 0.5f * (float)n * (float)size;
    printf("multi_consumer: %d GPU(s) met %d times, %u all-reduces wrong; sum %g (expected %g)\n",
           size, rounds, wrong_rounds, total, expected);
    CHECK(gs_multi_barrier_destroy(bar));
    CHECK(gs_multi_destroy(m));
    return total == expected && wrong_rounds == 0 ? 0 : 1;
}
