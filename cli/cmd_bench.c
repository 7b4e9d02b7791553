/* cmd_bench.c - `gridsync bench [SUITE...]`: measure, print, save. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bench/environment.h"
#include "gridsync_internal.h"
#include "report/report.h"
#include "bench/results.h"
#include "bench/suites.h"
#ifdef GS_HAVE_MULTI
#include "bench/multi_bench.h"
#endif
#include "args.h"
#include "commands.h"
#include "paths.h"

typedef struct bench_cli {
    long device, iterations, repeat, warmup, tree_group, tree_flat_max;
    int threads[16], nthreads;
    int blocks[16], nblocks;
    int sizes[32], nsizes;
    const char *json_path, *csv_path, *out_dir;
    int preset; /* 0 default, 1 --quick, 2 --full */
    int quiet;
} bench_cli;

static const char *const known_suites[] = {"barrier", "reduce", "dot", "gemm", "multi"};
enum { NSUITES = 5, SUITE_MULTI = 4 };

/* Mark the suite `name` (one item of a suite list) in the int[NSUITES] ctx. */
static int mark_suite(const char *name, void *ctx, char *err, size_t errlen)
{
    int *suites = ctx;
    for (int s = 0; s < NSUITES; ++s)
        if (strcmp(name, known_suites[s]) == 0) {
            suites[s] = 1;
            return 0;
        }
    snprintf(err, errlen, "unknown suite '%s' (known: barrier, reduce, dot, gemm, multi)", name);
    return -1;
}

static int parse(int argc, char **argv, bench_cli *o, int *suites)
{
    enum { O_TREE_GROUP = 256, O_TREE_FLAT, O_CSV, O_QUICK, O_FULL, O_SUITE };
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'},      {"iterations", required_argument, 0, 'i'},
        {"repeat", required_argument, 0, 'r'},      {"warmup", required_argument, 0, 'w'},
        {"threads", required_argument, 0, 't'},     {"blocks", required_argument, 0, 'b'},
        {"json", required_argument, 0, 'j'},        {"csv", required_argument, 0, O_CSV},
        {"out", required_argument, 0, 'o'},         {"quick", no_argument, 0, O_QUICK},
        {"full", no_argument, 0, O_FULL},
        {"quiet", no_argument, 0, 'q'},             {"help", no_argument, 0, 'h'},
        {"tree-group", required_argument, 0, O_TREE_GROUP},
        {"tree-flat-max", required_argument, 0, O_TREE_FLAT},
        {"sizes", required_argument, 0, 's'},
        {"suite", required_argument, 0, O_SUITE},
        {0, 0, 0, 0}};
    char err[256];
    int c, rc = 0;
    static const char shortopts[] = ":d:i:r:w:t:b:s:j:o:qh";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'd': rc = gs_parse_long(optarg, "--device", 0, 1024, &o->device, err, sizeof err); break;
        case 'i': rc = gs_parse_long(optarg, "--iterations", 1, 10000000, &o->iterations, err, sizeof err); break;
        case 'r': rc = gs_parse_long(optarg, "--repeat", 1, 100000, &o->repeat, err, sizeof err); break;
        case 'w': rc = gs_parse_long(optarg, "--warmup", 0, 100000, &o->warmup, err, sizeof err); break;
        case 't':
            rc = gs_parse_long_list(optarg, "--threads", 32, 1024, o->threads, 16, &o->nthreads,
                                    err, sizeof err);
            break;
        case 'b':
            rc = gs_parse_long_list(optarg, "--blocks", 1, 1 << 20, o->blocks, 16, &o->nblocks,
                                    err, sizeof err);
            break;
        case 's':
            rc = gs_parse_long_list(optarg, "--sizes", 0, 34, o->sizes, 32, &o->nsizes, err,
                                    sizeof err);
            break;
        case 'j': o->json_path = optarg; break;
        case O_CSV: o->csv_path = optarg; break;
        case 'o': o->out_dir = optarg; break;
        case O_SUITE: /* --suite a,b: the same as naming them */
            rc = gs_for_each_item(optarg, "--suite", mark_suite, suites, err, sizeof err);
            break;
        case O_QUICK: o->preset = 1; break;
        case O_FULL: o->preset = 2; break;
        case 'q': o->quiet = 1; break;
        case O_TREE_GROUP: rc = gs_parse_long(optarg, "--tree-group", 1, 1 << 16, &o->tree_group, err, sizeof err); break;
        case O_TREE_FLAT: rc = gs_parse_long(optarg, "--tree-flat-max", 1, 1 << 16, &o->tree_flat_max, err, sizeof err); break;
        case 'h': return gs_help_only("bench", argc) == GS_EXIT_OK ? -2 : GS_EXIT_USAGE;
        default:
            return gs_option_usage_error("bench", c, argv, shortopts);
        }
        if (rc != 0)
            return gs_usage_error("bench", err);
    }
    for (int i = optind; i < argc; ++i)
        if (gs_for_each_item(argv[i], "suite argument", mark_suite, suites, err, sizeof err) != 0)
            return gs_usage_error("bench", err);
    return 0;
}

