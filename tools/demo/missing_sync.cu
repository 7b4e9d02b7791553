/*
 * missing_sync.cu - the __syncthreads() tutorial's block reduction
 * (sumWithinBlock; docs/tutorials.md), with and
 * without its barriers.
 *
 * How: each 256-thread block loads one element per thread into shared
 * memory and halves the active threads each level, thread t adding slot
 * t + s into slot t; thread 0 writes the block's sum.
 * Why the barriers: after the load, thread t + s's slot was written by
 * another thread (another warp when s >= 32); after each level, the next
 * level reads slots this level wrote. Without them, a warp can read a slot
 * before its writer has stored it: partial sums are lost or counted from
 * stale values. Within one warp, lanes run in lockstep only by accident
 * (independent thread scheduling, Volta onwards), so even s < 32 is a race.
 * The tiled matrix-multiply tutorial's 16x16 kernel without barriers is
 * tiled16's nosync twin
 * (src/gemm/tiled16.cu).
 */
#include <gridsync/detail/gemm/sgemm_tiled16.cuh>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gridsync_internal.h"
#include "testing/random.h"
#include "testing/reference.h"
#include "common/spawn.h"
#include "demo/demo.h"

static gs_rng rng = {0x9e3779b97f4a7c15ull};

#define GS__BLOCK_SUM_KERNEL(name, SYNC)                                                    \
    static __global__ void __launch_bounds__(256) name(const float *input, float *output, int n) \
    {                                                                                       \
        __shared__ float shared_data[256];                                                  \
        int tid = threadIdx.x;                                                              \
        int global_id = blockIdx.x * blockDim.x + threadIdx.x;                              \
        shared_data[tid] = global_id < n ? input[global_id] : 0.0f;                         \
        SYNC; /* every load -> the first level's reads */                                   \
        for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {                             \
            if (tid < s)                                                                    \
                shared_data[tid] += shared_data[tid + s];                                   \
            SYNC; /* this level's writes -> the next level's reads */                       \
        }                                                                                   \
        if (tid == 0)                                                                       \
            output[blockIdx.x] = shared_data[0];                                            \
    }

GS__BLOCK_SUM_KERNEL(block_sum_sync, __syncthreads())
GS__BLOCK_SUM_KERNEL(block_sum_nosync, (void)0)

/* Block sums of 256-thread blocks over n floats (device pointer `in`): the
 * tutorial's shared-memory tree with its barriers (`sync` = 1) or without. Host
 * `sums` receives ceil(n / 256) values. */
