/*
 * cmd_bench.c - `gridsync bench [SUITE...]`: measure, print, save; and
 * `gridsync bench --compare OLD.json NEW.json`, which measures nothing.
 *
 * The options follow NVBench where they apply: --devices (a list or
 * "all"), --min-samples, --min-time, --max-noise, --timeout, --json, --csv
 * and --md with "-" for standard output, --list. The older ones stay:
 * -d N, --repeat N (exactly N samples), --csv PREFIX, --out DIR.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/device.h"
#include "harness/environment.h"
#include "harness/nvml.h"
#include "common/files.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/tables.h"
#include "results/registry.h"
#include "results/results.h"
#include "suites/run.h"
#include "args.h"
#include "commands.h"
#include "failure.h"
#include "paths.h"

enum { MAX_SUITES = 32, MAX_DEVICES = 64 };

typedef struct bench_cli {
    long iterations, repeat, warmup, tree_group, tree_flat_max, min_samples;
    double min_time, max_noise, timeout;
    int devices[MAX_DEVICES], ndevices, all_devices;
    int threads[16], nthreads;
    int blocks[16], nblocks;
    int sizes[32], nsizes;
    const char *json_path, *csv_path, *md_path, *out_dir;
    const char *rank_child; /* --rank-child DIR (internal): a suite's part in another process */
    gs_preset preset;
    int quiet, list, compare, cold;
    int repeat_given, min_samples_given, min_time_given, max_noise_given, timeout_given;
    int measuring_options; /* options that only a run uses (not --compare's) */
} bench_cli;

/* Mark the suite `name` (one item of a suite list) in the int[MAX_SUITES]
 * ctx, by its place in the registry. A suite whose rows are measured
 * elsewhere (its runner has no run function) is refused here, before any
 * GPU is looked for. */
static int mark_suite(const char *name, void *ctx, char *err, size_t errlen)
{
    int *suites = ctx;
    for (int s = 0; s < gs_bench_suite_count() && s < MAX_SUITES; ++s)
        if (strcmp(name, gs_bench_suite_at(s)->name) == 0) {
            if (!gs_bench_runner_of(gs_bench_suite_at(s))->run) {
                snprintf(err, errlen, "suite '%s' is not measured by gridsync bench: its rows "
                                      "come from elsewhere ('gridsync help bench' says where)",
                         gs_bench_suite_at(s)->name);
                return -1;
            }
            suites[s] = 1;
            return 0;
        }
    char shown[GS_SHOWN_SIZE];
    int n = snprintf(err, errlen, "unknown suite '%s' (known:",
                     gs_shown(name, shown, sizeof shown));
    for (int s = 0; s < gs_bench_suite_count() && n > 0 && (size_t)n < errlen; ++s)
        n += snprintf(err + n, errlen - (size_t)n, "%s %s", s ? "," : "",
                      gs_bench_suite_at(s)->name);
    if (n > 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, ")");
    return -1;
}

enum {
    O_TREE_GROUP = 256, O_TREE_FLAT, O_CSV, O_QUICK, O_FULL, O_SUITE, O_LIST, O_MD,
    O_MIN_SAMPLES, O_MIN_TIME, O_MAX_NOISE, O_TIMEOUT, O_COLD, O_COMPARE, O_RANK_CHILD
};

