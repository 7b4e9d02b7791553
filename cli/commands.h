/* commands.h - the gridsync subcommands. Each takes its own argv (argv[0] is
 * the command name) and returns an exit code (enum gs_exit). */
#ifndef GS_CLI_COMMANDS_H
#define GS_CLI_COMMANDS_H

#include <stdio.h>

#include "help.h"

#ifdef __cplusplus
extern "C" {
#endif

int gs_cmd_info(int argc, char **argv);
int gs_cmd_bench(int argc, char **argv);
int gs_cmd_report(int argc, char **argv);
int gs_cmd_demo(int argc, char **argv);
int gs_cmd_check(int argc, char **argv);

/* Help text of a command, or of gridsync itself when `command` is NULL.
 * Returns -1 for an unknown command. */
int gs_print_help(FILE *out, const char *command);

/* The benchmark suites and what each measures, as `gridsync help bench`
 * lists them (`gridsync bench --list`). */
void gs_print_suites(FILE *out);

/* Print "gridsync <cmd>: <msg> (see 'gridsync help <cmd>')" (command NULL:
 * "gridsync: <msg> (see 'gridsync --help')") and return GS_EXIT_USAGE. */
int gs_usage_error(const char *command, const char *msg);

/* --help or -h in `argc` arguments (the command's name or gridsync's
 * included): `help`, the help of `command` (NULL: gridsync's), on stdout
 * and GS_EXIT_OK when it is alone, else a usage error. */
int gs_help_only(const char *command, gs_help_fn help, int argc);

/* The usage error for getopt_long's return `c` (':' or '?') after it read
 * argv with `shortopts` (see gs_option_error); returns GS_EXIT_USAGE. */
int gs_option_usage_error(const char *command, int c, char *const *argv, const char *shortopts);

/* `gridsync <command> --compare OLD NEW`: the two results files compared
 * (report/compare.h) as markdown on `md` (NULL: stdout unless `dir`), and
 * in `dir` (NULL: none) with plots. Returns the exit code. */
int gs_run_compare(const char *command, const char *old_path, const char *new_path,
                   const char *dir, int plots, const char *md);

#ifdef __cplusplus
}
#endif

#endif
