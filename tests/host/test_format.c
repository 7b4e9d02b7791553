/* test_format.c - how the report shows results: cells ("2^16 = 65536",
 * "19.63 us", "5.22%", "1.23x", "0.0076"), labels from the suites'
 * descriptions, the figures a plot description makes (ratios, series
 * families and colours, categories, ceilings the best of their rows,
 * bounds), the flags of a table (noisy, above a ceiling) and the summary's
 * sentences (one-block grids left out, the range's methods named). */
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
#include "report/figure.h"
#include "report/format.h"
#include "report/headline.h"
#include "report/tables.h"

static const char *number(const char *suite, const char *column, double v)
{
    static char buf[128];
    gs_column_view view;
    gs_column_view_of(suite ? gs_bench_suite_find(suite) : NULL, column, &view);
    gs_format_number(v, &view, buf, sizeof buf);
    return buf;
}

static const char *compact(const char *suite, const char *column, double v)
{
    static char buf[128];
    gs_column_view view;
    gs_column_view_of(gs_bench_suite_find(suite), column, &view);
    gs_format_compact(v, &view, buf, sizeof buf);
    return buf;
}

static void test_cells(void **state)
{
    (void)state;
    assert_string_equal(number("reduce", "n", 65536), "2^16 = 65536");
    assert_string_equal(number("reduce", "n", 1073741824), "2^30 = 1073741824");
    assert_string_equal(number("reduce", "n", 3001), "3001");
    assert_string_equal(number("reduce", "frac_copy_bw", 0.0522), "5.22%");
    assert_string_equal(number("reduce", "frac_copy_bw", 1.1752), "117.5%");
    assert_string_equal(number("reduce", "frac_copy_bw", 0.81392), "81.4%");
    assert_string_equal(number("reduce", "speedup_vs_peer", 1.2345), "1.23x");
    assert_string_equal(number("reduce", "us_per_call", 19.632), "19.63 us");
    assert_string_equal(number("reduce", "us_per_call", 1858.88), "1859 us");
    assert_string_equal(number("reduce", "us_per_call", 242.56), "242.6 us");
    assert_string_equal(number("barrier", "us_per_barrier", 0.069679), "0.06968 us");
    assert_string_equal(number("reduce", "gb_per_s", 4427.26), "4427.3 GB/s");
    assert_string_equal(number("barrier", "blocks_per_sm", 0.0075757), "0.0076");
    assert_string_equal(number("barrier", "blocks_per_sm", 8), "8.00");
    assert_string_equal(number("barrier", "blocks", 1056), "1056");
    assert_string_equal(number("gemm", "ms_per_call", 0.0298112), "0.02981 ms");
    assert_string_equal(number(NULL, GS_ROW_NOISE, 0.0123), "1.23%");
    assert_string_equal(number(NULL, GS_ROW_SAMPLES, 15), "15");
    assert_string_equal(number(NULL, "anything", 2.5), "2.500");
    assert_string_equal(number("reduce", "us_per_call", NAN), "nan");
    assert_string_equal(compact("reduce", "n", 8192), "2^13");
    assert_string_equal(compact("barrier", "blocks", 132), "132");
    assert_string_equal(compact("barrier", "blocks_per_sm", 0.5), "0.5");
    assert_string_equal(compact("barrier", "speedup_vs_cg", 2), "2x");
    char buf[64];
    gs_format_significant(0.000123456, 3, buf, sizeof buf);
    assert_string_equal(buf, "0.000123");
    gs_format_significant(0.99998, 4, buf, sizeof buf); /* rounded up a decade */
    assert_string_equal(buf, "1.000");
    gs_format_significant(9.99996, 4, buf, sizeof buf);
    assert_string_equal(buf, "10.00");
    gs_format_significant(1e-30, 4, buf, sizeof buf); /* at most 12 decimals */
    assert_string_equal(buf, "0.000000000000");
    cJSON *d = cJSON_CreateString("2026-11-22T08:45:19Z");
    gs_format_day(d, buf, sizeof buf);
    assert_string_equal(buf, "2026-11-22");
    cJSON_Delete(d);
    d = cJSON_CreateString("%n%n%n");
    gs_format_day(d, buf, sizeof buf);
    assert_string_equal(buf, "?");
    cJSON_Delete(d);
}

