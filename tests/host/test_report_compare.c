/* test_report_compare.c - two runs side by side (--compare): rows matched
 * on the suite's key (renamed methods, equal numbers, null and absent
 * alike, the first of duplicates; a value of another kind matches
 * nothing), ratios and verdicts within the noise, as markdown and in a
 * folder with a plot. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/registry.h"
#include "results/results.h"
#include "report/compare.h"
#include "report_support.h"

/* Two runs of the reduce suite: the new one faster beyond the noise, the
 * same within it, slower, a row only in each. */
static const char old_run[] =
    "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\", \"date\": "
    "\"2026-01-01T00:00:00Z\"}, \"suites\": {\"reduce\": {\"columns\": [\"op\", \"n\", "
    "\"method\", \"us_per_call\"], \"rows\": ["
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"gridsync\", \"us_per_call\": 4, \"noise\": 0.01},"
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"seed 001\", \"us_per_call\": 5, \"noise\": 0.05},"
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"cub\", \"us_per_call\": 8},"
    "{\"op\": \"sum\", \"n\": 2048, \"method\": \"cub\", \"us_per_call\": 8},"
    "{\"op\": \"copy\", \"n\": null, \"method\": \"cudaMemcpy D2D (read+write)\", "
    "\"us_per_call\": null}]}, \"gemm\": {\"rows\": []}}}";
static const char new_run[] =
    "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\", \"date\": "
    "\"2026-02-01T00:00:00Z\"}, \"suites\": {\"reduce\": {\"columns\": [\"op\", \"n\", "
    "\"method\", \"us_per_call\"], \"rows\": ["
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"gridsync\", \"us_per_call\": 2, \"noise\": 0.02},"
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"threadfence single pass (tutorial)\", "
    "\"us_per_call\": 5.1, \"noise\": 0.01},"
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"cub\", \"us_per_call\": 9},"
    "{\"op\": \"sum\", \"n\": 4096, \"method\": \"cub\", \"us_per_call\": 8}]}}}";

