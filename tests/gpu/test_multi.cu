/*
 * test_multi.cu - gridsync_multi.h on every local GPU (at least two; exit 77
 * with the reason otherwise): reductions against a CPU reference and bitwise
 * repeatable; the cross-GPU barrier's ordering, checked by reading other
 * GPUs' data over peer access after every barrier, over many barriers; the
 * watchdog (a GPU whose kernel leaves early is named) and re-use after it;
 * a launch that fails on one GPU stops the others at once (no time-out) and
 * is named; every call leaves the caller's current device as it was.
 */
#include <gridsync/multi.cuh>

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "gpu_test.h"
#include "multi_exchange_kernel.cuh"
#include "multi_group.h"

static int checks;

static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
}

static void test_reductions(gs_multi_t m)
{
    const int g = gs_multi_size(m);
    const long long n = (1 << 20) + 3;
    float *hf = (float *)malloc((size_t)n * 4);
    long long *hi = (long long *)malloc((size_t)n * 8);
    const void *df[GS_MULTI_MAX_GPUS], *di[GS_MULTI_MAX_GPUS];
    double ref = 0.0, mag = 0.0, dot_ref = 0.0;
    long long iref = 0;
    for (int r = 0; r < g; ++r) {
        for (long long i = 0; i < n; ++i) {
            hf[i] = (float)uniform();
            hi[i] = (long long)(uniform() * 4e12);
            ref += hf[i];
            mag += fabs(hf[i]);
            dot_ref += (double)hf[i] * hf[i];
            iref += hi[i];
        }
        void *a, *b;
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMalloc(&a, (size_t)n * 4));
        CUDA_OK(cudaMalloc(&b, (size_t)n * 8));
        CUDA_OK(cudaMemcpy(a, hf, (size_t)n * 4, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(b, hi, (size_t)n * 8, cudaMemcpyHostToDevice));
        df[r] = a;
        di[r] = b;
    }
    float got = 0.0f, again = 0.0f;
    long long igot = 0;
    GS_OK(gs_multi_reduce_sum(m, GS_FLOAT32, df, n, &got));
    double bound = (n + g) * ldexp(1.0, -24) * mag;
    ++checks;
    EXPECT(fabs(got - ref) <= bound, "f32 sum over %d GPUs: %.9g, reference %.9g, bound %.3g", g,
           got, ref, bound);
    for (int rep = 0; rep < 5; ++rep) {
        GS_OK(gs_multi_reduce_sum(m, GS_FLOAT32, df, n, &again));
        ++checks;
        EXPECT(memcmp(&got, &again, 4) == 0, "f32 sum not bitwise repeatable: %.9g then %.9g", got,
               again);
    }
    GS_OK(gs_multi_reduce_sum(m, GS_INT64, di, n, &igot));
    ++checks;
    EXPECT(igot == iref, "i64 sum over %d GPUs: %lld, expected %lld", g, igot, iref);
    float dot = 0.0f;
    GS_OK(gs_multi_dot(m, GS_FLOAT32, df, df, n, &dot));
    double dot_bound = (n + g + 1) * ldexp(1.0, -24) * dot_ref;
    ++checks;
    EXPECT(fabs(dot - dot_ref) <= dot_bound, "f32 dot over %d GPUs: %.9g, reference %.9g", g, dot,
           dot_ref);
    printf("  reductions over %d GPUs: f32 sum error %.3g (bound %.3g), dot error %.3g (bound "
           "%.3g), i64 exact\n",
           g, fabs(got - ref), bound, fabs(dot - dot_ref), dot_bound);
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        cudaFree((void *)df[r]);
        cudaFree((void *)di[r]);
    }
    free(hf);
    free(hi);
}