/* One option of the run; 0, or -1 with a message in err. */
static int parse_option(int c, const char *arg, bench_cli *o, int *suites, char *err,
                        size_t errlen)
{
    o->measuring_options += c != 'j' && c != O_CSV && c != O_MD && c != 'o' && c != 'q' &&
                            c != O_COMPARE;
    switch (c) {
    case 'd':
        return gs_parse_devices(arg, "--devices", o->devices, MAX_DEVICES, &o->ndevices,
                                &o->all_devices, err, errlen);
    case 'i': return gs_parse_long(arg, "--iterations", 1, 10000000, &o->iterations, err, errlen);
    case 'r':
        o->repeat_given = 1;
        return gs_parse_long(arg, "--repeat", 1, 100000, &o->repeat, err, errlen);
    case 'w': return gs_parse_long(arg, "--warmup", 0, 100000, &o->warmup, err, errlen);
    case 't':
        return gs_parse_long_list(arg, "--threads", 32, 1024, o->threads, 16, &o->nthreads, err,
                                  errlen);
    case 'b':
        return gs_parse_long_list(arg, "--blocks", 1, 1 << 20, o->blocks, 16, &o->nblocks, err,
                                  errlen);
    case 's':
        return gs_parse_long_list(arg, "--sizes", 0, 34, o->sizes, 32, &o->nsizes, err, errlen);
    case 'j': o->json_path = arg; return 0;
    case O_CSV: o->csv_path = arg; return 0;
    case O_MD: o->md_path = arg; return 0;
    case 'o': o->out_dir = arg; return 0;
    case O_SUITE: /* --suite a,b: the same as naming them */
        return gs_for_each_item(arg, "--suite", mark_suite, suites, err, errlen);
    case O_QUICK: o->preset = GS_PRESET_QUICK; return 0;
    case O_FULL: o->preset = GS_PRESET_FULL; return 0;
    case O_LIST: o->list = 1; return 0;
    case O_COMPARE: o->compare = 1; return 0;
    case O_COLD: o->cold = 1; return 0;
    case O_RANK_CHILD: o->rank_child = arg; return 0;
    case 'q': o->quiet = 1; return 0;
    case O_TREE_GROUP:
        return gs_parse_long(arg, "--tree-group", 1, 1 << 16, &o->tree_group, err, errlen);
    case O_TREE_FLAT:
        return gs_parse_long(arg, "--tree-flat-max", 1, 1 << 16, &o->tree_flat_max, err, errlen);
    case O_MIN_SAMPLES:
        o->min_samples_given = 1;
        return gs_parse_long(arg, "--min-samples", 1, 1000000, &o->min_samples, err, errlen);
    case O_MIN_TIME:
        o->min_time_given = 1;
        return gs_parse_double(arg, "--min-time", 0.0, 3600.0, &o->min_time, err, errlen);
    case O_MAX_NOISE: /* a percentage, as NVBench takes it */
        o->max_noise_given = 1;
        return gs_parse_double(arg, "--max-noise", 0.0, 100.0, &o->max_noise, err, errlen);
    case O_TIMEOUT:
        o->timeout_given = 1;
        return gs_parse_double(arg, "--timeout", 0.0, 86400.0, &o->timeout, err, errlen);
    }
    return 0;
}

/* The options' combinations, checked before anything runs. */
static int check_combinations(const bench_cli *o, int argc, int positional)
{
    int adaptive = o->min_samples_given || o->min_time_given || o->max_noise_given ||
                   o->timeout_given;
    int to_stdout = gs_output_is_stdout(o->json_path) + gs_output_is_stdout(o->csv_path) +
                    gs_output_is_stdout(o->md_path);
    if (o->list && argc > 2)
        return gs_usage_error("bench", "--list takes no other arguments");
    if (o->rank_child && (o->list || o->compare || o->json_path || o->csv_path || o->md_path ||
                          o->out_dir || o->ndevices != 1 || o->all_devices))
        return gs_usage_error("bench", "--rank-child is internal: a suite of two processes "
                                       "starts it with one GPU (--devices N) and no outputs");
    if (o->compare && positional != 2)
        return gs_usage_error("bench", "--compare needs two results files: OLD.json NEW.json");
    if (o->compare && (o->measuring_options || o->json_path || o->csv_path))
        return gs_usage_error("bench", "--compare measures nothing: it takes only --out and "
                                       "--md");
    if (o->repeat_given && adaptive)
        return gs_usage_error("bench", "--repeat N takes exactly N samples: it goes without "
                                       "--min-samples, --min-time, --max-noise and --timeout");
    if (to_stdout > 1)
        return gs_usage_error("bench", "only one of --json, --csv and --md can write to "
                                       "stdout ('-')");
    if (to_stdout && (o->ndevices > 1 || o->all_devices))
        return gs_usage_error("bench", "several devices write one file each: give --json, "
                                       "--csv or --md a file name, not '-'");
    return 0;
}

