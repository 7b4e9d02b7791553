/* clock.c - the host's monotonic clock (clock.h). */
#define _POSIX_C_SOURCE 200809L
#include "common/clock.h"

#include <time.h>

double gs_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
