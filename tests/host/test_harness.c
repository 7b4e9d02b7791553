/* test_harness.c - statistics, host timing, CPU references, host random
 * numbers and result tables (text, CSV, JSON). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bench/random.h"
#include "bench/reference.h"
#include "bench/results.h"
#include "bench/stats.h"
#include "bench/table.h"
#include "bench/timer.h"
#ifdef GS_HAVE_MULTI
#include "bench/peers/nccl_device_barrier.h"
#endif

static void test_stats_odd_even_empty(void **state)
{
    (void)state;
    gs_stats s;
    const double odd[] = {5.0, 1.0, 3.0, 9.0, 7.0};
    assert_int_equal(gs_stats_compute(odd, 5, &s), 0);
    assert_true(s.median == 5.0 && s.min == 1.0 && s.max == 9.0 && s.mean == 5.0 && s.n == 5);
    assert_true(odd[0] == 5.0); /* input untouched */
    const double even[] = {4.0, 1.0, 2.0, 3.0};
    gs_stats_compute(even, 4, &s);
    assert_true(s.median == 2.5);
    gs_stats_compute(even, 0, &s);
    assert_true(s.n == 0 && s.median == 0.0);
    const double one[] = {0.75};
    gs_stats_compute(one, 1, &s);
    assert_true(s.median == 0.75 && s.min == 0.75 && s.max == 0.75);
}

static gs_table *sample_table(void)
{
    const char *cols[] = {"method", "us", "note"};
    gs_table *t = gs_table_new("demo", 3, cols);
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "tree");
    gs_table_set_number(t, 1, 0.6543, 3);
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "cg, grid.sync");
    gs_table_set_number(t, 1, 1.25, 3);
    gs_table_set_text(t, 2, "say \"hi\"");
    return t;
}

static char *render(int (*fn)(const gs_table *, FILE *), const gs_table *t)
{
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    fn(t, f);
    fclose(f);
    return buf;
}

static int print_wrap(const gs_table *t, FILE *f)
{
    gs_table_print(t, f);
    return 0;
}

static void test_table_text_and_csv(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    assert_int_equal(gs_table_rows(t), 2);
    const char *txt = render(print_wrap, t);
    assert_non_null(strstr(txt, "demo\n"));
    assert_non_null(strstr(txt, "0.654"));
    assert_non_null(strstr(txt, "  -\n")); /* unset cell */
    const char *csv = render(gs_table_write_csv, t);
    assert_string_equal(csv, "method,us,note\ntree,0.654,\n\"cg, grid.sync\",1.250,\"say \"\"hi\"\"\"\n");
    gs_table_free(t);
}

static void test_table_json_round_trip(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    cJSON *results = gs_results_new(cJSON_CreateObject());
    assert_int_equal(gs_results_add(results, "barrier", t), 0);
    char path[] = "/tmp/gs_results_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(gs_results_write(results, path), 0);
    FILE *f = fopen(path, "r");
    char text[4096] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(path);
    assert_true(n > 0);
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    assert_string_equal(cJSON_GetObjectItem(back, "schema")->valuestring, GS_RESULTS_SCHEMA);
    cJSON *rows = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(back, "suites"), "barrier"), "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    cJSON *r0 = cJSON_GetArrayItem(rows, 0);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(r0, "us")));
    assert_true(fabs(cJSON_GetObjectItem(r0, "us")->valuedouble - 0.6543) < 1e-12);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(r0, "note")));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "method")->valuestring,
                        "cg, grid.sync");
    cJSON_Delete(back);
    cJSON_Delete(results);
    gs_table_free(t);
}

static void test_table_bad_column(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    assert_int_equal(gs_table_set_text(t, 3, "x"), -1);
    assert_int_equal(gs_table_set_number(t, -1, 1.0, 1), -1);
    gs_table_set_number(t, 1, NAN, 2);
    cJSON *j = gs_table_to_json(t);
    cJSON *last = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 1);
    assert_string_equal(cJSON_GetObjectItem(last, "us")->valuestring, "nan");
    cJSON_Delete(j);
    gs_table_free(t);
}