static void test_labels(void **state)
{
    (void)state;
    gs_column_view v;
    gs_column_view_of(gs_bench_suite_find("barrier"), "us_per_barrier", &v);
    assert_string_equal(v.label, "time per barrier");
    assert_string_equal(v.unit, "us");
    gs_column_view_of(gs_bench_suite_find("barrier"), "threads", &v);
    assert_string_equal(v.label, "threads");
    gs_column_view_of(NULL, "some_new_column", &v); /* a column no suite describes */
    assert_string_equal(v.label, "some new column");
    assert_string_equal(v.unit, "");
}

/* The figures of plot `index` of `suite` from the JSON `rows_json`. */
static int figures(const char *suite, int index, const char *rows_json, const char *env_json,
                   gs_figure **out)
{
    char doc[8192];
    snprintf(doc, sizeof doc, "{\"rows\": %s}", rows_json);
    cJSON *table = cJSON_Parse(doc), *env = env_json ? cJSON_Parse(env_json) : NULL;
    assert_non_null(table);
    int n = gs_figures_build(gs_bench_suite_find(suite), index, table, env, out);
    cJSON_Delete(table);
    cJSON_Delete(env);
    return n;
}

static const gs_fig_series *series_named(const gs_figure *f, const char *name)
{
    for (int s = 0; s < f->nseries; ++s)
        if (strcmp(f->series[s].name, name) == 0)
            return &f->series[s];
    fail_msg("no series '%s'", name);
    return NULL;
}

#define ROW(op, n, m, us, gbs)                                                               \
    "{\"op\": \"" op "\", \"n\": " #n ", \"method\": \"" m "\", \"us_per_call\": " #us       \
    ", \"gb_per_s\": " #gbs "}"

static const char reduce_rows[] =
    "[" ROW("sum", 8388608, "cub", 12, 2800) "," ROW("sum", 1024, "seed 001", 5, 0.8) ","
    ROW("sum", 1024, "cub", 4, 1) "," ROW("sum", 1024, "gridsync", 2, 2) ","
    ROW("sum", 8388608, "gridsync", 10, 3300) "," ROW("min", 1024, "gridsync", 1, 4) ","
    ROW("min", 1024, "cub", 3, 1.3) ","
    "{\"op\": \"copy\", \"n\": null, \"method\": \"cudaMemcpy D2D (read+write)\", "
    "\"gb_per_s\": 3900}]";

static void test_figure_ratio(void **state)
{
    (void)state;
    gs_figure *f = NULL;
    int n = figures("reduce", 0, reduce_rows, NULL, &f); /* speedup over cub, per op */
    assert_int_equal(n, 2);
    assert_string_equal(f[0].file, "reduce-speedup-1");
    assert_string_equal(f[0].title, "reduce: speedup over CUB DeviceReduce (op = sum)");
    assert_string_equal(f[1].facet, "op = min");
    /* ours first; the baseline is no series but the line at 1 */
    assert_int_equal(f[0].nseries, 2);
    assert_string_equal(f[0].series[0].name, "gridsync");
    assert_true(f[0].series[0].ours && f[0].series[0].colour == 0);
    const gs_fig_series *t = series_named(&f[0], "threadfence single pass (tutorial)");
    assert_false(t->ours); /* renamed from "seed 001": a peer */
    const gs_fig_series *g = &f[0].series[0];
    assert_int_equal(g->npoints, 2); /* by rising x */
    assert_true(g->points[0].x == 1024 && g->points[0].y == 2.0);
    assert_true(g->points[1].x == 8388608 && fabs(g->points[1].y - 1.2) < 1e-12);
    assert_true(t->points[0].y == 0.8);
    assert_true(isnan(g->points[0].lo)); /* no samples recorded: no bars */
    assert_int_equal(f[0].nlines, 1);
    assert_string_equal(f[0].lines[0].label, "cub = 1");
    assert_true(f[0].lines[0].y == 1.0 && f[0].lines[0].kind == GS_LINE_REFERENCE);
    assert_true(f[1].series[0].points[0].y == 3.0);
    assert_int_equal(f[0].timing, -1); /* not recorded */
    free(f);
}

