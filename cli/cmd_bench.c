/* cmd_bench.c - `gridsync bench [SUITE...]`: measure, print, save. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bench/environment.h"
#include "bench/registry.h"
#include "bench/results.h"
#include "report/report.h"
#include "common/device.h"
#include "args.h"
#include "commands.h"
#include "paths.h"

typedef struct bench_cli {
    long device, iterations, repeat, warmup, tree_group, tree_flat_max;
    int threads[16], nthreads;
    int blocks[16], nblocks;
    int sizes[32], nsizes;
    const char *json_path, *csv_path, *out_dir;
    gs_preset preset;
    int quiet, list;
} bench_cli;

enum { MAX_SUITES = 32 };

/* Mark the suite `name` (one item of a suite list) in the int[MAX_SUITES]
 * ctx, by its place in the registry. */
static int mark_suite(const char *name, void *ctx, char *err, size_t errlen)
{
    int *suites = ctx;
    for (int s = 0; s < gs_bench_suite_count() && s < MAX_SUITES; ++s)
        if (strcmp(name, gs_bench_suite_at(s)->name) == 0) {
            suites[s] = 1;
            return 0;
        }
    int n = snprintf(err, errlen, "unknown suite '%s' (known:", name);
    for (int s = 0; s < gs_bench_suite_count() && n > 0 && (size_t)n < errlen; ++s)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", s ? "," : "",
                      gs_bench_suite_at(s)->name);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, ")");
    return -1;
}

static int parse(int argc, char **argv, bench_cli *o, int *suites)
{
    enum { O_TREE_GROUP = 256, O_TREE_FLAT, O_CSV, O_QUICK, O_FULL, O_SUITE, O_LIST };
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
        {"list", no_argument, 0, O_LIST},
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
        case O_QUICK: o->preset = GS_PRESET_QUICK; break;
        case O_FULL: o->preset = GS_PRESET_FULL; break;
        case O_LIST: o->list = 1; break;
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
    if (o->list && argc > 2)
        return gs_usage_error("bench", "--list takes no other arguments");
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

/* --quick (under 15 s on an H100/H200): fewer iterations and samples where
 * the command line left them at their defaults (sizes: each suite's own). */
static void apply_preset(bench_cli *o)
{
    if (o->preset == GS_PRESET_QUICK) {
        if (o->iterations == 1000)
            o->iterations = 200;
        if (o->repeat == 15)
            o->repeat = 5;
    }
}

/* What suite `s` is asked for: the command line, its sizes for the preset. */
static gs_bench_params params_for(const gs_bench_suite *s, const bench_cli *o)
{
    gs_bench_params p = {
        .iterations = (int)o->iterations, .samples = (int)o->repeat, .warmup = (int)o->warmup,
        .threads = o->threads, .nthreads = o->nthreads,
        .blocks = o->nblocks ? o->blocks : NULL, .nblocks = o->nblocks,
        .sizes = s->sizes[o->preset], .sizes_given = o->nsizes > 0, .preset = o->preset,
        .tree_flat_max = (unsigned int)o->tree_flat_max,
        .tree_group = (unsigned int)o->tree_group, .quiet = o->quiet};
    if (o->nsizes)
        p.sizes = (gs_size_list){o->sizes, o->nsizes};
    return p;
}

/* Without suite names: every suite this machine has the GPUs for. */
static void select_default_suites(int *suites)
{
    int gpus = -1;
    for (int s = 0; s < gs_bench_suite_count() && s < MAX_SUITES; ++s) {
        int need = gs_bench_suite_at(s)->min_gpus;
        if (need > 1 && gpus < 0 && cudaGetDeviceCount(&gpus) != cudaSuccess)
            gpus = 0;
        suites[s] = need <= 1 || gpus >= need;
    }
}

int gs_cmd_bench(int argc, char **argv)
{
    bench_cli o = {.iterations = 1000, .repeat = 15, .warmup = 2};
    int suites[MAX_SUITES] = {0};
    int rc = parse(argc, argv, &o, suites);
    if (rc == -2)
        return GS_EXIT_OK;
    if (rc == 0 && o.list) {
        gs_print_suites(stdout);
        return GS_EXIT_OK;
    }
    char json_in_out[1024], csv_in_out[1024];
    if (rc == 0)
        rc = prepare_outputs(&o, json_in_out, csv_in_out, sizeof json_in_out);
    if (rc != 0)
        return rc;
    int any = 0;
    for (int s = 0; s < MAX_SUITES; ++s)
        any |= suites[s];
    if (!any)
        select_default_suites(suites);
    if (o.nthreads == 0) {
        o.threads[0] = 256;
        o.threads[1] = 1024;
        o.nthreads = 2;
    }
    apply_preset(&o);
    gs_device_info d;
    gs_status st = gs_select_device((int)o.device, &d);
    if (st != GS_SUCCESS)
        return gs_report_failure("bench", st);


    cJSON *results = o.json_path ? gs_results_new(gs_environment_json(&d, argc, argv)) : NULL;
    printf("%s, %d SMs\n", d.name, d.sm_count);
    for (int i = 0; i < gs_bench_suite_count() && i < MAX_SUITES && st == GS_SUCCESS; ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        gs_table *t = NULL;
        if (!suites[i])
            continue;
        gs_bench_params p = params_for(s, &o);
        st = gs_bench_suite_run(s, &p, &t);
        if (t && gs_table_rows(t) > 0) {
            gs_table_print(t, stdout);
            putchar('\n');
            fflush(stdout);
            if (results && gs_results_add(results, s->name, t) != 0)
                rc = GS_EXIT_FAILURE;
            if (save_csv(&o, s->name, t) != GS_EXIT_OK)
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