static void test_reference_reductions(void **state)
{
    (void)state;
    gs_ref_reduction r;
    double got = 0.0;
    const int big[] = {2000000000, 2000000000, -5}; /* an int32 sum wraps */
    gs_ref_reduce(GS_REDUCE_SUM, GS_INT32, big, 3, &r);
    assert_true(r.ivalue == (long long)(int)(4000000000u - 5u));
    int wrapped = (int)(4000000000u - 5u);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_INT32, &r, &wrapped, &got));
    const float x[] = {1.0f, -3.0f, 2.5f};
    gs_ref_reduce(GS_REDUCE_MIN, GS_FLOAT32, x, 3, &r);
    assert_true(r.value == -3.0 && r.bound == 0.0);
    gs_ref_reduce(GS_REDUCE_SUM, GS_FLOAT32, x, 3, &r);
    assert_true(r.value == 0.5 && r.magnitude == 6.5 && r.bound == 3 * ldexp(1.0, -24) * 6.5);
    float near = 0.5f, far = 0.75f;
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT32, &r, &near, &got) && got == 0.5);
    assert_false(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT32, &r, &far, &got));
    /* argmin/argmax: the first index of the extreme */
    const long long v[] = {4, -2, 9, -2, 9};
    gs_ref_reduce(GS_REDUCE_ARGMIN, GS_INT64, v, 5, &r);
    assert_true(r.ivalue == -2 && r.index == 1);
    gs_ref_reduce(GS_REDUCE_ARGMAX, GS_INT64, v, 5, &r);
    assert_true(r.ivalue == 9 && r.index == 2);
    gs_reduce_arg arg = {2, {.i64 = 9}};
    assert_true(gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_INT64, &r, &arg, &got));
    arg.index = 4; /* the same value, not the first */
    assert_false(gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_INT64, &r, &arg, &got));
    gs_ref_reduce(GS_REDUCE_ARGMIN, GS_FLOAT32, x, 0, &r);
    assert_true(r.index == -1);
    const double a[] = {1.0, 2.0}, b[] = {3.0, -4.0};
    double bound = 0.0;
    assert_true(gs_ref_dot_f64(a, b, 2, &bound) == -5.0 && bound == 3 * ldexp(1.0, -53) * 11.0);
}

static void test_reference_sgemm(void **state)
{
    (void)state;
    const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}; /* 2x2 */
    float c[] = {19, 22, 43, 50};
    assert_int_equal(gs_ref_sgemm_out_of_bound(a, b, c, 2, 2, 2), 0);
    c[3] = NAN;
    c[0] = 19.5f;
    assert_int_equal(gs_ref_sgemm_out_of_bound(a, b, c, 2, 2, 2), 2);
}

static void test_random_range(void **state)
{
    (void)state;
    gs_rng a = {42}, b = {42};
    float x[1000];
    gs_rng_fill(&a, x, 1000);
    for (int i = 0; i < 1000; ++i) {
        assert_true(x[i] >= -1.0f && x[i] < 1.0f);
        assert_true(x[i] == (float)gs_rng_uniform(&b)); /* the same sequence */
    }
}

/* Host-timed work that counts its calls. */
static gs_status count_call(void *ctx)
{
    ++*(int *)ctx;
    return GS_SUCCESS;
}

static void test_host_timing(void **state)
{
    (void)state;
    int calls = 0;
    gs_stats s;
    gs_timing_plan plan = {2, 5, 0};
    assert_int_equal(gs_time_host_work(count_call, &calls, &plan, 10.0, &s), GS_SUCCESS);
    assert_int_equal(calls, 7);
    assert_true(s.n == 5 && s.min >= 0.0 && s.median >= s.min && s.max >= s.median);
    plan.samples = 0;
    assert_int_equal(gs_time_host_work(count_call, &calls, &plan, 10.0, &s),
                     GS_ERR_INVALID_ARGUMENT);
    double us = 0.0;
    plan.samples = 1;
    assert_int_equal(gs_time_calls(NULL, NULL, 0, 0, &plan, &us), GS_ERR_INVALID_ARGUMENT);
}

#ifdef GS_HAVE_MULTI
/* NCCL's device API is inlined from its headers: the library must be the
 * very same version, patch included (2.28.9 headers on a 2.28.3 library
 * crashed with an illegal address when only major.minor was compared). */
static void test_nccl_device_api_version_guard(void **state)
{
    (void)state;
    assert_true(gs__nccl_device_api_usable(22803, 22803));
    assert_false(gs__nccl_device_api_usable(22803, 22809));
    assert_false(gs__nccl_device_api_usable(22809, 22803));
    assert_false(gs__nccl_device_api_usable(22703, 22703)); /* no device API before 2.28 */
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef GS_HAVE_MULTI
        cmocka_unit_test(test_nccl_device_api_version_guard),
#endif
        cmocka_unit_test(test_stats_odd_even_empty),
        cmocka_unit_test(test_table_text_and_csv),
        cmocka_unit_test(test_table_json_round_trip),
        cmocka_unit_test(test_table_bad_column),
        cmocka_unit_test(test_reference_reductions),
        cmocka_unit_test(test_reference_sgemm),
        cmocka_unit_test(test_random_range),
        cmocka_unit_test(test_host_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
