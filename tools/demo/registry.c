/* registry.c - the list of demos: one line per demo, each defined in its own
 * file here (demo.h says what a demo describes). */
#include <string.h>

#include "demo/demo.h"

/* The demos, in the order `gridsync help demo` lists them. */
#define GS_DEMOS(X)          \
    X(bitmap)                \
    X(missing_sync)          \
    X(divergent_barrier)     \
    X(missing_fence)         \
    X(grid_oversubscribed)

#define GS_DECLARE(name) extern const gs_demo gs_demo_##name;
GS_DEMOS(GS_DECLARE)
#define GS_ENTRY(name) &gs_demo_##name,
static const gs_demo *const demos[] = {GS_DEMOS(GS_ENTRY)};
enum { NDEMOS = sizeof demos / sizeof demos[0] };

int gs_demo_count(void) { return NDEMOS; }

const gs_demo *gs_demo_at(int i) { return i >= 0 && i < NDEMOS ? demos[i] : NULL; }

const gs_demo *gs_demo_find(const char *name)
{
    for (int i = 0; i < NDEMOS; ++i)
        if (strcmp(demos[i]->name, name) == 0)
            return demos[i];
    return NULL;
}
