/* version.c - the version of the library loaded (GS_VERSION_* of gridsync.h
 * as this library was built), which may differ from the header a program
 * was compiled with. */
#include "error.h"

const char *gs_version(void) { return GS_VERSION_STRING; }

gs_status gs_get_version(int *version)
{
    if (!version)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_get_version: version is NULL");
    *version = GS_VERSION_CODE;
    return GS_SUCCESS;
}
