/* test_report_files.c - hostile files and paths: what is read is a regular
 * file of bounded size holding one JSON document (a FIFO, a device, a
 * folder, trailing garbage refused, and never waited on); what is written
 * under --out never follows a link planted there (report.md, gnuplot.log,
 * a CSV, a picture) nor writes through a hard link or into a FIFO; CSV
 * cells that would run as formulas are text, numbers stay numbers; error
 * messages show what the user gave on one line, at most GS_SHOWN_MAX bytes
 * of it. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
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
#include "results/results.h"
#include "common/csv.h"
#include "common/files.h"
#include "common/spawn.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/tables.h"
#include "report_support.h"

/* A test that waits on a FIFO fails here instead of hanging. */
static void watchdog(void) { alarm(20); }

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_size_cap(void **state)
{
    (void)state;
    char err[256], dir[64], path[128], want[256];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/big.json", dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    assert_true(fd >= 0 && ftruncate(fd, (off_t)GS_RESULTS_MAX_BYTES + 1) == 0);
    close(fd);
    /* a reader without a cap fails here rather than exhausting the machine */
    struct rlimit old, low;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    low = old;
    low.rlim_cur = (rlim_t)4 << 30;
    if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < low.rlim_cur)
        low.rlim_cur = old.rlim_cur;
    assert_int_equal(setrlimit(RLIMIT_AS, &low), 0);
    cJSON *doc = gs_results_load(path, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    assert_null(doc);
    snprintf(want, sizeof want, "%s is larger than 64 MiB: not a gridsync results file", path);
    assert_string_equal(err, want);
}

/* A FIFO (no writer), a device, a folder: refused at once, not waited on. */
static void test_reads_only_regular_files(void **state)
{
    (void)state;
    char err[256], dir[64], fifo[128];
    temp_dir(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.json", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    watchdog();
    assert_null(gs_results_load(fifo, err, sizeof err));
    assert_non_null(strstr(err, "not a regular file"));
    assert_null(gs_results_load("/dev/zero", err, sizeof err));
    assert_string_equal(err, "cannot read /dev/zero: not a regular file (a FIFO, a device or "
                             "a socket)");
    assert_null(gs_results_load(dir, err, sizeof err));
    assert_non_null(strstr(err, "a folder, not a file"));
    alarm(0);
}

/* One JSON document and white space, nothing else. */
static void test_trailing_garbage(void **state)
{
    (void)state;
    static const char *const bad[] = {"{\"schema\": 1} x", "{} {}", "{}]", "[1]\n,",
                                      "{\"a\": 1}\n\n#"};
    char err[256], dir[64], path[128];
    temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/r.json", dir);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        write_text(path, bad[i]);
        if (gs_results_load(path, err, sizeof err))
            fail_msg("accepted '%s'", bad[i]);
        assert_non_null(strstr(err, "is not valid JSON"));
    }
    FILE *f = fopen(path, "w"); /* a NUL byte, then more */
    fwrite("{}\0{\"x\": 1}", 1, 11, f);
    fclose(f);
    assert_null(gs_results_load(path, err, sizeof err));
    write_text(path, "  {\"a\": [1, 2]}\n\n\t ");
    cJSON *doc = gs_results_load(path, err, sizeof err);
    assert_non_null(doc);
    cJSON_Delete(doc);
}

static const char plain[] =
    "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\"}, \"suites\": "
    "{\"barrier\": {\"columns\": [\"threads\", \"blocks\", \"method\", \"us_per_barrier\"], "
    "\"rows\": [{\"threads\": 256, \"blocks\": 4, \"method\": \"lock\", \"us_per_barrier\": 1}, "
    "{\"threads\": 256, \"blocks\": 4, \"method\": \"cg grid.sync\", \"us_per_barrier\": 2}]}}}";

/* `name` planted in a fresh --out folder as `how` ("link", "hardlink",
 * "fifo") to a file outside it; the report written there with plots; the
 * outside file is as it was. Returns gs_report_write's result. */