static void test_compare(void **state)
{
    (void)state;
    cJSON *a = cJSON_Parse(old_run), *b = cJSON_Parse(new_run);
    assert_non_null(a);
    assert_non_null(b);
    const gs_bench_suite *reduce = gs_bench_suite_find("reduce");
    gs_comparison *c = NULL;
    int only_old = 0, only_new = 0;
    int n = gs_compare_suite(reduce, gs_results_suite(a, "reduce"), gs_results_suite(b, "reduce"),
                             &c, &only_old, &only_new);
    assert_int_equal(n, 3);
    assert_int_equal(only_old, 1); /* 2048 */
    assert_int_equal(only_new, 1); /* 4096 */
    assert_true(c[0].ratio == 2.0 && c[0].verdict == GS_FASTER && c[0].noise_known);
    assert_true(c[0].threshold == 0.02); /* the larger of the two rows' noise */
    /* "seed 001" is the tutorial's old name: the same row; 2% slower, within 5% */
    assert_true(fabs(c[1].ratio - 5.0 / 5.1) < 1e-12 && c[1].verdict == GS_SAME);
    /* no noise recorded: 2% assumed, and 8/9 is beyond it */
    assert_true(!c[2].noise_known && c[2].threshold == GS_COMPARE_NOISE);
    assert_int_equal(c[2].verdict, GS_SLOWER);
    free(c);
    /* as markdown, and in a folder with a plot */
    char dir[64], md[128], err[256];
    temp_dir(dir, sizeof dir);
    snprintf(md, sizeof md, "%s/c.md", dir);
    gs_compare_options o = {"old.json", "new|x.json", dir, 1, md};
    assert_int_equal(gs_compare_write(a, b, &o, err, sizeof err), 0);
    char *text = slurp(md);
    assert_non_null(strstr(text, "- old: `old.json` (G, 2026-01-01, commit ?)\n"));
    /* a name a code span cannot show: escaped text */
    assert_non_null(strstr(text, "- new: new\\|x.json (G, 2026-02-01, commit ?)\n"));
    assert_non_null(strstr(text, "| [reduce](#reduce) | 3 | 1 | 1 | 1 | "));
    assert_non_null(strstr(text, "Not compared: 1 rows only in the old run, 1 only in the new."));
    assert_non_null(strstr(text, "| op | n | method | old time per call | new time per call | "
                                 "ratio | noise (old / new) | new is |"));
    assert_non_null(strstr(text, "| sum | 2^10 = 1024 | gridsync | 4.000 us | 2.000 us | "
                                 "2.000x | 1.00% / 2.00% | faster |"));
    assert_non_null(strstr(text, "| sum | 2^10 = 1024 | cub | 8.000 us | 9.000 us | 0.889x | "
                                 "not recorded | slower |"));
    assert_null(strstr(text, "| gemm")); /* no row in common: not a suite of the table */
    assert_tables_intact(text);
    assert_non_null(strstr(slurp_in(dir, "compare.md"), "## reduce"));
    char *dat = slurp_in(dir, "reduce-compare.dat");
    assert_non_null(dat);
    assert_non_null(strstr(dat, "\"old run = 1\""));
    /* not results documents; nothing in common */
    cJSON *junk = cJSON_Parse("{\"schema\": 1}");
    o.dir = NULL;
    o.md = NULL;
    assert_int_equal(gs_compare_write(junk, b, &o, err, sizeof err), -1);
    assert_non_null(strstr(err, "old.json is not a gridsync results document"));
    cJSON *other = cJSON_Parse("{\"schema\": \"gridsync-results/1\", \"suites\": {\"dot\": {}}}");
    assert_int_equal(gs_compare_write(a, other, &o, err, sizeof err), -1);
    assert_string_equal(err, "the two results files have no suite in common");
    cJSON_Delete(junk);
    cJSON_Delete(other);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

/* Matching by key: the first old row of a key, whatever the order; equal
 * numbers (0 and -0), null and absent alike; true or an object in a key
 * matches nothing, not even itself. */
static void test_compare_matching(void **state)
{
    (void)state;
    cJSON *a = cJSON_Parse(
        "{\"rows\": [{\"op\": \"sum\", \"n\": 0, \"method\": \"cub\", \"us_per_call\": 4},"
        "{\"op\": \"sum\", \"n\": 0, \"method\": \"cub\", \"us_per_call\": 8},"
        "{\"op\": \"copy\", \"method\": \"m\", \"us_per_call\": 2},"
        "{\"op\": true, \"n\": 1, \"method\": \"cub\", \"us_per_call\": 2},"
        "{\"op\": {\"x\": 1}, \"n\": 1, \"method\": \"cub\", \"us_per_call\": 2}]}");
    cJSON *b = cJSON_Parse(
        "{\"rows\": [{\"op\": true, \"n\": 1, \"method\": \"cub\", \"us_per_call\": 2},"
        "{\"op\": \"copy\", \"n\": null, \"method\": \"m\", \"us_per_call\": 1},"
        "{\"op\": \"sum\", \"n\": -0.0, \"method\": \"cub\", \"us_per_call\": 2}]}");
    assert_non_null(a);
    assert_non_null(b);
    gs_comparison *c = NULL;
    int only_old = 0, only_new = 0;
    int n = gs_compare_suite(gs_bench_suite_find("reduce"), a, b, &c, &only_old, &only_new);
    assert_int_equal(n, 2);
    assert_int_equal(only_new, 1); /* op true */
    assert_int_equal(only_old, 2); /* op true, op {x: 1}; both sums have a match */
    assert_true(c[0].ratio == 2.0); /* copy: null and absent n alike */
    assert_true(c[1].ratio == 2.0); /* the first old sum (4), not the second (8) */
    free(c);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_compare_matching),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
