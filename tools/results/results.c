/* results.c - the results document and its files. */
#include "results/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"

cJSON *gs_results_new(cJSON *environment)
{
    cJSON *r = cJSON_CreateObject();
    if (!r)
        return NULL;
    cJSON_AddStringToObject(r, "schema", GS_RESULTS_SCHEMA);
    if (environment)
        cJSON_AddItemToObject(r, "environment", environment);
    cJSON_AddObjectToObject(r, "suites");
    return r;
}

int gs_results_add(cJSON *results, const char *name, const gs_table *table)
{
    cJSON *suites = cJSON_GetObjectItemCaseSensitive(results, "suites");
    cJSON *t = gs_table_to_json(table);
    if (!suites || !t) {
        cJSON_Delete(t);
        return -1;
    }
    cJSON_AddItemToObject(suites, name, t);
    return 0;
}

int gs_results_print(const cJSON *results, FILE *f)
{
    char *text = cJSON_Print(results);
    if (!text)
        return -1;
    int rc = fputs(text, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
    free(text);
    return rc;
}

int gs_results_write(const cJSON *results, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = gs_results_print(results, f);
    rc |= fclose(f) != 0 ? -1 : 0;
    return rc;
}

cJSON *gs_results_suite(const cJSON *results, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(results, "suites"),
                                            name);
}

cJSON *gs_results_load(const char *path, char *err, size_t errlen)
{
    size_t len;
    char *text = gs_read_file(path, GS_RESULTS_MAX_BYTES, "a gridsync results file", &len, err,
                              errlen);
    if (!text)
        return NULL;
    /* one JSON value and nothing after it but white space: no trailing
     * garbage, no second document, no NUL byte inside */
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);
    if (doc && end != text + len) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    free(text);
    if (!doc) {
        char shown[GS_SHOWN_SIZE];
        snprintf(err, errlen, "%s is not valid JSON (one document, nothing after it)",
                 gs_shown(path, shown, sizeof shown));
    }
    return doc;
}

int gs_results_check(const cJSON *doc, const char *path, char *err, size_t errlen)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (cJSON_IsString(schema) && strcmp(schema->valuestring, GS_RESULTS_SCHEMA) == 0 &&
        cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "suites")))
        return 0;
    char shown[GS_SHOWN_SIZE];
    gs_errorf(err, errlen, "%s%snot a gridsync results document (schema %s expected)",
              path ? gs_shown(path, shown, sizeof shown) : "", path ? " is " : "",
              GS_RESULTS_SCHEMA);
    return -1;
}