static int parse(int argc, char **argv, bench_cli *o, int *suites)
{
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'},      {"devices", required_argument, 0, 'd'},
        {"iterations", required_argument, 0, 'i'},  {"repeat", required_argument, 0, 'r'},
        {"warmup", required_argument, 0, 'w'},      {"threads", required_argument, 0, 't'},
        {"blocks", required_argument, 0, 'b'},      {"json", required_argument, 0, 'j'},
        {"csv", required_argument, 0, O_CSV},       {"md", required_argument, 0, O_MD},
        {"markdown", required_argument, 0, O_MD},   {"out", required_argument, 0, 'o'},
        {"quick", no_argument, 0, O_QUICK},         {"full", no_argument, 0, O_FULL},
        {"quiet", no_argument, 0, 'q'},             {"help", no_argument, 0, 'h'},
        {"tree-group", required_argument, 0, O_TREE_GROUP},
        {"tree-flat-max", required_argument, 0, O_TREE_FLAT},
        {"sizes", required_argument, 0, 's'},       {"suite", required_argument, 0, O_SUITE},
        {"list", no_argument, 0, O_LIST},
        {"min-samples", required_argument, 0, O_MIN_SAMPLES},
        {"min-time", required_argument, 0, O_MIN_TIME},
        {"max-noise", required_argument, 0, O_MAX_NOISE},
        {"timeout", required_argument, 0, O_TIMEOUT},
        {"cold", no_argument, 0, O_COLD},           {"compare", no_argument, 0, O_COMPARE},
        {"rank-child", required_argument, 0, O_RANK_CHILD}, /* internal: in no help */
        {0, 0, 0, 0}};
    char err[256];
    int c;
    static const char shortopts[] = ":d:i:r:w:t:b:s:j:o:qh";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        if (c == 'h')
            return gs_help_only("bench", gs_help_bench, argc) == GS_EXIT_OK ? -2
                                                                           : GS_EXIT_USAGE;
        if (c == '?' || c == ':')
            return gs_option_usage_error("bench", c, argv, shortopts);
        if (parse_option(c, optarg, o, suites, err, sizeof err) != 0)
            return gs_usage_error("bench", err);
    }
    int rc = check_combinations(o, argc, argc - optind);
    if (rc != 0 || o->compare)
        return rc;
    for (int i = optind; i < argc; ++i)
        if (gs_for_each_item(argv[i], "suite argument", mark_suite, suites, err, sizeof err) != 0)
            return gs_usage_error("bench", err);
    return 0;
}

/* --csv's three forms: a stream, one file (*.csv), or a prefix of one file
 * per suite (PREFIX-<suite>.csv). */
static int csv_is_prefix(const char *csv)
{
    size_t n = strlen(csv);
    return !gs_output_is_stream(csv) && !(n >= 4 && strcmp(csv + n - 4, ".csv") == 0);
}

/* Check every output path and create --out before anything runs: a bad one
 * is a usage error naming it. Returns 0 or the exit code. */
static int prepare_outputs(bench_cli *o)
{
    char err[1024];
    if ((o->json_path && !gs_output_is_stream(o->json_path) &&
         gs_check_output_path(o->json_path, "--json", 0, err, sizeof err) != 0) ||
        (o->md_path && !gs_output_is_stream(o->md_path) &&
         gs_check_output_path(o->md_path, "--md", 0, err, sizeof err) != 0) ||
        (o->csv_path && !gs_output_is_stream(o->csv_path) &&
         gs_check_output_path(o->csv_path, "--csv", csv_is_prefix(o->csv_path), err,
                              sizeof err) != 0) ||
        (o->out_dir && gs_prepare_output_dir(o->out_dir, "--out", err, sizeof err) != 0))
        return gs_usage_error("bench", err);
    return 0;
}

/* --quick (under 15 s on an H100/H200): fewer iterations and samples where
 * the command line left them at their defaults (sizes: each suite's own). */
static void apply_preset(bench_cli *o)
{
    if (o->preset == GS_PRESET_QUICK) {
        if (o->iterations == 1000)
            o->iterations = 200;
        if (!o->repeat_given)
            o->repeat = 5;
    }
}

/* The stopping rule the command line asks for: exactly --repeat samples,
 * or NVBench's rule with what was given. */
