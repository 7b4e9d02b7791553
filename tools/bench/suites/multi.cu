/*
 * multi.cu - `gridsync bench multi`: how long GPUs take to meet, and
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
 * Built without NCCL (no gridsync_multi), the suite is described but its
 * run says so.
 */
#include <stdio.h>

#include "gridsync_internal.h"
#include "bench/suite.h"

enum { C_GPUS, C_WHAT, C_METHOD, C_BLOCKS, C_US, C_GBS, C_SPEEDUP, NCOLS };

#ifdef GS_HAVE_MULTI
#include <gridsync/multi.cuh>
#include <nccl.h>

#include "bench/fill.h"
#include "bench/peers/nccl_device_barrier.h"
#include "bench/progress.h"
#include "bench/timer.h"

static __global__ void meet(gs_multi_view v, int iters)
{
    for (int i = 0; i < iters; ++i)
        gs_multi_sync(&v);
}

static __global__ void empty_kernel(void) {}


static void add_row(gs_table *t, int gpus, const char *what, const char *method, int blocks,
                    const gs_stats *us, double gbs, double speedup)
{
    gs_table_add_row(t);
    gs_table_set(t, C_GPUS, gpus);
    gs_table_set_text(t, C_WHAT, what);
    gs_table_set_text(t, C_METHOD, method);
    if (blocks > 0)
        gs_table_set(t, C_BLOCKS, blocks);
    gs_table_set_measured(t, C_US, us, 1.0);
    if (gbs > 0)
        gs_table_set(t, C_GBS, gbs);
    if (speedup > 0)
        gs_table_set(t, C_SPEEDUP, speedup);
}

/* What the timed calls of one group of GPUs work on. */
typedef struct meeting {
    gs_multi_t m;
    ncclComm_t *comms;
    float **words, **in; /* one word and 2^28 floats per GPU */
    long long n;
    int iterations;      /* meetings per timed call */
    gs_multi_barrier_t bar; /* gridsync p2p: its barrier, grid and arguments */
    int blocks;
    void **args[GS_MULTI_MAX_GPUS];
} meeting;

/* Host-timed calls of `work` after one untimed one, as the command line's
 * rule says, in microseconds per unit (`units` per call). */
static gs_status median_us(gs_host_work_fn work, meeting *c, const gs_bench_params *o,
                           double units, gs_stats *us)
{
    gs_timing_plan plan = gs_bench_plan(o, 0);
    plan.warmup = 1;
    return gs_time_host_work(work, c, &plan, units, us);
}

static gs_status sync_all(gs_multi_t m)
{
    for (int r = 0; r < gs_multi_size(m); ++r) {
        GS_CUDA_TRY(cudaSetDevice(gs_multi_device(m, r)));
        GS_CUDA_TRY(cudaStreamSynchronize(gs_multi_stream(m, r)));
    }
    return GS_SUCCESS;
}

/* gs_multi_sync, c->iterations times in one persistent kernel per GPU. */
static gs_status p2p_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    GS_TRY(gs_multi_launch(c->bar, (const void *)meet, dim3(c->blocks), dim3(256), 0, c->args));
    return gs_multi_barrier_check(c->bar);
}

static gs_status time_p2p(meeting *c, int blocks, const gs_bench_params *o, gs_stats *us)
{
    gs_multi_view views[GS_MULTI_MAX_GPUS];
    void *argv[GS_MULTI_MAX_GPUS][2];
    GS_TRY(gs_multi_barrier_create(c->m, &c->bar));
    c->blocks = blocks;
    gs_status st = GS_SUCCESS;
    for (int r = 0; r < gs_multi_size(c->m) && st == GS_SUCCESS; ++r) {
        st = gs_multi_barrier_device(c->bar, r, (unsigned int)blocks, &views[r]);
        argv[r][0] = &views[r];
        argv[r][1] = &c->iterations;
        c->args[r] = argv[r];
    }
    if (st == GS_SUCCESS)
        st = median_us(p2p_meet, c, o, c->iterations, us);
    gs_multi_barrier_destroy(c->bar);
    c->bar = NULL;
    return st;
}

/* c->iterations NCCL all-reduces of one word on every GPU, back to back. */
static gs_status nccl_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    for (int i = 0; i < c->iterations; ++i) {
        if (ncclGroupStart() != ncclSuccess)
            return gs__fail(GS_ERR_CUDA, "ncclGroupStart failed");
        for (int r = 0; r < gs_multi_size(c->m); ++r)
            if (ncclAllReduce(c->words[r], c->words[r], 1, ncclFloat32, ncclSum, c->comms[r],
                              gs_multi_stream(c->m, r)) != ncclSuccess)
                return gs__fail(GS_ERR_CUDA, "ncclAllReduce failed");
        if (ncclGroupEnd() != ncclSuccess)
            return gs__fail(GS_ERR_CUDA, "ncclGroupEnd failed");
    }
    return sync_all(c->m);
}

