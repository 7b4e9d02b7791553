/*
 * test_multiproc.cu - gridsync_multi.h with one process per GPU (groups from
 * an ncclUniqueId, passed through the file bootstrap). The test re-executes
 * itself as rank 1 (an argument vector, never a shell) and waits for it with
 * a bound. Checked:
 *  - on one GPU: a unique id that never completes ends in a time-out with a
 *    sentence, promptly, and the GPU still runs a kernel;
 *  - on two GPUs, in two processes: reductions (f32, f64, i64 sums, f32
 *    dot) against an FP64 CPU reference over both ranks' data, outputs
 *    poisoned, f32 bitwise repeatable; the barrier's path (device on one
 *    node with peer access, else the host path and its reason); ordering
 *    over 10^5 meetings with data exchanged through IPC-mapped slots, at
 *    1, 7 and SMs blocks; the all-reduce across the processes
 *    (multi_allreduce_kernel.cuh: 10^5 all-reduces per launch at 1, 2, SMs
 *    and the co-resident maximum, random per-block delays, an FP64 CPU
 *    reference, both ranks' results the same bits, repeatable over two
 *    runs); host meetings; bad input (the same rank joining
 *    twice, a communicator said to be another GPU's, mismatched rank
 *    counts); then rank 1 leaves before a meeting and its process exits:
 *    rank 0 gets GS_ERR_BARRIER_TIMEOUT naming rank 1, and its GPU still runs
 *    a fresh kernel.
 * Rank 1's own failures become its exit status, which rank 0 checks.
 * GRIDSYNC_TEST_SEED repeats a run (rank 1 gets rank 0's seed).
 */
#define _POSIX_C_SOURCE 200809L
#include <gridsync/multi.cuh>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/spawn.h"
#include "gpu_test.h"
#include "multi_allreduce_kernel.cuh"
#include "multi_exchange_kernel.cuh"

static int checks;
static int my_rank;

#define SAY(...) (printf("  [rank %d] ", my_rank), printf(__VA_ARGS__), fflush(stdout))

static double seconds_since(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + 1e-9 * (double)(b.tv_nsec - a->tv_nsec);
}

/* ------------------------------------------------------------ the data */

static uint64_t next_u64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Rank r's values in [-1, 1) from the seed: every rank can make every
 * rank's data, so each computes the whole reference itself. */
static void make_data(uint64_t seed, int r, long long n, float *f, double *d, long long *i)
{
    uint64_t s = (seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(r + 1))) | 1ull;
    for (long long k = 0; k < n; ++k) {
        double u = (double)(next_u64(&s) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
        f[k] = (float)u;
        d[k] = u;
        i[k] = (long long)(u * 4e12);
    }
}

static __global__ void fill_value(float *x, long long n, float v)
{
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x)
        x[k] = v;
}

/* A fresh kernel on the current GPU computes what it should. */
static void expect_gpu_usable(const char *after)
{
    float *x = NULL, host[3] = {0, 0, 0};
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&x, 1000 * sizeof *x));
    fill_value<<<4, 128, 0, s>>>(x, 1000, 2.5f);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpyAsync(host, x + 997, sizeof host, cudaMemcpyDeviceToHost, s));
    CUDA_OK(cudaStreamSynchronize(s));
    ++checks;
    EXPECT(host[0] == 2.5f && host[2] == 2.5f, "after %s a fresh kernel wrote %g, %g", after,
           host[0], host[2]);
    cudaFree(x);
    cudaStreamDestroy(s);
}

/* ------------------------------------------------------- the reductions */

