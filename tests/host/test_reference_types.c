/* test_reference_types.c - the CPU references (tools/testing) on the element
 * types u32, u64, f16 and bf16: the 16-bit floats' conversions (values
 * whose bits are known: the largest, the smallest subnormal, ties to even,
 * overflow to infinity, NaN), reductions and scans of them as the GPU must
 * give them (sums of 16-bit floats in float, unsigned integers compared as
 * unsigned, their sums wrapping), and wrong answers refused. No GPU. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "testing/float16.h"
#include "testing/reference.h"

static void test_f16_bits(void **state)
{
    (void)state;
    assert_int_equal(gs_f16_from_double(1.0), 0x3c00);
    assert_int_equal(gs_f16_from_double(-2.0), 0xc000);
    assert_int_equal(gs_f16_from_double(65504.0), 0x7bff);           /* the largest */
    assert_int_equal(gs_f16_from_double(65519.99), 0x7bff);          /* still rounds down */
    assert_int_equal(gs_f16_from_double(65520.0), 0x7c00);           /* a tie past it: inf */
    assert_int_equal(gs_f16_from_double(-1e9), 0xfc00);
    assert_int_equal(gs_f16_from_double(INFINITY), 0x7c00);
    assert_int_equal(gs_f16_from_double(-INFINITY), 0xfc00);
    assert_int_equal(gs_f16_from_double(ldexp(1.0, -24)), 0x0001);   /* the smallest subnormal */
    assert_int_equal(gs_f16_from_double(ldexp(1.0, -26)), 0x0000);   /* below half of it */
    assert_int_equal(gs_f16_from_double(ldexp(3.0, -26)), 0x0001);   /* above half of it */
    assert_int_equal(gs_f16_from_double(1.0 + ldexp(1.0, -11)), 0x3c00); /* tie: to even */
    assert_int_equal(gs_f16_from_double(1.0 + ldexp(3.0, -11)), 0x3c02); /* tie: to even */
    assert_int_equal(gs_f16_from_double(2047.5), 0x6800);            /* tie: to 2048 */
    assert_int_equal(gs_f16_from_double(-0.0), 0x8000);
    assert_true((gs_f16_from_double(NAN) & 0x7fff) > 0x7c00);
    assert_true(gs_f16_to_double(0x7bff) == 65504.0);
    assert_true(gs_f16_to_double(0x0001) == ldexp(1.0, -24));
    assert_true(gs_f16_to_double(0x3555) == 0x1.554p-2);
    assert_true(isinf(gs_f16_to_double(0xfc00)) && gs_f16_to_double(0xfc00) < 0);
    assert_true(isnan(gs_f16_to_double(0x7e00)));
    /* every finite value comes back as itself */
    for (unsigned int b = 0; b < 0x10000u; ++b)
        if ((b & 0x7c00u) != 0x7c00u)
            assert_int_equal(gs_f16_from_double(gs_f16_to_double((uint16_t)b)), b);
}

static void test_bf16_bits(void **state)
{
    (void)state;
    assert_int_equal(gs_bf16_from_double(1.0), 0x3f80);
    assert_int_equal(gs_bf16_from_double(-3.0), 0xc040);
    assert_int_equal(gs_bf16_from_double(1.0 + ldexp(1.0, -8)), 0x3f80); /* tie: to even */
    assert_int_equal(gs_bf16_from_double(1.0 + ldexp(3.0, -8)), 0x3f82);
    assert_int_equal(gs_bf16_from_double(ldexp(1.0, -133)), 0x0001); /* the smallest subnormal */
    assert_int_equal(gs_bf16_from_double(1e39), 0x7f80);
    assert_int_equal(gs_bf16_from_double(-INFINITY), 0xff80);
    assert_true(gs_bf16_to_double(0x7f7f) == ldexp(255.0, 120)); /* the largest */
    for (unsigned int b = 0; b < 0x10000u; ++b)
        if ((b & 0x7f80u) != 0x7f80u)
            assert_int_equal(gs_bf16_from_double(gs_bf16_to_double((uint16_t)b)), b);
}

/* Sums of 16-bit floats are floats, with float's bound; min, max, argmin
 * and argmax their 16-bit values, exactly. */
static void test_reduce_16bit(void **state)
{
    (void)state;
    uint16_t x[70000];
    for (int i = 0; i < 70000; ++i)
        x[i] = gs_f16_from_double(1.0);
    x[12345] = gs_f16_from_double(-0.5);
    x[54321] = gs_f16_from_double(4.0);
    gs_ref_reduction r;
    double got = 0.0;
    gs_ref_reduce(GS_REDUCE_SUM, GS_FLOAT16, x, 70000, &r);
    assert_true(r.value == 70000.0 - 1.5 + 3.0); /* past 65504: the sum is a float */
    /* the bound is float's, n u sum |x| (about 292 here) */
    float f = 70001.5f, off = 71000.0f;
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT16, &r, &f, &got) && got == 70001.5);
    assert_true(r.bound > 200.0 && r.bound < 400.0);
    assert_false(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT16, &r, &off, &got));
    gs_ref_reduce(GS_REDUCE_MIN, GS_FLOAT16, x, 70000, &r);
    uint16_t half = gs_f16_from_double(-0.5), one = gs_f16_from_double(1.0);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_MIN, GS_FLOAT16, &r, &half, &got) && got == -0.5);
    assert_false(gs_ref_reduce_ok(GS_REDUCE_MIN, GS_FLOAT16, &r, &one, &got));
    gs_ref_reduce(GS_REDUCE_ARGMAX, GS_BFLOAT16, x, 3, &r); /* bits of f16 ones, read as bf16 */
    gs_reduce_arg a;
    memset(&a, 0, sizeof a);
    a.index = 0;
    a.value.bf16 = x[0];
    assert_true(r.index == 0 && gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_BFLOAT16, &r, &a, &got));
    a.index = 1;
    assert_false(gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_BFLOAT16, &r, &a, &got));
}