/* Host-side meetings per timed call: a tenth of the device-side ones (each
 * costs a host round trip), at least 10. */
static int host_meetings(const meeting *c)
{
    return c->iterations / 10 > 10 ? c->iterations / 10 : 10;
}

/* host_meetings() times: an empty kernel on every GPU, then the host waits
 * for every stream. */
static gs_status host_meet(void *ctx)
{
    meeting *c = (meeting *)ctx;
    for (int i = 0; i < host_meetings(c); ++i) {
        for (int r = 0; r < gs_multi_size(c->m); ++r) {
            GS_CUDA_TRY(cudaSetDevice(gs_multi_device(c->m, r)));
            empty_kernel<<<1, 32, 0, gs_multi_stream(c->m, r)>>>();
            GS_CUDA_TRY(cudaGetLastError());
        }
        GS_TRY(sync_all(c->m));
    }
    return GS_SUCCESS;
}

/* gs_reduce_sum of the first GPU's n floats, on that GPU alone. */
static gs_status reduce_one_gpu(void *ctx)
{
    meeting *c = (meeting *)ctx;
    float result = 0.0f;
    GS_CUDA_TRY(cudaSetDevice(gs_multi_device(c->m, 0)));
    return gs_reduce_sum(GS_FLOAT32, c->in[0], c->n, &result, gs_multi_stream(c->m, 0));
}

/* gs_multi_reduce_sum of n floats on every GPU. */
static gs_status reduce_all_gpus(void *ctx)
{
    meeting *c = (meeting *)ctx;
    const void *ins[GS_MULTI_MAX_GPUS];
    float result = 0.0f;
    for (int r = 0; r < gs_multi_size(c->m); ++r)
        ins[r] = c->in[r];
    return gs_multi_reduce_sum(c->m, GS_FLOAT32, ins, c->n, &result);
}

/* The barrier rows of one group: gridsync p2p and NCCL's device-API
 * barrier at 1 block and 1 block per SM, then the all-reduce and host-sync
 * peers; speedups against the all-reduce. */
static gs_status barrier_rows(meeting *c, int sms, const gs_bench_params *o, gs_table *t)
{
    const int g = gs_multi_size(c->m), grids[2] = {1, sms};
    gs_stats us = {}, nccl = {}, host = {};
    GS_TRY(median_us(nccl_meet, c, o, o->iterations, &nccl));
    GS_TRY(median_us(host_meet, c, o, host_meetings(c), &host));
    for (int i = 0; i < 2; ++i) {
        GS_TRY(time_p2p(c, grids[i], o, &us));
        add_row(t, g, "barrier", "gridsync p2p", grids[i], &us, 0, nccl.median / us.median);
    }
    for (int i = 0; i < 2; ++i) {
        gs_timing_plan plan = gs_bench_plan(o, 0);
        plan.warmup = 1;
        gs_status st = gs__time_nccl_lsa_barrier(c->m, c->comms, grids[i], o->iterations,
                                                 &plan, &us);
        if (st == GS_SUCCESS)
            add_row(t, g, "barrier", "nccl lsa barrier (device API)", grids[i], &us, 0,
                    nccl.median / us.median);
        else if (st == GS_ERR_NOT_SUPPORTED || st == GS_ERR_NOT_CORESIDENT)
            fprintf(stderr, "gridsync: bench multi: NCCL device-API barrier at %d blocks "
                            "skipped: %s\n", grids[i], gs_last_error_detail());
        else
            return st;
    }
    add_row(t, g, "barrier", "nccl allreduce 1 word", 0, &nccl, 0, 1.0);
    add_row(t, g, "barrier", "host stream sync", 0, &host, 0, nccl.median / host.median);
    return GS_SUCCESS;
}

/* The reduction rows of one group: one GPU against all of them. */
static gs_status reduce_rows(meeting *c, const gs_bench_params *o, gs_table *t)
{
    const int g = gs_multi_size(c->m);
    const double bytes = c->n * 4.0;
    gs_stats one = {}, all = {};
    GS_TRY(median_us(reduce_one_gpu, c, o, 1.0, &one));
    GS_TRY(median_us(reduce_all_gpus, c, o, 1.0, &all));
    add_row(t, g, "reduce 2^28/GPU", "gs_reduce_sum, 1 GPU", 0, &one, bytes / one.median / 1e3,
            1.0);
    add_row(t, g, "reduce 2^28/GPU", "gs_multi_reduce_sum", 0, &all,
            g * bytes / all.median / 1e3, (g * bytes / all.median) / (bytes / one.median));
    return GS_SUCCESS;
}