static void test_reductions(gs_multi_t m, uint64_t seed)
{
    const int g = gs_multi_size(m), me = gs_multi_rank(m, 0);
    const long long n = (1 << 20) + 3;
    float *f = (float *)malloc((size_t)n * 4);
    double *d = (double *)malloc((size_t)n * 8);
    long long *i = (long long *)malloc((size_t)n * 8);
    double ref = 0.0, mag = 0.0, dref = 0.0, dot_ref = 0.0;
    long long iref = 0;
    void *df = NULL, *dd = NULL, *di = NULL;
    for (int r = 0; r < g; ++r) {
        make_data(seed, r, n, f, d, i);
        for (long long k = 0; k < n; ++k) {
            ref += f[k];
            mag += fabs(f[k]);
            dref += d[k];
            dot_ref += (double)f[k] * f[k];
            iref += i[k];
        }
        if (r != me)
            continue;
        CUDA_OK(cudaMalloc(&df, (size_t)n * 4));
        CUDA_OK(cudaMalloc(&dd, (size_t)n * 8));
        CUDA_OK(cudaMalloc(&di, (size_t)n * 8));
        CUDA_OK(cudaMemcpy(df, f, (size_t)n * 4, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(dd, d, (size_t)n * 8, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(di, i, (size_t)n * 8, cudaMemcpyHostToDevice));
    }
    const void *pf[1] = {df}, *pd[1] = {dd}, *pi[1] = {di};
    float got = NAN, again = NAN, dot = NAN;
    double dgot = NAN;
    long long igot = 0x5a5a5a5a5a5a5a5all; /* poisoned: a wrong or missing result shows */
    GS_OK(gs_multi_reduce_sum(m, GS_FLOAT32, pf, n, &got));
    /* f32: each element rounded once per fold, at most n + g folds */
    const double bound = (n + g) * ldexp(1.0, -24) * mag;
    ++checks;
    EXPECT(fabs(got - ref) <= bound, "f32 sum over %d ranks: %.9g, reference %.9g, bound %.3g", g,
           got, ref, bound);
    for (int rep = 0; rep < 3; ++rep) {
        GS_OK(gs_multi_reduce_sum(m, GS_FLOAT32, pf, n, &again));
        ++checks;
        EXPECT(memcmp(&got, &again, 4) == 0, "f32 sum not bitwise repeatable: %.9g then %.9g",
               got, again);
    }
    GS_OK(gs_multi_reduce_sum(m, GS_FLOAT64, pd, n, &dgot));
    const double dbound = (n + g) * ldexp(1.0, -53) * mag;
    ++checks;
    EXPECT(fabs(dgot - dref) <= dbound, "f64 sum: %.17g, reference %.17g, bound %.3g", dgot, dref,
           dbound);
    GS_OK(gs_multi_reduce_sum(m, GS_INT64, pi, n, &igot));
    ++checks;
    EXPECT(igot == iref, "i64 sum over %d ranks: %lld, expected %lld", g, igot, iref);
    GS_OK(gs_multi_dot(m, GS_FLOAT32, pf, pf, n, &dot));
    const double dot_bound = (n + g + 1) * ldexp(1.0, -24) * dot_ref;
    ++checks;
    EXPECT(fabs(dot - dot_ref) <= dot_bound, "f32 dot: %.9g, reference %.9g, bound %.3g", dot,
           dot_ref, dot_bound);
    SAY("reductions over %d processes, n = %lld per rank: f32 error %.3g (bound %.3g), f64 %.3g "
        "(bound %.3g), dot %.3g (bound %.3g), i64 exact\n",
        g, n, fabs(got - ref), bound, fabs(dgot - dref), dbound, fabs(dot - dot_ref), dot_bound);
    cudaFree(df);
    cudaFree(dd);
    cudaFree(di);
    free(f);
    free(d);
    free(i);
}

/* ------------------------------------------------------------ the barrier */

/* Every rank's slots (one word per block), mapped into this process. */
typedef struct shared_slots {
    unsigned int *mine;
    unsigned int *all[GS_MULTI_MAX_GPUS];
    unsigned int **dev_all; /* the same array on the GPU */
    unsigned int *errors;
} shared_slots;

static void share_slots(gs_multi_t m, int blocks, shared_slots *s)
{
    const int g = gs_multi_size(m), me = gs_multi_rank(m, 0);
    cudaIpcMemHandle_t mine, all[GS_MULTI_MAX_GPUS];
    memset(s, 0, sizeof *s);
    CUDA_OK(cudaMalloc((void **)&s->mine, (size_t)blocks * 4));
    CUDA_OK(cudaMemset(s->mine, 0, (size_t)blocks * 4));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaIpcGetMemHandle(&mine, s->mine));
    GS_OK(gs_multi_allgather(m, &mine, sizeof mine, all));
    for (int r = 0; r < g; ++r)
        if (r == me)
            s->all[r] = s->mine;
        else
            CUDA_OK(cudaIpcOpenMemHandle((void **)&s->all[r], all[r],
                                         cudaIpcMemLazyEnablePeerAccess));
    CUDA_OK(cudaMalloc((void **)&s->dev_all, sizeof s->all));
    CUDA_OK(cudaMemcpy(s->dev_all, s->all, sizeof s->all, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMalloc((void **)&s->errors, 4));
    CUDA_OK(cudaMemset(s->errors, 0, 4));
}

/* Unmapped on every rank before any rank frees its own (a host meeting). */
static void unshare_slots(gs_multi_t m, gs_multi_barrier_t bar, shared_slots *s, int meet)
{
    for (int r = 0; r < gs_multi_size(m); ++r)
        if (s->all[r] && s->all[r] != s->mine)
            cudaIpcCloseMemHandle(s->all[r]);
    if (meet)
        GS_OK(gs_multi_barrier_host_sync(bar));
    cudaFree(s->mine);
    cudaFree(s->dev_all);
    cudaFree(s->errors);
}

/* One launch of `exchange` on this rank's GPU and the collective check. */
static gs_status run_exchange(gs_multi_barrier_t bar, const shared_slots *s, int blocks,
                              int iters, int leave_at, unsigned int *errors)
{
    gs_multi_view view;
    GS_OK(gs_multi_barrier_device(bar, 0, (unsigned int)blocks, &view));
    void *argv[5] = {&view, (void *)&s->dev_all, &iters, (void *)&s->errors, &leave_at};
    void **args[1] = {argv};
    GS_OK(gs_multi_launch(bar, (const void *)exchange, dim3(blocks), dim3(128), 0, args));
    gs_status st = gs_multi_barrier_check(bar);
    CUDA_OK(cudaMemcpy(errors, s->errors, 4, cudaMemcpyDeviceToHost));
    return st;
}

static void test_ordering(gs_multi_t m, gs_multi_barrier_t bar, int sms)
{
    const int grids[3] = {1, 7, sms};
    const int full = gs_test_sanitizer() ? 50 : 50000; /* 2 meetings each: 10^5 */
    shared_slots s;
    share_slots(m, sms, &s);
    for (int k = 0; k < 3; ++k) {
        const int iters = grids[k] == sms ? full : 1000;
        unsigned int errors = 0;
        struct timespec a;
        clock_gettime(CLOCK_MONOTONIC, &a);
        gs_status st = run_exchange(bar, &s, grids[k], iters, 0, &errors);
        ++checks;
        EXPECT(st == GS_SUCCESS && errors == 0, "%d blocks, %d meetings: %s (%s), %u wrong values",
               grids[k], 2 * iters, gs_status_string(st), gs_last_error_detail(), errors);
        SAY("barrier across processes: %4d blocks, %6d meetings, %u wrong values, %.2f us per "
            "meeting\n",
            grids[k], 2 * iters, errors, 1e6 * seconds_since(&a) / (2.0 * iters));
    }
    unshare_slots(m, bar, &s, 1);
}

/* ------------------------------------------------------- the all-reduce */

/* One launch of multi_allreduce_kernel on this rank's GPU and the
 * collective check; this rank's wrong values and record. */
static gs_status run_allreduce(gs_multi_barrier_t bar, const shared_slots *s, mar_record *drec,
                               unsigned int blocks, int iters, unsigned int seed,
                               unsigned int *errors, mar_record *rec)
{
    gs_multi_view view;
    unsigned int max_delay_ns = 1000u;
    int never = 0;
    GS_OK(gs_multi_barrier_device(bar, 0, blocks, &view));
    CUDA_OK(cudaMemset(s->errors, 0, sizeof *s->errors));
    CUDA_OK(cudaMemset(drec, 0xff, sizeof *drec)); /* poisoned */
    void *argv[9] = {&view, (void *)&s->dev_all, &drec, (void *)&s->errors, &iters, &seed,
                     &max_delay_ns, &never, &never};
    void **args[1] = {argv};
    GS_OK(gs_multi_launch(bar, (const void *)multi_allreduce_kernel, dim3(blocks), dim3(256), 0,
                          args));
    gs_status st = gs_multi_barrier_check(bar);
    CUDA_OK(cudaMemcpy(errors, s->errors, sizeof *errors, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(rec, drec, sizeof *rec, cudaMemcpyDeviceToHost));
    return st;
}

/* Two runs per grid size: right, repeatable, and the same bits on both
 * ranks (their records gathered). Every rank uses the smallest co-resident
 * maximum of the ranks, so that the grids are alike. */
static void test_allreduce(gs_multi_t m, gs_multi_barrier_t bar, uint64_t seed, int sms)
{
    const int g = gs_multi_size(m);
    const int iters = gs_test_sanitizer() ? 20 : 50000;
    int max_blocks = 0, maxima[GS_MULTI_MAX_GPUS];
    GS_OK(gs_max_coresident_blocks((const void *)multi_allreduce_kernel, 256, 0, &max_blocks));
    GS_OK(gs_multi_allgather(m, &max_blocks, sizeof max_blocks, maxima));
    for (int r = 0; r < g; ++r)
        max_blocks = maxima[r] < max_blocks ? maxima[r] : max_blocks;
    static mar_record first, again, all[GS_MULTI_MAX_GPUS];
    mar_record *drec = NULL;
    shared_slots s;
    share_slots(m, 2 * max_blocks, &s);
    CUDA_OK(cudaMalloc((void **)&drec, sizeof *drec));
    const unsigned int grids[4] = {1u, 2u, (unsigned int)sms, (unsigned int)max_blocks};
    for (int k = 0; k < 4; ++k) {
        const unsigned int blocks = grids[k], step_seed = (unsigned int)seed + (unsigned int)k;
        char what[96];
        snprintf(what, sizeof what, "%d processes x %u blocks x 256 threads", g, blocks);
        struct timespec a;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int run = 0; run < 2; ++run) {
            unsigned int errors = 0;
            gs_status st = run_allreduce(bar, &s, drec, blocks, iters, step_seed, &errors,
                                         run ? &again : &first);
            ++checks;
            EXPECT(st == GS_SUCCESS && errors == 0, "%s, %d steps: %s (%s), %u wrong values",
                   what, iters, gs_status_string(st), st ? gs_last_error_detail() : "", errors);
        }
        const double took = seconds_since(&a);
        checks += 3;
        mar_check_record(&first, step_seed, iters, g, blocks, 256, what);
        EXPECT(memcmp(&first, &again, sizeof first) == 0,
               "%s: a second run gave other bits (trail %016llx then %016llx)", what, first.trail,
               again.trail);
        GS_OK(gs_multi_allgather(m, &first, sizeof first, all));
        for (int r = 1; r < g; ++r)
            EXPECT(memcmp(&all[r], &all[0], sizeof all[0]) == 0,
                   "%s: rank %d's results differ from rank 0's", what, r);
        SAY("all-reduce across processes: %4u blocks, %d steps (%lld all-reduces) twice, f64 "
            "step 0 %.17g (trail %016llx), %.2f us per all-reduce\n",
            blocks, iters, mar_allreduces(iters), first.sum64[0], first.trail,
            1e6 * took / (2.0 * (double)mar_allreduces(iters)));
    }
    cudaFree(drec);
    unshare_slots(m, bar, &s, 1);
}

/* ------------------------------------------------------------ bad input */

static void test_bad_input(gs_multi_t m, const ncclUniqueId *id, int count)
{
    gs_multi_t twice = NULL;
    /* the same (id, rank) again in this process: refused at once */
    gs_status st = gs_multi_create_rank(&twice, id, gs_multi_size(m), gs_multi_rank(m, 0),
                                        gs_multi_device(m, 0), 2.0);
    ++checks;
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && !twice &&
               strstr(gs_last_error_detail(), "already joined"),
           "a rank joining twice: %s: %s", gs_status_string(st), gs_last_error_detail());
    SAY("a rank joining twice: %s\n", gs_last_error_detail());
    /* a communicator said to be another GPU's: refused before any exchange */
    int other = (gs_multi_device(m, 0) + 1) % count;
    st = gs_multi_create_comm(&twice, gs_multi_comm(m, 0), other);
    ++checks;
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), "belongs to GPU"),
           "a communicator of another device: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    SAY("a communicator of another device: %s\n", gs_last_error_detail());
}

