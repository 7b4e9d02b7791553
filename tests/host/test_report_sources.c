/* test_report_sources.c - `gridsync report` of several results files: two
 * files with disjoint suites (each table's sentence, each section and the
 * environment name the file a suite came from), an overlap where the later
 * file wins (and a file given first that gives nothing leaves the report of
 * the other as it was, byte for byte), a file that fails to load or is no
 * results document named, with nothing written, hostile paths and
 * environments escaped; and the Python package's results file (the fixture
 * results-python.json, written as python/src/gridsync/bench.py writes its
 * document, on made-up numbers) loads and renders, its columns and methods
 * being bench.py's. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "args.h"
#include "commands.h"
#include "results/registry.h"
#include "results/results.h"
#include "common/files.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/sources.h"
#include "report/summary.h"
#include "report_support.h"

#define PYTHON GS_SOURCE_DIR "/tests/host/fixtures/results-python.json"
#define BENCH_PY GS_SOURCE_DIR "/python/src/gridsync/bench.py"

/* The files of `paths`, loaded (they must be). */
static gs_results_source *load(char *const *paths, int n)
{
    char err[512];
    gs_sources_failure why;
    gs_results_source *files = gs_sources_load(paths, n, &why, err, sizeof err);
    if (!files)
        fail_msg("%s", err);
    return files;
}

/* What `write` makes of the files, in a buffer of its own (free it). */
static char *render(int summary, char *const *paths, int n)
{
    char err[512], *text = NULL;
    size_t len = 0;
    gs_results_source *files = load(paths, n);
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    int rc = summary ? gs_summary_write(f, files, n, err, sizeof err)
                     : gs_report_markdown_files(f, files, n, err, sizeof err);
    fclose(f);
    if (rc != 0)
        fail_msg("%s", err);
    gs_sources_free(files, n);
    return text;
}

/* `doc` written to a new file in `dir` named `name`; its path in `path`. */
static void write_doc(const cJSON *doc, const char *dir, const char *name, char *path,
                      size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(gs_results_print(doc, f), 0);
    fclose(f);
}

/* `needle` occurs in `text` before `later`. */
static void assert_before(const char *text, const char *needle, const char *later)
{
    const char *a = strstr(text, needle), *b = strstr(text, later);
    if (!a || !b || a > b)
        fail_msg("'%s' is not before '%s'", needle, later);
}

static void test_disjoint_suites(void **state)
{
    (void)state;
    char *paths[] = {RESULTS, PYTHON};
    char *md = render(1, paths, 2);
    /* each table's sentence names its own run; reduce follows the barrier's */
    assert_non_null(strstr(md, "Grid barrier, microseconds per barrier (median), NVIDIA H200, "
                               "CUDA 13.0, 2026-11-22 (`" RESULTS "`)."));
    assert_non_null(strstr(md, "torch tensors, microseconds per call (GPU time, back-to-back "
                               "calls), NVIDIA H200, CUDA 13.0, 2026-12-01 (`" PYTHON "`)."));
    assert_null(strstr(md, "; run: "));
    assert_non_null(strstr(md, "| 2^10 | 3.64 | 4.57 | 4.14 | 1 | 1.25x |\n"));
    assert_non_null(strstr(md, "| 2^10 | 13.5 | 36.3 | 5.9 | 5.2 | 11.4 | 7.6 | 7.2 | 0.44x | "
                               "0.67x | 1.80 | 2.10 |\n"));
    assert_before(md, "Grid barrier", "From Python");
    assert_tables_intact(md);
    free(md);
    md = render(0, paths, 2);
    assert_true(strncmp(md, "# gridsync benchmark report: NVIDIA H200\n\nFrom 2 runs: ", 55) == 0);
    assert_non_null(strstr(md, "## Summary\n\nFrom 2 runs (each suite's section names its "
                               "own):\n"));
    assert_non_null(strstr(md, "## barrier\n\nWhat it measures: "));
    assert_non_null(strstr(md, "\n\nRun: NVIDIA H200, CUDA 13.0, 2026-11-22 (`" RESULTS "`).\n"));
    assert_non_null(strstr(md, "\n\nRun: NVIDIA H200, CUDA 13.0, 2026-12-01 (`" PYTHON "`).\n"));
    assert_before(md, "## barrier", "## python");
    assert_non_null(strstr(md, "## Environment\n\n### `" RESULTS "`\n\nSuites from this file: "
                               "barrier, reduce, dot, gemm, multi.\n\n| property | value |\n"));
    assert_non_null(strstr(md, "### `" PYTHON "`\n\nSuites from this file: python.\n\n"));
    assert_non_null(strstr(md, "| torch | 2.5.1 |\n")); /* the Python run's own keys */
    assert_tables_intact(md);
    free(md);
}

