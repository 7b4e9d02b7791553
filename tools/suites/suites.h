/*
 * suites.h - every benchmark suite, in the order `gridsync bench` runs
 * them: one line each. Suite `name` is described by `gs_suite_<name>`
 * (its describe.c, compiled into the results model: results/registry.c)
 * and measured by `gs_runner_<name>` (its run code, compiled into the
 * bench: suites/run.c).
 */
#ifndef GS_SUITES_SUITES_H
#define GS_SUITES_SUITES_H

#define GS_BENCH_SUITES(X) \
    X(barrier)             \
    X(sync)                \
    X(handoff)             \
    X(reduce)              \
    X(dot)                 \
    X(scan)                \
    X(gemm)                \
    X(apps)                \
    X(decode)              \
    X(multi)               \
    X(python)

#endif
