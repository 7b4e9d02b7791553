/* gridsync.c - the gridsync command: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "gridsync.h"
#include "common/files.h"
#include "args.h"
#include "commands.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        gs_print_help(stderr, NULL);
        return GS_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    char shown[GS_SHOWN_SIZE];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return gs_help_only(NULL, gs_help_main, argc);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        if (argc > 2)
            return gs_usage_error(NULL, "--version takes no other arguments");
        printf("gridsync %s\n", gs_version());
        return GS_EXIT_OK;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc > 3) {
            fprintf(stderr, "gridsync help: expected at most one command name\n");
            return GS_EXIT_USAGE;
        }
        if (gs_print_help(stdout, argc == 3 ? argv[2] : NULL) != 0) {
            fprintf(stderr, "gridsync help: unknown command '%s'\n",
                    gs_shown(argv[2], shown, sizeof shown));
            return GS_EXIT_USAGE;
        }
        return GS_EXIT_OK;
    }
    if (strcmp(cmd, "info") == 0)
        return gs_cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return gs_cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "report") == 0)
        return gs_cmd_report(argc - 1, argv + 1);
    if (strcmp(cmd, "demo") == 0)
        return gs_cmd_demo(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return gs_cmd_check(argc - 1, argv + 1);
    fprintf(stderr, "gridsync: unknown command '%s' (see 'gridsync --help')\n",
            gs_shown(cmd, shown, sizeof shown));
    return GS_EXIT_USAGE;
}
