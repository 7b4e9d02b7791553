/* test_report_winners.c - the report's tables of the fastest method per
 * group (report/winners.h, gs_winners of a suite's reading), on synthetic
 * results: each group's winner is the row with the smallest figure among
 * the pick's candidates, whichever that is (a kernel boundary in one grid,
 * a barrier in another), methods absent or without a number are passed
 * over, a group without any candidate shows "-", the sync suite's
 * split-phase table groups by step length, and report.md carries the
 * tables; the README summary's "fastest" and "best boundary" columns
 * agree. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/registry.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/winners.h"
#include "report_support.h"

/* A barrier row. */
#define B(threads, blocks, method, us)                                                      \
    "{\"threads\": " #threads ", \"blocks\": " #blocks ", \"method\": \"" method             \
    "\", \"us_per_barrier\": " #us "}"

/* Three grids: PDL wins at 132, tree at 1056, and at 1 block the graph
 * (PDL absent there: a GPU without it). */
static const char *const barrier_doc =
    "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\"}, "
    "\"suites\": {\"barrier\": {\"columns\": [\"threads\", \"blocks\", \"method\", "
    "\"us_per_barrier\"], \"rows\": ["
    B(256, 1, "tree", 0.9) "," B(256, 1, "cg grid.sync", 0.95) ","
    B(256, 1, "relaunch", 4.4) "," B(256, 1, "relaunch graph", 0.7) ","
    B(256, 132, "tree", 1.05) "," B(256, 132, "flip", 1.02) ","
    B(256, 132, "cg grid.sync", 1.09) "," B(256, 132, "relaunch graph", 1.22) ","
    B(256, 132, "relaunch + PDL", 3.9) "," B(256, 132, "relaunch graph + PDL", 0.83) ","
    B(256, 1056, "tree", 1.40) "," B(256, 1056, "cg grid.sync", 2.32) ","
    B(256, 1056, "relaunch graph", 1.52) "," B(256, 1056, "relaunch graph + PDL", 1.57) ","
    "{\"threads\": 256, \"blocks\": 1056, \"method\": \"lock\", \"us_per_barrier\": \"x\"}"
    "]}}}";

/* What the winners tables of `suite` render of `doc`, in a static buffer. */
static char *winners_of(const char *suite, const cJSON *doc)
{
    static char buf[1 << 16];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    const gs_bench_suite *s = gs_bench_suite_at(gs_bench_suite_index(suite));
    assert_non_null(s);
    assert_int_equal(gs_md_winners(f, s, cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "suites"),
                                                              suite)),
                     0);
    fclose(f);
    return buf;
}

static void test_barrier_winner_per_grid(void **state)
{
    (void)state;
    cJSON *doc = cJSON_Parse(barrier_doc);
    assert_non_null(doc);
    const char *md = winners_of("barrier", doc);
    assert_non_null(strstr(md, "Fastest per grid"));
    assert_non_null(strstr(md, "| threads | blocks | fastest method | fastest of gridsync's | "
                               "best kernel boundary |\n"));
    assert_non_null(strstr(md, "| 256 | 1 | relaunch graph (0.7000 us) | tree (0.9000 us) | "
                               "relaunch graph (0.7000 us) |\n"));
    assert_non_null(strstr(md, "| 256 | 132 | relaunch graph + PDL (0.8300 us) | flip (1.020 us) | "
                               "relaunch graph + PDL (0.8300 us) |\n"));
    /* lock's figure is not a number: passed over */
    assert_non_null(strstr(md, "| 256 | 1056 | tree (1.400 us) | tree (1.400 us) | "
                               "relaunch graph (1.520 us) |\n"));
    assert_tables_intact(md);
    cJSON_Delete(doc);
}

