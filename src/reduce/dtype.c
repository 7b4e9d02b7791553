/* dtype.c - element types of the reductions: sizes, names, result types. */
#include "../core/error.h"
#include "gridsync.h"

size_t gs_dtype_size(gs_dtype type)
{
    switch (type) {
    case GS_FLOAT16:
    case GS_BFLOAT16: return 2;
    case GS_FLOAT32:
    case GS_INT32:
    case GS_UINT32: return 4;
    case GS_FLOAT64:
    case GS_INT64:
    case GS_UINT64: return 8;
    default: return 0;
    }
}

const char *gs_dtype_name(gs_dtype type)
{
    static const char *const names[GS_DTYPE_COUNT] = {"f32", "f64", "i32", "i64",
                                                      "u32", "u64", "f16", "bf16"};
    return (int)type >= 0 && type < GS_DTYPE_COUNT ? names[type] : "unknown";
}

gs_status gs_reduce_result_type(gs_reduce_op op, gs_dtype type, gs_dtype *result)
{
    if (!result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_reduce_result_type: result pointer is NULL");
    if ((int)op < 0 || op >= GS_REDUCE_OP_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_reduce_result_type: unknown operation %d",
                        (int)op);
    if ((int)type < 0 || type >= GS_DTYPE_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_reduce_result_type: unknown element type %d",
                        (int)type);
    /* the 16-bit floats add up in float (gs::sum's accumulator) */
    *result = op == GS_REDUCE_SUM && (type == GS_FLOAT16 || type == GS_BFLOAT16) ? GS_FLOAT32 : type;
    return GS_SUCCESS;
}
