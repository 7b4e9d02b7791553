/* test_scan_args.c - gs_scan refuses bad input before touching the GPU (so
 * these run, and pass, on a machine without one): unknown op, kind or
 * type, negative lengths, NULL pointers, arrays that overlap without being
 * the same. n = 0 is accepted and does nothing, whatever the pointers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"

static char *fake(uintptr_t at) { return (char *)at; }

static void expect_refused(gs_status st, const char *detail)
{
    assert_int_equal(st, GS_ERR_INVALID_ARGUMENT);
    if (!strstr(gs_last_error_detail(), detail))
        fail_msg("detail '%s' does not say '%s'", gs_last_error_detail(), detail);
}

static void test_enumerations(void **state)
{
    (void)state;
    char *in = fake(0x10000), *out = fake(0x20000);
    expect_refused(gs_scan((gs_scan_op)3, GS_SCAN_INCLUSIVE, GS_FLOAT32, in, out, 10, 0),
                   "unknown operation 3");
    expect_refused(gs_scan((gs_scan_op)-1, GS_SCAN_INCLUSIVE, GS_FLOAT32, in, out, 10, 0),
                   "unknown operation -1");
    expect_refused(gs_scan(GS_SCAN_SUM, (gs_scan_kind)2, GS_FLOAT32, in, out, 10, 0),
                   "unknown kind 2");
    expect_refused(gs_scan(GS_SCAN_MAX, GS_SCAN_EXCLUSIVE, (gs_dtype)8, in, out, 10, 0),
                   "unknown element type 8");
    expect_refused(gs_scan_inclusive_sum((gs_dtype)-2, in, out, 10, 0), "unknown element type -2");
}

static void test_lengths_and_pointers(void **state)
{
    (void)state;
    char *in = fake(0x10000), *out = fake(0x20000);
    expect_refused(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_INT32, in, out, -1, 0),
                   "length must be >= 0, got -1");
    expect_refused(gs_scan_exclusive_sum(GS_FLOAT64, NULL, out, 5, 0), "input pointer is NULL");
    expect_refused(gs_scan_inclusive_sum(GS_INT64, in, NULL, 5, 0), "output pointer is NULL");
    expect_refused(gs_scan(GS_SCAN_MIN, GS_SCAN_INCLUSIVE, GS_FLOAT32, fake(UINTPTR_MAX - 15), out,
                           8, 0),
                   "past the end of memory");
    /* nothing to do: accepted without a GPU, whatever the pointers */
    assert_int_equal(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT32, NULL, NULL, 0, 0),
                     GS_SUCCESS);
    assert_int_equal(gs_scan_exclusive_sum(GS_INT64, in, in, 0, 0), GS_SUCCESS);
}

/* u32, u64, f16 and bf16 are scanned like the others (before: "unknown
 * element type"), and their sizes count: 2 bytes an element for f16 and
 * bf16, 8 for u64. */
static void test_new_types(void **state)
{
    (void)state;
    const gs_dtype added[] = {GS_UINT32, GS_UINT64, GS_FLOAT16, GS_BFLOAT16};
    char *a = fake(0x100000);
    for (int t = 0; t < 4; ++t)
        for (int op = 0; op < GS_SCAN_OP_COUNT; ++op)
            for (int kind = 0; kind < GS_SCAN_KIND_COUNT; ++kind) {
                expect_refused(gs_scan((gs_scan_op)op, (gs_scan_kind)kind, added[t], NULL, a, 5,
                                       0),
                               "input pointer is NULL");
                assert_int_equal(gs_scan((gs_scan_op)op, (gs_scan_kind)kind, added[t], NULL,
                                         NULL, 0, 0),
                                 GS_SUCCESS);
            }
    /* 100 halves are 200 bytes: the output 199 bytes on overlaps */
    expect_refused(gs_scan_inclusive_sum(GS_FLOAT16, a, a + 199, 100, 0), "overlap");
    expect_refused(gs_scan(GS_SCAN_MIN, GS_SCAN_INCLUSIVE, GS_BFLOAT16, a + 2, a, 2, 0),
                   "output -2 bytes from the input");
    expect_refused(gs_scan_exclusive_sum(GS_UINT64, a, a + 799, 100, 0), "overlap");
    expect_refused(gs_scan(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, GS_UINT32, a, a + 396, 100, 0),
                   "output +396 bytes from the input");
    /* 8 halves end 16 bytes on: past the end of memory from UINTPTR_MAX - 15 */
    expect_refused(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT16, fake(UINTPTR_MAX - 15),
                           a, 8, 0),
                   "past the end of memory");
    expect_refused(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_UINT64, fake(UINTPTR_MAX - 15), a,
                           2, 0),
                   "past the end of memory");
}

static void test_overlap(void **state)
{
    (void)state;
    char *a = fake(0x100000);
    /* 100 floats are 400 bytes: any start within 400 bytes of the other overlaps */
    expect_refused(gs_scan_inclusive_sum(GS_FLOAT32, a, a + 4, 100, 0), "overlap");
    expect_refused(gs_scan_inclusive_sum(GS_FLOAT32, a + 4, a, 100, 0), "overlap");
    expect_refused(gs_scan_inclusive_sum(GS_FLOAT32, a, a + 399, 100, 0), "overlap");
    expect_refused(gs_scan_exclusive_sum(GS_FLOAT64, a + 799, a, 100, 0), "overlap");
    expect_refused(gs_scan(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, GS_INT32, a, a + 2, 2, 0),
                   "output +2 bytes from the input");
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(gs_scan_op_name(GS_SCAN_SUM), "sum");
    assert_string_equal(gs_scan_op_name(GS_SCAN_MIN), "min");
    assert_string_equal(gs_scan_op_name(GS_SCAN_MAX), "max");
    assert_string_equal(gs_scan_op_name((gs_scan_op)GS_SCAN_OP_COUNT), "unknown");
    assert_string_equal(gs_scan_kind_name(GS_SCAN_INCLUSIVE), "inclusive");
    assert_string_equal(gs_scan_kind_name(GS_SCAN_EXCLUSIVE), "exclusive");
    assert_string_equal(gs_scan_kind_name((gs_scan_kind)7), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enumerations),
        cmocka_unit_test(test_lengths_and_pointers),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_new_types),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
