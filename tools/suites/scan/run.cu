/*
 * run.cu - `gridsync bench scan`: time per call and bandwidth of
 * gridsync's single-pass prefix sum (gs_scan, float32, inclusive and
 * exclusive) next to CUB DeviceScan::InclusiveSum / ExclusiveSum and a
 * device-to-device copy of the same bytes, all measured in the same run.
 *
 * Method: back-to-back calls on one stream, timed with events (the median
 * of the samples, per call). CUB's temporary storage is allocated once per
 * length, outside the timing; a CUB call is the two launches it makes (its
 * descriptors are cleared by a kernel of their own). Inputs and outputs that
 * fit in L2 rotate through pools four times the L2 size, so that the
 * numbers are not L2 numbers; the input is random (never zeros). Before
 * the timing, gridsync's result is checked against CUB's on the GPU (no row
 * times a wrong result). Bandwidth counts read + write: 8 bytes per
 * element; a scan's ideal is the copy's speed, reported as a fraction.
 *
 * Its description (columns, plots, README table, reading): describe.c.
 */
#include <cub/device/device_scan.cuh>

#include <stdio.h>

#include "gridsync_internal.h"
#include "harness/compare.h"
#include "harness/fill.h"
#include "harness/params.h"
#include "harness/progress.h"
#include "harness/timer.h"

enum method { M_GS_INCLUSIVE, M_GS_EXCLUSIVE, M_CUB_INCLUSIVE, M_CUB_EXCLUSIVE, M_COPY };

typedef struct run {
    enum method m;
    long long n;
    float *in_pool, *out_pool; /* rotated together: one offset */
    long long pool_elems;
    long long offset;
    void *cub_temp;
    size_t cub_bytes;
    int calls;
} run;

static gs_status one_call(void *p, cudaStream_t s)
{
    run *r = (run *)p;
    if (r->offset + r->n > r->pool_elems)
        r->offset = 0;
    const float *x = r->in_pool + r->offset;
    float *y = r->out_pool + r->offset;
    r->offset += r->n;
    int n32 = (int)r->n;
    switch (r->m) {
    case M_GS_INCLUSIVE: return gs_scan_inclusive_sum(GS_FLOAT32, x, y, r->n, s);
    case M_GS_EXCLUSIVE: return gs_scan_exclusive_sum(GS_FLOAT32, x, y, r->n, s);
    case M_CUB_INCLUSIVE:
        GS_CUDA_TRY(cub::DeviceScan::InclusiveSum(r->cub_temp, r->cub_bytes, x, y, n32, s));
        return GS_SUCCESS;
    case M_CUB_EXCLUSIVE:
        GS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(r->cub_temp, r->cub_bytes, x, y, n32, s));
        return GS_SUCCESS;
    case M_COPY:
        GS_CUDA_TRY(cudaMemcpyAsync(y, x, (size_t)r->n * sizeof(float), cudaMemcpyDeviceToDevice,
                                    s));
        return GS_SUCCESS;
    }
    return gs__fail(GS_ERR_INTERNAL, "bench scan: unknown method");
}

static gs_status time_method(run *r, enum method m, const gs_bench_params *o, cudaStream_t s,
                             gs_stats *us)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    r->m = m;
    return gs_time_calls_stats(one_call, r, r->calls, s, &plan, us);
}

/* gridsync's result against CUB's (||gs - cub|| / ||cub||), both kinds,
 * on the pool's first n elements; `check` holds n floats. */
static gs_status cross_check(run *r, float *check, cudaStream_t s)
{
    const float tolerance = 1e-3f;
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
        double rel = 0.0;
        r->offset = 0;
        r->m = exclusive ? M_CUB_EXCLUSIVE : M_CUB_INCLUSIVE;
        GS_TRY(one_call(r, s));
        GS_CUDA_TRY(cudaMemcpyAsync(check, r->out_pool, (size_t)r->n * sizeof(float),
                                    cudaMemcpyDeviceToDevice, s));
        r->offset = 0;
        r->m = exclusive ? M_GS_EXCLUSIVE : M_GS_INCLUSIVE;
        GS_TRY(one_call(r, s));
        GS_TRY(gs_relative_difference(r->out_pool, check, r->n, s, &rel));
        GS_TRY(gs_scan_check(s));
        if (!(rel <= tolerance))
            return gs__fail(GS_ERR_INTERNAL,
                            "bench scan: n = %lld: gridsync's %s sum differs from CUB's by %.3g "
                            "(relative, more than %.0e)",
                            r->n, exclusive ? "exclusive" : "inclusive", rel, tolerance);
    }
    r->offset = 0;
    return GS_SUCCESS;
}


