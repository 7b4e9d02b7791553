/* test_gemm_args.c - gs_sgemm refuses bad input before touching the GPU (so
 * these run, and pass, on a machine without one), and kernel names parse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"

static const float *const fake = (const float *)(uintptr_t)0x1000;

static void expect_refused(gs_status st, const char *detail)
{
    assert_int_equal(st, GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), detail));
}

static void test_bad_sizes(void **state)
{
    (void)state;
    float *c = (float *)(uintptr_t)0x2000;
    expect_refused(gs_sgemm(0, 4, 4, 1.0f, fake, 4, fake, 4, 0.0f, c, 4, 0),
                   "sizes must be >= 1, got m=0 n=4 k=4");
    expect_refused(gs_sgemm(4, -3, 4, 1.0f, fake, 4, fake, 4, 0.0f, c, 4, 0), "n=-3");
    expect_refused(gs_sgemm(4, 4, 0, 1.0f, fake, 4, fake, 4, 0.0f, c, 4, 0), "k=0");
    expect_refused(gs_sgemm(2000000, 4, 4, 1.0f, fake, 4, fake, 4, 0.0f, c, 4, 0),
                   "rows exceed");
    /* tile arithmetic in int would overflow (n + 127 > INT_MAX) */
    expect_refused(gs_sgemm(1, INT_MAX, 4, 1.0f, fake, 4, fake, INT_MAX, 0.0f, c, INT_MAX, 0),
                   "are not supported");
    expect_refused(gs_sgemm(1, 4, INT_MAX - 100, 1.0f, fake, INT_MAX, fake, 4, 0.0f, c, 4, 0),
                   "are not supported");
}

static void test_bad_leading_dimensions(void **state)
{
    (void)state;
    float *c = (float *)(uintptr_t)0x2000;
    expect_refused(gs_sgemm(8, 6, 5, 1.0f, fake, 4, fake, 6, 0.0f, c, 6, 0),
                   "lda=4 is smaller than k=5");
    expect_refused(gs_sgemm(8, 6, 5, 1.0f, fake, 5, fake, 5, 0.0f, c, 6, 0),
                   "ldb=5 is smaller than n=6");
    expect_refused(gs_sgemm(8, 6, 5, 1.0f, fake, 5, fake, 6, 0.0f, c, 2, 0),
                   "ldc=2 is smaller than n=6");
}

static void test_null_pointers(void **state)
{
    (void)state;
    float *c = (float *)(uintptr_t)0x2000;
    expect_refused(gs_sgemm(2, 2, 2, 1.0f, NULL, 2, fake, 2, 0.0f, c, 2, 0), "matrix A is NULL");
    expect_refused(gs_sgemm(2, 2, 2, 1.0f, fake, 2, NULL, 2, 0.0f, c, 2, 0), "matrix B is NULL");
    expect_refused(gs_sgemm(2, 2, 2, 1.0f, fake, 2, fake, 2, 0.0f, NULL, 2, 0),
                   "matrix C is NULL");
    expect_refused(gs_sgemm_with((gs_gemm_kernel)7, 2, 2, 2, 1.0f, fake, 2, fake, 2, 0.0f, c, 2, 0),
                   "unknown kernel 7");
}

static void test_kernel_names(void **state)
{
    (void)state;
    gs_gemm_kernel k = GS_GEMM_AUTO;
    assert_int_equal(gs_gemm_kernel_parse("tiled16", &k), GS_SUCCESS);
    assert_int_equal(k, GS_GEMM_TILED16);
    assert_int_equal(gs_gemm_kernel_parse("fast", &k), GS_SUCCESS);
    assert_int_equal(k, GS_GEMM_FAST);
    assert_int_equal(gs_gemm_kernel_parse("splitk", &k), GS_SUCCESS);
    assert_int_equal(k, GS_GEMM_SPLITK);
    assert_string_equal(gs_gemm_kernel_name(GS_GEMM_SPLITK), "splitk");
    expect_refused(gs_gemm_kernel_parse("cublas", &k), "unknown gemm kernel 'cublas'");
    expect_refused(gs_gemm_kernel_parse(NULL, &k), "gemm kernel name is NULL");
    expect_refused(gs_gemm_kernel_parse("fast", NULL), "the output pointer is NULL");
    assert_string_equal(gs_gemm_kernel_name(GS_GEMM_AUTO), "auto");
    assert_string_equal(gs_gemm_kernel_name((gs_gemm_kernel)-2), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_bad_leading_dimensions),
        cmocka_unit_test(test_null_pointers),
        cmocka_unit_test(test_kernel_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