/* ------------------------------------------------------------ the ranks */

typedef struct rank_args {
    int rank, nranks, device;
    const char *id_file, *mode; /* "main" or "mismatch" */
    uint64_t seed;
} rank_args;

/* Rank 1 of the early exit: meets twice per iteration for 2 iterations,
 * leaves before the 3rd, lets rank 0's kernel time out, then its process
 * ends without another call (no check, no destroy). */
static void leave_early(gs_multi_barrier_t bar, const shared_slots *s, int sms)
{
    gs_multi_view view;
    int iters = 10, leave_at = 3;
    GS_OK(gs_multi_barrier_device(bar, 0, (unsigned int)sms, &view));
    void *argv[5] = {&view, (void *)&s->dev_all, &iters, (void *)&s->errors, &leave_at};
    void **args[1] = {argv};
    GS_OK(gs_multi_launch(bar, (const void *)exchange, dim3(sms), dim3(128), 0, args));
    CUDA_OK(cudaStreamSynchronize(gs_multi_stream(gs_multi_barrier_group(bar), 0)));
    /* rank 0's kernel writes into these slots until its time-out: stay
     * mapped until then */
    sleep(2);
    SAY("leaving early: the process ends now\n");
    int status = gs_test_finish("gpu_multiproc rank 1", checks);
    fflush(stdout);
    fflush(stderr);
    _exit(status); /* no clean-up at all, as a crashed rank */
}

