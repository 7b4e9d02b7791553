/* test_report.c - report.md (summary from the data, formatted tables, plots
 * embedded), CSV and plot scripts from a committed results file, and from
 * one with measured rows (noise, samples, cold timing); behaviour without
 * gnuplot; bad documents; a hostile document (no string of it in plots.gp or
 * a file name; markdown escaped, HTML and links of the file shown as text);
 * the outputs on stdout; the command line. The README's tables:
 * test_report_summary.c; --compare: test_report_compare.c; hostile files
 * and paths: test_report_files.c; report_fuzz.sh runs the real program on
 * many more. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#include "report_support.h"

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
    /* a grid of one block is left out (its barrier is a block's); the range
     * names the method at its low end */
    assert_non_null(strstr(md, "- [barrier](#barrier): gridsync's **lock** is up to **1.06x "
                               "faster** than **cg grid.sync** (threads = 256, blocks = 264); "
                               "over the 5 grids measured, from 1.02x (**flip**, threads = 256, "
                               "blocks = 1056) to 1.06x (**lock**). Grids of one block are left "
                               "out: their grid barrier is a block's barrier.\n"));
    assert_null(strstr(md, "blocks = 1)"));
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
                               "gpu\\_idle |"));
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
    char out[128];
    gs_md_inline_escape("a|b\nc\r\td\x7f\xc3\xa9", out, sizeof out);
    assert_string_equal(out, "a\\|b c  d \xc3\xa9");
    gs_md_inline_escape("ab|", out, 4); /* no room for "\|": left out whole */
    assert_string_equal(out, "ab");
    gs_md_inline_escape("", out, sizeof out);
    assert_string_equal(out, "");
    /* HTML, comments, links and autolinks stay text */
    gs_md_inline_escape("<b>[x](javascript:a)<javascript:b><!-- results:end -->", out, sizeof out);
    assert_string_equal(out, "\\<b\\>\\[x\\](javascript:a)\\<javascript:b\\>\\<!-- "
                             "results:end --\\>");
    /* code when a code span shows it as it is, else text */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_md_code(f, "bench/results/a.json");
    fputc(' ', f);
    gs_md_code(f, "<!-- results:end -->`x`");
    fclose(f);
    assert_string_equal(buf, "`bench/results/a.json` \\<!-- results:end --\\>\\`x\\`");
    free(buf);
}

/* Every `needle` in `md` is backslash-escaped. */
static void assert_escaped(const char *md, const char *needle)
{
    for (const char *p = strstr(md, needle); p; p = strstr(p + 1, needle))
        if (p == md || p[-1] != '\\')
            fail_msg("unescaped '%s' at: %.60s", needle, p);
}

/* HTML and links in every text of a results file (the GPU, a method, a
 * title, a column, an environment key and value) reach report.md as text:
 * no tag, comment or link of the file, in running text or table cells. */
static void test_markdown_neutralises_html_and_links(void **state)
{
    (void)state;
    char err[256], *md = NULL;
    size_t len = 0;
#define EVIL "<img src=x onerror=alert(1)>[click](javascript:alert(1))<javascript:x><!-- r -->"
    cJSON *doc = cJSON_Parse(
        "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"" EVIL "\", "
        "\"" EVIL "\": \"" EVIL "\"}, \"suites\": {\"reduce\": {\"title\": \"" EVIL "\", "
        "\"columns\": [\"op\", \"n\", \"method\", \"us_per_call\", \"" EVIL "\"], \"rows\": "
        "[{\"op\": \"sum\", \"n\": 4, \"method\": \"" EVIL "\", \"us_per_call\": 1, "
        "\"" EVIL "\": \"" EVIL "\"}, {\"op\": \"sum\", \"n\": 4, \"method\": \"cub\", "
        "\"us_per_call\": 2}]}, \"" EVIL "\": {\"columns\": [\"a\"], \"rows\": []}}}");
    assert_non_null(doc);
    FILE *f = open_memstream(&md, &len);
    assert_int_equal(gs_report_markdown(f, doc, err, sizeof err), 0);
    fclose(f);
    assert_escaped(md, "<");
    assert_escaped(md, ">");
    assert_escaped(md, "](javascript");
    assert_escaped(md, "[click");
    assert_non_null(strstr(md, "| \\<img src=x onerror=alert(1)\\>\\[click\\]"));
    assert_tables_intact(md);
    free(md);
    cJSON_Delete(doc);
#undef EVIL
}

static void test_make_dirs_empty(void **state)
{
    (void)state;
    errno = 0;
    assert_int_equal(gs_make_dirs(""), -1);
    assert_int_equal(errno, ENOENT);
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
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_md_escape),
        cmocka_unit_test(test_markdown_neutralises_html_and_links),
        cmocka_unit_test(test_make_dirs_empty),
        cmocka_unit_test(test_hostile_document),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