static gs_sampling sampling_of(const bench_cli *o)
{
    gs_sampling r;
    if (o->min_samples_given || o->min_time_given || o->max_noise_given || o->timeout_given) {
        r = gs_sampling_nvbench();
        if (o->min_samples_given)
            r.min_samples = (int)o->min_samples;
        if (r.max_samples < r.min_samples)
            r.max_samples = r.min_samples;
        if (o->min_time_given)
            r.min_time_s = o->min_time;
        if (o->max_noise_given)
            r.max_noise = o->max_noise / 100.0;
        if (o->timeout_given)
            r.timeout_s = o->timeout;
    } else {
        r = gs_sampling_fixed((int)o->repeat);
    }
    r.cold = o->cold;
    return r;
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
        .tree_group = (unsigned int)o->tree_group, .quiet = o->quiet,
        .sampling = sampling_of(o),
        /* a suite of several GPUs takes the listed ones, when there are several */
        .devices = o->ndevices > 1 ? o->devices : NULL,
        .ndevices = o->ndevices > 1 ? o->ndevices : 0};
    if (o->nsizes)
        p.sizes = (gs_size_list){o->sizes, o->nsizes};
    return p;
}

/* Without suite names: every suite this machine has the GPUs for (and that
 * gridsync bench measures: not one whose rows come from elsewhere). */
static void select_default_suites(int *suites)
{
    int gpus = -1;
    for (int s = 0; s < gs_bench_suite_count() && s < MAX_SUITES; ++s) {
        int need = gs_bench_suite_at(s)->min_gpus;
        if (need > 1 && gpus < 0 && cudaGetDeviceCount(&gpus) != cudaSuccess)
            gpus = 0;
        suites[s] = (need <= 1 || gpus >= need) && gs_bench_runner_of(gs_bench_suite_at(s))->run;
    }
}

/* The GPUs to run on: --devices, all of them, or device 0. */
static gs_status resolve_devices(bench_cli *o)
{
    if (o->all_devices) {
        int n = 0;
        gs_status st = gs_device_count(&n);
        if (st != GS_SUCCESS)
            return st;
        o->ndevices = n < MAX_DEVICES ? n : MAX_DEVICES;
        for (int i = 0; i < o->ndevices; ++i)
            o->devices[i] = i;
    }
    if (o->ndevices == 0) {
        o->devices[0] = 0;
        o->ndevices = 1;
    }
    return GS_SUCCESS;
}

/* The GPU's state before and after a suite, in its table; a warning when
 * its clocks were held down, or when figures stayed noisier than asked. */
static void annotate_suite(cJSON *table, const gs_gpu_state *start, const gs_gpu_state *end,
                           const gs_sampling *rule, const char *name)
{
    cJSON *state = cJSON_AddObjectToObject(table, "gpu_state");
    if (state) {
        cJSON_AddItemToObject(state, "start", gs_gpu_state_json(start));
        cJSON_AddItemToObject(state, "end", gs_gpu_state_json(end));
    }
    if (end->ok && end->has_throttle && (end->throttle & GS_THROTTLE_SLOWING)) {
        char names[256];
        gs_throttle_names(end->throttle & GS_THROTTLE_SLOWING, names, sizeof names);
        fprintf(stderr, "gridsync bench: warning: after %s the GPU reports %s (SM clock %d MHz): "
                        "its figures may be low\n",
                name, names, end->sm_mhz);
    }
    const cJSON *r;
    int noisy = 0;
    double worst = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(table, "rows"))
    {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, GS_ROW_NOISE);
        if (rule->max_noise > 0 && cJSON_IsNumber(n) && n->valuedouble > rule->max_noise) {
            ++noisy;
            worst = n->valuedouble > worst ? n->valuedouble : worst;
        }
    }
    if (noisy)
        fprintf(stderr, "gridsync bench: warning: %d figures of %s stayed above --max-noise "
                        "%.2f%% (up to %.2f%%; they stopped at --timeout or when the noise "
                        "settled)\n",
                noisy, name, 100.0 * rule->max_noise, 100.0 * worst);
}

/* Run the chosen suites on the current GPU (`d`); their tables in
 * `results`, printed on `human`. `first`: the first device of the run (the
 * suites of several GPUs run with it only). */
static gs_status run_suites(const bench_cli *o, const int *suites, const gs_device_info *d,
                            int first, cJSON *results, FILE *human, int *rc)
{
    gs_status st = GS_SUCCESS;
    for (int i = 0; i < gs_bench_suite_count() && i < MAX_SUITES && st == GS_SUCCESS; ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        gs_table *t = NULL;
        if (!suites[i] || (s->min_gpus > 1 && !first))
            continue;
        gs_bench_params p = params_for(s, o);
        gs_gpu_state start, end;
        gs_gpu_state_read(d->ordinal, &start);
        st = gs_bench_suite_run(s, &p, &t);
        gs_gpu_state_read(d->ordinal, &end);
        if (t && gs_table_rows(t) > 0) {
            gs_table_print(t, human);
            fputc('\n', human);
            fflush(human);
            if (gs_results_add(results, s->name, t) != 0)
                *rc = GS_EXIT_FAILURE;
            else
                annotate_suite(gs_results_suite(results, s->name), &start, &end, &p.sampling,
                               s->name);
        }
        gs_table_free(t);
    }
    return st;
}

