/* format.c - cells, ticks and labels (format.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/registry.h"
#include "results/table.h"

static const gs_column_style *style_of(const gs_bench_suite *suite, const char *name)
{
    const gs_reading *r = suite ? suite->reading : NULL;
    for (int i = 0; r && i < r->nstyles; ++i)
        if (strcmp(r->styles[i].column, name) == 0)
            return &r->styles[i];
    return NULL;
}

/* "blocks_per_sm" -> "blocks per sm". */
static void label_of_name(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s", name);
    for (char *c = buf; *c; ++c)
        if (*c == '_')
            *c = ' ';
}

void gs_column_view_of(const gs_bench_suite *suite, const char *name, gs_column_view *v)
{
    memset(v, 0, sizeof *v);
    v->name = name;
    v->unit = "";
    v->decimals = 3;
    if (strcmp(name, GS_ROW_NOISE) == 0) {
        snprintf(v->label, sizeof v->label, "noise");
        v->format = GS_CELL_PERCENT;
        return;
    }
    if (strcmp(name, GS_ROW_SAMPLES) == 0) {
        snprintf(v->label, sizeof v->label, "samples");
        v->decimals = 0;
        return;
    }
    int c = suite ? gs_bench_suite_column(suite, name) : -1;
    if (c >= 0) {
        v->unit = suite->columns[c].unit;
        v->decimals = suite->columns[c].decimals;
    }
    const gs_column_style *st = style_of(suite, name);
    if (st && st->label)
        snprintf(v->label, sizeof v->label, "%s", st->label);
    else
        label_of_name(name, v->label, sizeof v->label);
    v->format = st ? st->format : GS_CELL_AUTO;
}

void gs_format_significant(double v, int significant, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    int decimals = 0;
    if (v != 0.0) {
        int magnitude = (int)floor(log10(fabs(v))); /* 242.6: 2; 0.0697: -2 */
        decimals = significant - 1 - magnitude;
        /* 0.99998 to 4 digits is 1.000, not 1.0000: rounding moved it up a decade */
        double scale = pow(10.0, decimals > 12 ? 12 : decimals);
        if (fabs(round(v * scale) / scale) >= pow(10.0, magnitude + 1))
            --decimals;
    }
    decimals = decimals < 0 ? 0 : decimals > 12 ? 12 : decimals;
    snprintf(buf, len, "%.*f", decimals, v);
}

static int is_time_unit(const char *unit)
{
    return strcmp(unit, "us") == 0 || strcmp(unit, "ms") == 0 || strcmp(unit, "s") == 0 ||
           strcmp(unit, "ns") == 0;
}

/* k when v is 2^k (k >= 1), else -1. */
static int power_of_two(double v)
{
    int k = 0;
    if (!(v >= 2.0) || !isfinite(v))
        return -1;
    return frexp(v, &k) == 0.5 ? k - 1 : -1;
}

/* A plain number with `decimals` digits, more when it would show fewer than
 * two significant ones ("0.0076" with 2 decimals). */
static void plain_number(double v, int decimals, char *buf, size_t len)
{
    if (decimals > 0 && v != 0.0 && fabs(v) < pow(10.0, 1 - decimals)) {
        gs_format_significant(v, 2, buf, len);
        return;
    }
    snprintf(buf, len, "%.*f", decimals, v);
}

void gs_format_number(double v, const gs_column_view *view, char *buf, size_t len)
{
    char num[64];
    int k;
    if (!isfinite(v)) {
        gs_format_significant(v, 1, buf, len);
        return;
    }
    switch (view->format) {
    case GS_CELL_POW2:
        if ((k = power_of_two(v)) >= 0)
            snprintf(buf, len, "2^%d = %.0f", k, v);
        else
            snprintf(buf, len, "%.0f", v);
        return;
    case GS_CELL_PERCENT:
        snprintf(buf, len, "%.*f%%", fabs(v) < 0.1 ? 2 : fabs(v) < 10.0 ? 1 : 0, 100.0 * v);
        return;
    case GS_CELL_RATIO:
        snprintf(buf, len, "%.2fx", v);
        return;
    case GS_CELL_AUTO: break;
    }
    if (is_time_unit(view->unit))
        gs_format_significant(v, 4, num, sizeof num);
    else
        plain_number(v, view->decimals, num, sizeof num);
    snprintf(buf, len, "%s%s%s", num, view->unit[0] ? " " : "", view->unit);
}

void gs_format_compact(double v, const gs_column_view *view, char *buf, size_t len)
{
    int k;
    if (view && view->format == GS_CELL_POW2 && (k = power_of_two(v)) >= 0) {
        snprintf(buf, len, "2^%d", k);
        return;
    }
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, len, "%.0f", v);
    } else {
        char num[64];
        gs_format_significant(v, 3, num, sizeof num);
        /* "1.50" -> "1.5": as few digits as it needs */
        if (strchr(num, '.')) {
            size_t n = strlen(num);
            while (n > 0 && num[n - 1] == '0')
                num[--n] = '\0';
            if (n > 0 && num[n - 1] == '.')
                num[--n] = '\0';
        }
        snprintf(buf, len, "%s", num);
    }
    if (view && view->format == GS_CELL_RATIO) {
        size_t n = strlen(buf);
        if (n + 1 < len)
            snprintf(buf + n, len - n, "x");
    }
}

void gs_format_value(const cJSON *value, const gs_column_view *view, char *buf, size_t len)
{
    if (cJSON_IsNumber(value))
        gs_format_number(value->valuedouble, view, buf, len);
    else if (cJSON_IsString(value))
        snprintf(buf, len, "%s", value->valuestring);
    else
        snprintf(buf, len, "-");
}

void gs_format_day(const cJSON *date, char *buf, size_t len)
{
    const char *s = cJSON_IsString(date) ? date->valuestring : "";
    int ok = strlen(s) >= 10;
    for (int i = 0; ok && i < 10; ++i)
        ok = i == 4 || i == 7 ? s[i] == '-' : s[i] >= '0' && s[i] <= '9';
    snprintf(buf, len, "%.*s", ok ? 10 : 1, ok ? s : "?");
}
