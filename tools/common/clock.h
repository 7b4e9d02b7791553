/* clock.h - the host's monotonic clock, for timings and deadlines. */
#ifndef GS_COMMON_CLOCK_H
#define GS_COMMON_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic seconds. */
double gs_now_seconds(void);

#ifdef __cplusplus
}
#endif

#endif
