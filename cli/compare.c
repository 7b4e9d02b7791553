/* compare.c - `gridsync report --compare` and `gridsync bench --compare`:
 * two results files side by side. */
#include <stdio.h>

#include "results/results.h"
#include "common/files.h"
#include "report/compare.h"
#include "report/outputs.h"
#include "args.h"
#include "commands.h"

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