/* One launch of `exchange` on every GPU; returns the status of the check. */
static gs_status run_exchange(gs_multi_t m, gs_multi_barrier_t bar, int blocks, int iters,
                              int leaver, int leave_at, unsigned int *errors_out)
{
    const int g = gs_multi_size(m);
    unsigned int *slots[GS_MULTI_MAX_GPUS], **dslots[GS_MULTI_MAX_GPUS], *errors[GS_MULTI_MAX_GPUS];
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    int leave[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][5], **args[GS_MULTI_MAX_GPUS];
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMalloc((void **)&slots[r], (size_t)blocks * 4));
        CUDA_OK(cudaMemset(slots[r], 0, (size_t)blocks * 4));
    }
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMalloc((void **)&dslots[r], sizeof slots));
        CUDA_OK(cudaMemcpy(dslots[r], slots, sizeof slots, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMalloc((void **)&errors[r], 4));
        CUDA_OK(cudaMemset(errors[r], 0, 4));
        GS_OK(gs_multi_barrier_device(bar, r, (unsigned int)blocks, &views[r]));
        leave[r] = r == leaver ? leave_at : 0;
        argv[r][0] = &views[r];
        argv[r][1] = &dslots[r];
        argv[r][2] = &iters;
        argv[r][3] = &errors[r];
        argv[r][4] = &leave[r];
        args[r] = argv[r];
    }
    GS_OK(gs_multi_launch(bar, (const void *)exchange, dim3(blocks), dim3(128), 0, args));
    gs_status st = gs_multi_barrier_check(bar);
    *errors_out = 0;
    for (int r = 0; r < g; ++r) {
        unsigned int e = 0;
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMemcpy(&e, errors[r], 4, cudaMemcpyDeviceToHost));
        *errors_out += e;
        cudaFree(slots[r]);
        cudaFree(dslots[r]);
        cudaFree(errors[r]);
    }
    return st;
}

/* The last GPU's launch fails (no kernel for it): the GPUs already running
 * must stop meeting at once, not after the time-out, and the check names
 * the failed launch; the barrier works again afterwards. */
static void test_failed_launch(gs_multi_t m, gs_multi_barrier_t bar, int sms)
{
    const int g = gs_multi_size(m);
    cudaFunction_t funcs[GS_MULTI_MAX_GPUS] = {0};
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    unsigned int *slots[GS_MULTI_MAX_GPUS] = {0}, **dslots[GS_MULTI_MAX_GPUS], *errors[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][5], **args[GS_MULTI_MAX_GPUS];
    int iters = 100, leave = 0;
    GS_OK(gs_multi_barrier_set_timeout(bar, 10.0));
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        if (r < g - 1)
            CUDA_OK(cudaGetFuncBySymbol(&funcs[r], (const void *)exchange));
        CUDA_OK(cudaMalloc((void **)&slots[r], (size_t)sms * 4));
        CUDA_OK(cudaMalloc((void **)&errors[r], 4));
    }
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMalloc((void **)&dslots[r], sizeof slots));
        CUDA_OK(cudaMemcpy(dslots[r], slots, sizeof slots, cudaMemcpyHostToDevice));
        GS_OK(gs_multi_barrier_device(bar, r, (unsigned int)sms, &views[r]));
        argv[r][0] = &views[r];
        argv[r][1] = &dslots[r];
        argv[r][2] = &iters;
        argv[r][3] = &errors[r];
        argv[r][4] = &leave;
        args[r] = argv[r];
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    gs_status st = gs_multi_launch_func(bar, funcs, dim3(sms), dim3(128), 0, args);
    char launch_detail[1024], want[64];
    snprintf(launch_detail, sizeof launch_detail, "%s", gs_last_error_detail());
    snprintf(want, sizeof want, "GPU %d (rank %d)", gs_multi_device(m, g - 1), g - 1);
    ++checks;
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(launch_detail, want),
           "a launch failing on the last GPU: %s: '%s'", gs_status_string(st), launch_detail);
    st = gs_multi_barrier_check(bar);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double took = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    char detail[1024];
    snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    ++checks;
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, "failed") && took < 3.0,
           "after a failed launch: %s in %.2f s (time-out 10 s): '%s'", gs_status_string(st),
           took, detail);
    printf("  failed launch: %s; the others stopped in %.2f s: %s\n", launch_detail, took, detail);
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        cudaFree(slots[r]);
        cudaFree(dslots[r]);
        cudaFree(errors[r]);
    }
    unsigned int bad = 0;
    st = run_exchange(m, bar, sms, 50, -1, 0, &bad);
    ++checks;
    EXPECT(st == GS_SUCCESS && bad == 0, "re-use after a failed launch: %s, %u wrong values",
           gs_status_string(st), bad);
}

