/*
 * cmd_demo.c - `gridsync demo NAME`: parse the options, find the demo in
 * the registry (tools/demo), select the GPU and run it. Exit 0 when the demo
 * ran and the correct versions were correct (whatever the broken ones
 * showed), 1 when a correct version was wrong or a CUDA call failed.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/device.h"
#include "demo/demo.h"
#include "common/files.h"
#include "args.h"
#include "commands.h"
#include "failure.h"
#include "paths.h"

/* "bitmap, missing-sync, ..." into buf. */
static const char *demo_names(char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < gs_demo_count() && n < len; ++i)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", gs_demo_at(i)->name);
    return buf;
}

/* The options; *once receives the internal --once KERNEL. Returns 0, -2
 * after --help, or the exit code of a usage error. */
static int parse(int argc, char **argv, gs_demo_opts *o, const char **once)
{
    enum { O_ONCE = 256, O_TIME_LIMIT, O_ROUNDS };
    static const struct option opts[] = {
        {"device", required_argument, 0, 'd'}, {"runs", required_argument, 0, 'r'},
        {"out", required_argument, 0, 'o'},    {"rounds", required_argument, 0, O_ROUNDS},
        {"time-limit", required_argument, 0, O_TIME_LIMIT},
        {"once", required_argument, 0, O_ONCE}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    char err[256];
    long device = 0, limit = 5;
    int c, rc = 0;
    static const char shortopts[] = ":d:r:o:h";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'd': rc = gs_parse_long(optarg, "--device", 0, 1024, &device, err, sizeof err); break;
        case 'r': rc = gs_parse_long(optarg, "--runs", 1, 100000, &o->runs, err, sizeof err); break;
        case O_ROUNDS:
            rc = gs_parse_long(optarg, "--rounds", 1, 100000000, &o->rounds, err, sizeof err);
            break;
        case O_TIME_LIMIT:
            rc = gs_parse_long(optarg, "--time-limit", 1, 600, &limit, err, sizeof err);
            o->time_limit = (double)limit;
            break;
        case 'o': o->out_dir = optarg; break;
        case O_ONCE: *once = optarg; break;
        case 'h':
            return gs_help_only("demo", gs_help_demo, argc) == GS_EXIT_OK ? -2 : GS_EXIT_USAGE;
        default:
            return gs_option_usage_error("demo", c, argv, shortopts);
        }
        if (rc != 0)
            return gs_usage_error("demo", err);
    }
    o->device = (int)device;
    return 0;
}

int gs_cmd_demo(int argc, char **argv)
{
    gs_demo_opts o = {.device = 0, .runs = 0, .rounds = 100000, .time_limit = 5.0};
    const char *once = NULL;
    char err[512], names[256];
    int rc = parse(argc, argv, &o, &once);
    if (rc != 0)
        return rc == -2 ? GS_EXIT_OK : rc;
    if (optind != argc - 1) {
        if (optind == argc)
            snprintf(err, sizeof err, "name a demo: %s", demo_names(names, sizeof names));
        else
            snprintf(err, sizeof err, "expected one demo name");
        return gs_usage_error("demo", err);
    }
    const gs_demo *demo = gs_demo_find(argv[optind]);
    if (!demo) {
        char shown[GS_SHOWN_SIZE];
        snprintf(err, sizeof err, "unknown demo '%s' (%s)",
                 gs_shown(argv[optind], shown, sizeof shown), demo_names(names, sizeof names));
        return gs_usage_error("demo", err);
    }
    if (once && !demo->once) {
        snprintf(err, sizeof err, "--once: demo %s runs no single kernel", demo->name);
        return gs_usage_error("demo", err);
    }
    if (o.out_dir && gs_prepare_output_dir(o.out_dir, "--out", err, sizeof err) != 0)
        return gs_usage_error("demo", err);
    gs_device_info d;
    gs_status st = GS_SUCCESS;
    if (!demo->in_children && (st = gs_select_device(o.device, &d)) != GS_SUCCESS)
        return gs_report_failure("demo", st);
    if (once) {
        st = demo->once(once);
        return st == GS_SUCCESS ? GS_EXIT_OK : gs_report_failure("demo", st);
    }
    if (o.runs == 0)
        o.runs = demo->default_runs;
    if (!demo->in_children)
        printf("%s, %d SMs\n\n", d.name, d.sm_count);
    int correct = 1;
    st = demo->run(&o, demo->in_children ? NULL : &d, &correct);
    if (st != GS_SUCCESS)
        return gs_report_failure("demo", st);
    return correct ? GS_EXIT_OK : GS_EXIT_FAILURE;
}