static void add_row(gs_table *t, const char *kind, long long n, const char *method,
                    const gs_stats *measured, double copy_us, double cub_us)
{
    const double us = measured->median;
    gs_table_add_row(t);
    gs_row_text(t, "kind", kind);
    gs_row_value(t, "n", (double)n);
    gs_row_text(t, "method", method);
    gs_row_measured(t, "us_per_call", measured, 1.0);
    gs_row_value(t, "gb_per_s", 8.0 * (double)n / (us * 1e-6) / 1e9);
    gs_row_value(t, "frac_copy_bw", copy_us / us);
    if (cub_us > 0.0)
        gs_row_value(t, "speedup_vs_cub", cub_us / us);
}

/* One length: cross-check, then every method; the rows. */
static gs_status bench_length(run *r, const gs_bench_params *o, cudaStream_t s, float *check,
                              gs_table *t)
{
    gs_stats copy = {}, us[4] = {};
    size_t inc = 0, exc = 0;
    int n32 = (int)r->n;
    GS_CUDA_TRY(cub::DeviceScan::InclusiveSum(NULL, inc, r->in_pool, r->out_pool, n32, s));
    GS_CUDA_TRY(cub::DeviceScan::ExclusiveSum(NULL, exc, r->in_pool, r->out_pool, n32, s));
    r->cub_bytes = inc > exc ? inc : exc;
    GS_CUDA_TRY(cudaMalloc(&r->cub_temp, r->cub_bytes ? r->cub_bytes : 1));
    gs_status st = cross_check(r, check, s);
    for (int m = M_GS_INCLUSIVE; m <= M_CUB_EXCLUSIVE && st == GS_SUCCESS; ++m)
        st = time_method(r, (enum method)m, o, s, &us[m]);
    if (st == GS_SUCCESS)
        st = time_method(r, M_COPY, o, s, &copy);
    cudaFree(r->cub_temp);
    r->cub_temp = NULL;
    GS_TRY(st);
    GS_TRY(gs_scan_check(s)); /* no look-back gave up while timed */
    const double copy_us = copy.median, cub_inc = us[M_CUB_INCLUSIVE].median,
                 cub_exc = us[M_CUB_EXCLUSIVE].median;
    add_row(t, "inclusive", r->n, "gridsync", &us[M_GS_INCLUSIVE], copy_us, cub_inc);
    add_row(t, "inclusive", r->n, "cub", &us[M_CUB_INCLUSIVE], copy_us, cub_inc);
    add_row(t, "exclusive", r->n, "gridsync", &us[M_GS_EXCLUSIVE], copy_us, cub_exc);
    add_row(t, "exclusive", r->n, "cub", &us[M_CUB_EXCLUSIVE], copy_us, cub_exc);
    add_row(t, "copy", r->n, "cudaMemcpy D2D", &copy, copy_us, 0.0);
    return GS_SUCCESS;
}

static gs_status run_scan(const gs_bench_params *o, gs_table *t)
{
    if (o->sizes.count < 1 || o->samples < 1 || o->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench scan: bad options");
    gs_device_info info;
    int dev = 0;
    size_t free_b = 0, total_b = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs_device_query(dev, &info));
    GS_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    cudaStream_t s;
    GS_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    run r = {};
    gs_status st = GS_SUCCESS;
    gs_progress prog;
    gs_progress_begin(&prog, "scan", o->sizes.count);
    for (int k = 0; k < o->sizes.count && st == GS_SUCCESS; ++k) {
        long long n = 1ll << o->sizes.log2[k];
        size_t bytes = (size_t)n * sizeof(float);
        size_t pool = bytes < 4u * (size_t)info.l2_bytes ? 4u * (size_t)info.l2_bytes : bytes;
        /* in and out pools, CUB's result for the check, CUB's storage and the descriptors */
        if (n > 0x7fffffffll || 2 * pool + bytes + bytes / 64 + (256u << 20) > free_b) {
            fprintf(stderr, "[scan] stopping at n = 2^%d: %s\n", o->sizes.log2[k],
                    n > 0x7fffffffll ? "CUB takes 32-bit lengths here" : "device memory");
            break;
        }
        if (!o->quiet) {
            char what[64];
            snprintf(what, sizeof what, "n = 2^%d", o->sizes.log2[k]);
            gs_progress_step(&prog, k, what);
        }
        float *check = NULL;
        cudaError_t err = cudaMalloc((void **)&r.in_pool, pool);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&r.out_pool, pool);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&check, bytes);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMalloc(bench scan pools)", __FILE__, __LINE__);
        r.n = n;
        r.pool_elems = (long long)(pool / sizeof(float));
        r.offset = 0;
        r.calls = n <= (1ll << 22) ? 20 : n <= (1ll << 26) ? 5 : 1;
        if (st == GS_SUCCESS)
            st = gs_fill_uniform(r.in_pool, r.pool_elems, -0.5f, 0.5f, 777u + (unsigned int)k, s);
        if (st == GS_SUCCESS)
            st = bench_length(&r, o, s, check, t);
        cudaFree(check);
        cudaFree(r.in_pool);
        cudaFree(r.out_pool);
        r.in_pool = r.out_pool = NULL;
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    cudaStreamDestroy(s);
    return st;
}

extern "C" const gs_bench_runner gs_runner_scan = {run_scan, NULL};