static int report_with_planted(const char *name, const char *how, char *err, size_t errlen)
{
    char dir[64], out[128], victim[128], planted[256];
    temp_dir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(planted, sizeof planted, "%s/%s", out, name);
    assert_int_equal(mkdir(out, 0700), 0);
    write_text(victim, "precious\n");
    if (strcmp(how, "link") == 0)
        assert_int_equal(symlink(victim, planted), 0);
    else if (strcmp(how, "hardlink") == 0)
        assert_int_equal(link(victim, planted), 0);
    else
        assert_int_equal(mkfifo(planted, 0600), 0);
    cJSON *doc = cJSON_Parse(plain);
    watchdog();
    int rc = gs_report_write(doc, out, 1, err, errlen);
    alarm(0);
    cJSON_Delete(doc);
    assert_string_equal(slurp(victim), "precious\n");
    struct stat st;
    assert_int_equal(stat(victim, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    return rc;
}

static void test_out_folder_plants(void **state)
{
    (void)state;
    char err[512], gnuplot[1024];
    /* what the report writes itself: refused, said, the outside untouched */
    static const char *const written[] = {"report.md", "plots.gp", "barrier.csv",
                                          "barrier-speedup-256.dat"};
    static const char *const hows[] = {"link", "hardlink", "fifo"};
    for (int i = 0; i < 4; ++i)
        for (int h = 0; h < 3; ++h) {
            err[0] = '\0';
            if (report_with_planted(written[i], hows[h], err, sizeof err) == 0)
                fail_msg("%s as a %s: written", written[i], hows[h]);
            assert_non_null(strstr(err, "cannot write"));
        }
    err[0] = '\0';
    assert_int_equal(report_with_planted("report.md", "link", err, sizeof err), -1);
    assert_non_null(strstr(err, "report.md: a symbolic link"));
    /* what gnuplot writes: its log refused (no plots), a picture's name
     * cleared before gnuplot draws it */
    if (gs_find_program("gnuplot", gnuplot, sizeof gnuplot) != 0)
        return;
    for (int h = 0; h < 3; ++h) {
        assert_int_equal(report_with_planted("gnuplot.log", hows[h], err, sizeof err), 0);
        assert_int_equal(report_with_planted("barrier-time-256.png", hows[h], err, sizeof err),
                         0);
    }
}

/* An output named by the user: a FIFO or a link is refused, at once. */
static void test_output_targets(void **state)
{
    (void)state;
    char err[512], dir[64], fifo[128], link_path[128], file[128];
    temp_dir(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/fifo.md", dir);
    snprintf(link_path, sizeof link_path, "%s/link.md", dir);
    snprintf(file, sizeof file, "%s/file.md", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    write_text(file, "old\n");
    assert_int_equal(symlink(file, link_path), 0);
    cJSON *doc = cJSON_Parse(plain);
    watchdog();
    assert_int_equal(gs_output_results(doc, fifo, "md", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    alarm(0);
    assert_int_equal(gs_output_results(doc, link_path, "json", err, sizeof err), -1);
    assert_non_null(strstr(err, "a symbolic link"));
    assert_string_equal(slurp(file), "old\n");
    assert_int_equal(gs_output_results(doc, file, "csv", err, sizeof err), 0);
    assert_non_null(strstr(slurp(file), "suite,threads,blocks"));
    cJSON_Delete(doc);
}

/* CSV cells a spreadsheet would run as formulas are text; numbers, negative
 * ones too, stay numbers. */
static void test_csv_formulas(void **state)
{
    (void)state;
    static const char *const in[] = {"=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3",
                                     "@SUM(A1)", "\t=1", "-", "-1.5", "-12", "+3", "2e-06",
                                     "-4.5E+3", "a=b", "x,y"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gs_csv_row row;
    gs_csv_row_begin(&row, f);
    for (size_t i = 0; i < sizeof in / sizeof in[0]; ++i)
        gs_csv_field(&row, in[i]);
    gs_csv_row_end(&row);
    fclose(f);
    assert_string_equal(buf, "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"'+1+1\",\"'-2+3\","
                             "\"'@SUM(A1)\",\"'\t=1\",\"'-\",-1.5,-12,+3,2e-06,-4.5E+3,a=b,"
                             "\"x,y\"\n");
    free(buf);
    /* a results file's texts and numbers, through the report's CSV */
    cJSON *t = cJSON_Parse("{\"columns\": [\"=cmd|' /C calc'!A0\", \"n\"], \"rows\": "
                           "[{\"=cmd|' /C calc'!A0\": \"@x\", \"n\": -3.25}]}");
    f = open_memstream(&buf, &len);
    assert_int_equal(gs_csv_results_table(f, t, NULL), 0);
    fclose(f);
    assert_string_equal(buf, "\"'=cmd|' /C calc'!A0\",n\n\"'@x\",-3.25\n");
    free(buf);
    cJSON_Delete(t);
}

/* What an error message shows of what the user gave. */
static void test_shown(void **state)
{
    (void)state;
    char buf[GS_SHOWN_SIZE], big[100001], err[512];
    assert_string_equal(gs_shown("a\nb\r\x1b[31m\x7f", buf, sizeof buf), "a?b??[31m?");
    assert_string_equal(gs_shown(NULL, buf, sizeof buf), "");
    memset(big, 'A', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    gs_shown(big, buf, sizeof buf);
    assert_int_equal(strlen(buf), GS_SHOWN_MAX + 3);
    assert_string_equal(buf + GS_SHOWN_MAX, "...");
    memset(big, 'A', GS_SHOWN_MAX - 1); /* a two-byte character across the cut */
    memcpy(big + GS_SHOWN_MAX - 1, "\xc3\xa9", 2);
    gs_shown(big, buf, sizeof buf);
    assert_string_equal(buf + GS_SHOWN_MAX - 1, "...");
    /* the parsers and the readers echo through it */
    memset(big, '7', sizeof big - 1);
    big[5] = '\n';
    long v;
    assert_int_equal(gs_parse_long(big, "--repeat", 1, 10, &v, err, sizeof err), -1);
    assert_null(strchr(err, '\n'));
    assert_true(strlen(err) < GS_SHOWN_MAX + 64);
    assert_null(gs_results_load(big, err, sizeof err));
    assert_null(strchr(err, '\n'));
    assert_true(strlen(err) < GS_SHOWN_MAX + 64);
}

/* `gridsync report ARG` and `gridsync bench --suite ARG` with ARG 100 KB
 * long with line breaks: one line of error, short. */
static void test_commands_echo_shown(void **state)
{
    (void)state;
    static char big[100001], option[100003];
    memset(big, 'x', sizeof big - 1);
    big[10] = '\n';
    snprintf(option, sizeof option, "--%s", big);
    char *report[] = {"report", big, NULL}, *bench[] = {"bench", "--suite", big, NULL};
    char *unknown[] = {"report", option, NULL};
    struct {
        int (*cmd)(int, char **);
        int argc;
        char **argv;
    } runs[] = {{gs_cmd_report, 2, report}, {gs_cmd_bench, 3, bench}, {gs_cmd_report, 2, unknown}};
    for (int i = 0; i < 3; ++i) {
        char text[4096];
        int rc = run_stderr(runs[i].cmd, runs[i].argc, runs[i].argv, text, sizeof text);
        size_t n = strlen(text);
        assert_true(rc == GS_EXIT_USAGE);
        assert_true(n > 0 && n < 600);
        assert_ptr_equal(strchr(text, '\n'), text + n - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_cap),
        cmocka_unit_test(test_reads_only_regular_files),
        cmocka_unit_test(test_trailing_garbage),
        cmocka_unit_test(test_out_folder_plants),
        cmocka_unit_test(test_output_targets),
        cmocka_unit_test(test_csv_formulas),
        cmocka_unit_test(test_shown),
        cmocka_unit_test(test_commands_echo_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
