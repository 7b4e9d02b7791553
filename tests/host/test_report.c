/* test_report.c - report.md (summary from the data, formatted tables, plots
 * embedded), CSV and plot scripts from a committed results file, and from
 * one with measured rows (noise, samples, cold timing); behaviour without
 * gnuplot; bad documents; a hostile document (no string of it in plots.gp or
 * a file name; markdown escaped); the size cap; the README's summary tables
 * and generated blocks; docs/results-schema.md's columns current.
 * report_fuzz.sh runs the real program on many more. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
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
#include "results/registry.h"
#include "report/compare.h"
#include "report/doc_block.h"
#include "report/outputs.h"
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
/* The committed run the docs are made of (its figures are not checked). */
#define COMMITTED GS_SOURCE_DIR "/bench/results/h200-2026-11-22.json"

static void assert_tables_intact(const char *md);

static char *slurp(const char *path)
{
    static char buf[1 << 18];
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

/* `name` in the folder `dir`, read whole (a static buffer: one at a time). */
static char *slurp_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

/* Every picture the committed fixture makes: a plot for every suite. */
static const char *const pictures[] = {
    "barrier-speedup-256", "barrier-speedup-1024", "barrier-time-256", "barrier-time-1024",
    "reduce-speedup-1",    "reduce-speedup-2",     "reduce-speedup-3", "reduce-latency",
    "reduce-bandwidth",    "dot-speedup",          "dot-latency",      "dot-bandwidth",
    "gemm-speedup",        "gemm-tflops",          "multi-barrier-2",  "multi-reduce-2"};
enum { NPICTURES = sizeof pictures / sizeof pictures[0] };

static void test_report_from_committed_results(void **state)
{
    (void)state;
    char err[256], dir[64];
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    temp_dir(dir, sizeof dir);
    assert_int_equal(gs_report_write(doc, dir, 0, err, sizeof err), 0);
    char *md = slurp_in(dir, "report.md");
    assert_non_null(md);
    assert_non_null(strstr(md, "# gridsync benchmark report: NVIDIA H200\n\nNVIDIA H200 "
                               "(compute capability 9.0, 132 SMs), CUDA 13.0"));
    /* the summary, from the data */
    assert_non_null(strstr(md, "## Summary\n\nOn this NVIDIA H200, in this run:\n\n"));
    assert_non_null(strstr(md, "- [reduce](#reduce): **gridsync** is up to **2.70x faster** "
                               "than **cub** (n = 2^16); over the 8 sizes measured, from "));
    assert_non_null(strstr(md, "- [barrier](#barrier): gridsync's **tree** is up to "));
    assert_non_null(strstr(md, "- [gemm](#gemm): **gridsync** reaches at best **0."));
    assert_non_null(strstr(md, "- [multi](#multi): **gridsync p2p** is up to "));
    /* sections with formatted cells and units */
    assert_non_null(strstr(md, "## barrier\n\nWhat it measures: Microseconds per grid"));
    assert_non_null(strstr(md, "| threads | blocks | blocks/SM | method | time per barrier |"));
    assert_non_null(strstr(md, "| 256 | 1056 | 8.00 | tree | "));
    assert_non_null(strstr(md, "| 256 | 1 | 0.0076 | lock | "));
    assert_non_null(strstr(md, "| sum | 2^16 = 65536 | gridsync | "));
    assert_non_null(strstr(md, " us | "));
    assert_non_null(strstr(md, " GB/s | "));
    assert_non_null(strstr(md, "% | ")); /* of the copy, of the datasheet */
    assert_null(strstr(md, "e+0"));      /* no exponents */
    /* renamed methods by their name now */
    assert_non_null(strstr(md, "| threadfence single pass (tutorial) |"));
    assert_null(strstr(md, "seed 001"));
    /* the old file's timing, said as it is known */
    assert_non_null(strstr(md, "Timing: hot (the L2 cache as the previous sample left it): "
                               "this results file was written before"));
    assert_non_null(strstr(md, "| property | value |\n|---|---|\n| GPU | NVIDIA H200 |"));
    assert_non_null(strstr(md, "Plots were not drawn (--no-plots)"));
    assert_non_null(strstr(md, "- `barrier-speedup-256.png`: barrier: speedup over "));
    assert_null(strstr(md, "![")); /* nothing embedded that was not drawn */
    assert_tables_intact(md);
    char *csv = slurp_in(dir, "barrier.csv");
    assert_non_null(csv);
    assert_true(strncmp(csv, "threads,blocks,blocks_per_sm,method,us_per_barrier", 50) == 0);
    char *gp = slurp_in(dir, "plots.gp");
    assert_non_null(gp);
    for (int i = 0; i < NPICTURES; ++i) {
        char line[128];
        snprintf(line, sizeof line, "set output '%s.png'", pictures[i]);
        if (!strstr(gp, line))
            fail_msg("plots.gp draws no %s.png", pictures[i]);
    }
    assert_null(strstr(gp, "NVIDIA")); /* the results' texts are data */
    assert_null(strstr(gp, "cg grid.sync'"));
    assert_non_null(strstr(gp, "set xtics ('2^10' 1024, '2^13' 8192"));
    assert_non_null(strstr(gp, "set key below"));
    /* a speedup: the baseline's time over each method's, per grid */
    char *dat = slurp_in(dir, "barrier-speedup-256.dat");
    assert_non_null(dat);
    assert_non_null(strstr(dat, "\"lock\"\n"));
    assert_null(strstr(dat, "\"cg grid.sync\"\n")); /* the baseline is the line at 1 */
    assert_non_null(strstr(dat, "\"cg grid.sync = 1\"\n"));
    assert_non_null(strstr(dat, "0 \"1\"\n1 \"132\"\n2 \"264\"\n3 \"1056\"\n"));
    assert_non_null(strstr(dat, "\"NVIDIA H200, 132 SMs, CUDA 13.0, 2026-11-22; hot L2"));
    /* the copy's measured ceiling and the datasheet's */
    dat = slurp_in(dir, "reduce-bandwidth.dat");
    assert_non_null(strstr(dat, "\"cudaMemcpy D2D (read+write): "));
    assert_non_null(strstr(dat, "\"datasheet bandwidth: 4814.3 GB/s\"\n"));
    /* gemm: TFLOP/s of the square shapes only; the speedup of every shape */
    dat = slurp_in(dir, "gemm-tflops.dat");
    assert_non_null(strstr(dat, "\"cublas\"\n512 "));
    assert_null(strstr(dat, "16384 "));
    assert_non_null(strstr(slurp_in(dir, "gemm-speedup.dat"), "\"3001x2999x1537\""));
    /* a comma in a cell: quoted */
    assert_non_null(strstr(slurp_in(dir, "multi.csv"), ",\"gs_reduce_sum, 1 GPU\","));
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
        char *md = slurp_in(dir, "report.md");
        for (int i = 0; i < NPICTURES; ++i) {
            char link[128];
            snprintf(path, sizeof path, "%s/%s.png", dir, pictures[i]);
            assert_true(exists(path));
            snprintf(link, sizeof link, "](%s.png)\n", pictures[i]);
            if (!strstr(md, link))
                fail_msg("report.md does not show %s.png", pictures[i]);
        }
        assert_non_null(strstr(md, "![barrier: speedup over cooperative groups grid.sync() "
                                   "(threads = 256)](barrier-speedup-256.png)"));
        /* the plots sit in their suite's section, before its table */
        assert_true(strstr(md, "](gemm-speedup.png)") > strstr(md, "## gemm"));
        assert_true(strstr(md, "](gemm-speedup.png)") < strstr(md, "| m | n | k |"));
        snprintf(path, sizeof path, "%s/gnuplot.log", dir); /* gnuplot said nothing */
        assert_false(exists(path));
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
    assert_non_null(strstr(slurp_in(dir, "report.md"), "gnuplot is not installed"));
    snprintf(path, sizeof path, "%s/barrier.csv", dir);
    assert_true(exists(path));
    snprintf(path, sizeof path, "%s/barrier-speedup-256.png", dir);
    assert_false(exists(path));
    cJSON_Delete(doc);
}

/* A results document of the new kind: measured rows (samples, noise,
 * fastest and slowest), cold, the GPU's state. */
static const char new_kind[] =
    "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"NVIDIA X\", "
    "\"sms\": 10, \"date\": \"2027-01-02T03:04:05Z\", \"gpu_state\": {\"sm_clock_mhz\": 1500, "
    "\"throttle_reasons\": [\"gpu_idle\"]}}, \"suites\": {\"reduce\": {\"title\": \"t\", "
    "\"columns\": [\"op\", \"n\", \"method\", \"us_per_call\", \"gb_per_s\"], "
    "\"sampling\": {\"mode\": \"cold\", \"min_samples\": 10, \"max_samples\": 100000, "
    "\"min_time_s\": 0.5, \"max_noise\": 0.005, \"timeout_s\": 15}, "
    "\"gpu_state\": {\"end\": {\"throttle_reasons\": [\"sw_power_cap\"]}}, \"rows\": ["
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"gridsync\", \"us_per_call\": 2, "
    "\"gb_per_s\": 2, \"samples\": 12, \"noise\": 0.004, \"rel_min\": 0.9, \"rel_max\": 1.5, "
    "\"timing\": \"cold\"},"
    "{\"op\": \"sum\", \"n\": 1024, \"method\": \"cub\", \"us_per_call\": 4, "
    "\"gb_per_s\": 1, \"samples\": 40, \"noise\": 0.0123, \"rel_min\": 0.95, \"rel_max\": 1.2, "
    "\"timing\": \"cold\"}]}}}";

static void test_report_of_measured_rows(void **state)
{
    (void)state;
    char err[256], dir[64];
    cJSON *doc = cJSON_Parse(new_kind);
    assert_non_null(doc);
    temp_dir(dir, sizeof dir);
    assert_int_equal(gs_report_write(doc, dir, 0, err, sizeof err), 0);
    char *md = slurp_in(dir, "report.md");
    assert_non_null(strstr(md, "| op | n | method | time per call | bandwidth | noise | samples |"));
    assert_non_null(strstr(md, "| sum | 2^10 = 1024 | cub | 4.000 us | 1.0 GB/s | 1.23% | 40 |"));
    assert_non_null(strstr(md, "Timing: cold (the L2 cache flushed before every sample); each "
                               "figure is the median of 12 to 40 samples, taken until their "
                               "noise was under 0.5% (or 15 s passed); noise (relative "
                               "standard deviation) at most 1.23%."));
    assert_non_null(strstr(md, "**Warning**: when this suite ended the GPU reported clock "
                               "limits (sw\\_power\\_cap)"));
    assert_non_null(strstr(md, "| GPU when the run began | 1500 MHz SM; throttle reasons: "
                               "gpu_idle |"));
    assert_non_null(strstr(md, "**gridsync** is up to **2.00x faster** than **cub** (n = 2^10)."));
    assert_non_null(strstr(slurp_in(dir, "reduce.csv"), "noise,samples\n"));
    /* the speedup's bar: cub's median over gridsync's fastest and slowest */
    char *dat = slurp_in(dir, "reduce-speedup-1.dat");
    assert_non_null(strstr(dat, "\"gridsync\"\n1024 2 1.3333333333333333 2.2222222222222223\n"));
    assert_non_null(strstr(dat, "cold L2; median of 12 samples; bars: fastest to slowest"));
    assert_tables_intact(md);
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
        " \"reduce\": {\"title\": \"t|\\n## x\", \"columns\": [\"op\", \"n\", \"method\", \"us_per_call\"],"
        " \"rows\": [{\"op\": \"sum\", \"n\": 4, \"method\": \"m\\\"|\\n\", \"us_per_call\": 1},"
        " {\"op\": \"sum\", \"n\": 4, \"method\": \"" HOSTILE "\", \"us_per_call\": 4},"
        " {\"op\": \"sum\", \"n\": 4, \"method\": \"cub\", \"us_per_call\": 2}]},"
        " \"multi\": {\"columns\": [\"gpus\", \"what\", \"method\", \"us\"],"
        " \"rows\": [{\"gpus\": \"" HOSTILE "\", \"what\": \"barrier\", \"method\": \"" HOSTILE "\", \"us\": 3},"
        " {\"gpus\": 1, \"what\": \"barrier\", \"method\": \"gridsync p2p\", \"us\": 2}]}}}");
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
    /* the picture's title names the facet, escaped; its file only its index
     * (every facet by index, so that no index meets a number) */
    const char *pic = strstr(md, "multi: time for all GPUs to meet (GPUs = x'; system 'touch "
                                 "PWNED'; y=')");
    assert_non_null(pic); /* drawn: "![title](file)"; else "`file`: title" */
    assert_true(strstr(pic, "multi-barrier-1.png") || strstr(md, "`multi-barrier-1.png`: multi"));
    assert_non_null(strstr(md, "multi: time for all GPUs to meet (GPUs = 1)"));
    assert_tables_intact(md);
    /* the script holds no string of the file */
    snprintf(path, sizeof path, "%s/plots.gp", out);
    char *gp = slurp(path);
    assert_non_null(strstr(gp, "set output 'reduce-speedup-1.png'"));
    assert_non_null(strstr(gp, "set output 'multi-barrier-1.png'"));
    assert_null(strstr(gp, "system"));
    assert_null(strstr(gp, "m\""));
    assert_null(strstr(gp, "A|B"));
    /* series and category names only in the data, quotes and line breaks
     * neutralised */
    snprintf(path, sizeof path, "%s/reduce-speedup-1.dat", out);
    char *dat = slurp(path);
    assert_non_null(strstr(dat, "\"m'| \"\n4 2 2 2\n"));
    assert_non_null(strstr(dat, "\"x'; system 'touch PWNED'; y='\"\n4 0.5 0.5 0.5\n"));
    snprintf(path, sizeof path, "%s/multi-barrier-1.dat", out);
    assert_non_null(strstr(slurp(path), "0 \"x'; system 'touch PWNED'; y='\"\n"));
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

/* A row of the apps summary takes every cell from the method its "gridsync
 * version" names (the fastest), not each cell's own best. */
static void test_summary_best_row_is_one_method(void **state)
{
    (void)state;
    int rc;
    cJSON *doc = cJSON_Parse(
        "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\"}, "
        "\"suites\": {\"apps\": {\"rows\": ["
        "{\"app\": \"stencil 2-D\", \"size_log2\": 16, \"size\": 65536, \"method\": "
        "\"gridsync neighbour\", \"blocks\": 1, \"steps\": 1000, \"us_per_step\": 2.0, "
        "\"vs_full\": 3.0, \"vs_graph\": 0.5},"
        "{\"app\": \"stencil 2-D\", \"size_log2\": 16, \"size\": 65536, \"method\": "
        "\"gridsync tagged halo\", \"blocks\": 132, \"steps\": 1000, \"us_per_step\": 1.0, "
        "\"vs_full\": 1.5, \"vs_graph\": 1.2}]}}}");
    assert_non_null(doc);
    const char *md = summary_of(doc, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(md, "| stencil 2-D | 2^16 | gridsync tagged halo | 132 | 1000 | 1.00 | "
                               "1.50x | 1.20x |\n"));
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
    assert_non_null(strstr(text, "- new: `new\\|x.json` (G, 2026-02-01, commit ?)\n"));
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

/* --md -, --json - and --csv -: the formats on standard output. */
static void test_outputs(void **state)
{
    (void)state;
    char err[256];
    cJSON *doc = gs_results_load(RESULTS, err, sizeof err);
    assert_non_null(doc);
    static char buf[1 << 18];
    const char *formats[] = {"md", "json", "csv"};
    for (int i = 0; i < 3; ++i) {
        FILE *tmp = tmpfile();
        fflush(stdout);
        int saved = dup(1);
        dup2(fileno(tmp), 1);
        int rc = gs_output_results(doc, "-", formats[i], err, sizeof err);
        fflush(stdout);
        dup2(saved, 1);
        close(saved);
        rewind(tmp);
        size_t n = fread(buf, 1, sizeof buf - 1, tmp);
        buf[n] = '\0';
        fclose(tmp);
        assert_int_equal(rc, 0);
        if (i == 0) {
            assert_true(strncmp(buf, "# gridsync benchmark report: NVIDIA H200\n", 41) == 0);
            assert_non_null(strstr(buf, "| sum | 2^16 = 65536 | gridsync | "));
            assert_null(strstr(buf, "## Plots"));
            assert_tables_intact(buf);
        } else if (i == 1) {
            cJSON *back = cJSON_Parse(buf);
            assert_non_null(back);
            assert_non_null(gs_results_suite(back, "multi"));
            cJSON_Delete(back);
        } else {
            assert_true(strncmp(buf, "suite,threads,blocks,blocks_per_sm,method,", 42) == 0);
            assert_non_null(strstr(buf, "\n\nsuite,op,n,method,us_per_call,"));
            assert_non_null(strstr(buf, "\nreduce,sum,1024,gridsync,"));
        }
    }
    assert_true(gs_output_is_stdout("-") && gs_output_is_stdout("stdout"));
    assert_true(gs_output_is_stream("stderr") && !gs_output_is_stdout("stderr"));
    assert_false(gs_output_is_stream("-x"));
    assert_int_equal(gs_output_results(doc, "/nonexistent/r.md", "md", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot write /nonexistent/r.md"));
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
    const char *k[] = {"report", "--compare", RESULTS};
    assert_int_equal(run_cmd(3, k), GS_EXIT_USAGE);
    const char *l[] = {"report", "--compare", RESULTS, "/nonexistent.json"};
    assert_int_equal(run_cmd(4, l), GS_EXIT_USAGE);
    const char *m[] = {"report", RESULTS, "--md", ""};
    assert_int_equal(run_cmd(4, m), GS_EXIT_USAGE);
    const char *n[] = {"report", RESULTS, "--summary", "--md", "-"};
    assert_int_equal(run_cmd(5, n), GS_EXIT_USAGE);
    char md[128];
    snprintf(md, sizeof md, "%s/r.md", dir);
    const char *o[] = {"report", RESULTS, "--md", md};
    assert_int_equal(run_cmd(4, o), GS_EXIT_OK);
    assert_non_null(strstr(slurp(md), "## Summary"));
    const char *p[] = {"report", "--compare", RESULTS, COMMITTED, "--md", md};
    assert_int_equal(run_cmd(6, p), GS_EXIT_OK);
    assert_non_null(strstr(slurp(md), "# gridsync comparison: the new run against the old"));
    /* (bench --compare: test_args, with the commands of the GPU) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_from_committed_results),
        cmocka_unit_test(test_plots_with_and_without_gnuplot),
        cmocka_unit_test(test_report_of_measured_rows),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_md_escape),
        cmocka_unit_test(test_make_dirs_empty),
        cmocka_unit_test(test_hostile_document),
        cmocka_unit_test(test_summary_of_committed_results),
        cmocka_unit_test(test_summary_best_row_is_one_method),
        cmocka_unit_test(test_summary_of_hostile_document),
        cmocka_unit_test(test_doc_block),
        cmocka_unit_test(test_schema_doc_current),
        cmocka_unit_test(test_size_cap),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
