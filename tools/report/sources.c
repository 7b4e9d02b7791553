/* sources.c - several results files, each suite from the last that has it
 * (sources.h). */
#include "report/sources.h"

#include <stdlib.h>

#include "results/results.h"
#include "report/env_table.h"
#include "report/markdown.h"

gs_results_source *gs_sources_load(char *const *paths, int n, gs_sources_failure *failure,
                                   char *err, size_t errlen)
{
    gs_results_source *files = calloc((size_t)n + 1, sizeof *files);
    *failure = GS_SOURCES_OK;
    if (!files) {
        snprintf(err, errlen, "out of memory");
        *failure = GS_SOURCES_UNREADABLE;
        return NULL;
    }
    for (int i = 0; i < n && *failure == GS_SOURCES_OK; ++i) {
        cJSON *doc = gs_results_load(paths[i], err, errlen);
        files[i].path = paths[i];
        files[i].doc = doc;
        if (!doc)
            *failure = GS_SOURCES_UNREADABLE;
        else if (gs_results_check(doc, paths[i], err, errlen) != 0)
            *failure = GS_SOURCES_NOT_RESULTS;
    }
    if (*failure == GS_SOURCES_OK)
        return files;
    gs_sources_free(files, n);
    return NULL;
}

void gs_sources_free(gs_results_source *files, int n)
{
    for (int i = 0; files && i < n; ++i)
        cJSON_Delete((cJSON *)files[i].doc); /* gs_sources_load's own */
    free(files);
}

int gs_source_of(const gs_results_source *files, int n, const char *name)
{
    for (int i = n - 1; i >= 0; --i)
        if (gs_results_suite(files[i].doc, name))
            return i;
    return -1;
}

/* The environment's `key` (text), escaped, or "?". */
static void env_text(FILE *out, const cJSON *env, const char *key, size_t at_most)
{
    char buf[256];
    gs_env_text(env, key, at_most, buf, sizeof buf);
    gs_md_text(out, buf);
}

void gs_md_run(FILE *out, const cJSON *env, const char *path)
{
    env_text(out, env, "gpu", 200);
    fputs(", CUDA ", out);
    env_text(out, env, "cuda_runtime", 20);
    fputs(", ", out);
    env_text(out, env, "date", 10); /* the day */
    fputs(" (", out);
    gs_md_code(out, path);
    fputc(')', out);
}
