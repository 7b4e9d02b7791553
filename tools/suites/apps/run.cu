/*
 * run.cu - how `gridsync bench apps` measures (describe.c describes it): the
 * applications in turn, as GS_APPS (apps.h) lists them, each in its own
 * folder (cg/, stencil/, wavefront/, ...). Each adds its rows
 * to the one table (apps.h says what a row is); docs/apps.md says what each
 * version does.
 */
#include "gridsync_internal.h"
#include "suites/apps/apps.h"

extern "C" int gs_apps_sizes(const gs_bench_params *params,
                             const gs_size_list lists[GS_PRESET_COUNT], int min_log2,
                             int max_log2, int *out, int cap)
{
    const gs_size_list *from = params->sizes_given ? &params->sizes : &lists[params->preset];
    int count = 0;
    for (int i = 0; i < from->count && count < cap; ++i)
        if (from->log2[i] >= min_log2 && from->log2[i] <= max_log2)
            out[count++] = from->log2[i];
    return count;
}

static gs_status run_apps(const gs_bench_params *params, gs_table *table)
{
    if (params->samples < 1 || params->warmup < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps: bad options");
#define GS_APPS_RUN(app) GS_TRY(gs_apps_##app(params, table));
    GS_APPS(GS_APPS_RUN)
#undef GS_APPS_RUN
    return GS_SUCCESS;
}

extern "C" const gs_bench_runner gs_runner_apps = {run_apps, NULL};
