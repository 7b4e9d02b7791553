/*
 * cmd_demo.c - `gridsync demo NAME`: each failure the seeds warn about,
 * observed on this GPU next to the correct version. Every demo prints what
 * it does, what it observed and what that means. Exit 0 when the demo ran
 * and the correct versions were correct (whatever the broken ones showed),
 * 1 when a correct version was wrong or a CUDA call failed.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/spawn.h"
#include "gridsync_internal.h"
#include "demo/child_run.h"
#include "demo/demos.h"
#include "demo/png_image.h"
#include "bench/random.h"
#include "bench/reference.h"
#include "args.h"
#include "commands.h"
#include "paths.h"

typedef struct demo_opts {
    long device, runs, rounds;
    double time_limit;
    const char *out_dir;
    const char *once; /* internal: one kernel, for racecheck */
} demo_opts;

static const char *const demo_names[] = {"bitmap", "missing-sync", "divergent-barrier",
                                         "missing-fence", "grid-oversubscribed"};
enum { NDEMOS = 5 };

static gs_rng rng = {0x9e3779b97f4a7c15ull};

/* ------------------------------------------------------------- bitmap */

static int demo_bitmap(const demo_opts *o)
{
    const size_t bytes = (size_t)GS_BITMAP_DIM * GS_BITMAP_DIM * 3;
    unsigned char *ref = malloc(bytes), *img = malloc(bytes);
    int rc = GS_EXIT_OK;
    if (!ref || !img) {
        fprintf(stderr, "gridsync demo: out of host memory\n");
        free(ref);
        free(img);
        return GS_EXIT_FAILURE;
    }
    printf("bitmap: seed 004's 1024x1024 image. Each thread of a 16x16 block writes one value\n"
           "to shared memory, then reads the value of its mirrored thread (15-x, 15-y).\n"
           "Compared with the image computed on the CPU (green levels may differ by 1:\n"
           "GPU sinf rounds differently); %ld runs each.\n\n",
           o->runs);
    gs_demo_bitmap_cpu(ref);
    for (int sync = 1; sync >= 0 && rc == GS_EXIT_OK; --sync) {
        long worst = 0, runs_wrong = 0;
        for (long r = 0; r < o->runs; ++r) {
            gs_status st = gs_demo_bitmap_gpu(sync, img);
            if (st != GS_SUCCESS) {
                rc = gs_report_failure("demo", st);
                break;
            }
            long d = gs_demo_bitmap_diff(img, ref, 1);
            worst = d > worst ? d : worst;
            runs_wrong += d != 0;
        }
        if (rc != GS_EXIT_OK)
            break;
        printf("  %-28s %ld of %ld runs differ from the CPU image; at most %ld of %d pixels\n",
               sync ? "with __syncthreads():" : "without (--no-sync):", runs_wrong, o->runs,
               worst, GS_BITMAP_DIM * GS_BITMAP_DIM);
        if (sync && runs_wrong) {
            printf("  the correct version differs from the reference: FAIL\n");
            rc = GS_EXIT_FAILURE;
        }
        if (o->out_dir) {
            char path[1024], err[256];
            snprintf(path, sizeof path, "%s/bitmap-%s.png", o->out_dir, sync ? "sync" : "nosync");
            if (gs_png_write_rgb(path, GS_BITMAP_DIM, GS_BITMAP_DIM, img, err, sizeof err) != 0) {
                fprintf(stderr, "gridsync demo: %s\n", err);
                rc = GS_EXIT_FAILURE;
            } else {
                printf("  wrote %s\n", path);
            }
        }
    }
    if (!o->out_dir)
        printf("  (add -o DIR to write both images as PNG)\n");
    printf("\nmeaning: the barrier orders every write to shared[][] before the mirrored reads.\n"
           "Without it the reads race the writes; how often they lose depends on the GPU's\n"
           "warp scheduling, so zero differences on one run or one GPU prove nothing.\n");
    free(ref);
    free(img);
    return rc;
}

/* ------------------------------------------------------- missing-sync */