/* Unsigned integers: compared as unsigned (past the signed largest),
 * sums wrapping modulo 2^32 and 2^64. */
static void test_reduce_unsigned(void **state)
{
    (void)state;
    unsigned int u[3] = {0xfffffff0u, 5u, 0x80000000u};
    unsigned long long w[3] = {0xfffffffffffffff0ull, 5ull, 0x8000000000000000ull};
    gs_ref_reduction r;
    double got = 0.0;
    unsigned int su = 0xfffffff0u + 5u + 0x80000000u;
    gs_ref_reduce(GS_REDUCE_SUM, GS_UINT32, u, 3, &r);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_UINT32, &r, &su, &got));
    gs_ref_reduce(GS_REDUCE_MAX, GS_UINT32, u, 3, &r);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_MAX, GS_UINT32, &r, &u[0], &got));
    gs_ref_reduce(GS_REDUCE_ARGMIN, GS_UINT64, w, 3, &r);
    assert_int_equal(r.index, 1);
    gs_ref_reduce(GS_REDUCE_ARGMAX, GS_UINT64, w, 3, &r);
    assert_int_equal(r.index, 0);
    unsigned long long sw = 0xfffffffffffffff0ull + 5ull + 0x8000000000000000ull, bad = sw + 1;
    gs_ref_reduce(GS_REDUCE_SUM, GS_UINT64, w, 3, &r);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_UINT64, &r, &sw, &got));
    assert_false(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_UINT64, &r, &bad, &got));
}

/* A scan of f16: its outputs the float prefix rounded to 16 bits, inf past
 * 65504 (and only there); a wrong element found. */
static void test_scan_16bit(void **state)
{
    (void)state;
    enum { N = 3000 };
    static uint16_t x[N], y[N];
    long long first = 0;
    for (int i = 0; i < N; ++i)
        x[i] = gs_f16_from_double(30.0);
    for (int i = 0; i < N; ++i) /* 30 (i + 1), rounded; from 65520 on: inf */
        y[i] = gs_f16_from_double(30.0 * (i + 1));
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT16, x, y, N, &first),
                     0);
    assert_true(isinf(gs_f16_to_double(y[N - 1])));
    y[2000] = gs_f16_from_double(30.0 * 2001 + 64.0); /* two units of 32 off */
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT16, x, y, N, &first),
                     1);
    assert_int_equal(first, 2000);
    y[2000] = gs_f16_from_double(30.0 * 2001);
    y[100] = gs_f16_from_double(INFINITY); /* 3030 is far from overflowing */
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT16, x, y, N, &first),
                     1);
    assert_int_equal(first, 100);
    /* bf16 min, exclusive: the identity (+inf) first, then exact */
    uint16_t b[4], by[4];
    const double v[4] = {3.0, -1.0, 2.0, -7.0};
    for (int i = 0; i < 4; ++i)
        b[i] = gs_bf16_from_double(v[i]);
    by[0] = gs_bf16_from_double(INFINITY);
    by[1] = b[0];
    by[2] = b[1];
    by[3] = b[1];
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, GS_BFLOAT16, b, by, 4, &first),
                     0);
    by[3] = b[3];
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, GS_BFLOAT16, b, by, 4, &first),
                     1);
}

static void test_scan_unsigned(void **state)
{
    (void)state;
    unsigned long long x[3] = {0x8000000000000000ull, 1ull, 0xffffffffffffffffull};
    unsigned long long incl_max[3] = {x[0], x[0], x[2]};
    unsigned long long excl_min[3] = {0xffffffffffffffffull, x[0], 1ull};
    unsigned int u[3] = {0xffffffffu, 2u, 3u}, sums[3] = {0xffffffffu, 1u, 4u};
    long long first = 0;
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, GS_UINT64, x, incl_max, 3,
                                       &first),
                     0);
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, GS_UINT64, x, excl_min, 3,
                                       &first),
                     0);
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_UINT32, u, sums, 3,
                                       &first),
                     0);
    sums[1] = 0u;
    assert_int_equal(gs_ref_scan_wrong(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_UINT32, u, sums, 3,
                                       &first),
                     1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_bits),        cmocka_unit_test(test_bf16_bits),
        cmocka_unit_test(test_reduce_16bit),    cmocka_unit_test(test_reduce_unsigned),
        cmocka_unit_test(test_scan_16bit),      cmocka_unit_test(test_scan_unsigned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
