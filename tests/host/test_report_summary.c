/* test_report_summary.c - the README's generated parts: the summary tables
 * of a committed results file (best of ours, ratios, a row of one method),
 * of a hostile one (escaped, tables intact), the generated blocks (markers
 * only as lines of their own, one block of a name, a GPU name holding a
 * marker rewritten twice without harm), and docs/results-schema.md's
 * columns current. */
#define _POSIX_C_SOURCE 200809L
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
#include "results/results.h"
#include "common/files.h"
#include "report/doc_block.h"
#include "report/schema.h"
#include "report/summary.h"
#include "report_support.h"

#define HOSTILE "x'; system 'touch PWNED'; y='"

/* What gs_summary_write renders of `doc`, in a static buffer. */
static char *summary_of(const cJSON *doc, int *rc)
{
    static char buf[1 << 16];
    char err[256];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    const gs_results_source one = {"bench/results/x.json", doc};
    *rc = gs_summary_write(f, &one, 1, err, sizeof err);
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
    /* best ours and the ratios against it; the fastest of every method and the best
     * kernel boundary (a run from before the PDL peers and flags: none of theirs) */
    assert_non_null(strstr(md, "| 256 | 1 | 1.052 | 1.479 | 1.084 | 0.067 | - | 0.964 | 3.740 | "
                               "0.777 | - | tree | 14.31x | 11.53x | - | tree | relaunch graph |\n"));
    assert_non_null(strstr(md, "| 256 | 1056 | 2.330 | 4.678 | 2.175 | 2.221 | - | 2.208 | "
                               "3.967 | 1.419 | - | flip | 1.02x | 0.65x | - | relaunch graph | "
                               "relaunch graph |\n"));
    /* reduce and dot: sum / dot rows by size, GB/s and the peer's ratio */
    assert_non_null(strstr(md, "| 2^10 | 3.64 | 4.57 | 4.14 | 1 | 1.25x |\n"));
    assert_non_null(strstr(md, "| 2^30 | 1858.88 | 1894.69 | 53400.03 | 4621 | 1.02x |\n"));
    assert_null(strstr(md, "| copy")); /* the copy row is not a size */
    /* gemm by shape; multi row by row */
    assert_non_null(strstr(md, "| 3001x2999x1537 | 35.99 | 41.62 | 7.63 | 0.86x |\n"));
    assert_non_null(strstr(md, "| 2 | barrier | nccl allreduce 1 word | - | 12.78 | - | 1.00x |\n"));
    assert_non_null(strstr(md, "| 2 | reduce 2^28/GPU | gs\\_multi\\_reduce\\_sum | - | 264.74 | "
                               "8112 | 1.91x |\n"));
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
        "\"vs_full\": 3.0, \"vs_graph\": 0.5, \"vs_pdl\": 0.4},"
        "{\"app\": \"stencil 2-D\", \"size_log2\": 16, \"size\": 65536, \"method\": "
        "\"gridsync tagged halo\", \"blocks\": 132, \"steps\": 1000, \"us_per_step\": 1.0, "
        "\"vs_full\": 1.5, \"vs_graph\": 1.2, \"vs_pdl\": 1.1}]}}}");
    assert_non_null(doc);
    const char *md = summary_of(doc, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(md, "| stencil 2-D | 2^16 | gridsync tagged halo | 132 | 1000 | 1.00 | "
                               "1.50x | 1.20x | 1.10x |\n"));
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
/* A new temporary file (its name into `path`) holding `text`. */
static void write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/gs_doc_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

/* A marker counts only as a line of its own, and a block only once: a
 * README a marker inside a line corrupted is made whole again; two blocks
 * of a name, or new text holding a marker, are refused, the file left as it
 * was. */
static void test_doc_block_markers(void **state)
{
    (void)state;
    char err[256], path[32];
    write_temp(path, "# t\n<!-- results:begin -->\nGPU <!-- results:end --> old\nstale\n"
                     "<!-- results:end -->\ntail\n");
    assert_int_equal(gs_doc_replace_block(path, "results", "new\n", 4, err, sizeof err), 0);
    assert_string_equal(slurp(path), "# t\n<!-- results:begin -->\nnew\n<!-- results:end -->\n"
                                     "tail\n");
    assert_int_equal(gs_doc_replace_block(path, "results", "a <!-- results:end -->\n", 23, err,
                                          sizeof err),
                     -1);
    assert_non_null(strstr(err, "holds one of its markers"));
    assert_int_equal(gs_doc_replace_block(path, "results", "<!-- results:begin -->\n", 23, err,
                                          sizeof err),
                     -1);
    assert_non_null(strstr(slurp(path), "\nnew\n")); /* untouched */
    remove(path);
    write_temp(path, "<!-- results:begin -->\na\n<!-- results:end -->\n<!-- results:begin -->\n"
                     "b\n<!-- results:end -->\n");
    assert_int_equal(gs_doc_replace_block(path, "results", "x\n", 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "has more than one <!-- results:begin -->"));
    remove(path);
}

/* `make results` twice on a results file whose GPU is named with the end
 * marker and HTML: the README's block holds it escaped, the rest of the
 * README stays, and the second run writes the very same README. */
static void test_readme_of_hostile_gpu_name(void **state)
{
    (void)state;
    char readme[32], results[32];
    static char first[1 << 18];
    write_temp(readme, "# README\n<!-- results:begin -->\nold\n<!-- results:end -->\n"
                       "## after\nkept\n");
    write_temp(results,
               "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": "
               "\"H <!-- results:end --> <script>x</script>\", \"date\": \"2026-01-01\"}, "
               "\"suites\": {\"barrier\": {\"rows\": [{\"threads\": 256, \"blocks\": 8, "
               "\"method\": \"<!-- results:end -->\", \"us_per_barrier\": 1}, {\"threads\": "
               "256, \"blocks\": 8, \"method\": \"lock\", \"us_per_barrier\": 1}]}}}\n");
    for (int run = 0; run < 2; ++run) {
        char *argv[] = {"report", results, "--readme", readme, NULL};
        assert_int_equal(gs_cmd_report(4, argv), GS_EXIT_OK);
        const char *doc = slurp(readme);
        assert_non_null(strstr(doc, "H \\<!-- results:end --\\> \\<script\\>x"));
        assert_null(strstr(doc, "<script>"));
        assert_null(strstr(doc, "old\n"));
        const char *end = strstr(doc, "\n<!-- results:end -->\n## after\nkept\n");
        assert_non_null(end);
        end += strlen("\n<!-- results:end -->");
        assert_null(strstr(end, "results:")); /* nothing of the block after it */
        if (run == 0)
            snprintf(first, sizeof first, "%s", doc);
        else
            assert_string_equal(doc, first);
    }
    remove(readme);
    remove(results);
}

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


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_of_committed_results),
        cmocka_unit_test(test_summary_best_row_is_one_method),
        cmocka_unit_test(test_summary_of_hostile_document),
        cmocka_unit_test(test_doc_block),
        cmocka_unit_test(test_doc_block_markers),
        cmocka_unit_test(test_readme_of_hostile_gpu_name),
        cmocka_unit_test(test_schema_doc_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