/* Block sums: wrong blocks (beyond the FP32 bound) against FP64. */
static gs_status block_sums_run(int sync, const float *h_in, const float *d_in, int n,
                                long *wrong, double *worst)
{
    int blocks = (n + 255) / 256;
    float *sums = malloc((size_t)blocks * sizeof(float));
    if (!sums)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    gs_status st = gs_demo_block_sums(sync, d_in, n, sums);
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
 * without them (its broken twin). */
static gs_status tiled16(int sync, const gs__sgemm_args *p)
{
    if (!sync)
        return gs__sgemm_tiled16_nosync(p, 0);
    return gs_sgemm_with(GS_GEMM_TILED16, p->m, p->n, p->k, p->alpha, p->a, p->lda, p->b, p->ldb,
                         p->beta, p->c, p->ldc, 0);
}

/* Tiled multiply: elements beyond the FP32 bound against FP64. */
static gs_status gemm_run(int sync, const float *ha, const float *hb, const gs__sgemm_args *p,
                          long *wrong)
{
    int n = p->m;
    float *c = malloc((size_t)n * n * sizeof(float));
    if (!c)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "out of host memory");
    gs_status st = tiled16(sync, p);
    if (st == GS_SUCCESS) {
        cudaError_t err = cudaMemcpy(c, p->c, (size_t)n * n * sizeof(float), cudaMemcpyDeviceToHost);
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

static gs_status once_run(const char *kernel)
{
    const int n = 64;
    float *d = NULL;
    GS_CUDA_TRY(cudaMalloc((void **)&d, 3u * n * n * sizeof(float)));
    GS_CUDA_TRY(cudaMemset(d, 0x3c, 3u * n * n * sizeof(float)));
    gs__sgemm_args p = {n, n, n, 1.0f, d, n, d + n * n, n, 0.0f, d + 2 * n * n, n};
    float sums[16];
    gs_status st;
    if (strcmp(kernel, "reduce-sync") == 0 || strcmp(kernel, "reduce-nosync") == 0)
        st = gs_demo_block_sums(strcmp(kernel, "reduce-sync") == 0, d, 16 * 256, sums);
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

/* --once KERNEL: run one kernel once (what racecheck_hazards inspects). */
static int missing_sync_once(const char *kernel)
{
    gs_status st = once_run(kernel);
    return st == GS_SUCCESS ? GS_EXIT_OK : gs_report_failure("demo", st);
}

static int demo_missing_sync(const demo_opts *o)
{
    const int n = 1 << 20, m = 192;
    float *h = malloc((size_t)n * sizeof(float)), *ha = malloc((size_t)m * m * 4),
          *hb = malloc((size_t)m * m * 4), *d = NULL, *dg = NULL;
    int rc = GS_EXIT_OK;
    gs_status st = GS_SUCCESS;
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
    printf("missing-sync: seed 000's block reduction (256 threads, shared-memory tree) and\n"
           "seed 003's 16x16 tiled matrix multiply, each with its barriers and without,\n"
           "%ld runs on fresh random data, checked against FP64 on the CPU with the\n"
           "FP32 error bound (n*eps*sum|x|).\n\n",
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
            rc = GS_EXIT_FAILURE;
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
    if (st != GS_SUCCESS)
        return gs_report_failure("demo", st);
    return rc;
}

/* --------------------------------------------------- divergent-barrier */

typedef struct divergent_ctx {
    long device;
    int broken;
} divergent_ctx;

/* In the child: exit 0 correct, 10 wrong result, 1 failure. */
static int divergent_child(void *arg)
{
    const divergent_ctx *c = arg;
    double got = 0.0, want = 0.0;
    gs_device_info info;
    gs_status st = gs_cli_select_device((int)c->device, &info);
    if (st == GS_SUCCESS)
        st = gs_demo_divergent_dot(c->broken, 1 << 20, &got, &want);
    if (st != GS_SUCCESS) {
        fprintf(stderr, "  child: %s\n", gs_last_error_detail());
        return 1;
    }
    printf("  %s kernel: dot = %.0f (exact %.0f)\n", c->broken ? "broken" : "correct", got, want);
    fflush(stdout);
    return got == want ? 0 : 10;
}

/* In a child: exit 0 when device `arg` is usable, 3 (with the reason on
 * stderr) when not. The parent must not initialise CUDA before forking. */
static int gpu_probe_child(void *arg)
{
    gs_device_info info;
    gs_status st = gs_cli_select_device((int)*(const long *)arg, &info);
    return st == GS_SUCCESS ? 0 : gs_report_failure("demo", st);
}

static int demo_divergent(const demo_opts *o)
{
    int rc = GS_EXIT_OK;
    long device = o->device;
    gs_child_result probe = gs_child_run(gpu_probe_child, &device, 60.0);
    if (probe.outcome != GS_CHILD_EXITED || probe.exit_code != 0)
        return probe.outcome == GS_CHILD_EXITED ? probe.exit_code : GS_EXIT_FAILURE;
    printf("divergent-barrier: seed 004's dot product with the second __syncthreads() moved\n"
           "inside `if (cacheIndex < i)` (the seed's \"incorrect optimisation\"): threads\n"
           "with cacheIndex >= i never reach it. Each kernel runs in a child process,\n"
           "stopped after %.0f s if it has not finished.\n\n",
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
            rc = GS_EXIT_FAILURE;
        }
    }
    /* the caller's GPU afterwards: a fresh context must work */
    double got = 0.0, want = 0.0;
    gs_device_info info;
    gs_status st = gs_cli_select_device((int)o->device, &info);
    if (st == GS_SUCCESS)
        st = gs_demo_divergent_dot(0, 1 << 20, &got, &want);
    if (st != GS_SUCCESS || got != want) {
        printf("  afterwards: the GPU is NOT usable: %s\n", gs_last_error_detail());
        rc = GS_EXIT_FAILURE;
    } else {
        printf("  afterwards: the GPU is usable (the correct kernel ran again in this process)\n");
    }
    printf("\nmeaning: __syncthreads() must be reached by all threads of the block or by none.\n"
           "In a divergent branch the outcome is undefined: a hang on some GPUs, a wrong or\n"
           "a lucky result on others. Never put a block barrier under a thread-dependent\n"
           "condition.\n");
    return rc;
}

/* ------------------------------------------------------ missing-fence */

static int demo_missing_fence(const demo_opts *o, int sms)
{
    int rc = GS_EXIT_OK;
    printf("missing-fence: message passing between blocks (seeds 001/002). A producer block\n"
           "writes 8 data words, then a flag; a consumer block on another SM waits for the\n"
           "flag, then reads the words; %d more blocks keep the memory system busy.\n"
           "%ld rounds per version; a stale read is a round where the consumer saw the new\n"
           "flag and an old data word.\n\n",
           2 * sms, o->rounds);
    for (int m = 0; m < GS_MP_MODE_COUNT; ++m) {
        gs_mp_result r;
        gs_status st = gs_demo_message_passing((gs_mp_mode)m, o->rounds, 8, 2 * sms, &r);
        if (st != GS_SUCCESS)
            return gs_report_failure("demo", st);
        printf("  %-16s %ld rounds, %ld stale reads (%ld stale words)%s\n",
               gs_mp_mode_name((gs_mp_mode)m), r.rounds, r.stale, r.stale_words,
               r.timed_out ? "; a bounded wait gave up, the run stopped early" : "");
        if (m == GS_MP_RELEASE_ACQUIRE && (r.stale || r.timed_out)) {
            printf("  release/acquire must show no stale read: FAIL\n");
            rc = GS_EXIT_FAILURE;
        }
    }
    printf("\nmeaning: without ordering, nothing stops the consumer from seeing the flag\n"
           "before the data (an old cached line, or stores reaching memory out of order).\n"
           "Zero stale reads observed for a version means only that: not that it is\n"
           "correct. Release on the flag store and acquire on the flag load are what the\n"
           "PTX memory model guarantees; __threadfence() on both sides is the seeds' way.\n");
    return rc;
}

/* ------------------------------------------------ grid-oversubscribed */

static int demo_oversubscribed(void)
{
    gs_oversub_result r;
    printf("grid-oversubscribed: a kernel that calls a grid barrier, launched with more\n"
           "blocks (1024 threads each) than the GPU can hold at once.\n\n");
    gs_status st = gs_demo_oversubscribed(8, 0.5, &r);
    if (st != GS_SUCCESS)
        return gs_report_failure("demo", st);
    printf("  co-resident maximum %d blocks; requested %d\n", r.max_blocks, r.requested);
    printf("  through gs_launch:   %s: %s\n", gs_status_string(r.launch_status), r.launch_detail);
    printf("  plain <<<>>> launch: %s: %s\n", gs_status_string(r.plain_status), r.plain_detail);
    printf("\nmeaning: the resident blocks wait at the barrier for blocks that can only start\n"
           "when a resident block exits: without a guard, a hang. gs_launch refuses the grid\n"
           "up front; the watchdog turns a plain launch's hang into an error naming the\n"
           "blocks that never arrived.\n");
    int ok = r.launch_status == GS_ERR_NOT_CORESIDENT && r.plain_status == GS_ERR_BARRIER_TIMEOUT;
    if (!ok)
        printf("  expected a refusal and a time-out: FAIL\n");
    return ok ? GS_EXIT_OK : GS_EXIT_FAILURE;
}

/* ------------------------------------------------------------ command */

int gs_cmd_demo(int argc, char **argv)
{
    demo_opts o = {.device = 0, .runs = 0, .rounds = 100000, .time_limit = 5.0};
    enum { O_ONCE = 256, O_TIME_LIMIT, O_ROUNDS };
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'}, {"runs", required_argument, 0, 'r'},
        {"out", required_argument, 0, 'o'},    {"rounds", required_argument, 0, O_ROUNDS},
        {"time-limit", required_argument, 0, O_TIME_LIMIT},
        {"once", required_argument, 0, O_ONCE}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    char err[256];
    long limit = 5;
    int c, rc = 0;
    static const char shortopts[] = ":d:r:o:h";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'd': rc = gs_parse_long(optarg, "--device", 0, 1024, &o.device, err, sizeof err); break;
        case 'r': rc = gs_parse_long(optarg, "--runs", 1, 100000, &o.runs, err, sizeof err); break;
        case O_ROUNDS:
            rc = gs_parse_long(optarg, "--rounds", 1, 100000000, &o.rounds, err, sizeof err);
            break;
        case O_TIME_LIMIT:
            rc = gs_parse_long(optarg, "--time-limit", 1, 600, &limit, err, sizeof err);
            o.time_limit = (double)limit;
            break;
        case 'o': o.out_dir = optarg; break;
        case O_ONCE: o.once = optarg; break;
        case 'h': return gs_help_only("demo", argc);
        default:
            return gs_option_usage_error("demo", c, argv, shortopts);
        }
        if (rc != 0)
            return gs_usage_error("demo", err);
    }
    if (optind != argc - 1)
        return gs_usage_error("demo", optind == argc ? "name a demo: bitmap, missing-sync, divergent-barrier, "
                                            "missing-fence, grid-oversubscribed"
                                          : "expected one demo name");
    const char *name = argv[optind];
    int which = -1;
    for (int i = 0; i < NDEMOS; ++i)
        if (strcmp(name, demo_names[i]) == 0)
            which = i;
    if (which < 0) {
        snprintf(err, sizeof err,
                 "unknown demo '%s' (bitmap, missing-sync, divergent-barrier, missing-fence, "
                 "grid-oversubscribed)",
                 name);
        return gs_usage_error("demo", err);
    }
    if (o.out_dir && gs_prepare_output_dir(o.out_dir, "--out", err, sizeof err) != 0)
        return gs_usage_error("demo", err);
    if (which == 2) /* no CUDA in this process before the children fork */
        return demo_divergent(&o);
    gs_device_info d;
    gs_status st = gs_cli_select_device((int)o.device, &d);
    if (st != GS_SUCCESS)
        return gs_report_failure("demo", st);
    if (o.once)
        return missing_sync_once(o.once);
    if (o.runs == 0)
        o.runs = which == 0 ? 5 : 10;
    printf("%s, %d SMs\n\n", d.name, d.sm_count);
    switch (which) {
    case 0: return demo_bitmap(&o);
    case 1: return demo_missing_sync(&o);
    case 3: return demo_missing_fence(&o, d.sm_count);
    default: return demo_oversubscribed();
    }
}
