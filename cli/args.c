/* args.c - strict integer and list parsing for the CLI. */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"

/* A whole number as the CLI accepts it: digits, with an optional '-' (so
 * that a negative is reported as out of range); no space, no '+'. */
static int is_whole_number(const char *text)
{
    const char *p = text + (text[0] == '-');
    if (!*p)
        return 0;
    for (; *p; ++p)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

int gs_parse_long(const char *text, const char *name, long min, long max, long *out, char *err,
                  size_t errlen)
{
    if (!text || !*text) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    char shown[GS_SHOWN_SIZE];
    if (!is_whole_number(text)) {
        snprintf(err, errlen, "%s: '%s' is not a whole number", name,
                 gs_shown(text, shown, sizeof shown));
        return -1;
    }
    errno = 0;
    long v = strtol(text, NULL, 10);
    if (errno == ERANGE || v < min || v > max) {
        snprintf(err, errlen, "%s: %s is out of range (%ld..%ld)", name,
                 gs_shown(text, shown, sizeof shown), min, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* A plain decimal number: digits with at most one '.', at least one digit. */
static int is_plain_number(const char *text)
{
    int digits = 0, points = 0;
    for (const char *p = text; *p; ++p) {
        if (*p == '.')
            ++points;
        else if (*p >= '0' && *p <= '9')
            ++digits;
        else
            return 0;
    }
    return digits > 0 && points <= 1;
}

int gs_parse_double(const char *text, const char *name, double min, double max, double *out,
                    char *err, size_t errlen)
{
    if (!text || !*text) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    char shown[GS_SHOWN_SIZE];
    if (!is_plain_number(text)) {
        snprintf(err, errlen, "%s: '%s' is not a number", name,
                 gs_shown(text, shown, sizeof shown));
        return -1;
    }
    double v = strtod(text, NULL);
    if (!(v >= min && v <= max)) {
        snprintf(err, errlen, "%s: %s is out of range (%g..%g)", name,
                 gs_shown(text, shown, sizeof shown), min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int gs_parse_devices(const char *text, const char *name, int *out, int cap, int *count,
                     int *all, char *err, size_t errlen)
{
    *all = 0;
    *count = 0;
    if (text && strcmp(text, "all") == 0) {
        *all = 1;
        return 0;
    }
    if (gs_parse_long_list(text, name, 0, 1023, out, cap, count, err, errlen) != 0)
        return -1;
    for (int i = 0; i < *count; ++i)
        for (int j = 0; j < i; ++j)
            if (out[i] == out[j]) {
                snprintf(err, errlen, "%s: device %d named twice", name, out[i]);
                return -1;
            }
    return 0;
}

int gs_for_each_item(const char *text, const char *name, gs_item_fn fn, void *ctx, char *err,
                     size_t errlen)
{
    if (!text || !*text) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    char *copy = strdup(text); /* as long as it is: nothing is cut off */
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    int rc = 0;
    for (char *item = copy, *comma; rc == 0; item = comma + 1) {
        comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (!*item) {
            char shown[GS_SHOWN_SIZE];
            snprintf(err, errlen, "%s: empty item in '%s'", name,
                     gs_shown(text, shown, sizeof shown));
            rc = -1;
        } else {
            rc = fn(item, ctx, err, errlen);
        }
        if (!comma)
            break;
    }
    free(copy);
    return rc;
}

/* What gs_parse_long_list hands gs_for_each_item. */
typedef struct long_list {
    const char *name;
    long min, max;
    int *out, cap, *count;
} long_list;

/* One item of a number list. */
static int add_long(const char *item, void *ctx, char *err, size_t errlen)
{
    long_list *l = ctx;
    long v = 0;
    if (*l->count == l->cap) {
        snprintf(err, errlen, "%s: at most %d values", l->name, l->cap);
        return -1;
    }
    if (gs_parse_long(item, l->name, l->min, l->max, &v, err, errlen) != 0)
        return -1;
    l->out[(*l->count)++] = (int)v;
    return 0;
}

int gs_parse_long_list(const char *text, const char *name, long min, long max, int *out,
                       int cap, int *count, char *err, size_t errlen)
{
    long_list l = {name, min, max, out, cap, count};
    *count = 0;
    return gs_for_each_item(text, name, add_long, &l, err, errlen);
}

void gs_option_error(int c, int opt, const char *element, const char *shortopts, char *err,
                     size_t errlen)
{
    /* getopt sets opt to 0 for an unknown long option and to the option's
     * value for a known one, which is never an unknown short letter */
    int unknown_short = c == '?' && opt > 0 && opt < 256 && (opt == ':' || !strchr(shortopts, opt));
    if (unknown_short || strncmp(element, "--", 2) != 0) {
        snprintf(err, errlen, c == ':' ? "option '-%c' needs a value" : "unknown option '-%c'",
                 opt);
        return;
    }
    char shown[GS_SHOWN_SIZE];
    gs_shown(element, shown, sizeof shown);
    int len = (int)strcspn(shown, "="); /* "--bogus=1": the name only */
    const char *fmt = c == ':'  ? "option '%.*s' needs a value"
                      : opt ? "option '%.*s' takes no value"
                            : "unknown option '%.*s'";
    snprintf(err, errlen, fmt, len, shown);
}
