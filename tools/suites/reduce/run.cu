/*
 * run.cu - `gridsync bench reduce` and `gridsync bench dot`: time
 * per call and bandwidth of gridsync's single-pass reduction and dot product
 * next to CUB DeviceReduce, cuBLAS Sdot/Ddot and the tutorials' own kernels
 * (docs/tutorials.md: the __threadfence() tutorial's single-pass sum; CUDA
 * by Example's dot, 32 blocks whose partial sums the host adds), all
 * measured in the same run.
 *
 * Method: back-to-back calls on one stream, timed with events; inputs that
 * fit in L2 rotate through a pool four times the L2 size so that the numbers
 * are not L2 numbers; random inputs (never zeros). Bandwidth = bytes read /
 * time; reported as a fraction of a device-to-device copy measured in the
 * same run (read + write) and of the datasheet figure.
 *
 * Their descriptions (columns, plots, README table, reading): describe.c.
 */
#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>

#include <gridsync/barrier.cuh>
#include <gridsync/reduce.cuh>

#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"
#include "harness/fill.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"
#include "suites/reduce/methods.h"

/* -------------------------------------------------------- the tutorials */

/* The __threadfence() tutorial's single-pass sum, as written (with the
 * reduction it leaves out filled in by the __syncthreads() tutorial's
 * shared-memory tree, and its one bug of omission, the fence on the reading
 * side, left as the tutorial has it: it is the baseline). */
static __device__ unsigned int threadfence_count = 0;

static __global__ void threadfence_single_pass_sum(const float *array, unsigned int n, float *result)
{
    __shared__ float cache[256];
    __shared__ bool is_last_block_done;
    float s = 0.0f;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += array[i];
    cache[threadIdx.x] = s;
    __syncthreads();
    for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h)
            cache[threadIdx.x] += cache[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        result[blockIdx.x] = cache[0];
        __threadfence();
        unsigned int value = atomicInc(&threadfence_count, gridDim.x);
        is_last_block_done = value == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last_block_done) {
        float t = 0.0f;
        for (unsigned int i = threadIdx.x; i < gridDim.x; i += blockDim.x)
            t += ((volatile float *)result)[i];
        cache[threadIdx.x] = t;
        __syncthreads();
        for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {
            if (threadIdx.x < h)
                cache[threadIdx.x] += cache[threadIdx.x + h];
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            result[0] = cache[0];
            threadfence_count = 0;
        }
    }
}

