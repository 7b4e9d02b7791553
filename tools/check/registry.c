/* registry.c - the list of checks: one line per check, each defined in its
 * own file here (check.h says what a check describes). */
#include "check/check.h"

/* The checks, in the order `gridsync check` runs them. */
#define GS_CHECKS(X)     \
    X(barriers)          \
    X(reductions)        \
    X(dot)               \
    X(scan)              \
    X(matmul)            \
    X(message_passing)   \
    X(neighbour)         \
    X(split_barrier)     \
    X(allreduce)         \
    X(tagged)            \
    X(signals)           \
    X(pdl)               \
    X(watchdog)

#define GS_DECLARE(name) extern const gs_check gs_check_##name;
GS_CHECKS(GS_DECLARE)
#define GS_ENTRY(name) &gs_check_##name,
static const gs_check *const checks[] = {GS_CHECKS(GS_ENTRY)};
enum { NCHECKS = sizeof checks / sizeof checks[0] };

int gs_check_count(void) { return NCHECKS; }

const gs_check *gs_check_at(int i) { return i >= 0 && i < NCHECKS ? checks[i] : NULL; }