/* PREFIX-<suite>.csv for every suite of `results`. */
static int write_csv_prefix(const cJSON *results, const char *prefix)
{
    const cJSON *suite;
    int rc = GS_EXIT_OK;
    cJSON_ArrayForEach(suite, cJSON_GetObjectItemCaseSensitive(results, "suites"))
    {
        char path[1100], err[GS_SHOWN_SIZE + 128] = "a CSV file's path is too long";
        FILE *f = NULL;
        if (snprintf(path, sizeof path, "%s-%s.csv", prefix, suite->string) < (int)sizeof path)
            f = gs_open_output(path, err, sizeof err);
        int bad = !f;
        if (f) {
            bad = gs_csv_results_table(f, suite, NULL) != 0;
            bad |= fclose(f) != 0;
        }
        if (f && bad) {
            char shown[GS_SHOWN_SIZE];
            snprintf(err, sizeof err, "cannot write %s", gs_shown(path, shown, sizeof shown));
        }
        if (bad) {
            fprintf(stderr, "gridsync bench: %s\n", err);
            rc = GS_EXIT_FAILURE;
        }
    }
    return rc;
}

/* One output of the run of device `ordinal` (one of `n`). */
static int write_output(const cJSON *results, const char *target, const char *format,
                        int ordinal, int n)
{
    char path[1100], err[1200], shown[GS_SHOWN_SIZE];
    if (!target)
        return GS_EXIT_OK;
    if (gs_path_for_device(target, ordinal, n, path, sizeof path) != 0) {
        fprintf(stderr, "gridsync bench: %s: path too long\n",
                gs_shown(target, shown, sizeof shown));
        return GS_EXIT_FAILURE;
    }
    if (strcmp(format, "csv") == 0 && csv_is_prefix(target))
        return write_csv_prefix(results, path);
    if (gs_output_results(results, gs_output_is_stream(target) ? target : path, format, err,
                          sizeof err) != 0) {
        fprintf(stderr, "gridsync bench: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    return GS_EXIT_OK;
}

/* Everything the command line asked to be written, for one device; what
 * was written said on `human`. */
static int write_outputs(const bench_cli *o, const cJSON *results, int ordinal, int ok,
                         FILE *human)
{
    int n = o->ndevices, rc = GS_EXIT_OK;
    char dir[1100], json[1200], csv[1200];
    const char *json_path = o->json_path, *csv_path = o->csv_path;
    if (o->out_dir) {
        if ((n > 1 ? snprintf(dir, sizeof dir, "%s/dev%d", o->out_dir, ordinal)
                   : snprintf(dir, sizeof dir, "%s", o->out_dir)) >= (int)sizeof dir ||
            gs_make_dirs(dir) != 0) {
            char shown[GS_SHOWN_SIZE];
            fprintf(stderr, "gridsync bench: cannot create %s/dev%d\n",
                    gs_shown(o->out_dir, shown, sizeof shown), ordinal);
            return GS_EXIT_FAILURE;
        }
        snprintf(json, sizeof json, "%s/results.json", dir);
        snprintf(csv, sizeof csv, "%s/bench", dir);
        if (!o->json_path)
            json_path = json;
        if (!o->csv_path)
            csv_path = csv;
    }
    int per = o->out_dir && !o->json_path ? 1 : n; /* paths in a device's folder are its own */
    rc |= write_output(results, json_path, "json", ordinal, per);
    rc |= write_output(results, csv_path, "csv", ordinal, o->out_dir && !o->csv_path ? 1 : n);
    rc |= write_output(results, o->md_path, "md", ordinal, n);
    if (o->out_dir && ok) {
        char err[512];
        if (gs_report_write(results, dir, 1, err, sizeof err) != 0) {
            fprintf(stderr, "gridsync bench: %s\n", err);
            rc = GS_EXIT_FAILURE;
        } else {
            fprintf(human, "report: %s/report.md\n", dir);
        }
    }
    return rc;
}

/* --rank-child DIR: the part of the one suite named that runs in another
 * process (harness/params.h, gs_bench_child_fn), started by that suite
 * itself with one GPU; it writes nothing on stdout. */
static int run_rank_child(const bench_cli *o, const int *suites)
{
    const gs_bench_suite *s = NULL;
    int named = 0;
    for (int i = 0; i < gs_bench_suite_count() && i < MAX_SUITES; ++i)
        if (suites[i]) {
            s = gs_bench_suite_at(i);
            ++named;
        }
    gs_bench_child_fn child = named == 1 ? gs_bench_runner_of(s)->rank_child : NULL;
    if (!child)
        return gs_usage_error("bench", "--rank-child is internal: it goes with the one suite "
                                       "that started it (multi)");
    gs_device_info d;
    gs_status st = gs_select_device(o->devices[0], &d);
    if (st == GS_SUCCESS) {
        gs_bench_params p = params_for(s, o);
        st = child(&p, o->devices[0], o->rank_child);
    }
    return st == GS_SUCCESS ? GS_EXIT_OK : gs_report_failure("bench", st);
}

/* --list: the suites (sizes, gridsync's methods, the peers) and the GPUs. */
static int list(void)
{
    int n = 0;
    gs_print_suites(stdout);
    printf("\ndevices:\n");
    if (gs_device_count(&n) != GS_SUCCESS || n == 0) {
        printf("  none usable here (%s)\n", gs_last_error_detail());
        return GS_EXIT_OK;
    }
    for (int i = 0; i < n; ++i) {
        gs_device_info d;
        if (gs_device_query(i, &d) == GS_SUCCESS)
            printf("  %d  %s, compute capability %d.%d, %d SMs\n", i, d.name, d.cc_major,
                   d.cc_minor, d.sm_count);
    }
    return GS_EXIT_OK;
}

int gs_cmd_bench(int argc, char **argv)
{
    bench_cli o = {.iterations = 1000, .repeat = 15, .warmup = 2};
    int suites[MAX_SUITES] = {0};
    int rc = parse(argc, argv, &o, suites);
    if (rc == -2)
        return GS_EXIT_OK;
    if (rc == 0 && o.list)
        return list();
    if (rc == 0 && o.rank_child)
        return run_rank_child(&o, suites);
    if (rc == 0)
        rc = prepare_outputs(&o);
    if (rc != 0)
        return rc;
    if (o.compare) /* no GPU */
        return gs_run_compare("bench", argv[argc - 2], argv[argc - 1], o.out_dir, 1, o.md_path);
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
    gs_status st = resolve_devices(&o);
    /* standard output carries what --json/--csv/--md - asked for, and nothing else */
    int to_stdout = gs_output_is_stdout(o.json_path) || gs_output_is_stdout(o.csv_path) ||
                    gs_output_is_stdout(o.md_path);
    FILE *human = to_stdout ? stderr : stdout;
    for (int k = 0; k < o.ndevices && st == GS_SUCCESS; ++k) {
        gs_device_info d;
        st = gs_select_device(o.devices[k], &d);
        if (st != GS_SUCCESS)
            break;
        cJSON *results = gs_results_new(gs_environment_json(&d, argc, argv));
        if (!results)
            return GS_EXIT_FAILURE;
        fprintf(human, "%s (device %d), %d SMs\n", d.name, d.ordinal, d.sm_count);
        st = run_suites(&o, suites, &d, k == 0, results, human, &rc);
        cJSON *env = cJSON_GetObjectItemCaseSensitive(results, "environment");
        if (env) { /* the GPU after the run, next to the one before it */
            gs_gpu_state end;
            gs_gpu_state_read(d.ordinal, &end);
            cJSON_AddNumberToObject(env, "sm_clock_mhz_end", end.ok ? end.sm_mhz : -1);
            cJSON_AddItemToObject(env, "gpu_state_end", gs_gpu_state_json(&end));
        }
        rc |= write_outputs(&o, results, d.ordinal, st == GS_SUCCESS, human);
        cJSON_Delete(results);
    }
    if (st != GS_SUCCESS)
        return gs_report_failure("bench", st);
    return rc ? GS_EXIT_FAILURE : GS_EXIT_OK;
}
