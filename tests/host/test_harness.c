/* test_harness.c - statistics and result tables (text, CSV, JSON). */
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

#include "bench/results.h"
#include "bench/stats.h"
#include "bench/table.h"
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