/* CUDA by Example's dot: 32 blocks of 256 threads, block sums. */
static __global__ void tutorial_dot(const float *a, const float *b, float *c, int n)
{
    __shared__ float cache[256];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    float temp = 0.0f;
    while (tid < n) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    cache[threadIdx.x] = temp;
    __syncthreads();
    for (int i = blockDim.x / 2; i != 0; i /= 2) {
        if (threadIdx.x < i)
            cache[threadIdx.x] += cache[threadIdx.x + i];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        c[blockIdx.x] = cache[0];
}

/*
 * The grid-barrier variant, measured beside the single pass: a persistent,
 * co-resident grid; each block folds its grid-stride slice (16-byte loads)
 * and publishes a partial, a grid barrier (gs_grid_sync_tree) orders every
 * partial before block 0 folds them in index order. No ticket, but the grid
 * must be co-resident and every block waits for the slowest.
 */
static __global__ void __launch_bounds__(256) grid_barrier_sum(gs_grid_barrier bar,
                                                               const float *in, long long n,
                                                               float *partials, float *out)
{
    __shared__ float smem[32];
    long long stride = (long long)gridDim.x * blockDim.x;
    long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long nv = ((unsigned long long)in & 15ull) == 0ull ? n / 4 : 0;
    const float4 *v = (const float4 *)in;
    float a0 = 0.0f, a1 = 0.0f;
    for (long long i = first; i < nv; i += stride) {
        float4 x = v[i];
        a0 += (x.x + x.y) + (x.z + x.w);
    }
    for (long long i = nv * 4 + first; i < n; i += stride)
        a1 += in[i];
    float r = gs_block_reduce_sum_f32(a0 + a1, smem);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = r;
    gs_grid_sync_tree(&bar);
    if (blockIdx.x != 0)
        return;
    float a = 0.0f;
    for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        a += partials[j];
    r = gs_block_reduce_sum_f32(a, smem);
    if (threadIdx.x == 0)
        *out = r;
}

/* ---------------------------------------------------------- the harness */

enum method {
    M_GS_SUM, M_GS_MIN, M_GS_MAX, M_CUB_SUM, M_CUB_MIN, M_CUB_MAX, M_TUTORIAL_SUM,
    M_GS_GRID_BARRIER, M_GS_DOT, M_CUBLAS_DOT, M_TUTORIAL_DOT
};

typedef struct run {
    enum method m;
    long long n;
    float *pool;         /* input(s), rotated */
    long long pool_elems;
    long long offset;    /* next input's start */
    int inputs;          /* 1 (reduce) or 2 (dot) */
    float *out;          /* device result(s) */
    void *cub_temp;
    size_t cub_bytes;
    cublasHandle_t blas;
    float *partials; /* device, 32 or more */
    int calls;           /* calls per sample */
    gs_barrier_t bar;    /* the grid-barrier variant's barrier */
    int bar_blocks;      /* its grid: co-resident, at most one block per 4096 elements */
    int bar_blocks_max;  /* the co-resident maximum (and the partials' room) */
} run;

static const float *next_input(run *r)
{
    long long need = r->n * r->inputs;
    if (r->offset + need > r->pool_elems)
        r->offset = 0;
    const float *p = r->pool + r->offset;
    r->offset += need;
    return p;
}

static gs_status one_call(void *p, cudaStream_t s)
{
    run *r = (run *)p;
    const float *x = next_input(r), *y = x + r->n;
    int n32 = (int)r->n;
    switch (r->m) {
    case M_GS_SUM: return gs_reduce_sum(GS_FLOAT32, x, r->n, r->out, s);
    case M_GS_MIN: return gs_reduce_min(GS_FLOAT32, x, r->n, r->out, s);
    case M_GS_MAX: return gs_reduce_max(GS_FLOAT32, x, r->n, r->out, s);
    case M_CUB_SUM:
        GS_CUDA_TRY(cub::DeviceReduce::Sum(r->cub_temp, r->cub_bytes, x, r->out, n32, s));
        return GS_SUCCESS;
    case M_CUB_MIN:
        GS_CUDA_TRY(cub::DeviceReduce::Min(r->cub_temp, r->cub_bytes, x, r->out, n32, s));
        return GS_SUCCESS;
    case M_CUB_MAX:
        GS_CUDA_TRY(cub::DeviceReduce::Max(r->cub_temp, r->cub_bytes, x, r->out, n32, s));
        return GS_SUCCESS;
    case M_TUTORIAL_SUM: {
        int blocks = (int)((r->n + 255) / 256 < 1024 ? (r->n + 255) / 256 : 1024);
        threadfence_single_pass_sum<<<blocks < 1 ? 1 : blocks, 256, 0, s>>>(x, (unsigned int)r->n,
                                                            r->partials);
        GS_CUDA_TRY(cudaGetLastError());
        return GS_SUCCESS;
    }
    case M_GS_GRID_BARRIER: {
        gs_grid_barrier view;
        long long n = r->n;
        GS_TRY(gs_barrier_device(r->bar, (unsigned int)r->bar_blocks, &view));
        void *args[] = {&view, (void *)&x, &n, &r->partials, &r->out};
        return gs_launch((const void *)grid_barrier_sum, dim3(r->bar_blocks), dim3(256), 0, s,
                         args, r->bar);
    }
    case M_GS_DOT: return gs_dot(GS_FLOAT32, x, y, r->n, r->out, s);
    case M_CUBLAS_DOT:
        if (cublasSetStream(r->blas, s) != CUBLAS_STATUS_SUCCESS ||
            cublasSdot(r->blas, n32, x, 1, y, 1, r->out) != CUBLAS_STATUS_SUCCESS)
            return gs__fail(GS_ERR_CUDA, "cublasSdot failed");
        return GS_SUCCESS;
    case M_TUTORIAL_DOT: {
        float partial[32], sum = 0.0f;
        tutorial_dot<<<32, 256, 0, s>>>(x, y, r->partials, n32);
        GS_CUDA_TRY(cudaGetLastError());
        GS_CUDA_TRY(cudaMemcpyAsync(partial, r->partials, sizeof partial,
                                    cudaMemcpyDeviceToHost, s));
        GS_CUDA_TRY(cudaStreamSynchronize(s));
        for (int i = 0; i < 32; ++i)
            sum += partial[i];
        (void)sum;
        return GS_SUCCESS;
    }
    }
    return gs__fail(GS_ERR_INTERNAL, "bench reduce: unknown method");
}

/* A device-to-device copy of the first half of the pool to the second. */
typedef struct copy_job {
    const float *from;
    float *to;
    size_t bytes;
} copy_job;

static gs_status enqueue_copy(void *p, cudaStream_t s)
{
    const copy_job *c = (const copy_job *)p;
    GS_CUDA_TRY(cudaMemcpyAsync(c->to, c->from, c->bytes, cudaMemcpyDeviceToDevice, s));
    return GS_SUCCESS;
}

/* Device-to-device copy bandwidth (read + write), GB/s: the fastest of 5
 * copies after one untimed. */
static gs_status copy_bandwidth(float *a, float *b, size_t bytes, cudaStream_t s, double *gbs)
{
    copy_job job = {a, b, bytes};
    gs_timing_plan plan = {1, 5, 0, NULL}; /* fixed: the fastest of 5, hot */
    gs_stats st;
    GS_TRY(gs_time_work(enqueue_copy, &job, s, &plan, &st));
    *gbs = 2.0 * (double)bytes / (st.min * 1e-6) / 1e9;
    return GS_SUCCESS;
}


typedef struct suite_def {
    const char *name;
    int inputs;
    int nrows;
    const char *op[4];
    enum method ours[4], peer[4], tutorial[4]; /* tutorial: only row 0 (sum, dot) */
    const char *ours_name, *peer_name, *tutorial_name;
    int has_variant;                       /* row 0 also: the grid-barrier variant */
} suite_def;

static const suite_def reduce_suite = {
    "reduce", 1, 3,
    {"sum", "min", "max"},
    {M_GS_SUM, M_GS_MIN, M_GS_MAX}, {M_CUB_SUM, M_CUB_MIN, M_CUB_MAX}, {M_TUTORIAL_SUM},
    "gridsync", "cub", TUTORIAL_SUM, 1};
static const suite_def dot_suite = {
    "dot", 2, 1, {"dot"},
    {M_GS_DOT}, {M_CUBLAS_DOT}, {M_TUTORIAL_DOT}, "gridsync", "cublas", TUTORIAL_DOT, 0};

static void add_row(gs_table *t, const char *op, long long n, const char *method,
                    const gs_stats *st, double bytes, double copy_gbs, double spec_gbs,
                    double peer_us)
{
    double us = st->median, gbs = bytes / (us * 1e-6) / 1e9;
    gs_table_add_row(t);
    gs_row_text(t, "op", op);
    gs_row_value(t, "n", (double)n);
    gs_row_text(t, "method", method);
    gs_row_measured(t, "us_per_call", st, 1.0);
    gs_row_value(t, "gb_per_s", gbs);
    gs_row_value(t, "frac_copy_bw", gbs / copy_gbs);
    gs_row_value(t, "frac_spec_bw", gbs / spec_gbs);
    gs_row_value(t, "speedup_vs_peer", peer_us / us);
}

static gs_status time_method(run *r, enum method m, const gs_bench_params *o,
                             cudaStream_t s, gs_stats *us)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    r->m = m;
    return gs_time_calls_stats(one_call, r, r->calls, s, &plan, us);
}