/* Every call leaves the caller's current device as it found it. */
static void test_device_kept(gs_multi_t m)
{
    const int g = gs_multi_size(m);
    const int mine = gs_multi_device(m, g - 1);
    float *x[GS_MULTI_MAX_GPUS];
    const void *xs[GS_MULTI_MAX_GPUS];
    for (int r = 0; r < g; ++r) {
        CUDA_OK(cudaSetDevice(gs_multi_device(m, r)));
        CUDA_OK(cudaMalloc((void **)&x[r], 1024 * 4));
        CUDA_OK(cudaMemset(x[r], 0, 1024 * 4));
        xs[r] = x[r];
    }
    float sum = 1.0f;
    int now = -1;
    gs_multi_barrier_t bar;
    CUDA_OK(cudaSetDevice(mine));
    GS_OK(gs_multi_reduce_sum(m, GS_FLOAT32, xs, 1024, &sum));
    CUDA_OK(cudaGetDevice(&now));
    ++checks;
    EXPECT(now == mine && sum == 0.0f, "gs_multi_reduce_sum left device %d current (was %d)",
           now, mine);
    GS_OK(gs_multi_barrier_create(m, &bar));
    CUDA_OK(cudaGetDevice(&now));
    ++checks;
    EXPECT(now == mine, "gs_multi_barrier_create left device %d current (was %d)", now, mine);
    GS_OK(gs_multi_barrier_check(bar));
    GS_OK(gs_multi_barrier_destroy(bar));
    CUDA_OK(cudaGetDevice(&now));
    ++checks;
    EXPECT(now == mine, "check/destroy left device %d current (was %d)", now, mine);
    for (int r = 0; r < g; ++r)
        cudaFree(x[r]);
}

static void test_barrier(gs_multi_t m, int sms)
{
    const int g = gs_multi_size(m);
    gs_multi_barrier_t bar;
    GS_OK(gs_multi_barrier_create(m, &bar));
    const int grids[] = {1, 7, sms, 2 * sms};
    const int iters = gs_test_sanitizer() ? 20 : 1000;
    for (int i = 0; i < 4; ++i) {
        unsigned int errors = 0;
        gs_status st = run_exchange(m, bar, grids[i], iters, -1, 0, &errors);
        ++checks;
        EXPECT(st == GS_SUCCESS && errors == 0,
               "%d GPUs x %d blocks, %d iterations: %s, %u wrong values", g, grids[i], iters,
               gs_status_string(st), errors);
        printf("  barrier: %d GPUs x %4d blocks, %d iterations (%d barriers): %u wrong values\n", g,
               grids[i], iters, 2 * iters, errors);
    }
    /* the watchdog: the last GPU's kernel leaves before its 3rd iteration */
    GS_OK(gs_multi_barrier_set_timeout(bar, 0.3));
    unsigned int errors = 0;
    gs_status st = run_exchange(m, bar, sms, 10, g - 1, 3, &errors);
    char detail[1024], want[64];
    snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    snprintf(want, sizeof want, "GPU %d never arrived", gs_multi_device(m, g - 1));
    ++checks;
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want),
           "a GPU that leaves early: got %s: '%s'", gs_status_string(st), detail);
    printf("  watchdog: %s\n", detail);
    st = run_exchange(m, bar, sms, 50, -1, 0, &errors);
    ++checks;
    EXPECT(st == GS_SUCCESS && errors == 0, "re-use after a time-out: %s, %u wrong values",
           gs_status_string(st), errors);
    test_failed_launch(m, bar, sms);
    GS_OK(gs_multi_barrier_destroy(bar));
}

int main(void)
{
    gs_multi_t m = gs_test_multi_group("gpu_multi");
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    rng = gs_test_seed("gpu_multi") | 1ull;
    test_reductions(m);
    test_barrier(m, sms);
    test_device_kept(m);
    GS_OK(gs_multi_destroy(m));
    return gs_test_finish("gpu_multi", checks);
}
