/* reduce_host_cost.c - scratch probe (issue 4): host time per gs_reduce_sum
 * call, next to its parts, to see whether small reductions are bound by the
 * host.
 * `make research` builds it: build/research/probes/reduce_host_cost
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <gridsync.h>
#include <stdio.h>
#include <time.h>

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

int main(void)
{
    float *x, *out;
    struct cudaPointerAttributes attr;
    const int calls = 20000;
    cudaMalloc((void **)&x, 1 << 24);
    cudaMalloc((void **)&out, 64);
    cudaMemset(x, 0x3c, 1 << 24);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    gs_reduce_sum(GS_FLOAT32, x, 1024, out, s);
    cudaStreamSynchronize(s);
    for (int n = 1024; n <= (1 << 19); n <<= 3) {
        double t0 = now_us();
        for (int i = 0; i < calls; ++i)
            gs_reduce_sum(GS_FLOAT32, x, n, out, s);
        double t1 = now_us();
        cudaStreamSynchronize(s);
        double t2 = now_us();
        printf("gs_reduce_sum n=%-7d host %.3f us/call, wall %.3f us/call\n", n, (t1 - t0) / calls,
               (t2 - t0) / calls);
    }
    double t0 = now_us();
    for (int i = 0; i < calls; ++i)
        cudaPointerGetAttributes(&attr, x);
    double t1 = now_us();
    int d;
    for (int i = 0; i < calls; ++i)
        cudaGetDevice(&d);
    double t2 = now_us();
    printf("cudaPointerGetAttributes %.3f us, cudaGetDevice %.3f us\n", (t1 - t0) / calls,
           (t2 - t1) / calls);
    return 0;
}
