/*
 * cmd_check.c - `gridsync check`: a self-test of this GPU and driver, in
 * under a minute: every check of the registry (tools/check), one line each,
 * PASS or FAIL with the figure behind it; exit 0 only if every check passes.
 */
#include <getopt.h>
#include <stdio.h>

#include "check/check.h"
#include "common/device.h"
#include "common/files.h"
#include "args.h"
#include "commands.h"
#include "failure.h"

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
            return gs_help_only("check", gs_help_check, argc);
        if (c != 'd')
            return gs_option_usage_error("check", c, argv, shortopts);
        if (gs_parse_long(optarg, "--device", 0, 1024, &device, err, sizeof err) != 0)
            return gs_usage_error("check", err);
    }
    if (optind != argc) {
        char shown[GS_SHOWN_SIZE];
        snprintf(err, sizeof err, "unexpected argument '%s'",
                 gs_shown(argv[optind], shown, sizeof shown));
        return gs_usage_error("check", err);
    }
    gs_device_info d;
    gs_status st = gs_select_device((int)device, &d);
    if (st != GS_SUCCESS)
        return gs_report_failure("check", st);
    gs_check_env env = {&d, 0};
    st = gs_probe_coresident(256, &env.max_blocks);
    if (st != GS_SUCCESS)
        return gs_report_failure("check", st);
    printf("gridsync check on %s (%d SMs, compute capability %d.%d)\n", d.name, d.sm_count,
           d.cc_major, d.cc_minor);
    int failures = 0;
    for (int i = 0; i < gs_check_count(); ++i) {
        char figure[1024];
        int ok = gs_check_at(i)->run(&env, figure, sizeof figure);
        printf("%s  %-22s %s\n", ok ? "PASS" : "FAIL", gs_check_at(i)->name, figure);
        fflush(stdout);
        failures += !ok;
    }
    printf("%s: %d check%s failed\n", failures ? "FAIL" : "PASS", failures,
           failures == 1 ? "" : "s");
    return failures ? GS_EXIT_FAILURE : GS_EXIT_OK;
}
