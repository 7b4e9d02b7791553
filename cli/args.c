/* args.c - strict integer parsing for the CLI. */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gs_parse_long(const char *text, const char *name, long min, long max, long *out, char *err,
                  size_t errlen)
{
    char *end = NULL;
    if (!text || !*text) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || end == text) {
        snprintf(err, errlen, "%s: '%s' is not a whole number", name, text);
        return -1;
    }
    if (errno == ERANGE || v < min || v > max) {
        snprintf(err, errlen, "%s: %s is out of range (%ld..%ld)", name, text, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int gs_parse_long_list(const char *text, const char *name, long min, long max, int *out,
                       int cap, int *count, char *err, size_t errlen)
{
    char buf[512];
    *count = 0;
    if (!text || !*text) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    if (strlen(text) >= sizeof buf) {
        snprintf(err, errlen, "%s: list is too long", name);
        return -1;
    }
    strcpy(buf, text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long v = 0;
        if (*count == cap) {
            snprintf(err, errlen, "%s: at most %d values", name, cap);
            return -1;
        }
        if (gs_parse_long(tok, name, min, max, &v, err, errlen) != 0)
            return -1;
        out[(*count)++] = (int)v;
    }
    if (*count == 0 || text[strlen(text) - 1] == ',') {
        snprintf(err, errlen, "%s: '%s' is not a comma-separated list of numbers", name, text);
        return -1;
    }
    return 0;
}

void gs_option_error(int c, const char *option, char *err, size_t errlen)
{
    snprintf(err, errlen, c == ':' ? "option '%s' needs a value" : "unknown option '%s'", option);
}