/* A later file's suite replaces the earlier file's, in its place; a
 * sentence without {run} after another file's run names its own. */
static void test_overlap_later_wins(void **state)
{
    (void)state;
    char err[512], dir[64], newer[128];
    temp_dir(dir, sizeof dir);
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
    cJSON_ReplaceItemInObjectCaseSensitive(env, "date", cJSON_CreateString("2026-12-02T00:00:00Z"));
    cJSON *suites = cJSON_GetObjectItemCaseSensitive(doc, "suites");
    cJSON *reduce = cJSON_DetachItemFromObjectCaseSensitive(suites, "reduce");
    cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(reduce, "rows"), 0);
    cJSON_ReplaceItemInObjectCaseSensitive(first, "us_per_call", cJSON_CreateNumber(1.25));
    cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(doc, "suites"));
    cJSON_AddItemToObject(cJSON_AddObjectToObject(doc, "suites"), "reduce", reduce);
    write_doc(doc, dir, "reduce-only.json", newer, sizeof newer);
    cJSON_Delete(doc);

    char *both[] = {RESULTS, newer}, *reversed[] = {newer, RESULTS}, *alone[] = {RESULTS};
    char *md = render(1, both, 2);
    assert_non_null(strstr(md, "| 2^10 | 1.25 | 4.57 | 4.14 | 1 | 3.65x |\n")); /* the newer */
    assert_null(strstr(md, "| 2^10 | 3.64 |"));
    char want[512];
    snprintf(want, sizeof want, "tutorial's single pass; run: NVIDIA H200, CUDA 13.0, 2026-12-02 "
                                "(`%s`):\n", newer);
    assert_non_null(strstr(md, want));
    /* dot, after it, is the older file's again, and says so */
    assert_non_null(strstr(md, "(32 blocks, host sum); run: NVIDIA H200, CUDA 13.0, 2026-11-22 "
                               "(`" RESULTS "`):\n"));
    free(md);
    md = render(0, both, 2);
    assert_before(md, "## barrier", "## reduce"); /* where reduce first appears */
    assert_before(md, "## reduce", "## dot");
    snprintf(want, sizeof want, "### `%s`\n\nSuites from this file: reduce.\n", newer);
    assert_non_null(strstr(md, want));
    assert_non_null(strstr(md, "Suites from this file: barrier, dot, gemm, multi.\n"));
    assert_tables_intact(md);
    free(md);
    /* given first, the newer file gives nothing: the older file's report, byte for byte */
    char *one = render(1, alone, 1), *two = render(1, reversed, 2);
    assert_string_equal(two, one);
    free(one);
    free(two);
    one = render(0, alone, 1);
    two = render(0, reversed, 2);
    assert_string_equal(two, one);
    free(one);
    free(two);
    remove(newer);
}

/* gridsync report FILE... with stderr caught in `said`. */
static int run_report(int argc, char **argv, char *said, size_t len)
{
    return run_stderr(gs_cmd_report, argc, argv, said, len);
}

/* A file that cannot be read, or is no results document, is named, and
 * nothing is written: not the README, not --md, not the --out folder. */
