/*
 * multi_bench.cu - `gridsync bench multi`: how long GPUs take to meet, and
 * how fast they reduce together, for 2 .. all local GPUs.
 *
 * Barrier (microseconds per barrier, host wall clock around a whole run
 * divided by the number of barriers; median of samples):
 *   gridsync p2p     gs_multi_sync in a persistent kernel on every GPU, at
 *                    1 block and 1 block per SM
 *   nccl lsa barrier NCCL's device-API barrier (ncclLsaBarrierSession, NCCL
 *                    2.28+) in the same kind of kernel, at the same grids
 *                    (nccl_device_barrier.cu); skipped, with the reason on
 *                    stderr, where the NCCL at hand has no device API
 *   nccl allreduce   ncclAllReduce of one float on every GPU, back to back
 *                    (each one is a meeting of all GPUs)
 *   host sync        an empty kernel on every GPU, then the host waits for
 *                    every stream (the meeting a program without device-side
 *                    synchronisation does)
 * Reduction (N = 2^28 floats per GPU): gs_multi_reduce_sum over g GPUs
 * against gs_reduce_sum of 2^28 floats on one GPU; GB/s of input read.
 */
#include <gridsync/multi.cuh>
#include <nccl.h>

#include <algorithm>
#include <stdio.h>
#include <time.h>
#include <vector>

#include "bench/progress.h"
#include "gridsync_internal.h"
#include "bench/multi_bench.h"
#include "bench/peers/nccl_device_barrier.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static __global__ void meet(gs_multi_view v, int iters)
{
    for (int i = 0; i < iters; ++i)
        gs_multi_sync(&v);
}

static __global__ void empty_kernel(void) {}

enum { C_GPUS, C_WHAT, C_METHOD, C_BLOCKS, C_US, C_GBS, C_SPEEDUP, NCOLS };
static const char *const columns[NCOLS] = {"gpus", "what", "method", "blocks_per_gpu",
                                           "us", "gb_per_s", "speedup"};

static void add_row(gs_table *t, int gpus, const char *what, const char *method, int blocks,
                    double us, double gbs, double speedup)
{
    gs_table_add_row(t);
    gs_table_set_number(t, C_GPUS, gpus, 0);
    gs_table_set_text(t, C_WHAT, what);
    gs_table_set_text(t, C_METHOD, method);
    if (blocks > 0)
        gs_table_set_number(t, C_BLOCKS, blocks, 0);
    gs_table_set_number(t, C_US, us, 3);
    if (gbs > 0)
        gs_table_set_number(t, C_GBS, gbs, 1);
    if (speedup > 0)
        gs_table_set_number(t, C_SPEEDUP, speedup, 2);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static gs_status sync_all(gs_multi_t m)
{
    for (int r = 0; r < gs_multi_size(m); ++r) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
        GS_CUDA_TRY(cudaStreamSynchronize(gs_multi_stream(m, r)));
    }
    return GS_SUCCESS;
}

static gs_status time_p2p(gs_multi_t m, int blocks, const gs_bench_multi_opts *o, double *us)
{
    gs_multi_barrier_t bar;
    GS_TRY(gs_multi_barrier_create(m, &bar));
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][2], **args[GS_MULTI_MAX_GPUS];
    int iters = o->iterations;
    gs_status st = GS_SUCCESS;
    for (int r = 0; r < gs_multi_size(m) && st == GS_SUCCESS; ++r) {
        st = gs_multi_barrier_device(bar, r, (unsigned int)blocks, &views[r]);
        argv[r][0] = &views[r];
        argv[r][1] = &iters;
        args[r] = argv[r];
    }
    std::vector<double> samples;
    for (int s = -1; s < o->samples && st == GS_SUCCESS; ++s) { /* s = -1: warm-up */
        double t0 = now_us();
        st = gs_multi_launch(bar, (const void *)meet, dim3(blocks), dim3(256), 0, args);
        if (st == GS_SUCCESS)
            st = gs_multi_barrier_check(bar);
        if (s >= 0)
            samples.push_back((now_us() - t0) / iters);
    }
    gs_multi_barrier_destroy(bar);
    if (st == GS_SUCCESS)
        *us = median(samples);
    return st;
}