static gs_status bench_suite(const suite_def *def, const gs_bench_params *o, gs_table *t)
{
    gs_device_info info;
    int dev = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs_device_query(dev, &info));
    size_t free_b = 0, total_b = 0;
    GS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));

    cudaStream_t s;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    run r = {};
    r.inputs = def->inputs;
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaMalloc((void **)&r.out, 64);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&r.partials, 1024 * sizeof(float));
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMalloc(bench outputs)", __FILE__, __LINE__);
    if (st == GS_SUCCESS && def->peer[0] == M_CUBLAS_DOT &&
        cublasCreate(&r.blas) != CUBLAS_STATUS_SUCCESS)
        st = gs__fail(GS_ERR_CUDA, "cublasCreate failed");
    if (r.blas)
        cublasSetPointerMode(r.blas, CUBLAS_POINTER_MODE_DEVICE);
    if (st == GS_SUCCESS && def->has_variant) {
        st = gs_barrier_create(&r.bar, GS_BARRIER_TREE);
        if (st == GS_SUCCESS)
            st = gs_max_coresident_blocks((const void *)grid_barrier_sum, 256, 0,
                                          &r.bar_blocks_max);
        if (r.bar_blocks_max > 1024) /* partials holds 1024 */
            r.bar_blocks_max = 1024;
    }

    gs_progress prog;
    gs_progress_begin(&prog, def->name, o->sizes.count);
    double copy_gbs = 0.0;
    for (int k = 0; k < o->sizes.count && st == GS_SUCCESS; ++k) {
        long long n = 1ll << o->sizes.log2[k];
        size_t in_bytes = (size_t)n * sizeof(float) * def->inputs;
        size_t pool_bytes = in_bytes < 4u * (size_t)info.l2_bytes ? 4u * (size_t)info.l2_bytes
                                                                   : in_bytes;
        if (n > 0x7fffffffll || pool_bytes + (64u << 20) > free_b) {
            fprintf(stderr, "[%s] stopping at n = 2^%d: %s\n", def->name, o->sizes.log2[k],
                    n > 0x7fffffffll ? "CUB and cuBLAS take 32-bit lengths" : "device memory");
            break;
        }
        if (!o->quiet) {
            char what[64];
            snprintf(what, sizeof what, "n = 2^%d", o->sizes.log2[k]);
            gs_progress_step(&prog, k, what);
        }
        err = cudaMalloc((void **)&r.pool, pool_bytes);
        if (err != cudaSuccess) {
            st = gs__cuda_fail(err, "cudaMalloc(bench input pool)", __FILE__, __LINE__);
            break;
        }
        r.pool_elems = (long long)(pool_bytes / sizeof(float));
        r.offset = 0;
        r.n = n;
        r.calls = n <= (1ll << 22) ? 20 : n <= (1ll << 26) ? 5 : 1;
        st = gs_fill_uniform(r.pool, r.pool_elems, -0.5f, 0.5f, 12345u + (unsigned int)k, s);
        if (st == GS_SUCCESS && (k == 0 || copy_gbs == 0.0)) {
            /* the copy figure: half the pool, at least twice the L2 */
            size_t half = pool_bytes / 2 < (512u << 20) ? pool_bytes / 2 : (512u << 20);
            st = copy_bandwidth(r.pool, r.pool + half / sizeof(float), half, s, &copy_gbs);
        }
        r.cub_bytes = 0;
        r.cub_temp = NULL;
        if (st == GS_SUCCESS && def->peer[0] == M_CUB_SUM) {
            cub::DeviceReduce::Sum(NULL, r.cub_bytes, r.pool, r.out, (int)n, s);
            size_t mn = 0, mx = 0;
            cub::DeviceReduce::Min(NULL, mn, r.pool, r.out, (int)n, s);
            cub::DeviceReduce::Max(NULL, mx, r.pool, r.out, (int)n, s);
            r.cub_bytes = r.cub_bytes > mn ? r.cub_bytes : mn;
            r.cub_bytes = r.cub_bytes > mx ? r.cub_bytes : mx;
            err = cudaMalloc(&r.cub_temp, r.cub_bytes ? r.cub_bytes : 1);
            if (err != cudaSuccess)
                st = gs__cuda_fail(err, "cudaMalloc(CUB temp)", __FILE__, __LINE__);
        }
        for (int row = 0; row < def->nrows && st == GS_SUCCESS; ++row) {
            gs_stats ours = {}, peer = {}, tutorial = {};
            st = time_method(&r, def->ours[row], o, s, &ours);
            if (st == GS_SUCCESS)
                st = time_method(&r, def->peer[row], o, s, &peer);
            if (st == GS_SUCCESS && row == 0)
                st = time_method(&r, def->tutorial[0], o, s, &tutorial);
            if (st != GS_SUCCESS)
                break;
            add_row(t, def->op[row], n, def->ours_name, &ours, (double)in_bytes, copy_gbs,
                    info.mem_bandwidth_gbs, peer.median);
            add_row(t, def->op[row], n, def->peer_name, &peer, (double)in_bytes, copy_gbs,
                    info.mem_bandwidth_gbs, peer.median);
            if (row == 0)
                add_row(t, def->op[row], n, def->tutorial_name, &tutorial, (double)in_bytes,
                        copy_gbs, info.mem_bandwidth_gbs, peer.median);
            if (row == 0 && def->has_variant) {
                gs_stats variant = {};
                long long want = (n + 4095) / 4096;
                r.bar_blocks = (int)(want < r.bar_blocks_max ? (want < 1 ? 1 : want)
                                                             : r.bar_blocks_max);
                st = time_method(&r, M_GS_GRID_BARRIER, o, s, &variant);
                if (st == GS_SUCCESS)
                    st = gs_barrier_check(r.bar, s);
                if (st != GS_SUCCESS)
                    break;
                add_row(t, def->op[row], n, "gridsync grid-barrier", &variant, (double)in_bytes,
                        copy_gbs, info.mem_bandwidth_gbs, peer.median);
            }
        }
        cudaFree(r.cub_temp);
        cudaFree(r.pool);
        r.pool = NULL;
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    if (st == GS_SUCCESS) {
        gs_table_add_row(t);
        gs_row_text(t, "op", "copy");
        gs_row_text(t, "method", COPY_ROW);
        gs_row_value(t, "gb_per_s", copy_gbs);
        gs_row_value(t, "frac_copy_bw", 1.0);
        gs_row_value(t, "frac_spec_bw", copy_gbs / info.mem_bandwidth_gbs);
    }
    if (r.blas)
        cublasDestroy(r.blas);
    if (r.bar)
        gs_barrier_destroy(r.bar);
    cudaFree(r.out);
    cudaFree(r.partials);
    cudaStreamDestroy(s);
    return st;
}

static gs_status run_suite(const suite_def *def, const gs_bench_params *o, gs_table *t)
{
    if (o->sizes.count < 1 || o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench %s: bad options", def->name);
    return bench_suite(def, o, t);
}

static gs_status run_reduce(const gs_bench_params *o, gs_table *t)
{
    return run_suite(&reduce_suite, o, t);
}

static gs_status run_dot(const gs_bench_params *o, gs_table *t)
{
    return run_suite(&dot_suite, o, t);
}

extern "C" const gs_bench_runner gs_runner_reduce = {run_reduce, NULL};

extern "C" const gs_bench_runner gs_runner_dot = {run_dot, NULL};
