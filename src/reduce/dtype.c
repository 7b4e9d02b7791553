/* dtype.c - element types of the reductions: sizes and names. */
#include "gridsync.h"

size_t gs_dtype_size(gs_dtype type)
{
    switch (type) {
    case GS_FLOAT32:
    case GS_INT32: return 4;
    case GS_FLOAT64:
    case GS_INT64: return 8;
    default: return 0;
    }
}

const char *gs_dtype_name(gs_dtype type)
{
    static const char *const names[GS_DTYPE_COUNT] = {"f32", "f64", "i32", "i64"};
    return (int)type >= 0 && type < GS_DTYPE_COUNT ? names[type] : "unknown";
}
