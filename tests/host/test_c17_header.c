/* test_c17_header.c - gridsync.h is a C17 header: it compiles with
 * -std=c17 -pedantic -Wall -Wextra -Werror and its functions link from the
 * static library. Runs without a GPU. */
#include <stdio.h>
#include <string.h>

#include "gridsync.h"

int main(void)
{
    gs_barrier_method m = GS_BARRIER_AUTO;
    gs_grid_barrier view = {0};
    char buf[128];
    if (gs_barrier_method_parse("tree", &m) != GS_SUCCESS || m != GS_BARRIER_TREE)
        return 1;
    gs_format_coresidency(buf, sizeof buf, 2, 1, 1, 32);
    if (!strstr(buf, "2 blocks requested"))
        return 1;
    if (strcmp(gs_version(), GS_VERSION_STRING) != 0 || view.state != NULL)
        return 1;
    printf("gridsync %s: C17 header ok\n", gs_version());
    return 0;
}