static void test_figure_bounds_and_ceilings(void **state)
{
    (void)state;
    gs_figure *f = NULL;
    /* latency: sum only, n up to 2^22 */
    assert_int_equal(figures("reduce", 1, reduce_rows, NULL, &f), 1);
    assert_string_equal(f[0].file, "reduce-latency");
    assert_int_equal(series_named(&f[0], "cub")->npoints, 1);
    assert_true(f[0].xmax == 1024);
    free(f);
    /* bandwidth: the copy's ceiling (not filtered out with its op) and the
     * datasheet's */
    assert_int_equal(figures("reduce", 2, reduce_rows,
                             "{\"memory_bandwidth_gbs_theoretical\": 4814.3}", &f),
                     1);
    assert_int_equal(f[0].nlines, 2);
    assert_string_equal(f[0].lines[0].label, "cudaMemcpy D2D (read+write): 3900.0 GB/s");
    assert_int_equal(f[0].lines[0].kind, GS_LINE_MEASURED);
    assert_string_equal(f[0].lines[1].label, "datasheet bandwidth: 4814.3 GB/s");
    assert_true(f[0].ymax == 4814.3); /* the axis reaches the ceilings */
    for (int s = 0; s < f[0].nseries; ++s)
        assert_true(strcmp(f[0].series[s].name, "cudaMemcpy D2D (read+write)") != 0);
    free(f);
    /* nothing to plot: no figure */
    assert_int_equal(figures("reduce", 0, "[]", NULL, &f), 0);
    assert_null(f);
    assert_int_equal(figures("reduce", 0, "[1, \"x\", {\"op\": \"sum\"}]", NULL, &f), 0);
}

/* The copy's measured ceiling is its best bandwidth (a copy of 2^10
 * elements times a launch, not the memory), wherever it was measured. */
static void test_figure_ceiling_is_the_best(void **state)
{
    (void)state;
    gs_figure *f = NULL;
    const char rows[] =
        "[{\"kind\": \"copy\", \"n\": 1024, \"method\": \"cudaMemcpy D2D\", \"gb_per_s\": "
        "1.5}, {\"kind\": \"inclusive\", \"n\": 1024, \"method\": \"gridsync\", "
        "\"gb_per_s\": 1.6}, {\"kind\": \"copy\", \"n\": 268435456, \"method\": "
        "\"cudaMemcpy D2D\", \"gb_per_s\": 4227.1}, {\"kind\": \"copy\", \"n\": 1073741824, "
        "\"method\": \"cudaMemcpy D2D\", \"gb_per_s\": 4100}, {\"kind\": \"inclusive\", "
        "\"n\": 268435456, \"method\": \"gridsync\", \"gb_per_s\": 3755}]";
    assert_int_equal(figures("scan", 1, rows, NULL, &f), 1);
    assert_string_equal(f[0].file, "scan-bandwidth");
    assert_int_equal(f[0].nlines, 1);
    assert_string_equal(f[0].lines[0].label, "cudaMemcpy D2D: 4227.1 GB/s");
    assert_true(f[0].lines[0].y == 4227.1 && f[0].lines[0].kind == GS_LINE_MEASURED);
    free(f);
}

/* A results table flags what a reader should not take at face value: noise
 * above GS_NOISY, a fraction of a ceiling above 100%; a sentence says so. */
static void test_table_flags(void **state)
{
    (void)state;
    char *md = NULL;
    size_t len = 0;
    cJSON *t = cJSON_Parse(
        "{\"columns\": [\"kind\", \"n\", \"method\", \"gb_per_s\", \"frac_copy_bw\"], "
        "\"rows\": [{\"kind\": \"inclusive\", \"n\": 1024, \"method\": \"gridsync\", "
        "\"gb_per_s\": 1.6, \"frac_copy_bw\": 1.068, \"noise\": 0.0569, \"samples\": 15}, "
        "{\"kind\": \"inclusive\", \"n\": 1024, \"method\": \"cub\", \"gb_per_s\": 0.7, "
        "\"frac_copy_bw\": 0.458, \"noise\": 0.283, \"samples\": 15}]}");
    FILE *f = open_memstream(&md, &len);
    gs_md_results_table(f, gs_bench_suite_find("scan"), t);
    fclose(f);
    assert_non_null(strstr(md, "| gridsync | 1.6 GB/s | 106.8% (above) | 5.69% | 15 |\n"));
    assert_non_null(strstr(md, "| cub | 0.70 GB/s | 45.8% | 28.3% (noisy) | 15 |\n"));
    assert_non_null(strstr(md, "\nRead with care: 1 figure is noisier than 10% (marked noisy)"));
    assert_non_null(strstr(md, " 1 fraction of a reference is above 100% (marked above; of "
                               "D2D copy): "));
    free(md);
    cJSON_Delete(t);
    /* nothing to flag: no sentence */
    t = cJSON_Parse("{\"columns\": [\"n\", \"frac_copy_bw\"], \"rows\": [{\"n\": 1, "
                    "\"frac_copy_bw\": 1.0, \"noise\": 0.1}]}");
    f = open_memstream(&md, &len);
    gs_md_results_table(f, gs_bench_suite_find("scan"), t);
    fclose(f);
    assert_null(strstr(md, "Read with care"));
    free(md);
    cJSON_Delete(t);
}

