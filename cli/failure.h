/* failure.h - the exit of a command of the GPU (info, bench, demo, check)
 * whose library call failed. */
#ifndef GS_CLI_FAILURE_H
#define GS_CLI_FAILURE_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit code for a failed status, after printing "gridsync <cmd>: <detail>". */
int gs_report_failure(const char *command, gs_status st);

#ifdef __cplusplus
}
#endif

#endif
