/* failure.c - the exit of a command whose library call failed. */
#include <stdio.h>

#include "args.h"
#include "failure.h"

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
