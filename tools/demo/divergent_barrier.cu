/*
 * divergent_barrier.cu - CUDA by Example's dot product and its "incorrect
 * optimisation" (5.3.1; see docs/tutorials.md): the second __syncthreads() moved inside
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
#include <stdio.h>

#include "gridsync_internal.h"
#include "common/device.h"
#include "demo/child_run.h"
#include "demo/demo.h"

enum { THREADS = 256, BLOCKS = 32 };

#define GS__TUTORIAL_DOT(name, BROKEN)                                                       \
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
                    __syncthreads(); /* the book's broken placement */                      \
            }                                                                               \
            if (!BROKEN)                                                                    \
                __syncthreads();                                                            \
            i /= 2;                                                                         \
        }                                                                                   \
        if (cacheIndex == 0)                                                                \
            c[blockIdx.x] = cache[0];                                                       \
    }

GS__TUTORIAL_DOT(dot_correct, 0)
GS__TUTORIAL_DOT(dot_broken, 1)

static __global__ void fill(float *a, float *b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2);
    }
}

/* The dot product of x[i] = i % 7 - 3 and y[i] = i % 5 - 2 for n elements
 * by the correct kernel or the broken one (`broken`): *result receives it
 * and *expected the exact value. May never return when broken: run it in a
 * child process (gs_child_run). */
static gs_status divergent_dot(int broken, int n, double *result, double *expected)
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

typedef struct divergent_ctx {
    int device;
    int broken;
} divergent_ctx;

/* In the child: exit 0 correct, 10 wrong result, 1 failure. */
static int divergent_child(void *arg)
{
    const divergent_ctx *c = (const divergent_ctx *)arg;
    double got = 0.0, want = 0.0;
    gs_device_info info;
    gs_status st = gs_select_device(c->device, &info);
    if (st == GS_SUCCESS)
        st = divergent_dot(c->broken, 1 << 20, &got, &want);
    if (st != GS_SUCCESS) {
        fprintf(stderr, "  child: %s\n", gs_last_error_detail());
        return 1;
    }
    printf("  %s kernel: dot = %.0f (exact %.0f)\n", c->broken ? "broken" : "correct", got, want);
    fflush(stdout);
    return got == want ? 0 : 10;
}

/* The parent must not initialise CUDA before forking: the GPU is checked in
 * a child first, then each kernel runs in a child of its own. */
static gs_status run_demo(const gs_demo_opts *o, const gs_device_info *dev, int *correct)
{
    (void)dev;
    GS_TRY(gs_child_select_device(o->device, 60.0));
    printf("divergent-barrier: CUDA by Example's dot product (docs/tutorials.md) with the\n"
           "second __syncthreads() moved inside `if (cacheIndex < i)` (the book's\n"
           "\"incorrect optimisation\"): threads with cacheIndex >= i never reach it. Each\n"
           "kernel runs in a child process, stopped after %.0f s if it has not finished.\n\n",
           o->time_limit);
    fflush(stdout);
    for (int broken = 0; broken <= 1; ++broken) {
        divergent_ctx ctx = {o->device, broken};
        gs_child_result r = gs_child_run(divergent_child, &ctx, o->time_limit);
        const char *name = broken ? "broken kernel:" : "correct kernel:";
        switch (r.outcome) {
        case GS_CHILD_TIMED_OUT:
            printf("  %-16s hung, stopped after %.1f s\n", name, r.seconds);
            break;
        case GS_CHILD_EXITED:
            printf("  %-16s %s (%.2f s)\n", name,
                   r.exit_code == 0    ? "finished correctly"
                   : r.exit_code == 10 ? "finished with a wrong result"
                                       : "failed (see above)",
                   r.seconds);
            break;
        case GS_CHILD_CRASHED: printf("  %-16s crashed (signal %d)\n", name, r.signal); break;
        default: printf("  %-16s could not be started\n", name); break;
        }
        fflush(stdout);
        if (!broken && !(r.outcome == GS_CHILD_EXITED && r.exit_code == 0)) {
            printf("  the correct kernel did not finish correctly: FAIL\n");
            *correct = 0;
        }
    }
    /* the caller's GPU afterwards: a fresh context must work */
    double got = 0.0, want = 0.0;
    gs_device_info info;
    gs_status st = gs_select_device(o->device, &info);
    if (st == GS_SUCCESS)
        st = divergent_dot(0, 1 << 20, &got, &want);
    if (st != GS_SUCCESS || got != want) {
        printf("  afterwards: the GPU is NOT usable: %s\n", gs_last_error_detail());
        *correct = 0;
    } else {
        printf("  afterwards: the GPU is usable (the correct kernel ran again in this process)\n");
    }
    printf("\nmeaning: __syncthreads() must be reached by all threads of the block or by none.\n"
           "In a divergent branch the outcome is undefined: a hang on some GPUs, a wrong or\n"
           "a lucky result on others. Never put a block barrier under a thread-dependent\n"
           "condition.\n");
    return GS_SUCCESS;
}

extern "C" const gs_demo gs_demo_divergent_barrier = {
    "divergent-barrier",
    "CUDA by Example's dot with its __syncthreads() inside an if: hung, wrong or lucky, run "
    "in a child process under a time limit (--time-limit S, default 5)",
    0, 1, run_demo, NULL};