/* The first g GPUs of --devices (else 0 .. g-1): a group, an NCCL
 * communicator, buffers; every row. */
static gs_status bench_group(int g, int sms, const gs_bench_params *o, gs_table *t)
{
    int devices[GS_MULTI_MAX_GPUS];
    for (int i = 0; i < g; ++i)
        devices[i] = o->devices ? o->devices[i] : i;
    ncclComm_t comms[GS_MULTI_MAX_GPUS] = {0};
    float *words[GS_MULTI_MAX_GPUS] = {0}, *in[GS_MULTI_MAX_GPUS] = {0};
    meeting c = {NULL, comms, words, in, 1ll << 28, o->iterations, NULL, 0, {0}};
    GS_TRY(gs_multi_create(&c.m, g, devices));
    gs_status st = GS_SUCCESS;
    if (ncclCommInitAll(comms, g, devices) != ncclSuccess)
        st = gs__fail(GS_ERR_CUDA, "ncclCommInitAll failed");
    for (int r = 0; r < g && st == GS_SUCCESS; ++r) {
        cudaError_t err = cudaSetDevice(devices[r]);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&words[r], 4);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&in[r], (size_t)c.n * 4);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "bench multi: buffers", __FILE__, __LINE__);
        if (st == GS_SUCCESS)
            st = gs_fill_uniform(in[r], c.n, -0.5f, 0.5f, 17u + (unsigned int)r, 0);
        if (st == GS_SUCCESS && (err = cudaDeviceSynchronize()) != cudaSuccess)
            st = gs__cuda_fail(err, "bench multi: filling the inputs", __FILE__, __LINE__);
    }
    if (st == GS_SUCCESS)
        st = barrier_rows(&c, sms, o, t);
    if (st == GS_SUCCESS)
        st = reduce_rows(&c, o, t);
    for (int r = 0; r < g; ++r) {
        cudaSetDevice(devices[r]);
        cudaFree(words[r]);
        cudaFree(in[r]);
        if (comms[r])
            ncclCommDestroy(comms[r]);
    }
    gs_multi_destroy(c.m);
    return st;
}

static gs_status run_multi(const gs_bench_params *o, gs_table *t)
{
    int count = 0;
    if (o->iterations < 1 || o->samples < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench multi: bad options");
    GS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (o->devices)
        count = o->ndevices;
    if (count < 2)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "bench multi needs 2 or more GPUs; %s %d",
                        o->devices ? "--devices names" : "found", count);
    count = count < GS_MULTI_MAX_GPUS ? count : GS_MULTI_MAX_GPUS;
    int sms = 0;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                                       o->devices ? o->devices[0] : 0));
    gs_progress prog;
    if (!o->quiet)
        gs_progress_begin(&prog, "multi", count - 1);
    gs_status st = GS_SUCCESS;
    for (int g = 2; g <= count && st == GS_SUCCESS; ++g) {
        if (!o->quiet) {
            char what[32];
            snprintf(what, sizeof what, "%d GPUs", g);
            gs_progress_step(&prog, g - 2, what);
        }
        st = bench_group(g, sms, o, t);
    }
    if (!o->quiet)
        gs_progress_end(&prog);
    return st;
}

#else /* built without NCCL */

static gs_status run_multi(const gs_bench_params *o, gs_table *t)
{
    (void)o, (void)t;
    return gs__fail(GS_ERR_NOT_SUPPORTED,
                    "bench multi: this gridsync was built without NCCL (gridsync_multi)");
}

#endif

/* ------------------------------------------------------ the description */

static const gs_column columns[NCOLS] = {
    {"gpus", "", 0, "GPUs meeting (0 .. g-1)"},
    {"what", "", 0, "barrier, or reduce 2^28/GPU"},
    {"method", "", 0, "gridsync p2p, nccl lsa barrier (device API; absent where the NCCL has "
                      "none), nccl allreduce 1 word, host stream sync; gs_reduce_sum, 1 GPU and "
                      "gs_multi_reduce_sum"},
    {"blocks_per_gpu", "", 0, "the grid on each GPU (p2p and lsa rows)"},
    {"us", "us", 3, "median time per barrier, or per call"},
    {"gb_per_s", "GB/s", 1, "reduce rows: input read, all GPUs"},
    {"speedup", "", 2, "barrier: the all-reduce's time / this time; reduce: against one GPU"}};