static void test_early_exit(gs_multi_t m, gs_multi_barrier_t bar, int sms)
{
    shared_slots s;
    share_slots(m, sms, &s);
    GS_OK(gs_multi_barrier_set_timeout(bar, 0.5));
    GS_OK(gs_multi_set_timeout(m, 5.0));
    if (gs_multi_rank(m, 0) == 1)
        leave_early(bar, &s, sms); /* does not return */
    unsigned int errors = 0;
    struct timespec a;
    clock_gettime(CLOCK_MONOTONIC, &a);
    gs_status st = run_exchange(bar, &s, sms, 10, 0, &errors);
    char detail[2048];
    snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    double took = seconds_since(&a);
    ++checks;
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, "rank 1 (GPU") &&
               strstr(detail, "never arrived") && took < 30.0,
           "rank 1 left early: %s after %.1f s: '%s'", gs_status_string(st), took, detail);
    SAY("rank 1 left early: %s after %.1f s: %s\n", gs_status_string(st), took, detail);
    unshare_slots(m, bar, &s, 0);
    expect_gpu_usable("a rank left");
}

static gs_status join_group(const rank_args *a, ncclUniqueId *id, gs_multi_t *m, int nranks,
                            double timeout_s)
{
    if (a->rank == 0) {
        if (ncclGetUniqueId(id) != ncclSuccess) {
            fprintf(stderr, "FATAL: ncclGetUniqueId failed\n");
            exit(1);
        }
        GS_OK(gs_multi_unique_id_write(a->id_file, id, a->nranks));
    } else {
        GS_OK(gs_multi_unique_id_read(a->id_file, a->nranks, 60.0, id));
    }
    return gs_multi_create_rank(m, id, nranks, a->rank, a->device, timeout_s);
}

