/* consumer.c - an installed gridsync is usable from plain C. Runs without a
 * GPU: prints the version (the library's, which must be the header's) and
 * the status of a device query, and calls gs_scan the ways that need no GPU
 * (nothing to scan; arguments it refuses before any CUDA call). */
#include <gridsync.h>
#include <stdio.h>

int main(void)
{
    int n = 0, version = 0;
    gs_status st = gs_device_count(&n);
    gs_status empty = gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT32, NULL, NULL, 0, 0);
    gs_status refused = gs_scan_exclusive_sum(GS_INT64, NULL, NULL, 10, 0);
    printf("gridsync %s: %d device(s), %s; gs_scan of nothing: %s, with NULL arrays: %s\n",
           gs_version(), n, gs_status_string(st), gs_status_string(empty),
           gs_status_string(refused));
    if (gs_get_version(&version) != GS_SUCCESS || version != GS_VERSION_CODE) {
        printf("library version %d, header %d\n", version, GS_VERSION_CODE);
        return 1;
    }
    return (st == GS_SUCCESS || st == GS_ERR_NO_DEVICE) && empty == GS_SUCCESS &&
                   refused == GS_ERR_INVALID_ARGUMENT
               ? 0
               : 1;
}
