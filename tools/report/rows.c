/* rows.c - reading rows of results tables (rows.h). */
#include "report/rows.h"

#include <math.h>
#include <string.h>

#include "results/table.h"

const cJSON *gs_row_field(const cJSON *row, const char *column)
{
    return column ? cJSON_GetObjectItemCaseSensitive(row, column) : NULL;
}

double gs_row_noise(const cJSON *row)
{
    const cJSON *v = gs_row_field(row, GS_ROW_NOISE);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : NAN;
}

int gs_listed(const char *const *list, const char *s)
{
    for (; list && *list; ++list)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

int gs_same_value(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return a->valuedouble == b->valuedouble;
    if (cJSON_IsString(a) && cJSON_IsString(b))
        return strcmp(a->valuestring, b->valuestring) == 0;
    return (!a || cJSON_IsNull(a)) && (!b || cJSON_IsNull(b));
}

int gs_row_passes(const cJSON *row, const char *filter, const char *const *values)
{
    if (!cJSON_IsObject(row))
        return 0;
    if (!filter)
        return 1;
    const cJSON *v = gs_row_field(row, filter);
    return cJSON_IsString(v) && gs_listed(values, v->valuestring);
}