/* Both ranks, the same code: everything above, in order. */
static void run_main(const rank_args *a, int count)
{
    ncclUniqueId id;
    gs_multi_t m = NULL;
    CUDA_OK(cudaSetDevice(a->device));
    GS_OK(join_group(a, &id, &m, a->nranks, 60.0));
    ++checks;
    EXPECT(gs_multi_size(m) == 2 && gs_multi_local_ranks(m) == 1 && gs_multi_rank(m, 0) == a->rank,
           "group: size %d, local %d, rank %d", gs_multi_size(m), gs_multi_local_ranks(m),
           gs_multi_rank(m, 0));
    test_reductions(m, a->seed);
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, a->device));
    gs_multi_barrier_t bar;
    GS_OK(gs_multi_barrier_create(m, &bar));
    const char *reason = "";
    gs_multi_path path = gs_multi_barrier_path(bar, &reason);
    SAY("barrier path: %s%s%s\n", path == GS_MULTI_PATH_DEVICE ? "device (CUDA IPC flags)" : "host",
        reason[0] ? ": " : "", reason);
    for (int k = 0; k < 100; ++k)
        GS_OK(gs_multi_barrier_host_sync(bar));
    if (path == GS_MULTI_PATH_DEVICE) {
        test_ordering(m, bar, sms);
        test_allreduce(m, bar, a->seed, sms);
        if (a->rank == 0)
            test_bad_input(m, &id, count);
        GS_OK(gs_multi_barrier_host_sync(bar));
        test_early_exit(m, bar, sms); /* rank 1 ends in there */
    } else {
        gs_multi_view view;
        gs_status st = gs_multi_barrier_device(bar, 0, 1, &view);
        ++checks;
        EXPECT(st == GS_ERR_NOT_SUPPORTED && strstr(gs_last_error_detail(), "host path"),
               "the host path refuses a device view: %s", gs_status_string(st));
    }
    gs_multi_barrier_destroy(bar);
    gs_multi_destroy(m);
}