static gs_status time_nccl(gs_multi_t m, ncclComm_t *comms, float **words,
                           const gs_bench_multi_opts *o, double *us)
{
    std::vector<double> samples;
    for (int s = -1; s < o->samples; ++s) {
        double t0 = now_us();
        for (int i = 0; i < o->iterations; ++i) {
            if (ncclGroupStart() != ncclSuccess)
                return gs__fail(GS_ERR_CUDA, "ncclGroupStart failed");
            for (int r = 0; r < gs_multi_size(m); ++r)
                if (ncclAllReduce(words[r], words[r], 1, ncclFloat32, ncclSum, comms[r],
                                  gs_multi_stream(m, r)) != ncclSuccess)
                    return gs__fail(GS_ERR_CUDA, "ncclAllReduce failed");
            if (ncclGroupEnd() != ncclSuccess)
                return gs__fail(GS_ERR_CUDA, "ncclGroupEnd failed");
        }
        GS_TRY(sync_all(m));
        if (s >= 0)
            samples.push_back((now_us() - t0) / o->iterations);
    }
    *us = median(samples);
    return GS_SUCCESS;
}

static gs_status time_host_sync(gs_multi_t m, const gs_bench_multi_opts *o, double *us)
{
    std::vector<double> samples;
    int iters = o->iterations / 10 > 10 ? o->iterations / 10 : 10;
    for (int s = -1; s < o->samples; ++s) {
        double t0 = now_us();
        for (int i = 0; i < iters; ++i) {
            for (int r = 0; r < gs_multi_size(m); ++r) {
                GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
                empty_kernel<<<1, 32, 0, gs_multi_stream(m, r)>>>();
                GS_CUDA_TRY(cudaGetLastError());
            }
            GS_TRY(sync_all(m));
        }
        if (s >= 0)
            samples.push_back((now_us() - t0) / iters);
    }
    *us = median(samples);
    return GS_SUCCESS;
}

static __global__ void fill(float *x, long long n, unsigned int seed)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
        unsigned int h = (unsigned int)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 0x2c1b3c6du;
        x[i] = (float)(h & 0xffff) * (1.0f / 65536.0f) - 0.5f;
    }
}

static gs_status time_reduce(gs_multi_t m, float **in, long long n, const gs_bench_multi_opts *o,
                             double *one_us, double *all_us)
{
    std::vector<double> one, all;
    float result = 0.0f;
    const void *ins[GS_MULTI_MAX_GPUS];
    for (int r = 0; r < gs_multi_size(m); ++r)
        ins[r] = in[r];
    for (int s = -1; s < o->samples; ++s) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, 0)));
        double t0 = now_us();
        GS_TRY(gs_reduce_sum(GS_FLOAT32, in[0], n, &result, gs_multi_stream(m, 0)));
        double t1 = now_us();
        GS_TRY(gs_multi_reduce_sum(m, GS_FLOAT32, ins, n, &result));
        double t2 = now_us();
        if (s >= 0) {
            one.push_back(t1 - t0);
            all.push_back(t2 - t1);
        }
    }
    *one_us = median(one);
    *all_us = median(all);
    return GS_SUCCESS;
}