#define BROW(t, b, m, us, lo, hi)                                                            \
    "{\"threads\": " #t ", \"blocks\": " #b ", \"method\": \"" m "\", \"us_per_barrier\": " #us \
    ", \"min_us\": " #lo ", \"max_us\": " #hi "}"

static void test_figure_categories_and_colours(void **state)
{
    (void)state;
    gs_figure *f = NULL;
    const char rows[] =
        "[" BROW(256, 264, "lock", 1, 0.9, 1.1) "," BROW(256, 264, "cg grid.sync", 2, 2, 2) ","
        BROW(256, 1, "flip", 0.5, 0.5, 0.5) "," BROW(256, 1, "cg grid.sync", 1, 1, 1) ","
        BROW(256, 132, "relaunch", 4, 3, 5) "," BROW(256, 132, "cg grid.sync", 2, 2, 2) ","
        BROW(1024, 1, "flip", 1, 1, 1) "," BROW(1024, 1, "cg grid.sync", 1, 1, 1) "]";
    int n = figures("barrier", 0, rows, NULL, &f); /* speedup: bars per grid */
    assert_int_equal(n, 2);
    assert_string_equal(f[0].file, "barrier-speedup-256");
    assert_string_equal(f[1].file, "barrier-speedup-1024");
    assert_true(f[0].categorical);
    assert_int_equal(f[0].ncats, 3); /* numbers: rising, wherever they were first */
    assert_string_equal(f[0].cats[0], "1");
    assert_string_equal(f[0].cats[1], "132");
    assert_string_equal(f[0].cats[2], "264");
    const gs_fig_series *lock = series_named(&f[0], "lock");
    assert_true(lock->points[0].x == 2 && lock->points[0].y == 2.0);
    /* the bar: the peer's median over this method's slowest and fastest */
    assert_true(fabs(lock->points[0].lo - 2.0 / 1.1) < 1e-12);
    assert_true(fabs(lock->points[0].hi - 2.0 / 0.9) < 1e-12);
    assert_true(f[0].bars);
    const gs_fig_series *relaunch = series_named(&f[0], "relaunch");
    assert_false(relaunch->ours);
    assert_true(relaunch->points[0].y == 0.5);
    /* a series keeps its colour in a picture where another is missing */
    const gs_fig_series *flip256 = series_named(&f[0], "flip");
    const gs_fig_series *flip1024 = series_named(&f[1], "flip");
    assert_int_equal(flip256->colour, flip1024->colour);
    assert_int_equal(f[1].nseries, 1); /* no room kept for series it does not have */
    free(f);
}