/* Rank 0 says 2 ranks, rank 1 says 3: both fail within the time-out. */
static void run_mismatch(const rank_args *a)
{
    ncclUniqueId id;
    gs_multi_t m = NULL;
    struct timespec t;
    CUDA_OK(cudaSetDevice(a->device));
    clock_gettime(CLOCK_MONOTONIC, &t);
    gs_status st = join_group(a, &id, &m, a->rank == 0 ? 2 : 3, 3.0);
    double took = seconds_since(&t);
    ++checks;
    EXPECT(st != GS_SUCCESS && !m && took < 20.0, "mismatched rank counts: %s after %.1f s",
           gs_status_string(st), took);
    SAY("mismatched rank counts: %s after %.1f s: %s\n", gs_status_string(st), took,
        gs_last_error_detail());
    expect_gpu_usable("a failed join");
}

/* ------------------------------------------------------------ rank 0 */

/* Alone with a 2-rank id: a time-out with its sentence, nothing hangs. */
static void test_never_completes(void)
{
    ncclUniqueId id;
    gs_multi_t m = NULL;
    struct timespec t;
    if (ncclGetUniqueId(&id) != ncclSuccess) {
        fprintf(stderr, "FATAL: ncclGetUniqueId failed\n");
        exit(1);
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    gs_status st = gs_multi_create_rank(&m, &id, 2, 0, 0, 2.0);
    double took = seconds_since(&t);
    ++checks;
    /* NCCL's abort takes longer under a sanitizer (16.6 s under memcheck) */
    const double most = gs_test_sanitizer() ? 90.0 : 15.0;
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && !m && strstr(gs_last_error_detail(), "did not all join") &&
               took >= 2.0 && took < most,
           "an id that never completes: %s after %.1f s: %s", gs_status_string(st), took,
           gs_last_error_detail());
    SAY("an id that never completes: %s after %.1f s: %s\n", gs_status_string(st), took,
        gs_last_error_detail());
    expect_gpu_usable("an aborted join");
}

/* Start this program again as rank 1 of `mode`; run rank 0 alongside; the
 * child's status is one more check. */
static void two_processes(const char *mode, const char *dir, uint64_t seed, int count)
{
    char self[PATH_MAX], id_file[PATH_MAX + 16], seed_text[32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "FATAL: cannot find this program (/proc/self/exe)\n");
        exit(1);
    }
    self[n] = '\0';
    snprintf(id_file, sizeof id_file, "%s/%s.id", dir, mode);
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    const char *argv[] = {self, "--rank1", mode, id_file, seed_text, NULL};
    pid_t child = gs_spawn(self, argv, NULL, -1, -1);
    if (child < 0) {
        fprintf(stderr, "FATAL: cannot start rank 1\n");
        exit(1);
    }
    rank_args a = {0, 2, 0, id_file, mode, seed};
    if (strcmp(mode, "main") == 0)
        run_main(&a, count);
    else
        run_mismatch(&a);
    int timed_out = 0, status = gs_spawn_wait_for(child, 120.0, &timed_out);
    ++checks;
    EXPECT(status == 0 && !timed_out, "rank 1 (%s) ended with status %d%s", mode, status,
           timed_out ? " (killed after 120 s)" : "");
    unlink(id_file);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--rank1") == 0) { /* started by two_processes */
        rank_args a = {1, 2, 1, argv[3], argv[2], strtoull(argv[4], NULL, 10)};
        my_rank = 1;
        if (strcmp(a.mode, "main") == 0)
            run_main(&a, 2);
        else
            run_mismatch(&a);
        return gs_test_finish("gpu_multiproc rank 1", checks);
    }
    gs_test_require_gpu("gpu_multiproc");
    uint64_t seed = gs_test_seed("gpu_multiproc");
    int count = 0;
    CUDA_OK(cudaGetDeviceCount(&count));
    test_never_completes();
    if (count < 2) {
        gs_test_finish("gpu_multiproc (one GPU part)", checks);
        printf("gpu_multiproc: SKIP: the two-process part needs 2 GPUs, found %d\n", count);
        return gs_test_failures ? 1 : GS_TEST_SKIP;
    }
    char dir[] = "/tmp/gs_multiproc_XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "FATAL: mkdtemp failed\n");
        return 1;
    }
    two_processes("main", dir, seed, count);
    two_processes("mismatch", dir, seed, count);
    rmdir(dir);
    return gs_test_finish("gpu_multiproc", checks);
}