static const gs_summary_column summary_columns[] = {
    {"GPUs", GS_SUMMARY_FIELD, "gpus", NULL, NULL, "%.0f"},
    {"what", GS_SUMMARY_FIELD, "what", NULL, NULL, NULL},
    {"method", GS_SUMMARY_FIELD, "method", NULL, NULL, NULL},
    {"blocks per GPU", GS_SUMMARY_FIELD, "blocks_per_gpu", NULL, NULL, "%.0f"},
    {"us", GS_SUMMARY_FIELD, "us", NULL, NULL, "%.2f"},
    {"GB/s", GS_SUMMARY_FIELD, "gb_per_s", NULL, NULL, "%.0f"},
    {"vs peer", GS_SUMMARY_FIELD, "speedup", NULL, NULL, "%.2fx"}};

static const gs_summary_spec summary = {
    "Across GPUs (NCCL for the peers; barrier rows in microseconds per barrier, reduction rows "
    "in microseconds per call at 2^28 floats per GPU):",
    NULL, "method", NULL, NULL, NULL, NULL, summary_columns, GS_COUNT(summary_columns)};

static const char *const ours[] = {"gridsync p2p", "gs_reduce_sum, 1 GPU", "gs_multi_reduce_sum",
                                   NULL};
static const char *const peers[] = {"nccl lsa barrier (device API)", "nccl allreduce 1 word",
                                    "host stream sync", NULL};
static const char *const key[] = {"gpus", "what", "method", "blocks_per_gpu", NULL};
static const char *const barrier_what[] = {"barrier", NULL};
static const char *const reduce_what[] = {"reduce 2^28/GPU", NULL};
static const char *const group[] = {"gpus", "what", NULL};
static const char *const where_barrier[] = {"gpus", "blocks_per_gpu", NULL};
static const char *const where_reduce[] = {"gpus", NULL};
static const char *const p2p[] = {"gridsync p2p", NULL};
static const char *const all_gpus[] = {"gs_multi_reduce_sum", NULL};
static const char *const method_and_grid[] = {"method", "blocks_per_gpu", NULL};
static const char *const method_only[] = {"method", NULL};
static const gs_headline headlines[] = {
    {"nccl allreduce 1 word", "us", 0, group, where_barrier, "what", barrier_what,
     "grids", 1, p2p},
    {"gs_reduce_sum, 1 GPU", "gb_per_s", 1, group, where_reduce, "what", reduce_what,
     "GPU counts", 1, all_gpus}};
static const gs_column_style styles[] = {
    {"gpus", "GPUs", GS_CELL_AUTO},
    {"blocks_per_gpu", "blocks/GPU", GS_CELL_AUTO},
    {"us", "time", GS_CELL_AUTO},
    {"gb_per_s", "bandwidth", GS_CELL_AUTO},
    {"speedup", "vs peer", GS_CELL_RATIO}};
static const gs_reading reading = {"method", ours, peers, key, "us", 0, headlines,
                                   GS_COUNT(headlines), styles, GS_COUNT(styles)};

static const gs_plot_spec plots[] = {
    {"gpus", NULL, "us", NULL, "method (blocks per GPU)", "microseconds per barrier", 0, 0, "%g",
     NULL, NULL, "barrier", "multi: time for all GPUs to meet", GS_PLOT_VALUE, NULL, 0,
     GS_STYLE_BARS, method_and_grid, NULL, "what", barrier_what, 0, 0, NULL, NULL, NULL, NULL,
     NULL},
    {"gpus", NULL, "gb_per_s", NULL, "method", "GB/s read, all GPUs", 0, 0, "%g", NULL, NULL,
     "reduce", "multi: sum of 2^28 floats per GPU", GS_PLOT_VALUE, NULL, 1, GS_STYLE_BARS,
     method_only, NULL, "what", reduce_what, 0, 0, NULL, NULL, NULL, NULL, NULL}};

extern "C" const gs_bench_suite gs_suite_multi = {
    "multi",
    "several GPUs (2 or more; built with NCCL): cross-GPU barrier latency vs an NCCL all-reduce "
    "of one word and host-side stream sync; reduction bandwidth of 2^28 floats per GPU vs one "
    "GPU",
    "multi: GPUs meeting (us per barrier) and reducing together (2^28 floats per GPU)",
    columns, NCOLS,
    {{NULL, 0}, {NULL, 0}, {NULL, 0}},
    2,
    run_multi,
    plots, GS_COUNT(plots),
    &summary,
    NULL,
    &reading};