/* Check every output path and create --out before anything runs: a bad one
 * is a usage error naming it. With --out, json and csv (len bytes each)
 * receive the default paths in it. Returns 0 or the exit code. */
static int prepare_outputs(bench_cli *o, char *json, char *csv, size_t len)
{
    char err[1024];
    if (o->out_dir && (snprintf(json, len, "%s/results.json", o->out_dir) >= (int)len ||
                       snprintf(csv, len, "%s/bench", o->out_dir) >= (int)len)) {
        snprintf(err, sizeof err, "--out '%s': path too long", o->out_dir);
        return gs_usage_error("bench", err);
    }
    if ((o->json_path && gs_check_output_path(o->json_path, "--json", 0, err, sizeof err) != 0) ||
        (o->csv_path && gs_check_output_path(o->csv_path, "--csv", 1, err, sizeof err) != 0) ||
        (o->out_dir && gs_prepare_output_dir(o->out_dir, "--out", err, sizeof err) != 0))
        return gs_usage_error("bench", err);
    if (o->out_dir && !o->json_path)
        o->json_path = json;
    if (o->out_dir && !o->csv_path)
        o->csv_path = csv;
    return 0;
}

static int save_csv(const bench_cli *o, const char *suite, const gs_table *t)
{
    char path[1024];
    if (!o->csv_path)
        return GS_EXIT_OK;
    snprintf(path, sizeof path, "%s-%s.csv", o->csv_path, suite);
    if (gs_table_save_csv(t, path) != 0) {
        fprintf(stderr, "gridsync bench: cannot write %s\n", path);
        return GS_EXIT_FAILURE;
    }
    return GS_EXIT_OK;
}

/* --quick (under 15 s on an H100/H200) and --full (every size): fill in the
 * counts the command line left open; sizes are chosen per suite below. */
static void apply_preset(bench_cli *o)
{
    if (o->preset == 1) {
        if (o->iterations == 1000)
            o->iterations = 200;
        if (o->repeat == 15)
            o->repeat = 5;
    }
}

/* The log2 sizes of a size-swept suite: --sizes, else the preset's. */
static void suite_sizes(const bench_cli *o, int gemm, const int **sizes, int *n)
{
    static const int reduce_default[] = {10, 13, 16, 19, 22, 25, 28, 30};
    static const int reduce_quick[] = {10, 16, 22, 28};
    static const int reduce_full[] = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                      21, 22, 23, 24, 25, 26, 27, 28, 29, 30};
    static const int gemm_default[] = {9, 10, 11, 12, 13};
    static const int gemm_quick[] = {10, 12};
    static const int gemm_full[] = {8, 9, 10, 11, 12, 13, 14};
#define GS__PICK(a) (*sizes = (a), *n = (int)(sizeof(a) / sizeof((a)[0])))
    if (o->nsizes) {
        *sizes = o->sizes;
        *n = o->nsizes;
    } else if (gemm) {
        if (o->preset == 1)
            GS__PICK(gemm_quick);
        else if (o->preset == 2)
            GS__PICK(gemm_full);
        else
            GS__PICK(gemm_default);
    } else {
        if (o->preset == 1)
            GS__PICK(reduce_quick);
        else if (o->preset == 2)
            GS__PICK(reduce_full);
        else
            GS__PICK(reduce_default);
    }
#undef GS__PICK
}

