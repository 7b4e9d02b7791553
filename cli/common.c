/* common.c - what every subcommand shares: failure reporting, usage errors. */
#include <getopt.h>
#include <stdio.h>

#include "bench/results.h"
#include "common/files.h"
#include "report/compare.h"
#include "report/outputs.h"
#include "args.h"
#include "commands.h"

int gs_report_failure(const char *command, gs_status st)
{
    const char *detail = gs_last_error_detail();
    fprintf(stderr, "gridsync %s: %s\n", command, detail[0] ? detail : gs_status_string(st));
    switch (st) {
    case GS_ERR_NO_DEVICE: return GS_EXIT_NO_GPU;
    case GS_ERR_INVALID_ARGUMENT:
    case GS_ERR_NOT_CORESIDENT: return GS_EXIT_USAGE;
    default: return GS_EXIT_FAILURE;
    }
}

int gs_usage_error(const char *command, const char *msg)
{
    if (command)
        fprintf(stderr, "gridsync %s: %s (see 'gridsync help %s')\n", command, msg, command);
    else
        fprintf(stderr, "gridsync: %s (see 'gridsync --help')\n", msg);
    return GS_EXIT_USAGE;
}

int gs_help_only(const char *command, int argc)
{
    if (argc > 2)
        return gs_usage_error(command, "--help takes no other arguments");
    gs_print_help(stdout, command);
    return GS_EXIT_OK;
}

int gs_option_usage_error(const char *command, int c, char *const *argv, const char *shortopts)
{
    char err[512];
    gs_option_error(c, optopt, argv[optind - 1], shortopts, err, sizeof err);
    return gs_usage_error(command, err);
}

int gs_run_compare(const char *command, const char *old_path, const char *new_path,
                   const char *dir, int plots, const char *md)
{
    char err[1024];
    cJSON *a = gs_results_load(old_path, err, sizeof err), *b = NULL;
    if (a)
        b = gs_results_load(new_path, err, sizeof err);
    if (!a || !b) {
        cJSON_Delete(a);
        fprintf(stderr, "gridsync %s: %s\n", command, err);
        return GS_EXIT_USAGE;
    }
    gs_compare_options o = {old_path, new_path, dir, plots, md ? md : dir ? NULL : "-"};
    int rc = gs_compare_write(a, b, &o, err, sizeof err);
    cJSON_Delete(a);
    cJSON_Delete(b);
    if (rc != 0) {
        fprintf(stderr, "gridsync %s: %s\n", command, err);
        return GS_EXIT_FAILURE;
    }
    if (dir)
        fprintf(gs_output_is_stdout(md) ? stderr : stdout, "comparison: %s/compare.md\n",
                gs_shown(dir, err, sizeof err));
    return GS_EXIT_OK;
}
