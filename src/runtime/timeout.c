/* timeout.c - the time-out setting (timeout.h). */
#include "timeout.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

int gs__parse_timeout(const char *text, unsigned long long *timeout_ns)
{
    char *end = NULL;
    if (!text)
        return -1;
    if (strcmp(text, "off") == 0) {
        *timeout_ns = 0;
        return 0;
    }
    if (!(*text >= '0' && *text <= '9') && *text != '.')
        return -1; /* no sign, no space, no "inf"/"nan" */
    double s = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(s))
        return -1;
    if (s == 0.0) {
        *timeout_ns = 0;
        return 0;
    }
    if (s < 1e-3 || s > 3600.0)
        return -1;
    *timeout_ns = (unsigned long long)(s * 1e9);
    return 0;
}

gs_status gs__timeout_from_env(int *set, unsigned long long *timeout_ns)
{
    const char *text = getenv("GRIDSYNC_BARRIER_TIMEOUT");
    *set = 0;
    if (!text)
        return GS_SUCCESS;
    if (gs__parse_timeout(text, timeout_ns) != 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "GRIDSYNC_BARRIER_TIMEOUT='%.64s' is not a time-out: give seconds "
                        "(0.001 to 3600) or 'off'",
                        text);
    *set = 1;
    return GS_SUCCESS;
}

static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static int default_known;
static unsigned long long default_ns;

gs_status gs__timeout_default(unsigned long long *timeout_ns)
{
    gs_status st = GS_SUCCESS;
    pthread_mutex_lock(&default_lock);
    if (!default_known) {
        int set = 0;
        unsigned long long value = 0;
        st = gs__timeout_from_env(&set, &value);
        if (st == GS_SUCCESS) {
            default_ns = set ? value : GS_BARRIER_DEFAULT_TIMEOUT_NS;
            default_known = 1;
        }
    }
    *timeout_ns = default_ns;
    pthread_mutex_unlock(&default_lock);
    return st;
}