/* Run suite s; print and keep its table. Returns the suite's status. */
static gs_status run_suite(int s, const bench_cli *o, gs_table **t)
{
    if (s == 0) {
        gs_bench_barrier_opts bo = {
            .iterations = (int)o->iterations, .samples = (int)o->repeat, .warmup = (int)o->warmup,
            .threads = o->threads, .nthreads = o->nthreads,
            .blocks = o->nblocks ? o->blocks : NULL, .nblocks = o->nblocks,
            .tree_flat_max = (unsigned int)o->tree_flat_max,
            .tree_group = (unsigned int)o->tree_group, .quiet = o->quiet};
        return gs_bench_barrier(&bo, t);
    }
    if (s == SUITE_MULTI) {
#ifdef GS_HAVE_MULTI
        gs_bench_multi_opts mo = {.iterations = (int)o->iterations, .samples = (int)o->repeat,
                                  .quiet = o->quiet};
        return gs_bench_multi(&mo, t);
#else
        return gs__fail(GS_ERR_NOT_SUPPORTED,
                        "bench multi: this gridsync was built without NCCL (gridsync_multi)");
#endif
    }
    const int *sizes = NULL;
    int nsizes = 0;
    suite_sizes(o, s == 3, &sizes, &nsizes);
    if (s == 3) {
        int square[32], nsquare = 0;
        for (int i = 0; i < nsizes; ++i) {
            if (sizes[i] > 15) {
                fprintf(stderr, "gridsync bench gemm: skipping n = 2^%d (above 2^15)\n", sizes[i]);
                continue;
            }
            square[nsquare++] = 1 << sizes[i];
        }
        gs_bench_gemm_opts go = {.sizes = square, .nsizes = nsquare,
                                 .extra_shapes = o->nsizes == 0 && o->preset != 1,
                                 .samples = (int)o->repeat, .warmup = (int)o->warmup,
                                 .quiet = o->quiet};
        return gs_bench_gemm(&go, t);
    }
    gs_bench_reduce_opts ro = {.log2_sizes = sizes, .nsizes = nsizes, .samples = (int)o->repeat,
                               .warmup = (int)o->warmup, .quiet = o->quiet};
    return s == 1 ? gs_bench_reduce(&ro, t) : gs_bench_dot(&ro, t);
}

int gs_cmd_bench(int argc, char **argv)
{
    bench_cli o = {.iterations = 1000, .repeat = 15, .warmup = 2};
    int suites[NSUITES] = {0};
    int rc = parse(argc, argv, &o, suites);
    if (rc == -2)
        return GS_EXIT_OK;
    char json_in_out[1024], csv_in_out[1024];
    if (rc == 0)
        rc = prepare_outputs(&o, json_in_out, csv_in_out, sizeof json_in_out);
    if (rc != 0)
        return rc;
    int any = 0;
    for (int s = 0; s < NSUITES; ++s)
        any |= suites[s];
    if (!any) /* all of them; multi only where there are two GPUs or more */
        for (int s = 0; s < NSUITES; ++s) {
            int gpus = 0;
            suites[s] = s != SUITE_MULTI || (cudaGetDeviceCount(&gpus) == cudaSuccess && gpus > 1);
        }
    if (o.nthreads == 0) {
        o.threads[0] = 256;
        o.threads[1] = 1024;
        o.nthreads = 2;
    }
    apply_preset(&o);
    gs_device_info d;
    gs_status st = gs_cli_select_device((int)o.device, &d);
    if (st != GS_SUCCESS)
        return gs_report_failure("bench", st);


    cJSON *results = o.json_path ? gs_results_new(gs_environment_json(&d, argc, argv)) : NULL;
    printf("%s, %d SMs\n", d.name, d.sm_count);
    for (int s = 0; s < NSUITES && st == GS_SUCCESS; ++s) {
        gs_table *t = NULL;
        if (!suites[s])
            continue;
        st = run_suite(s, &o, &t);
        if (t && gs_table_rows(t) > 0) {
            gs_table_print(t, stdout);
            putchar('\n');
            fflush(stdout);
            if (results && gs_results_add(results, known_suites[s], t) != 0)
                rc = GS_EXIT_FAILURE;
            if (save_csv(&o, known_suites[s], t) != GS_EXIT_OK)
                rc = GS_EXIT_FAILURE;
        }
        gs_table_free(t);
    }
    if (results) {
        cJSON *env = cJSON_GetObjectItemCaseSensitive(results, "environment");
        if (env) /* the clock after the run, next to the one before it */
            cJSON_AddNumberToObject(env, "sm_clock_mhz_end", gs_current_sm_clock_mhz(d.ordinal));
        if (gs_results_write(results, o.json_path) != 0) {
            fprintf(stderr, "gridsync bench: cannot write %s\n", o.json_path);
            rc = GS_EXIT_FAILURE;
        }
    }
    if (results && o.out_dir && st == GS_SUCCESS) {
        char err[512];
        if (gs_report_write(results, o.out_dir, 1, err, sizeof err) != 0) {
            fprintf(stderr, "gridsync bench: %s\n", err);
            rc = GS_EXIT_FAILURE;
        } else {
            printf("report: %s/report.md\n", o.out_dir);
        }
    }
    cJSON_Delete(results);
    if (st != GS_SUCCESS)
        return gs_report_failure("bench", st);
    return rc;
}
