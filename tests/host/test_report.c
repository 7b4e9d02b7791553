/* test_report.c - report.md, CSV and plot scripts from a committed results
 * file; behaviour without gnuplot; bad documents. */
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
#include "report.h"

#ifndef GS_SOURCE_DIR
#error "GS_SOURCE_DIR must name the source tree"
#endif
#define RESULTS GS_SOURCE_DIR "/bench/results/h200-2026-11-22.json"

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
    cJSON_Delete(doc);
}

static void test_plots_with_and_without_gnuplot(void **state)
{
    (void)state;
    char err[256], dir[64], path[256];
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_from_committed_results),
        cmocka_unit_test(test_plots_with_and_without_gnuplot),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