static void test_headlines(void **state)
{
    (void)state;
    const gs_bench_suite *barrier = gs_bench_suite_find("barrier");
    cJSON *t = cJSON_Parse(
        "{\"rows\": [" BROW(256, 1, "tree", 0.1, 0, 0) "," BROW(256, 1, "lock", 1, 0, 0) ","
        BROW(256, 1, "cg grid.sync", 1, 0, 0) "," BROW(256, 132, "tree", 1.2, 0, 0) ","
        BROW(256, 132, "lock", 1.05, 0, 0) "," BROW(256, 132, "cg grid.sync", 1.1, 0, 0) ","
        BROW(256, 528, "flip", 0.5, 0, 0) "," BROW(256, 528, "cg grid.sync", 1, 0, 0) ","
        BROW(256, 264, "lock", 1, 0, 0) "]}"); /* no peer at 264: not compared */
    gs_headline_result r;
    char s[1024];
    gs_headline_compute(barrier, &barrier->reading->headlines[0], t, &r);
    /* the best of ours per grid; the grid of one block (a block's barrier)
     * left out */
    assert_int_equal(r.compared, 2);
    assert_int_equal(r.left_out, 3);
    assert_true(fabs(r.best - 2.0) < 1e-12 && fabs(r.worst - 1.1 / 1.05) < 1e-12);
    assert_string_equal(r.best_method, "flip");
    assert_string_equal(r.best_where, "threads = 256, blocks = 528");
    assert_string_equal(r.worst_method, "lock");
    gs_headline_sentence(barrier, &barrier->reading->headlines[0], &r, s, sizeof s);
    /* the range names the method at each end when they differ */
    assert_string_equal(s, "gridsync's **flip** is up to **2.00x faster** than **cg grid.sync** "
                           "(threads = 256, blocks = 528); over the 2 grids measured, from 1.05x "
                           "(**lock**, threads = 256, blocks = 132) to 2.00x (**flip**). Grids "
                           "of one block are left out: their grid barrier is a block's "
                           "barrier.");
    cJSON_Delete(t);
    /* one method at both ends: named once; a noisy best says so */
    t = cJSON_Parse("{\"rows\": [" BROW(256, 132, "lock", 1, 0, 0) ","
                    BROW(256, 132, "cg grid.sync", 2, 0, 0) ","
                    "{\"threads\": 256, \"blocks\": 264, \"method\": \"lock\", "
                    "\"us_per_barrier\": 1, \"noise\": 0.283}, "
                    BROW(256, 264, "cg grid.sync", 3, 0, 0) "]}");
    gs_headline_compute(barrier, &barrier->reading->headlines[0], t, &r);
    gs_headline_sentence(barrier, &barrier->reading->headlines[0], &r, s, sizeof s);
    assert_string_equal(s, "gridsync's **lock** is up to **3.00x faster** than **cg grid.sync** "
                           "(threads = 256, blocks = 264; noisy: 28.3%); over the 2 grids "
                           "measured, from 2.00x (threads = 256, blocks = 132) to 3.00x.");
    cJSON_Delete(t);
    /* a rate, below the peer */
    const gs_bench_suite *gemm = gs_bench_suite_find("gemm");
    t = cJSON_Parse("{\"rows\": [{\"m\": 64, \"n\": 64, \"k\": 64, \"method\": \"gridsync\", "
                    "\"tflop_s\": 9}, {\"m\": 64, \"n\": 64, \"k\": 64, \"method\": \"cublas\", "
                    "\"tflop_s\": 18}]}");
    gs_headline_compute(gemm, &gemm->reading->headlines[0], t, &r);
    gs_headline_sentence(gemm, &gemm->reading->headlines[0], &r, s, sizeof s);
    assert_string_equal(s, "**gridsync** reaches at best **0.50x** the speed of **cublas** "
                           "(m = 64, n = 64, k = 64).");
    cJSON_Delete(t);
    /* each of ours (the cross-GPU barrier's grids), a method escaped */
    const gs_bench_suite *multi = gs_bench_suite_find("multi");
    t = cJSON_Parse(
        "{\"rows\": [{\"gpus\": 2, \"what\": \"barrier\", \"method\": \"gridsync p2p\", "
        "\"blocks_per_gpu\": 1, \"us\": 2}, {\"gpus\": 2, \"what\": \"barrier\", \"method\": "
        "\"gridsync p2p\", \"blocks_per_gpu\": 132, \"us\": 4}, {\"gpus\": 2, \"what\": "
        "\"barrier\", \"method\": \"nccl allreduce 1 word\", \"us\": 8}]}");
    gs_headline_compute(multi, &multi->reading->headlines[0], t, &r);
    assert_int_equal(r.compared, 2);
    assert_string_equal(r.best_where, "GPUs = 2, blocks/GPU = 1");
    cJSON_Delete(t);
    /* nothing to compare: no sentence */
    t = cJSON_Parse("{\"rows\": 5}");
    gs_headline_compute(multi, &multi->reading->headlines[1], t, &r);
    gs_headline_sentence(multi, &multi->reading->headlines[1], &r, s, sizeof s);
    assert_int_equal(r.compared, 0);
    assert_string_equal(s, "");
    cJSON_Delete(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cells),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_figure_ratio),
        cmocka_unit_test(test_figure_bounds_and_ceilings),
        cmocka_unit_test(test_figure_ceiling_is_the_best),
        cmocka_unit_test(test_table_flags),
        cmocka_unit_test(test_figure_categories_and_colours),
        cmocka_unit_test(test_headlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
