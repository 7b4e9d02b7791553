/* help.h - the help texts of gridsync and of each command, printed on
 * `out`. */
#ifndef GS_CLI_HELP_H
#define GS_CLI_HELP_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A command's help (for gs_help_only). */
typedef void (*gs_help_fn)(FILE *out);

void gs_help_main(FILE *out);
void gs_help_info(FILE *out);
void gs_help_bench(FILE *out);
void gs_help_report(FILE *out);
void gs_help_demo(FILE *out);
void gs_help_check(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
