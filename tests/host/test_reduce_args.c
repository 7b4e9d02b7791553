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
    assert_int_equal(gs_reduce_min((gs_dtype)7, fake, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown element type 7"));
    assert_int_equal(gs_reduce((gs_reduce_op)9, GS_INT32, fake, 10, &out, 0),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown operation 9"));
    gs_reduce_arg arg;
    assert_int_equal(gs_reduce_argmin(GS_FLOAT64, NULL, 10, &arg, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce_argmax(GS_INT64, fake, -2, &arg, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce_argmax(GS_INT64, fake, 10, NULL, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_reduce(GS_REDUCE_ARGMIN, (gs_dtype)4, fake, 10, &arg, 0),
                     GS_ERR_INVALID_ARGUMENT);
}

static void test_dot_bad_input(void **state)
{
    (void)state;
    double out = 0.0;
    const double *fake = (const double *)(uintptr_t)0x1000;
    assert_int_equal(gs_dot(GS_INT32, fake, fake, 10, &out, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "must be f32 or f64, got i32"));
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
    assert_int_equal(gs_dtype_size((gs_dtype)99), 0);
    assert_string_equal(gs_dtype_name(GS_INT64), "i64");
    assert_string_equal(gs_dtype_name((gs_dtype)-1), "unknown");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_MAX), "max");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_ARGMIN), "argmin");
    assert_string_equal(gs_reduce_op_name(GS_REDUCE_ARGMAX), "argmax");
    assert_string_equal(gs_reduce_op_name((gs_reduce_op)GS_REDUCE_OP_COUNT), "unknown");
    assert_int_equal(sizeof(gs_reduce_arg), 16);
    assert_int_equal(offsetof(gs_reduce_arg, value), 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_dot_bad_input),
        cmocka_unit_test(test_names_and_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
