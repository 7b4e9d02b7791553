/*
 * cmd_check.c - `gridsync check`: a self-test of this GPU and driver, in
 * under a minute. One line per check, PASS or FAIL with the figure behind
 * it; exit 0 only if every check passes.
 *
 *   barriers       every method, ordering checked by exchanging data across
 *                  blocks over many barriers, at 1 block, 1 per SM and the
 *                  co-resident maximum (the bench's exchange kernel)
 *   reductions     every op and type, and dot, against a CPU reference on
 *                  random data
 *   matmul         gs_sgemm (fast and tiled16) against FP64 on the CPU
 *   message passing  release/acquire litmus: zero stale reads required
 *   watchdog       a barrier one block skips must time out naming it
 */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/registry.h"
#include "gridsync_internal.h"
#include "demo/demos.h"
#include "bench/random.h"
#include "bench/reference.h"
#include "args.h"
#include "commands.h"

static int failures;

static void report(int ok, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(int ok, const char *name, const char *fmt, ...)
{
    va_list ap;
    printf("%s  %-22s ", ok ? "PASS" : "FAIL", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    failures += !ok;
}

static gs_rng rng = {0x2545f4914f6cdd1dull};

static void check_barriers(int sms, int max_blocks)
{
    static const int threads[] = {256};
    int blocks[3] = {1, sms, max_blocks};
    gs_table *t = NULL;
    gs_bench_params p = {.iterations = 500, .samples = 1, .warmup = 0, .threads = threads,
                         .nthreads = 1, .blocks = blocks, .nblocks = 3, .quiet = 1};
    gs_status st = gs_bench_suite_run(gs_bench_suite_find("barrier"), &p, &t);
    int rows = t ? gs_table_rows(t) : 0;
    report(st == GS_SUCCESS, "barriers",
           "%d method/grid pairs at 1, %d and %d blocks, 1000 barriers each: %s", rows, sms,
           max_blocks, st == GS_SUCCESS ? "every exchanged value right" : gs_last_error_detail());
    gs_table_free(t);
}

/* n random elements of `type` at h. */
static void random_elements(gs_dtype type, long long n, void *h)
{
    for (long long i = 0; i < n; ++i) {
        double x = gs_rng_uniform(&rng);
        long long v = (long long)(x * 1e6);
        switch (type) {
        case GS_FLOAT32: ((float *)h)[i] = (float)x; break;
        case GS_FLOAT64: ((double *)h)[i] = x; break;
        case GS_INT32: ((int *)h)[i] = (int)v; break;
        default: ((long long *)h)[i] = v * 1000003LL; break;
        }
    }
}

/* One reduction of n random elements of `type` with `op` against the CPU. */
static int reduce_one(gs_reduce_op op, gs_dtype type, long long n, void *d, void *h, char *why,
                      size_t len)
{
    random_elements(type, n, h);
    gs_ref_reduction ref;
    gs_ref_reduce(op, type, h, n, &ref);
    cudaError_t err = cudaMemcpy(d, h, (size_t)n * gs_dtype_size(type), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        snprintf(why, len, "cudaMemcpy: %s", cudaGetErrorName(err));
        return 0;
    }
    unsigned char out[8] = {0};
    gs_status st = gs_reduce(op, type, d, n, out, 0);
    if (st != GS_SUCCESS) {
        snprintf(why, len, "%s", gs_last_error_detail());
        return 0;
    }
    double got = 0.0;
    int ok = gs_ref_reduce_ok(type, &ref, out, &got);
    if (!ok)
        snprintf(why, len, "%s %s: got %.17g, expected %.17g", gs_reduce_op_name(op),
                 gs_dtype_name(type), got,
                 type <= GS_FLOAT64 ? ref.value : (double)ref.ivalue);
    return ok;
}

static void check_reductions(void)
{
    const long long n = 1000003;
    void *d = NULL, *h = malloc((size_t)n * 8);
    char why[256] = "";
    int ok = h && cudaMalloc(&d, (size_t)n * 8) == cudaSuccess, count = 0;
    for (int t = 0; ok && t < GS_DTYPE_COUNT; ++t)
        for (int op = 0; ok && op < GS_REDUCE_OP_COUNT; ++op, ++count)
            ok = reduce_one((gs_reduce_op)op, (gs_dtype)t, n, d, h, why, sizeof why);
    if (ok)
        report(1, "reductions", "%d op/type pairs on %lld random elements match the CPU", count, n);
    else
        report(0, "reductions", "%s", why[0] ? why : "could not allocate the inputs");
    free(h);
    cudaFree(d);
}

static void check_dot(void)
{
    const int n = 1000003;
    double *hx = malloc((size_t)n * 8), *hy = malloc((size_t)n * 8), *d = NULL, got = 0;
    double ref = 0.0, bound = 0.0;
    int ok = hx && hy && cudaMalloc((void **)&d, (size_t)n * 16) == cudaSuccess;
    for (int i = 0; ok && i < n; ++i) {
        hx[i] = gs_rng_uniform(&rng);
        hy[i] = gs_rng_uniform(&rng);
    }
    if (ok)
        ref = gs_ref_dot_f64(hx, hy, n, &bound);
    ok = ok && cudaMemcpy(d, hx, (size_t)n * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(d + n, hy, (size_t)n * 8, cudaMemcpyHostToDevice) == cudaSuccess &&
         gs_dot(GS_FLOAT64, d, d + n, n, &got, 0) == GS_SUCCESS;
    double err = fabs(got - ref);
    report(ok && err <= bound, "dot", "f64, %d elements: error %.3g (bound %.3g)", n, err, bound);
    free(hx);
    free(hy);
    cudaFree(d);
}

static void check_gemm(void)
{
    const int m = 257, n = 263, k = 271;
    float *ha = malloc((size_t)m * k * 4), *hb = malloc((size_t)k * n * 4),
          *hc = malloc((size_t)m * n * 4), *d = NULL;
    int ok = ha && hb && hc &&
             cudaMalloc((void **)&d, ((size_t)m * k + (size_t)k * n + (size_t)m * n) * 4) ==
                 cudaSuccess;
    if (ok) {
        gs_rng_fill(&rng, ha, (size_t)m * k);
        gs_rng_fill(&rng, hb, (size_t)k * n);
    }
    float *da = d, *db = d + (size_t)m * k, *dc = db + (size_t)k * n;
    ok = ok && cudaMemcpy(da, ha, (size_t)m * k * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(db, hb, (size_t)k * n * 4, cudaMemcpyHostToDevice) == cudaSuccess;
    long wrong = 0;
    const gs_gemm_kernel kernels[] = {GS_GEMM_FAST, GS_GEMM_TILED16};
    for (int v = 0; ok && v < 2; ++v) {
        ok = gs_sgemm_with(kernels[v], m, n, k, 1.0f, da, k, db, n, 0.0f, dc, n, 0) == GS_SUCCESS &&
             cudaMemcpy(hc, dc, (size_t)m * n * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
        if (ok)
            wrong += gs_ref_sgemm_out_of_bound(ha, hb, hc, m, n, k);
    }
    report(ok && wrong == 0, "matmul", "%dx%dx%d, fast and tiled16: %ld elements beyond the FP32 bound%s",
           m, n, k, wrong, ok ? "" : " (a call failed)");
    free(ha);
    free(hb);
    free(hc);
    cudaFree(d);
}

static void check_message_passing(int sms)
{
    gs_mp_result r;
    gs_status st = gs_demo_message_passing(GS_MP_RELEASE_ACQUIRE, 20000, 8, 2 * sms, &r);
    int ok = st == GS_SUCCESS && r.stale == 0 && !r.timed_out && r.rounds == 20000;
    if (st != GS_SUCCESS)
        report(0, "message passing", "%s", gs_last_error_detail());
    else
        report(ok, "message passing", "release/acquire, %ld rounds under stress: %ld stale reads%s",
               r.rounds, r.stale, r.timed_out ? " (a wait gave up)" : "");
}

static void check_watchdog(int sms)
{
    gs_status result = GS_SUCCESS;
    char detail[512] = "", want[64];
    gs_status st = gs_demo_stuck_barrier(sms, 0.5, &result, detail, sizeof detail);
    snprintf(want, sizeof want, "missing: block %d", sms / 2);
    int ok = st == GS_SUCCESS && result == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want);
    report(ok, "watchdog", "a barrier block %d skips: %s", sms / 2,
           st != GS_SUCCESS ? gs_last_error_detail() : detail);
}

int gs_cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"device", required_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long device = 0;
    char err[256];
    int c;
    static const char shortopts[] = ":d:h";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        if (c == 'h')
            return gs_help_only("check", argc);
        if (c != 'd')
            return gs_option_usage_error("check", c, argv, shortopts);
        if (gs_parse_long(optarg, "--device", 0, 1024, &device, err, sizeof err) != 0)
            return gs_usage_error("check", err);
    }
    if (optind != argc) {
        snprintf(err, sizeof err, "unexpected argument '%s'", argv[optind]);
        return gs_usage_error("check", err);
    }
    gs_device_info d;
    gs_status st = gs_cli_select_device((int)device, &d);
    if (st != GS_SUCCESS)
        return gs_report_failure("check", st);
    int max_blocks = 0;
    st = gs_cli_probe_coresident(256, &max_blocks);
    if (st != GS_SUCCESS)
        return gs_report_failure("check", st);
    printf("gridsync check on %s (%d SMs, compute capability %d.%d)\n", d.name, d.sm_count,
           d.cc_major, d.cc_minor);
    check_barriers(d.sm_count, max_blocks);
    check_reductions();
    check_dot();
    check_gemm();
    check_message_passing(d.sm_count);
    check_watchdog(d.sm_count);
    printf("%s: %d check%s failed\n", failures ? "FAIL" : "PASS", failures, failures == 1 ? "" : "s");
    return failures ? GS_EXIT_FAILURE : GS_EXIT_OK;
}
