/* test_reduce_args.c - gs_reduce refuses bad input before touching the GPU
 * (so these run, and pass, on a machine without one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"

static void test_bad_input(void **state)
{
    (void)state;
    float out = 0.0f;
    const float *fake = (const float *)(uintptr_t)0x1000;
    assert_int_equal(gs_reduce_sum(GS_FLOAT32, NULL, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "input pointer is NULL"));
    assert_int_equal(gs_reduce_sum(GS_FLOAT32, fake, 10, NULL, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "result pointer is NULL"));
    assert_int_equal(gs_reduce_sum(GS_FLOAT32, fake, -1, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "length must be >= 0, got -1"));
    assert_int_equal(gs_reduce_min((gs_dtype)GS_DTYPE_COUNT, fake, 10, &out, 0),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown element type 8"));
    assert_int_equal(gs_reduce_min((gs_dtype)-1, fake, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown element type -1"));
    assert_int_equal(gs_reduce((gs_reduce_op)9, GS_INT32, fake, 10, &out, 0),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown operation 9"));
    gs_reduce_arg arg;
    assert_int_equal(gs_reduce_argmin(GS_FLOAT64, NULL, 10, &arg, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce_argmax(GS_INT64, fake, -2, &arg, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce_argmax(GS_INT64, fake, 10, NULL, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce(GS_REDUCE_ARGMIN, (gs_dtype)8, fake, 10, &arg, 0),
                     GS_ERR_INVALID_ARGUMENT);
}

/* u32, u64, f16 and bf16 are element types like the others: every op
 * takes them, and gets as far as the checks of its pointers (before them,
 * "unknown element type 4..7"). */
static void test_new_types_accepted(void **state)
{
    (void)state;
    const gs_dtype added[] = {GS_UINT32, GS_UINT64, GS_FLOAT16, GS_BFLOAT16};
    const void *fake = (const void *)(uintptr_t)0x1000;
    gs_reduce_arg out;
    for (int t = 0; t < 4; ++t)
        for (int op = 0; op < GS_REDUCE_OP_COUNT; ++op) {
            assert_int_equal(gs_reduce((gs_reduce_op)op, added[t], NULL, 10, &out, 0),
                             GS_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(gs_last_error_detail(), "input pointer is NULL"));
            assert_int_equal(gs_reduce((gs_reduce_op)op, added[t], fake, -3, &out, 0),
                             GS_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(gs_last_error_detail(), "length must be >= 0, got -3"));
        }
    assert_int_equal(gs_reduce_sum(GS_FLOAT16, fake, 10, NULL, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "result pointer is NULL"));
}

/* What a reduction writes: the element type, a float for a sum of 16-bit
 * floats (their sums run in float). */
static void test_result_types(void **state)
{
    (void)state;
    gs_dtype r = GS_INT32;
    for (int t = 0; t < GS_DTYPE_COUNT; ++t)
        for (int op = 0; op < GS_REDUCE_OP_COUNT; ++op) {
            const int wide = op == GS_REDUCE_SUM && (t == GS_FLOAT16 || t == GS_BFLOAT16);
            assert_int_equal(gs_reduce_result_type((gs_reduce_op)op, (gs_dtype)t, &r),
                             GS_SUCCESS);
            assert_int_equal(r, wide ? GS_FLOAT32 : t);
        }
    assert_int_equal(gs_reduce_result_type(GS_REDUCE_SUM, (gs_dtype)8, &r), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown element type 8"));
    assert_int_equal(gs_reduce_result_type((gs_reduce_op)5, GS_FLOAT16, &r),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown operation 5"));
    assert_int_equal(gs_reduce_result_type(GS_REDUCE_MIN, GS_FLOAT16, NULL),
                     GS_ERR_INVALID_ARGUMENT);
}

static void test_dot_bad_input(void **state)
{
    (void)state;
    double out = 0.0;
    const double *fake = (const double *)(uintptr_t)0x1000;
    assert_int_equal(gs_dot((gs_dtype)GS_DTYPE_COUNT, fake, fake, 10, &out, 0),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown element type 8"));
    /* every type is a dot's (before: f32 and f64 only) */
    for (int t = 0; t < GS_DTYPE_COUNT; ++t) {
        assert_int_equal(gs_dot((gs_dtype)t, fake, NULL, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(gs_last_error_detail(), "input pointer is NULL"));
    }
    assert_int_equal(gs_dot(GS_FLOAT64, fake, NULL, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_dot(GS_FLOAT64, fake, fake, -5, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_dot(GS_FLOAT64, fake, fake, 10, NULL, 0), GS_ERR_INVALID_ARGUMENT);
}

static void test_names_and_sizes(void **state)
{
    (void)state;
    assert_int_equal(gs_dtype_size(GS_FLOAT32), 4);
    assert_int_equal(gs_dtype_size(GS_FLOAT64), 8);
    assert_int_equal(gs_dtype_size(GS_INT32), 4);
    assert_int_equal(gs_dtype_size(GS_INT64), 8);
    assert_int_equal(gs_dtype_size(GS_UINT32), 4);
    assert_int_equal(gs_dtype_size(GS_UINT64), 8);
    assert_int_equal(gs_dtype_size(GS_FLOAT16), 2);
    assert_int_equal(gs_dtype_size(GS_BFLOAT16), 2);
    assert_int_equal(gs_dtype_size((gs_dtype)GS_DTYPE_COUNT), 0);
    assert_int_equal(gs_dtype_size((gs_dtype)99), 0);
    const char *names[] = {"f32", "f64", "i32", "i64", "u32", "u64", "f16", "bf16"};
    assert_int_equal(GS_DTYPE_COUNT, 8);
    for (int t = 0; t < GS_DTYPE_COUNT; ++t)
        assert_string_equal(gs_dtype_name((gs_dtype)t), names[t]);
    assert_string_equal(gs_dtype_name((gs_dtype)GS_DTYPE_COUNT), "unknown");
    assert_string_equal(gs_dtype_name((gs_dtype)-1), "unknown");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_MAX), "max");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_ARGMIN), "argmin");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_ARGMAX), "argmax");
    assert_string_equal(gs_reduce_op_name((gs_reduce_op)GS_REDUCE_OP_COUNT), "unknown");
    assert_int_equal(sizeof(gs_reduce_arg), 16);
    assert_int_equal(offsetof(gs_reduce_arg, value), 8);
    /* every member at the value's start (the device writes gs::arg<T>'s) */
    assert_int_equal(offsetof(gs_reduce_arg, value.u32), 8);
    assert_int_equal(offsetof(gs_reduce_arg, value.u64), 8);
    assert_int_equal(offsetof(gs_reduce_arg, value.f16), 8);
    assert_int_equal(offsetof(gs_reduce_arg, value.bf16), 8);
    assert_int_equal(sizeof(((gs_reduce_arg *)0)->value.f16), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_new_types_accepted),
        cmocka_unit_test(test_result_types),
        cmocka_unit_test(test_dot_bad_input),
        cmocka_unit_test(test_names_and_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
