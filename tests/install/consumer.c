/* consumer.c - an installed gridsync is usable from plain C. Runs without a
 * GPU: prints the version and the status of a device query. */
#include <gridsync.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    gs_status st = gs_device_count(&n);
    printf("gridsync %s: %d device(s), %s\n", gs_version(), n, gs_status_string(st));
    return st == GS_SUCCESS || st == GS_ERR_NO_DEVICE ? 0 : 1;
}
