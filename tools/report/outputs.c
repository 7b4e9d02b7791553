/* outputs.c - files and streams for results (outputs.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/outputs.h"

#include <errno.h>
#include <string.h>

#include "results/registry.h"
#include "results/results.h"
#include "report/report.h"
#include "report/tables.h"

int gs_output_is_stdout(const char *target)
{
    return target && (strcmp(target, "-") == 0 || strcmp(target, "stdout") == 0);
}

int gs_output_is_stream(const char *target)
{
    return gs_output_is_stdout(target) || (target && strcmp(target, "stderr") == 0);
}

FILE *gs_output_open(const char *target, char *err, size_t errlen)
{
    if (gs_output_is_stdout(target))
        return stdout;
    if (gs_output_is_stream(target))
        return stderr;
    FILE *f = fopen(target, "w");
    if (!f)
        snprintf(err, errlen, "cannot write %s: %s", target, strerror(errno));
    return f;
}

int gs_output_close(const char *target, FILE *f)
{
    if (!f)
        return -1;
    if (gs_output_is_stream(target))
        return fflush(f) == 0 && !ferror(f) ? 0 : -1;
    int bad = ferror(f);
    return fclose(f) == 0 && !bad ? 0 : -1;
}

int gs_results_csv(FILE *out, const cJSON *results)
{
    const cJSON *suites = cJSON_GetObjectItemCaseSensitive(results, "suites"), *suite;
    int written = 0, rc = 0;
    cJSON_ArrayForEach(suite, suites)
    {
        const gs_bench_suite *known = gs_bench_suite_find(suite->string ? suite->string : "");
        if (!known || !gs_results_ncolumns(suite))
            continue;
        if (written++)
            fputc('\n', out);
        rc |= gs_csv_results_table(out, suite, known->name);
    }
    return rc;
}

int gs_output_results(const cJSON *results, const char *target, const char *format, char *err,
                      size_t errlen)
{
    FILE *f = gs_output_open(target, err, errlen);
    if (!f)
        return -1;
    int rc = 0;
    if (strcmp(format, "json") == 0)
        rc = gs_results_print(results, f);
    else if (strcmp(format, "csv") == 0)
        rc = gs_results_csv(f, results);
    else
        rc = gs_report_markdown(f, results, err, errlen);
    if (gs_output_close(target, f) != 0 || rc != 0) {
        if (rc == 0 || strcmp(format, "md") != 0)
            snprintf(err, errlen, "cannot write %s", gs_output_is_stdout(target) ? "to stdout"
                                                                                : target);
        return -1;
    }
    return 0;
}
