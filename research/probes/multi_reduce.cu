// multi_reduce.cu - scratch probe (issue 8): where the time of
// gs_multi_reduce_sum goes on 2 GPUs at 2^28 floats per GPU.
// `make research` builds it: build/research/probes/multi_reduce (2 GPUs)
#include <gridsync_multi.h>
#include <nccl.h>
#include <stdio.h>
#include <time.h>

static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }

int main()
{
    int devs[2] = {0, 1};
    gs_multi_t m;
    if (gs_multi_create(&m, 2, devs) != GS_SUCCESS) { printf("create: %s\n", gs_last_error_detail()); return 1; }
    const long long n = 1ll << 28;
    float *in[2], *out[2];
    for (int r = 0; r < 2; ++r) {
        cudaSetDevice(r);
        cudaMalloc(&in[r], n * 4);
        cudaMemset(in[r], 0x3c, n * 4);
        cudaMalloc(&out[r], 8);
        cudaDeviceSynchronize();
    }
    const void *ins[2] = {in[0], in[1]};
    float res;
    for (int rep = 0; rep < 3; ++rep) {
        double t0 = now_us();
        cudaSetDevice(0);
        gs_reduce_sum(GS_FLOAT32, in[0], n, out[0], gs_multi_stream(m, 0));
        cudaStreamSynchronize(gs_multi_stream(m, 0));
        double t1 = now_us();
        for (int r = 0; r < 2; ++r) {
            cudaSetDevice(r);
            gs_reduce_sum(GS_FLOAT32, in[r], n, out[r], gs_multi_stream(m, r));
        }
        double t2 = now_us();
        for (int r = 0; r < 2; ++r) {
            cudaSetDevice(r);
            cudaStreamSynchronize(gs_multi_stream(m, r));
        }
        double t3 = now_us();
        gs_multi_reduce_sum(m, GS_FLOAT32, ins, n, &res);
        double t4 = now_us();
        printf("one GPU %.1f us | both GPUs, launch %.1f us, until both done %.1f us | gs_multi_reduce_sum %.1f us\n",
               t1 - t0, t2 - t1, t3 - t1, t4 - t3);
    }
    return 0;
}
