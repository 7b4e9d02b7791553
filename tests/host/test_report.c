/* test_report.c - report.md, CSV and plot scripts from a committed results
 * file; behaviour without gnuplot; bad documents; a hostile document (no
 * string of it in plots.gp or a file name; markdown escaped); the size cap;
 * the README's summary tables and generated blocks; docs/results-schema.md's
 * columns current. report_fuzz.sh runs the real program on many more. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "args.h"
#include "commands.h"
#include "common/spawn.h"
#include "report/doc_block.h"
#include "report/report.h"
#include "report/schema.h"
#include "report/summary.h"

#ifndef GS_SOURCE_DIR
#error "GS_SOURCE_DIR must name the source tree"
#endif
/* A frozen copy of a real run (2x H200 at commit 85451d5, with the old
 * method names of that time): the expected cells below are its figures, so
 * newer results files leave this test alone. */
#define RESULTS GS_SOURCE_DIR "/tests/host/fixtures/results-h200-85451d5.json"

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

static void temp_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/gs_report_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void test_report_from_committed_results(void **state)
{
    (void)state;
    char err[256], dir[64], path[256];
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    temp_dir(dir, sizeof dir);
    assert_int_equal(gs_report_write(doc, dir, 0, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/report.md", dir);
    char *md = slurp(path);
    assert_non_null(md);
    assert_non_null(strstr(md, "# gridsync benchmark report: NVIDIA H200"));
    assert_non_null(strstr(md, "## barrier"));
    assert_non_null(strstr(md, "| threads | blocks |"));
    assert_non_null(strstr(md, "| 256 | 1056 | 8 | tree |"));
    assert_non_null(strstr(md, "Plots were not rendered (--no-plots)"));
    snprintf(path, sizeof path, "%s/barrier.csv", dir);
    char *csv = slurp(path);
    assert_non_null(csv);
    assert_true(strncmp(csv, "threads,blocks,blocks_per_sm,method,us_per_barrier", 50) == 0);
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    char *gp = slurp(path);
    assert_non_null(gp);
    assert_non_null(strstr(gp, "barrier-256.png"));
    assert_non_null(strstr(gp, "barrier-1024.png"));
    snprintf(path, sizeof path, "%s/barrier-256.dat", dir);
    char *dat = slurp(path);
    assert_non_null(dat);
    assert_non_null(strstr(dat, "\"cg grid.sync\"\n1 "));
    /* every suite of the file: reduce/dot GB/s on powers-of-two axes, gemm
     * TFLOP/s of the square shapes only (slurp reuses one buffer: re-read) */
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_non_null(strstr(slurp(path), "## gemm"));
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    gp = slurp(path);
    assert_non_null(strstr(gp, "reduce-sum.png"));
    assert_non_null(strstr(gp, "dot-dot.png"));
    assert_non_null(strstr(gp, "set format x '2^%L'"));
    assert_non_null(strstr(gp, "gemm-all.png"));
    assert_non_null(strstr(gp, "set title 'gemm: square shapes'"));
    snprintf(path, sizeof path, "%s/gemm-all.dat", dir);
    char *gemm = slurp(path);
    assert_non_null(gemm);
    assert_non_null(strstr(gemm, "\"cublas\"\n512 "));
    assert_null(strstr(gemm, "16384 ")); /* 16384x512x4096 is not square */
    snprintf(path, sizeof path, "%s/multi.csv", dir); /* a comma in a cell: quoted */
    assert_non_null(strstr(slurp(path), ",\"gs_reduce_sum, 1 GPU\","));
    cJSON_Delete(doc);
}

static void test_plots_with_and_without_gnuplot(void **state)
{
    (void)state;
    char err[256], dir[64], path[256];
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    char gnuplot[1024];
    if (gs_find_program("gnuplot", gnuplot, sizeof gnuplot) == 0) {
        temp_dir(dir, sizeof dir);
        assert_int_equal(gs_report_write(doc, dir, 1, err, sizeof err), 0);
        snprintf(path, sizeof path, "%s/barrier-256.png", dir);
        assert_true(exists(path));
    }
    /* no gnuplot on the PATH: everything else is written, and the report
     * says how to get the plots */
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("PATH", "/nonexistent", 1);
    temp_dir(dir, sizeof dir);
    int rc = gs_report_write(doc, dir, 1, err, sizeof err);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    assert_int_equal(rc, 0);
    snprintf(path, sizeof path, "%s/report.md", dir);
    assert_non_null(strstr(slurp(path), "gnuplot is not installed"));
    snprintf(path, sizeof path, "%s/barrier.csv", dir);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/barrier-256.png", dir);
    assert_false(exists(path));
    cJSON_Delete(doc);
}

static void test_bad_documents(void **state)
{
    (void)state;
    char err[256], dir[64];
    assert_null(gs_results_load("/nonexistent/results.json", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    cJSON *doc = cJSON_Parse("{\"schema\": \"something-else\", \"suites\": {}}");
    temp_dir(dir, sizeof dir);
    assert_int_equal(gs_report_write(doc, dir, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a gridsync results document"));
    cJSON_Delete(doc);
}

static void test_md_escape(void **state)
{
    (void)state;
    char out[64];
    gs_report_md_escape("a|b\nc\r\td\x7f\xc3\xa9", out, sizeof out);
    assert_string_equal(out, "a\\|b c  d \xc3\xa9");
    gs_report_md_escape("ab|", out, 4); /* no room for "\|": left out whole */
    assert_string_equal(out, "ab");
    gs_report_md_escape("", out, sizeof out);
    assert_string_equal(out, "");
}

static void test_make_dirs_empty(void **state)
{
    (void)state;
    errno = 0;
    assert_int_equal(gs_make_dirs(""), -1);
    assert_int_equal(errno, ENOENT);
}

/* Every table line of report.md has its header's number of unescaped '|'. */
static void assert_tables_intact(const char *md)
{
    int want = -1;
    for (const char *line = md; *line;) {
        const char *end = strchr(line, '\n');
        int n = 0;
        for (const char *p = line; p < (end ? end : line + strlen(line)); ++p)
            n += *p == '|' && (p == line || p[-1] != '\\');
        if (*line != '|')
            want = -1;
        else if (want < 0)
            want = n;
        else
            assert_int_equal(n, want);
        line = end ? end + 1 : line + strlen(line);
    }
}

#define HOSTILE "x'; system 'touch PWNED'; y='"

static void test_hostile_document(void **state)
{
    (void)state;
    char err[256], dir[64], out[128], path[256];
    cJSON *doc = cJSON_Parse(
        "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"A|B\\nC\"},"
        " \"suites\": {\"../../escaped\": {\"columns\": [\"a\"], \"rows\": [{\"a\": 1}]},"
        " \"reduce\": {\"title\": \"t|\\n## x\", \"columns\": [\"op\", \"n\", \"method\", \"gb_per_s\"],"
        " \"rows\": [{\"op\": \"" HOSTILE "\", \"n\": 4, \"method\": \"m\\\"|\\n\", \"gb_per_s\": 1},"
        " {\"op\": \"sum\", \"n\": 4, \"method\": \"" HOSTILE "\", \"gb_per_s\": 1}]}}}");
    assert_non_null(doc);
    temp_dir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/a/b", dir);
    assert_int_equal(gs_report_write(doc, out, 1, err, sizeof err), 0);
    /* nothing written for the unknown suite, in or out of the folder */
    snprintf(path, sizeof path, "%s/escaped.csv", dir);
    assert_false(exists(path));
    snprintf(path, sizeof path, "%s/a/b/PWNED", dir);
    assert_false(exists(path));
    snprintf(path, sizeof path, "%s/report.md", out);
    char *md = slurp(path);
    assert_non_null(strstr(md, "# gridsync benchmark report: A\\|B C\n\n"));
    assert_non_null(strstr(md, "Skipped: not a suite this gridsync knows"));
    assert_non_null(strstr(md, "\nt\\| ## x\n"));
    assert_non_null(strstr(md, "Plot `reduce-1.png`: op = " HOSTILE "\n"));
    assert_tables_intact(md);
    /* the script names files by index and holds no string of the file */
    snprintf(path, sizeof path, "%s/plots.gp", out);
    char *gp = slurp(path);
    assert_non_null(strstr(gp, "set output 'reduce-1.png'"));
    assert_non_null(strstr(gp, "set output 'reduce-2.png'"));
    assert_null(strstr(gp, "system"));
    assert_null(strstr(gp, "m\""));
    /* series names only in the data, quotes and line breaks neutralised */
    snprintf(path, sizeof path, "%s/reduce-1.dat", out);
    assert_non_null(strstr(slurp(path), "\"m'| \"\n4 1\n"));
    cJSON_Delete(doc);
}

/* What gs_summary_write renders of `doc`, in a static buffer. */
static char *summary_of(const cJSON *doc, int *rc)
{
    static char buf[1 << 16];
    char err[256];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    *rc = gs_summary_write(f, doc, "bench/results/x.json", err, sizeof err);
    fclose(f);
    return buf;
}

static void test_summary_of_committed_results(void **state)
{
    (void)state;
    char err[256];
    int rc;
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    const char *md = summary_of(doc, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(md, "Grid barrier, microseconds per barrier (median), NVIDIA H200, "
                               "CUDA 13.0, 2026-11-22 (`bench/results/x.json`)."));
    /* best ours and the ratios against it */
    assert_non_null(strstr(md, "| 256 | 1 | 1.052 | 1.479 | 1.084 | 0.067 | 0.964 | 3.740 | "
                               "0.777 | tree | 14.31x | 11.53x |\n"));
    assert_non_null(strstr(md, "| 256 | 1056 | 2.330 | 4.678 | 2.175 | 2.221 | 2.208 | 3.967 | "
                               "1.419 | flip | 1.02x | 0.65x |\n"));
    /* reduce and dot: sum / dot rows by size, GB/s and the peer's ratio */
    assert_non_null(strstr(md, "| 2^10 | 3.64 | 4.57 | 4.14 | 1 | 1.25x |\n"));
    assert_non_null(strstr(md, "| 2^30 | 1858.88 | 1894.69 | 53400.03 | 4621 | 1.02x |\n"));
    assert_null(strstr(md, "| copy")); /* the copy row is not a size */
    /* gemm by shape; multi row by row */
    assert_non_null(strstr(md, "| 3001x2999x1537 | 35.99 | 41.62 | 7.63 | 0.86x |\n"));
    assert_non_null(strstr(md, "| 2 | barrier | nccl allreduce 1 word | - | 12.78 | - | 1.00x |\n"));
    assert_non_null(strstr(md, "| 2 | reduce 2^28/GPU | gs_multi_reduce_sum | - | 264.74 | 8112 | "
                               "1.91x |\n"));
    assert_tables_intact(md);
    cJSON_Delete(doc);
}

static void test_summary_of_hostile_document(void **state)
{
    (void)state;
    int rc;
    cJSON *doc = cJSON_Parse(
        "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"A|B\\nC\", "
        "\"date\": 5}, \"suites\": {\"multi\": {\"rows\": [{\"gpus\": \"" HOSTILE "|x\", "
        "\"what\": \"a\\nb|\", \"method\": {\"x\": 1}, \"us\": \"%n%n\"}, 7, null]},"
        " \"barrier\": {\"rows\": [{\"threads\": 1, \"blocks\": 2, \"method\": \"lock\", "
        "\"us_per_barrier\": \"x\"}, {\"threads\": [], \"method\": \"tree\"}]}}}");
    assert_non_null(doc);
    const char *md = summary_of(doc, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(md, "A\\|B C, CUDA ?, ? ("));
    assert_non_null(strstr(md, "| 1 | 2 | x | - |")); /* a text where a number was */
    assert_non_null(strstr(md, "| %n%n |"));
    assert_tables_intact(md);
    cJSON_Delete(doc);
    doc = cJSON_Parse("{\"schema\": \"gridsync-results/1\", \"suites\": {\"x\": {}}}");
    summary_of(doc, &rc);
    assert_int_equal(rc, -1); /* no suite with a summary */
    cJSON_Delete(doc);
}

static void test_doc_block(void **state)
{
    (void)state;
    char err[256], path[] = "/tmp/gs_doc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *doc = "# t\n<!-- results:begin -->\nold\n<!-- results:end -->\ntail\n";
    assert_int_equal(write(fd, doc, strlen(doc)), (int)strlen(doc));
    close(fd);
    assert_int_equal(gs_doc_replace_block(path, "results", "new\nlines\n", 10, err, sizeof err), 0);
    assert_string_equal(slurp(path),
                        "# t\n<!-- results:begin -->\nnew\nlines\n<!-- results:end -->\ntail\n");
    assert_int_equal(gs_doc_replace_block(path, "columns", "x\n", 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "has no <!-- columns:begin --> ... <!-- columns:end --> block"));
    assert_non_null(strstr(slurp(path), "new\nlines\n")); /* untouched */
    remove(path);
    assert_int_equal(gs_doc_replace_block("/nonexistent/README.md", "results", "", 0, err,
                                          sizeof err),
                     -1);
    assert_non_null(strstr(err, "cannot open /nonexistent/README.md"));
}

/* docs/results-schema.md's columns table is what the suites describe. */
static void test_schema_doc_current(void **state)
{
    (void)state;
    static char want[1 << 15];
    char err[256];
    size_t len = 0, block_len = 0;
    FILE *f = fmemopen(want, sizeof want, "w");
    gs_schema_write(f);
    fclose(f);
    char *doc = gs_read_file(GS_SOURCE_DIR "/docs/results-schema.md", 1 << 20, "a document", &len,
                             err, sizeof err);
    assert_non_null(doc);
    const char *block = gs_doc_find_block(doc, "columns", &block_len);
    assert_non_null(block);
    if (block_len != strlen(want) || strncmp(block, want, block_len) != 0)
        fail_msg("docs/results-schema.md's columns are not the suites' descriptions: run "
                 "`gridsync report --columns --readme docs/results-schema.md`");
    free(doc);
}

static void test_size_cap(void **state)
{
    (void)state;
    char err[256];
    /* a reader without a cap fails here rather than exhausting the machine */
    struct rlimit old, low;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    low = old;
    low.rlim_cur = (rlim_t)4 << 30;
    if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < low.rlim_cur)
        low.rlim_cur = old.rlim_cur;
    assert_int_equal(setrlimit(RLIMIT_AS, &low), 0);
    cJSON *doc = gs_results_load("/dev/zero", err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    assert_null(doc);
    assert_string_equal(err, "/dev/zero is larger than 64 MiB: not a gridsync results file");
}

static int run_cmd(int argc, const char **argv)
{
    char *copy[8];
    for (int i = 0; i < argc; ++i)
        copy[i] = (char *)argv[i];
    copy[argc] = NULL;
    return gs_cmd_report(argc, copy);
}

static void test_cli(void **state)
{
    (void)state;
    const char *a[] = {"report"};
    assert_int_equal(run_cmd(1, a), GS_EXIT_USAGE);
    const char *b[] = {"report", "/nonexistent.json"};
    assert_int_equal(run_cmd(2, b), GS_EXIT_USAGE);
    const char *c[] = {"report", "--bogus", RESULTS};
    assert_int_equal(run_cmd(3, c), GS_EXIT_USAGE);
    const char *d[] = {"report", RESULTS, "--out"};
    assert_int_equal(run_cmd(3, d), GS_EXIT_USAGE);
    char dir[64];
    temp_dir(dir, sizeof dir);
    const char *e[] = {"report", RESULTS, "--out", dir, "--no-plots"};
    assert_int_equal(run_cmd(5, e), GS_EXIT_OK);
    const char *f[] = {"report", RESULTS, "--out", ""};
    assert_int_equal(run_cmd(4, f), GS_EXIT_USAGE);
    const char *g[] = {"report", RESULTS, "--summary", "--out", dir};
    assert_int_equal(run_cmd(5, g), GS_EXIT_USAGE);
    const char *h[] = {"report", RESULTS, "--readme", ""};
    assert_int_equal(run_cmd(4, h), GS_EXIT_USAGE);
    const char *i[] = {"report", "--columns", RESULTS};
    assert_int_equal(run_cmd(3, i), GS_EXIT_USAGE);
    const char *j[] = {"report", "--summary"};
    assert_int_equal(run_cmd(2, j), GS_EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_from_committed_results),
        cmocka_unit_test(test_plots_with_and_without_gnuplot),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_md_escape),
        cmocka_unit_test(test_make_dirs_empty),
        cmocka_unit_test(test_hostile_document),
        cmocka_unit_test(test_summary_of_committed_results),
        cmocka_unit_test(test_summary_of_hostile_document),
        cmocka_unit_test(test_doc_block),
        cmocka_unit_test(test_schema_doc_current),
        cmocka_unit_test(test_size_cap),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
