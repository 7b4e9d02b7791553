/* usage.c - what every subcommand shares: usage errors, --help alone. */
#include <getopt.h>
#include <stdio.h>

#include "args.h"
#include "commands.h"

int gs_usage_error(const char *command, const char *msg)
{
    if (command)
        fprintf(stderr, "gridsync %s: %s (see 'gridsync help %s')\n", command, msg, command);
    else
        fprintf(stderr, "gridsync: %s (see 'gridsync --help')\n", msg);
    return GS_EXIT_USAGE;
}

int gs_help_only(const char *command, gs_help_fn help, int argc)
{
    if (argc > 2)
        return gs_usage_error(command, "--help takes no other arguments");
    help(stdout);
    return GS_EXIT_OK;
}

int gs_option_usage_error(const char *command, int c, char *const *argv, const char *shortopts)
{
    char err[512];
    gs_option_error(c, optopt, argv[optind - 1], shortopts, err, sizeof err);
    return gs_usage_error(command, err);
}