/* The README summary's BEST columns with `among` pick the same. */
static void test_summary_fastest_columns(void **state)
{
    (void)state;
    static char buf[1 << 16];
    char err[256];
    cJSON *doc = cJSON_Parse(barrier_doc);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    const gs_results_source one = {"bench/results/x.json", doc};
    assert_int_equal(gs_summary_write(f, &one, 1, err, sizeof err), 0);
    fclose(f);
    /* ..., best ours, vs grid.sync, vs graph, vs graph + PDL, fastest, best boundary */
    assert_non_null(strstr(buf, "| flip | 1.07x | 1.20x | 0.81x | relaunch graph + PDL | "
                                "relaunch graph + PDL |\n"));
    assert_non_null(strstr(buf, "| tree | 1.66x | 1.09x | 1.12x | tree | relaunch graph |\n"));
    assert_tables_intact(buf);
    cJSON_Delete(doc);
}

/* A sync row with work (split-phase) or without. */
#define S(blocks, primitive, work, us)                                                      \
    "{\"threads\": 256, \"blocks\": " #blocks ", \"primitive\": \"" primitive "\"" work      \
    ", \"us_per_step\": " #us "}"
#define W(w) ", \"work_us\": " #w

static void test_sync_per_step_length(void **state)
{
    (void)state;
    cJSON *doc = cJSON_Parse(
        "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\"}, "
        "\"suites\": {\"sync\": {\"rows\": ["
        S(132, "neighbour 1-D", "", 0.9) "," S(132, "relaunch graph + PDL", "", 0.8) ","
        S(132, "relaunch graph", "", 1.2) "," S(132, "work alone, 1 us", W(1), 1.0) ","
        S(132, "arrive/wait, 1 us work", W(1), 1.3) ","
        S(132, "relaunch graph, 1 us work", W(1), 2.2) ","
        S(132, "relaunch graph + PDL, 1 us work", W(1), 1.25) ","
        S(132, "arrive/wait, 2 us work", W(2), 2.1) ","
        S(132, "cg arrive/wait, 2 us work", W(2), 2.4) ","
        S(132, "relaunch graph + PDL, 2 us work", W(2), 2.3) ","
        S(132, "cg arrive/wait, 0.5 us work", W(0.5), 1.5)
        "]}}}");
    assert_non_null(doc);
    const char *md = winners_of("sync", doc);
    /* without work: PDL beats the neighbour barrier */
    assert_non_null(strstr(md, "| 256 | 132 | relaunch graph + PDL (0.8000 us) | neighbour 1-D "
                               "(0.9000 us) | relaunch graph + PDL (0.8000 us) |\n"));
    /* per step length; the work alone is no candidate (faster, but no synchronization) */
    assert_non_null(strstr(md, "| 256 | 132 | 1.000 us | relaunch graph + PDL, 1 us work (1.250 us) "
                               "| arrive/wait, 1 us work (1.300 us) | relaunch graph + PDL, 1 us "
                               "work (1.250 us) |\n"));
    assert_non_null(strstr(md, "| 256 | 132 | 2.000 us | arrive/wait, 2 us work (2.100 us) | "
                               "arrive/wait, 2 us work (2.100 us) | relaunch graph + PDL, 2 us "
                               "work (2.300 us) |\n"));
    /* a step length where neither gridsync nor a boundary was measured */
    assert_non_null(strstr(md, "| 256 | 132 | 0.5000 us | cg arrive/wait, 0.5 us work (1.500 us) | "
                               "- | - |\n"));
    assert_tables_intact(md);
    cJSON_Delete(doc);
}

/* report.md carries the tables, in the suite's section. */
static void test_report_has_winners(void **state)
{
    (void)state;
    static char buf[1 << 18];
    char err[256];
    cJSON *doc = cJSON_Parse(barrier_doc);
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_int_equal(gs_report_markdown(f, doc, err, sizeof err), 0);
    fclose(f);
    const char *section = strstr(buf, "## barrier");
    assert_non_null(section);
    assert_non_null(strstr(section, "| 256 | 132 | relaunch graph + PDL (0.8300 us) |"));
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_barrier_winner_per_grid),
        cmocka_unit_test(test_summary_fastest_columns),
        cmocka_unit_test(test_sync_per_step_length),
        cmocka_unit_test(test_report_has_winners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
