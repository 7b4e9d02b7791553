/*
 * timeout.h - the time-out setting every bounded wait of the library takes
 * (internal; the runtime floor): how a time-out is written, the
 * environment variable GRIDSYNC_BARRIER_TIMEOUT that overrides the 2 s
 * default (GS_BARRIER_DEFAULT_TIMEOUT_NS, gridsync.h) for barriers, signal
 * sets, scans and the cross-GPU barrier, and the default itself. The device
 * side of a bound is gridsync/detail/core/bounded_wait.cuh.
 */
#ifndef GS_RUNTIME_TIMEOUT_H
#define GS_RUNTIME_TIMEOUT_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse a time-out text ("2.5", "off", "0"; seconds, 0.001 to 3600, or off
 * = 0 = no bound) into nanoseconds; 0 or -1. Pure; for tests. */
GS_API int gs__parse_timeout(const char *text, unsigned long long *timeout_ns);

/* GRIDSYNC_BARRIER_TIMEOUT, read now: *set = 0 when unset; else *set = 1
 * and *timeout_ns (0 for "off"). A malformed value fails with a sentence
 * naming it. */
GS_API gs_status gs__timeout_from_env(int *set, unsigned long long *timeout_ns);

/* GRIDSYNC_BARRIER_TIMEOUT or GS_BARRIER_DEFAULT_TIMEOUT_NS, read once per
 * process (for calls that cannot afford a getenv each: the scans). A
 * malformed value fails every call, with its sentence. Thread-safe. */
gs_status gs__timeout_default(unsigned long long *timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* GS_RUNTIME_TIMEOUT_H */