static gs_status block_sums(int sync, const float *in, int n, float *sums)
{
    int blocks = (n + 255) / 256;
    float *d = NULL;
    if (n < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "block sums: n must be >= 1");
    GS_CUDA_TRY(cudaMalloc((void **)&d, (size_t)blocks * sizeof(float)));
    if (sync)
        block_sum_sync<<<blocks, 256>>>(in, d, n);
    else
        block_sum_nosync<<<blocks, 256>>>(in, d, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(sums, d, (size_t)blocks * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "block_sum<<<>>>", __FILE__, __LINE__);
    return GS_SUCCESS;
}

/* Block sums: wrong blocks (beyond the FP32 bound) against FP64. */
static gs_status block_sums_run(int sync, const float *h_in, const float *d_in, int n,
                                long *wrong, double *worst)
{
    int blocks = (n + 255) / 256;
    float *sums = (float *)malloc((size_t)blocks * sizeof(float));
    if (!sums)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    gs_status st = block_sums(sync, d_in, n, sums);
    *wrong = 0;
    *worst = 0.0;
    for (int b = 0; st == GS_SUCCESS && b < blocks; ++b) {
        gs_ref_reduction ref;
        gs_ref_reduce(GS_REDUCE_SUM, GS_FLOAT32, h_in + b * 256,
                      n - b * 256 < 256 ? n - b * 256 : 256, &ref);
        double err = fabs((double)sums[b] - ref.value), bound = ref.bound, mag = ref.magnitude;
        if (!(err <= bound)) {
            ++*wrong;
            if (err / (mag > 0 ? mag : 1) > *worst || isnan(err))
                *worst = isnan(err) ? INFINITY : err / (mag > 0 ? mag : 1);
        }
    }
    free(sums);
    return st;
}

/* The tutorial's 16x16 tiled kernel with its barriers (the library's) or
 * without them: its broken twin, instantiated here from the library's
 * template (the library itself only ever instantiates it with them). */
static gs_status tiled16(int sync, const gs__sgemm_args *p)
{
    if (!sync) {
        const unsigned int tile = GS_TUNE_SGEMM_TILED16_TILE;
        dim3 grid((unsigned int)(p->n + tile - 1) / tile, (unsigned int)(p->m + tile - 1) / tile);
        gs::detail::sgemm_tiled16<false, gs__sgemm_args><<<grid, dim3(tile, tile)>>>(*p);
        GS_CUDA_TRY(cudaGetLastError());
        return GS_SUCCESS;
    }
    return gs_sgemm_with(GS_GEMM_TILED16, p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb,
                         p->beta, p->c, p->ldc, 0);
}

/* Tiled multiply: elements beyond the FP32 bound against FP64. */
static gs_status gemm_run(int sync, const float *ha, const float *hb, const gs__sgemm_args *p,
                          long *wrong)
{
    int n = p->m;
    float *c = (float *)malloc((size_t)n * n * sizeof(float));
    if (!c)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    gs_status st = tiled16(sync, p);
    if (st == GS_SUCCESS) {
        cudaError_t err =
            cudaMemcpy(c, p->c, (size_t)n * n * sizeof(float), cudaMemcpyDeviceToHost);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMemcpy(C)", __FILE__, __LINE__);
    }
    *wrong = st == GS_SUCCESS ? gs_ref_sgemm_out_of_bound(ha, hb, c, n, n, n) : 0;
    free(c);
    return st;
}

/* The "RACECHECK SUMMARY: N" of compute-sanitizer run as `argv` (no shell),
 * its stdout and stderr read through a pipe; -1 without a verdict. */
static long sanitizer_verdict(const char *const argv[])
{
    int fds[2];
    char line[512];
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    pid_t pid = gs_spawn(argv[0], argv, NULL, fds[1], fds[1]);
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    if (!f)
        close(fds[0]);
    long hazards = -1;
    while (f && fgets(line, sizeof line, f)) {
        const char *s = strstr(line, "RACECHECK SUMMARY: ");
        if (s)
            hazards = strtol(s + 19, NULL, 10);
    }
    if (f)
        fclose(f);
    if (pid > 0)
        gs_spawn_wait(pid);
    return hazards;
}

/* The racecheck verdict on one kernel: runs this program under
 * compute-sanitizer (from PATH, else the CUDA default) with the internal
 * --once option. -1 if unavailable. */
static long racecheck_hazards(const char *kernel, long device)
{
    char self[1024], tool[1024], dev[24];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return -1;
    self[len] = '\0';
    snprintf(dev, sizeof dev, "%ld", device);
    for (int c = 0; c < 2; ++c) {
        if (gs_find_program(c == 0 ? "compute-sanitizer" : "/usr/local/cuda/bin/compute-sanitizer",
                            tool, sizeof tool) != 0)
            continue;
        const char *const argv[] = {tool, "--tool", "racecheck", self, "demo", "missing-sync",
                                    "--device", dev, "--once", kernel, NULL};
        long hazards = sanitizer_verdict(argv);
        if (hazards >= 0)
            return hazards;
    }
    return -1;
}

/* --once KERNEL: run one kernel once (what racecheck_hazards inspects). */
static gs_status run_once(const char *kernel)
{
    const int n = 64;
    float *d = NULL;
    GS_CUDA_TRY(cudaMalloc((void **)&d, 3u * n * n * sizeof(float)));
    GS_CUDA_TRY(cudaMemset(d, 0x3c, 3u * n * n * sizeof(float)));
    gs__sgemm_args p = {n, n, n, 1.0f, d, n, d + n * n, n, 0.0f, d + 2 * n * n, n};
    float sums[16];
    gs_status st;
    if (strcmp(kernel, "reduce-sync") == 0 || strcmp(kernel, "reduce-nosync") == 0)
        st = block_sums(strcmp(kernel, "reduce-sync") == 0, d, 16 * 256, sums);
    else if (strcmp(kernel, "gemm-sync") == 0 || strcmp(kernel, "gemm-nosync") == 0)
        st = tiled16(strcmp(kernel, "gemm-sync") == 0, &p);
    else
        st = gs__fail(GS_ERR_INVALID_ARGUMENT, "--once: unknown kernel '%s'", kernel);
    if (st == GS_SUCCESS) {
        cudaError_t err = cudaDeviceSynchronize();
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaDeviceSynchronize", __FILE__, __LINE__);
    }
    cudaFree(d);
    return st;
}

static gs_status run_demo(const gs_demo_opts *o, const gs_device_info *dev, int *correct)
{
    const int n = 1 << 20, m = 192;
    float *h = (float *)malloc((size_t)n * sizeof(float)), *ha = (float *)malloc((size_t)m * m * 4),
          *hb = (float *)malloc((size_t)m * m * 4), *d = NULL, *dg = NULL;
    gs_status st = GS_SUCCESS;
    (void)dev;
    if (!h || !ha || !hb)
        st = gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    cudaError_t err = cudaSuccess;
    if (st == GS_SUCCESS) {
        err = cudaMalloc((void **)&d, (size_t)n * sizeof(float));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&dg, 3u * m * m * sizeof(float));
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMalloc", __FILE__, __LINE__);
    }
    printf("missing-sync: the __syncthreads() tutorial's block reduction (256 threads,\n"
           "shared-memory tree) and the tiled matrix-multiply tutorial's 16x16 kernel\n"
           "(docs/tutorials.md), each with its barriers and without, %ld runs on fresh\n"
           "random data, checked against FP64 on the CPU with the FP32 error bound\n"
           "(n*eps*sum|x|).\n\n",
           o->runs);
    for (int sync = 1; sync >= 0 && st == GS_SUCCESS; --sync) {
        long wrong_runs = 0, worst_blocks = 0, worst_elems = 0, gemm_wrong_runs = 0;
        double worst_rel = 0.0;
        for (long r = 0; r < o->runs && st == GS_SUCCESS; ++r) {
            gs_rng_fill(&rng, h, (size_t)n);
            gs_rng_fill(&rng, ha, (size_t)m * m);
            gs_rng_fill(&rng, hb, (size_t)m * m);
            err = cudaMemcpy(d, h, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
            if (err == cudaSuccess)
                err = cudaMemcpy(dg, ha, (size_t)m * m * 4, cudaMemcpyHostToDevice);
            if (err == cudaSuccess)
                err = cudaMemcpy(dg + m * m, hb, (size_t)m * m * 4, cudaMemcpyHostToDevice);
            if (err != cudaSuccess) {
                st = gs__cuda_fail(err, "cudaMemcpy", __FILE__, __LINE__);
                break;
            }
            long wrong = 0, wrong_elems = 0;
            double rel = 0.0;
            st = block_sums_run(sync, h, d, n, &wrong, &rel);
            gs__sgemm_args p = {m, m, m, 1.0f, dg, m, dg + m * m, m, 0.0f, dg + 2 * m * m, m};
            if (st == GS_SUCCESS)
                st = gemm_run(sync, ha, hb, &p, &wrong_elems);
            wrong_runs += wrong != 0;
            worst_blocks = wrong > worst_blocks ? wrong : worst_blocks;
            worst_rel = rel > worst_rel ? rel : worst_rel;
            gemm_wrong_runs += wrong_elems != 0;
            worst_elems = wrong_elems > worst_elems ? wrong_elems : worst_elems;
        }
        if (st != GS_SUCCESS)
            break;
        const char *what = sync ? "with barriers" : "without barriers";
        printf("  reduction %-17s %ld of %ld runs wrong; at most %ld of %d block sums wrong",
               what, wrong_runs, o->runs, worst_blocks, n / 256);
        if (worst_blocks)
            printf(" (worst error %.3g of sum|x|)", worst_rel);
        printf("\n  matmul    %-17s %ld of %ld runs wrong; at most %ld of %d elements wrong\n",
               what, gemm_wrong_runs, o->runs, worst_elems, m * m);
        if (sync && (wrong_runs || gemm_wrong_runs)) {
            printf("  the correct versions are wrong: FAIL\n");
            *correct = 0;
        }
    }
    if (st == GS_SUCCESS) {
        printf("\n  compute-sanitizer racecheck (shared-memory hazards per kernel):\n");
        const char *kernels[] = {"reduce-sync", "reduce-nosync", "gemm-sync", "gemm-nosync"};
        for (int k = 0; k < 4; ++k) {
            long hz = racecheck_hazards(kernels[k], o->device);
            if (hz < 0) {
                printf("    compute-sanitizer not found or no verdict: skipped\n");
                break;
            }
            printf("    %-14s %ld hazards\n", kernels[k], hz);
        }
    }
    printf("\nmeaning: each barrier orders one set of shared-memory writes before reads by\n"
           "other threads. Without them the result depends on timing: it may be right on\n"
           "one run and wrong on the next. racecheck sees the hazard whether or not a run\n"
           "happened to lose it.\n");
    free(h);
    free(ha);
    free(hb);
    cudaFree(d);
    cudaFree(dg);
    return st;
}

extern "C" const gs_demo gs_demo_missing_sync = {
    "missing-sync",
    "the __syncthreads() tutorial's block reduction and the tiled matrix-multiply tutorial's "
    "16x16 kernel without their barriers; errors, and racecheck's verdict",
    10, 0, run_demo, run_once};