static void test_bad_file_changes_nothing(void **state)
{
    (void)state;
    char dir[64], readme[128], md[128], out[128], bad[128], said[1024];
    static const char block[] = "# r\n<!-- results:begin -->\nold\n<!-- results:end -->\n";
    temp_dir(dir, sizeof dir);
    snprintf(readme, sizeof readme, "%s/README.md", dir);
    snprintf(md, sizeof md, "%s/report.md", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(bad, sizeof bad, "%s/not-results.json", dir);
    FILE *f = fopen(bad, "w");
    fputs("{\"schema\": \"something-else\", \"suites\": {}}\n", f);
    fclose(f);
    f = fopen(readme, "w");
    fputs(block, f);
    fclose(f);
    f = fopen(md, "w");
    fputs("kept\n", f);
    fclose(f);
    const struct {
        const char *file;
        int rc;
        const char *says;
    } cases[] = {{"/nonexistent/gone.json", GS_EXIT_USAGE, "cannot open /nonexistent/gone.json"},
                 {bad, GS_EXIT_FAILURE, "not-results.json is not a gridsync results document"}};
    for (int c = 0; c < 2; ++c) {
        char *readme_run[] = {"report", RESULTS, (char *)cases[c].file, PYTHON, "--readme",
                              readme, NULL};
        char *md_run[] = {"report", RESULTS, (char *)cases[c].file, "--md", md, NULL};
        char *out_run[] = {"report", (char *)cases[c].file, RESULTS, "--out", out, NULL};
        assert_int_equal(run_report(6, readme_run, said, sizeof said), cases[c].rc);
        assert_non_null(strstr(said, cases[c].says));
        assert_ptr_equal(strchr(said, '\n'), said + strlen(said) - 1); /* one line */
        assert_string_equal(slurp(readme), block);
        assert_int_equal(run_report(5, md_run, said, sizeof said), cases[c].rc);
        assert_non_null(strstr(said, cases[c].says));
        assert_string_equal(slurp(md), "kept\n");
        assert_int_equal(run_report(5, out_run, said, sizeof said), cases[c].rc);
        assert_non_null(strstr(said, cases[c].says));
        struct stat st;
        assert_int_equal(stat(out, &st), -1);
    }
    /* the good files then write them all */
    char *good[] = {"report", RESULTS, PYTHON, "--readme", readme, NULL};
    assert_int_equal(run_report(5, good, said, sizeof said), GS_EXIT_OK);
    assert_non_null(strstr(slurp(readme), "| 2^28 | 829.0 | 1954.0 | 553.0 |"));
    char *folder[] = {"report", RESULTS, PYTHON, "--out", out, "--no-plots", "--md", md, NULL};
    assert_int_equal(run_report(8, folder, said, sizeof said), GS_EXIT_OK);
    assert_non_null(strstr(slurp(md), "Suites from this file: python."));
    assert_non_null(strstr(slurp_in(out, "report.md"), "Suites from this file: python."));
    assert_true(exists(out) && strstr(slurp_in(out, "python.csv"), "op,n,method,us_per_call"));
}

/* A path and an environment made to break the markdown: shown as text,
 * tables whole, in the README's sentences, the sections and the
 * environment. */
static void test_hostile_paths_and_environments(void **state)
{
    (void)state;
    char err[512], dir[64], hostile[160], name[64];
    temp_dir(dir, sizeof dir);
    cJSON *doc = gs_results_load(PYTHON, err, sizeof err);
    assert_non_null(doc);
    cJSON *env = cJSON_GetObjectItemCaseSensitive(doc, "environment");
    cJSON_ReplaceItemInObjectCaseSensitive(env, "gpu",
                                           cJSON_CreateString("G|x\n<!-- results:end --> <b>"));
    cJSON_ReplaceItemInObjectCaseSensitive(env, "date", cJSON_CreateString("`x`|[a](javascript:1)"));
    cJSON_AddStringToObject(env, "a|b", "c\n|d");
    snprintf(name, sizeof name, "p|`x`\n<!-- results:end -->.json");
    write_doc(doc, dir, name, hostile, sizeof hostile);
    cJSON_Delete(doc);
    char *paths[] = {RESULTS, hostile};
    for (int summary = 0; summary < 2; ++summary) {
        char *md = render(summary, paths, 2);
        for (const char *lt = strchr(md, '<'); lt; lt = strchr(lt + 1, '<'))
            assert_true(lt > md && lt[-1] == '\\'); /* no tag, no marker: text */
        assert_null(strstr(md, "<b>"));
        assert_null(strstr(md, "[a](")); /* no link */
        assert_non_null(strstr(md, "p\\|\\`x\\` \\<!-- results:end --\\>.json"));
        assert_non_null(strstr(md, "G\\|x \\<!-- results:end --\\> \\<b\\>"));
        assert_tables_intact(md);
        free(md);
    }
    remove(hostile);
}

/* The Python package's results file: its columns and methods are the ones
 * bench.py writes, and it renders (README table, report.md, CSV). */
static void test_python_results_render(void **state)
{
    (void)state;
    char err[512];
    size_t len;
    const gs_bench_suite *s = gs_bench_suite_find("python");
    assert_non_null(s);
    char *py = gs_read_file(BENCH_PY, 1 << 20, "bench.py", &len, err, sizeof err);
    assert_non_null(py);
    /* COLUMNS = ["op", "n", ...]: the description's columns, in order */
    const char *p = strstr(py, "COLUMNS = [");
    assert_non_null(p);
    const char *end = strchr(p, ']');
    int c = 0;
    for (p = strchr(p, '"'); p && p < end; p = strchr(p + 1, '"'), ++c) {
        size_t n = strcspn(p + 1, "\"");
        assert_true(c < s->ncolumns);
        if (strlen(s->columns[c].name) != n || strncmp(s->columns[c].name, p + 1, n) != 0)
            fail_msg("bench.py's column %d is '%.*s', the description's '%s'", c, (int)n, p + 1,
                     s->columns[c].name);
        p = strchr(p + 1, '"');
    }
    assert_int_equal(c, s->ncolumns);
    const char *const *lists[] = {s->reading->ours, s->reading->peers};
    for (int l = 0; l < 2; ++l)
        for (const char *const *m = lists[l]; *m; ++m) {
            char quoted[96];
            snprintf(quoted, sizeof quoted, "\"%s\"", *m);
            if (!strstr(py, quoted))
                fail_msg("bench.py writes no method %s", quoted);
        }
    free(py);

    char *paths[] = {PYTHON};
    char *md = render(1, paths, 1);
    assert_non_null(strstr(md, "| n (f32) | torch.cumsum | cupy.cumsum | gridsync.scan | "
                               "C gs\\_scan | torch.sum | gridsync.reduce sum | C "
                               "gs\\_reduce\\_sum | scan / cumsum | reduce / sum | Python layer "
                               "us, scan | Python layer us, reduce |\n"));
    assert_non_null(strstr(md, "| 2^28 | 829.0 | 1954.0 | 553.0 | 551.0 | 249.0 | 242.6 | "
                               "242.0 | 0.67x | 0.97x | 1.90 | 2.20 |\n"));
    free(md);
    char dir[64];
    temp_dir(dir, sizeof dir);
    gs_results_source *files = load(paths, 1);
    assert_int_equal(gs_report_write_files(files, 1, dir, 0, err, sizeof err), 0);
    gs_sources_free(files, 1);
    md = slurp_in(dir, "report.md");
    assert_non_null(strstr(md, "- [python](#python): **gridsync.scan** is up to **2.29x "
                               "faster** than **torch.cumsum** (n = 2^10)"));
    assert_non_null(strstr(md, "| scan | 2^10 = 1024 | gridsync.scan | 5.900 us | 5.200 us | "
                               "2.29x | 1.800 us | 0 | 0.40% | 15 |\n"));
    assert_non_null(strstr(md, "| scan | 2^10 = 1024 | torch.cumsum | 13.50 us | 9.100 us | "
                               "1.00x | - | - |"));
    assert_tables_intact(md);
    assert_non_null(strstr(slurp_in(dir, "plots.gp"), "python-time-1.png"));
    assert_true(strncmp(slurp_in(dir, "python.csv"), "op,n,method,us_per_call,host_us_per_call,"
                                                     "speedup_vs_torch,overhead_us,errors", 70) ==
                0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disjoint_suites),
        cmocka_unit_test(test_overlap_later_wins),
        cmocka_unit_test(test_bad_file_changes_nothing),
        cmocka_unit_test(test_hostile_paths_and_environments),
        cmocka_unit_test(test_python_results_render),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