extern "C" gs_status gs_bench_multi(const gs_bench_multi_opts *o, gs_table **t)
{
    int count = 0;
    if (!o || !t || o->iterations < 1 || o->samples < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench multi: bad options");
    GS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (count < 2)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "bench multi needs 2 or more GPUs; found %d", count);
    count = count < GS_MULTI_MAX_GPUS ? count : GS_MULTI_MAX_GPUS;
    *t = gs_table_new("multi: GPUs meeting (us per barrier) and reducing together (2^28 floats "
                      "per GPU)",
                      NCOLS, columns);
    if (!*t)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "bench: out of host memory");
    int sms = 0;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    gs_progress prog;
    if (!o->quiet)
        gs_progress_begin(&prog, "multi", count - 1);
    gs_status st = GS_SUCCESS;
    const long long n = 1ll << 28;
    for (int g = 2; g <= count && st == GS_SUCCESS; ++g) {
        if (!o->quiet) {
            char what[32];
            snprintf(what, sizeof what, "%d GPUs", g);
            gs_progress_step(&prog, g - 2, what);
        }
        int devices[GS_MULTI_MAX_GPUS];
        for (int i = 0; i < g; ++i)
            devices[i] = i;
        gs_multi_t m;
        GS_TRY(gs_multi_create(&m, g, devices));
        ncclComm_t comms[GS_MULTI_MAX_GPUS] = {0};
        float *words[GS_MULTI_MAX_GPUS] = {0}, *in[GS_MULTI_MAX_GPUS] = {0};
        if (ncclCommInitAll(comms, g, devices) != ncclSuccess)
            st = gs__fail(GS_ERR_CUDA, "ncclCommInitAll failed");
        for (int r = 0; r < g && st == GS_SUCCESS; ++r) {
            cudaError_t err = cudaSetDevice(devices[r]);
            if (err == cudaSuccess)
                err = cudaMalloc((void **)&words[r], 4);
            if (err == cudaSuccess)
                err = cudaMalloc((void **)&in[r], (size_t)n * 4);
            if (err == cudaSuccess) {
                fill<<<1024, 256>>>(in[r], n, 17u + (unsigned int)r);
                err = cudaDeviceSynchronize();
            }
            if (err != cudaSuccess)
                st = gs__cuda_fail(err, "bench multi: buffers", __FILE__, __LINE__);
        }
        double us = 0.0, nccl_us = 0.0, host_us = 0.0;
        if (st == GS_SUCCESS)
            st = time_nccl(m, comms, words, o, &nccl_us);
        if (st == GS_SUCCESS)
            st = time_host_sync(m, o, &host_us);
        const int grids[2] = {1, sms};
        for (int i = 0; i < 2 && st == GS_SUCCESS; ++i) {
            st = time_p2p(m, grids[i], o, &us);
            if (st == GS_SUCCESS)
                add_row(*t, g, "barrier", "gridsync p2p", grids[i], us, 0, nccl_us / us);
        }
        for (int i = 0; i < 2 && st == GS_SUCCESS; ++i) {
            gs_status lst = gs__time_nccl_lsa_barrier(m, comms, grids[i], o->iterations,
                                                      o->samples, &us);
            if (lst == GS_SUCCESS)
                add_row(*t, g, "barrier", "nccl lsa barrier (device API)", grids[i], us, 0,
                        nccl_us / us);
            else if (lst == GS_ERR_NOT_SUPPORTED || lst == GS_ERR_NOT_CORESIDENT)
                fprintf(stderr, "gridsync: bench multi: NCCL device-API barrier at %d blocks "
                                "skipped: %s\n", grids[i], gs_last_error_detail());
            else
                st = lst;
        }
        if (st == GS_SUCCESS) {
            add_row(*t, g, "barrier", "nccl allreduce 1 word", 0, nccl_us, 0, 1.0);
            add_row(*t, g, "barrier", "host stream sync", 0, host_us, 0, nccl_us / host_us);
        }
        double one = 0, all = 0;
        if (st == GS_SUCCESS)
            st = time_reduce(m, in, n, o, &one, &all);
        if (st == GS_SUCCESS) {
            add_row(*t, g, "reduce 2^28/GPU", "gs_reduce_sum, 1 GPU", 0, one, n * 4.0 / one / 1e3,
                    1.0);
            add_row(*t, g, "reduce 2^28/GPU", "gs_multi_reduce_sum", 0, all,
                    g * n * 4.0 / all / 1e3, (g * n * 4.0 / all) / (n * 4.0 / one));
        }
        for (int r = 0; r < g; ++r) {
            cudaSetDevice(devices[r]);
            cudaFree(words[r]);
            cudaFree(in[r]);
            if (comms[r])
                ncclCommDestroy(comms[r]);
        }
        gs_multi_destroy(m);
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    return st;
}
