/* test_args.c - command-line value parsing and the CLI's exit codes. */
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

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "gridsync.h"
#include "args.h"
#include "commands.h"
#include "paths.h"
#include "report_support.h" /* RESULTS, COMMITTED */

static void test_parse_long_accepts(void **state)
{
    (void)state;
    long v = 0;
    char err[128];
    assert_int_equal(gs_parse_long("42", "--n", 1, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 42);
    assert_int_equal(gs_parse_long("1", "--n", 1, 1, &v, err, sizeof err), 0);
}

static void test_parse_long_rejects(void **state)
{
    (void)state;
    long v = 7;
    char err[128];
    const char *bad[] = {"",   "abc", "12x", "1.5", "-3",  "0",  "101", "99999999999999999999",
                         " ",  " 42", "\t42", "+42", "42 ", "-",   "+",  "--5", "0x10", "1e1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(gs_parse_long(bad[i], "--n", 1, 100, &v, err, sizeof err), -1);
        assert_non_null(strstr(err, "--n"));
        assert_int_equal(v, 7);
    }
    gs_parse_long("abc", "--repeat", 1, 100, &v, err, sizeof err);
    assert_string_equal(err, "--repeat: 'abc' is not a whole number");
    gs_parse_long("0", "--repeat", 1, 100, &v, err, sizeof err);
    assert_string_equal(err, "--repeat: 0 is out of range (1..100)");
    gs_parse_long("-3", "--repeat", 1, 100, &v, err, sizeof err); /* a negative: out of range */
    assert_string_equal(err, "--repeat: -3 is out of range (1..100)");
    gs_parse_long("+42", "--repeat", 1, 100, &v, err, sizeof err);
    assert_string_equal(err, "--repeat: '+42' is not a whole number");
    assert_int_equal(gs_parse_long(NULL, "--n", 1, 100, &v, err, sizeof err), -1);
}

static void test_parse_double_and_devices(void **state)
{
    (void)state;
    double v = -1;
    char err[128];
    assert_int_equal(gs_parse_double("0.5", "--min-time", 0, 10, &v, err, sizeof err), 0);
    assert_true(v == 0.5);
    assert_int_equal(gs_parse_double(".25", "--min-time", 0, 10, &v, err, sizeof err), 0);
    assert_true(v == 0.25);
    assert_int_equal(gs_parse_double("15", "--timeout", 0, 100, &v, err, sizeof err), 0);
    assert_true(v == 15.0);
    const char *bad[] = {"", ".", "1.2.3", "-1", "+1", "1e3", " 1", "1 ", "nan", "inf", "0x1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        v = 7;
        assert_int_equal(gs_parse_double(bad[i], "--min-time", 0, 1e9, &v, err, sizeof err), -1);
        assert_true(v == 7);
    }
    gs_parse_double("x", "--max-noise", 0, 100, &v, err, sizeof err);
    assert_string_equal(err, "--max-noise: 'x' is not a number");
    gs_parse_double("101", "--max-noise", 0, 100, &v, err, sizeof err);
    assert_string_equal(err, "--max-noise: 101 is out of range (0..100)");
    int d[8], n = 0, all = 0;
    assert_int_equal(gs_parse_devices("all", "--devices", d, 8, &n, &all, err, sizeof err), 0);
    assert_true(all && n == 0);
    assert_int_equal(gs_parse_devices("2,0", "--devices", d, 8, &n, &all, err, sizeof err), 0);
    assert_true(!all && n == 2 && d[0] == 2 && d[1] == 0);
    assert_int_equal(gs_parse_devices("1,1", "--devices", d, 8, &n, &all, err, sizeof err), -1);
    assert_string_equal(err, "--devices: device 1 named twice");
    assert_int_equal(gs_parse_devices("ALL", "--devices", d, 8, &n, &all, err, sizeof err), -1);
    assert_int_equal(gs_parse_devices("", "--devices", d, 8, &n, &all, err, sizeof err), -1);
}

static void test_path_for_device(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(gs_path_for_device("r.json", 3, 1, buf, sizeof buf), 0);
    assert_string_equal(buf, "r.json");
    assert_int_equal(gs_path_for_device("r.json", 1, 2, buf, sizeof buf), 0);
    assert_string_equal(buf, "r-dev1.json");
    assert_int_equal(gs_path_for_device("out/r", 0, 2, buf, sizeof buf), 0);
    assert_string_equal(buf, "out/r-dev0");
    assert_int_equal(gs_path_for_device("d.x/r", 2, 4, buf, sizeof buf), 0);
    assert_string_equal(buf, "d.x/r-dev2");
    assert_int_equal(gs_path_for_device("d/.md", 2, 4, buf, sizeof buf), 0);
    assert_string_equal(buf, "d/.md-dev2");
    assert_int_equal(gs_path_for_device("a.tar.gz", 5, 6, buf, sizeof buf), 0);
    assert_string_equal(buf, "a.tar-dev5.gz");
    assert_int_equal(gs_path_for_device("r.json", 1, 2, buf, 8), -1); /* does not fit */
}

static void test_parse_list(void **state)
{
    (void)state;
    int out[4], n = 0;
    char err[128];
    assert_int_equal(gs_parse_long_list("256,1024", "--threads", 32, 1024, out, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 256);
    assert_int_equal(out[1], 1024);
    assert_int_equal(gs_parse_long_list("256,", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list("256,,512", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_string_equal(err, "--threads: empty item in '256,,512'");
    assert_int_equal(gs_parse_long_list(",256", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list(",", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list("", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list(" 256", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list("256,+512", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list("16", "--threads", 32, 1024, out, 4, &n, err, sizeof err), -1);
    assert_int_equal(gs_parse_long_list("1,2,3,4,5", "--blocks", 1, 9, out, 4, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "at most 4"));
    assert_int_equal(gs_parse_long_list("x", "--blocks", 1, 9, out, 4, &n, err, sizeof err), -1);
}

/* A list longer than any fixed buffer is read whole: nothing cut off. */
static void test_parse_long_list_whole(void **state)
{
    (void)state;
    enum { ITEMS = 40 };
    char text[ITEMS * 21 + 3] = ""; /* the items, then ",x" */
    int out[ITEMS], n = 0;
    char err[128];
    for (int i = 0; i < ITEMS; ++i) /* "00000000000000000001,...,00000000000000000040" */
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%020d", i ? "," : "", i + 1);
    assert_true(strlen(text) > 512);
    assert_int_equal(gs_parse_long_list(text, "--blocks", 1, 99, out, ITEMS, &n, err, sizeof err), 0);
    assert_int_equal(n, ITEMS);
    assert_int_equal(out[ITEMS - 1], ITEMS);
    strcat(text, ",x"); /* the bad item at the very end is seen */
    assert_int_equal(gs_parse_long_list(text, "--blocks", 1, 99, out, ITEMS + 1, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "'x' is not a whole number"));
}

static int run_cmd(int (*cmd)(int, char **), int argc, const char *const *argv)
{
    char *copy[16];
    for (int i = 0; i < argc; ++i)
        copy[i] = (char *)argv[i];
    copy[argc] = NULL;
    return cmd(argc, copy);
}

/* run_cmd with file descriptor fd (1 or 2) caught: what the command wrote
 * there lands in text. */
static int run_cmd_fd(int fd, int (*cmd)(int, char **), int argc, const char *const *argv,
                      char *text, size_t len)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(NULL);
    int saved = dup(fd);
    assert_true(saved >= 0 && dup2(fileno(tmp), fd) == fd);
    int rc = run_cmd(cmd, argc, argv);
    fflush(NULL);
    dup2(saved, fd);
    close(saved);
    rewind(tmp);
    size_t n = fread(text, 1, len - 1, tmp);
    text[n] = '\0';
    fclose(tmp);
    return rc;
}

/* run_cmd with stderr caught in msg. */
static int run_cmd_msg(int (*cmd)(int, char **), int argc, const char *const *argv, char *msg,
                       size_t len)
{
    return run_cmd_fd(2, cmd, argc, argv, msg, len);
}

/* Option errors name the option as given: short ones by their letter, also
 * inside a group (-Zj), long ones without their value. */
static void test_option_messages(void **state)
{
    (void)state;
    static const struct {
        int (*cmd)(int, char **);
        const char *argv[4];
        const char *want;
    } cases[] = {
        {gs_cmd_info, {"info", "-Zj"}, "gridsync info: unknown option '-Z' (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "--json", "-Zj"}, "gridsync info: unknown option '-Z' (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "-jZ"}, "gridsync info: unknown option '-Z' (see 'gridsync help info')\n"},
        {gs_cmd_bench, {"bench", "-qZ"}, "gridsync bench: unknown option '-Z' (see 'gridsync help bench')\n"},
        {gs_cmd_check, {"check", "-Zh"}, "gridsync check: unknown option '-Z' (see 'gridsync help check')\n"},
        {gs_cmd_demo, {"demo", "-Zr", "3", "bitmap"}, "gridsync demo: unknown option '-Z' (see 'gridsync help demo')\n"},
        {gs_cmd_report, {"report", "-Zn", "x.json"}, "gridsync report: unknown option '-Z' (see 'gridsync help report')\n"},
        {gs_cmd_info, {"info", "--bogus"}, "gridsync info: unknown option '--bogus' (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "--bogus=1"}, "gridsync info: unknown option '--bogus' (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "--device"}, "gridsync info: option '--device' needs a value (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "-d"}, "gridsync info: option '-d' needs a value (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "-jd"}, "gridsync info: option '-d' needs a value (see 'gridsync help info')\n"},
        {gs_cmd_info, {"info", "--json=yes"}, "gridsync info: option '--json' takes no value (see 'gridsync help info')\n"},
        {gs_cmd_bench, {"bench", "--quick=1"}, "gridsync bench: option '--quick' takes no value (see 'gridsync help bench')\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char msg[512];
        int argc = 0;
        while (argc < 4 && cases[i].argv[argc])
            ++argc;
        assert_int_equal(run_cmd_msg(cases[i].cmd, argc, cases[i].argv, msg, sizeof msg),
                         GS_EXIT_USAGE);
        assert_string_equal(msg, cases[i].want);
    }
}

static void test_bad_options_exit_2(void **state)
{
    (void)state;
    const char *a1[] = {"bench", "--repeat", "zero"};
    assert_int_equal(run_cmd(gs_cmd_bench, 3, a1), GS_EXIT_USAGE);
    const char *a2[] = {"bench", "--bogus"};
    assert_int_equal(run_cmd(gs_cmd_bench, 2, a2), GS_EXIT_USAGE);
    const char *a3[] = {"bench", "nosuchsuite"};
    assert_int_equal(run_cmd(gs_cmd_bench, 2, a3), GS_EXIT_USAGE);
    const char *a4[] = {"bench", "--threads", "2048"};
    assert_int_equal(run_cmd(gs_cmd_bench, 3, a4), GS_EXIT_USAGE);
    const char *a5[] = {"bench", "--iterations", "-5"};
    assert_int_equal(run_cmd(gs_cmd_bench, 3, a5), GS_EXIT_USAGE);
    const char *a6[] = {"bench", "--repeat"};
    assert_int_equal(run_cmd(gs_cmd_bench, 2, a6), GS_EXIT_USAGE);
    const char *a9[] = {"bench", "reduce", "--sizes", "10,99"};
    assert_int_equal(run_cmd(gs_cmd_bench, 4, a9), GS_EXIT_USAGE);
    const char *a7[] = {"info", "--device", "x"};
    assert_int_equal(run_cmd(gs_cmd_info, 3, a7), GS_EXIT_USAGE);
    const char *a8[] = {"info", "extra"};
    assert_int_equal(run_cmd(gs_cmd_info, 2, a8), GS_EXIT_USAGE);
}

/* Suite lists: empty names are errors, and a long list is read to its end. */
static void test_bench_suites(void **state)
{
    (void)state;
    const char *empty[][3] = {{"bench", "--suite", ""}, {"bench", "--suite", "reduce,"},
                              {"bench", "--suite", ",dot"}, {"bench", "", NULL},
                              {"bench", "reduce,,dot", NULL}};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; ++i)
        assert_int_equal(run_cmd(gs_cmd_bench, empty[i][2] ? 3 : 2, empty[i]), GS_EXIT_USAGE);
    char list[300] = ""; /* "dot," 63 times and "dot": 255 characters, then ",nosuch" */
    for (int i = 0; i < 63; ++i)
        strcat(list, "dot,");
    strcat(list, "dot,nosuch");
    const char *a[] = {"bench", "--suite", list};
    assert_int_equal(run_cmd(gs_cmd_bench, 3, a), GS_EXIT_USAGE);
    const char *b[] = {"bench", list};
    assert_int_equal(run_cmd(gs_cmd_bench, 2, b), GS_EXIT_USAGE);
}

/* --help goes alone: with anything else it is a usage error, not the help. */
static void test_help_with_arguments(void **state)
{
    (void)state;
    static const struct {
        int (*cmd)(int, char **);
        const char *argv[3];
    } cases[] = {
        {gs_cmd_check, {"check", "--help", "extra"}}, {gs_cmd_info, {"info", "-h", "extra"}},
        {gs_cmd_bench, {"bench", "--help", "reduce"}}, {gs_cmd_bench, {"bench", "-qh", "--quick"}},
        {gs_cmd_demo, {"demo", "--help", "bitmap"}}, {gs_cmd_report, {"report", "x.json", "-h"}},
        {gs_cmd_check, {"check", "--help", "--help"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char msg[512], want[128];
        assert_int_equal(run_cmd_msg(cases[i].cmd, 3, cases[i].argv, msg, sizeof msg),
                         GS_EXIT_USAGE);
        snprintf(want, sizeof want,
                 "gridsync %s: --help takes no other arguments (see 'gridsync help %s')\n",
                 cases[i].argv[0], cases[i].argv[0]);
        assert_string_equal(msg, want);
    }
}

/* A usage error from argv that names `path` and says `why`. */
static void assert_path_error(int (*cmd)(int, char **), int argc, const char *const *argv,
                              const char *path, const char *why)
{
    char msg[1024];
    assert_int_equal(run_cmd_msg(cmd, argc, argv, msg, sizeof msg), GS_EXIT_USAGE);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, why));
    assert_non_null(strchr(msg, '\n'));
    assert_string_equal(strchr(msg, '\n'), "\n"); /* one line */
}

/* Output paths are checked before anything runs (no GPU needed), and a
 * failed check leaves no file behind. */
static void test_output_paths(void **state)
{
    (void)state;
    char dir[] = "/tmp/gs_test_args_XXXXXX", json[64], sub[64];
    assert_non_null(mkdtemp(dir));
    snprintf(json, sizeof json, "%s/r.json", dir);
    snprintf(sub, sizeof sub, "%s/r.json/sub", dir);
    const char *a[] = {"bench", "--json", "/nonexistent/x", "barrier"};
    assert_path_error(gs_cmd_bench, 4, a, "'/nonexistent/x'", "'/nonexistent' does not exist");
    const char *b[] = {"bench", "--csv", "/nonexistent/p"};
    assert_path_error(gs_cmd_bench, 3, b, "'/nonexistent/p'", "does not exist");
    const char *c[] = {"bench", "--json", dir};
    assert_path_error(gs_cmd_bench, 3, c, dir, "is a folder");
    const char *d[] = {"bench", "--out", "/dev/null/sub"};
    assert_path_error(gs_cmd_bench, 3, d, "'/dev/null/sub'", "cannot create");
    const char *e[] = {"bench", "--json", json, "--csv", "/nonexistent/p"};
    assert_path_error(gs_cmd_bench, 5, e, "'/nonexistent/p'", "does not exist");
    assert_int_equal(access(json, F_OK), -1); /* nothing written for the good one */
    const char *f[] = {"bench", "--json", "/dev/null/x"};
    assert_path_error(gs_cmd_bench, 3, f, "'/dev/null/x'", "is not a folder");
    const char *g[] = {"demo", "bitmap", "-o", "/dev/null/sub"};
    assert_path_error(gs_cmd_demo, 4, g, "'/dev/null/sub'", "cannot create");
    if (geteuid() != 0) { /* root may write anywhere */
        assert_int_equal(chmod(dir, 0500), 0);
        const char *h[] = {"bench", "--json", json};
        assert_path_error(gs_cmd_bench, 3, h, json, "is not writable");
        const char *i[] = {"bench", "--out", sub};
        assert_path_error(gs_cmd_bench, 3, i, sub, "cannot create");
        assert_int_equal(chmod(dir, 0700), 0);
    }
    assert_int_equal(rmdir(dir), 0); /* still empty */
}

static void test_no_gpu_exit_3(void **state)
{
    (void)state;
    int count = 0;
    if (gs_device_count(&count) == GS_SUCCESS)
        skip(); /* a GPU is present: the no-GPU path cannot be exercised */
    const char *a[] = {"info"};
    assert_int_equal(run_cmd(gs_cmd_info, 1, a), GS_EXIT_NO_GPU);
    const char *b[] = {"bench", "barrier", "--quiet"};
    assert_int_equal(run_cmd(gs_cmd_bench, 3, b), GS_EXIT_NO_GPU);
    const char *c[] = {"info", "--json", "--device", "3"};
    assert_int_equal(run_cmd(gs_cmd_info, 4, c), GS_EXIT_NO_GPU);
}

/* Without a GPU: one line that says so plainly, and info --json says it on
 * stdout as JSON. */
static void test_no_gpu_messages(void **state)
{
    (void)state;
    int count = 0;
    if (gs_device_count(&count) == GS_SUCCESS)
        skip();
    const char *detail = gs_last_error_detail();
    assert_true(strncmp(detail, "no NVIDIA GPU or driver found (cudaGetDeviceCount: ", 51) == 0 ||
                strncmp(detail, "no usable NVIDIA GPU: ", 22) == 0);
    char msg[512], out[512];
    const char *a[] = {"info"};
    assert_int_equal(run_cmd_msg(gs_cmd_info, 1, a, msg, sizeof msg), GS_EXIT_NO_GPU);
    assert_non_null(strstr(msg, "gridsync info: no "));
    assert_null(strstr(msg, "insufficient"));
    assert_string_equal(strchr(msg, '\n'), "\n");
    const char *b[] = {"info", "--json"};
    assert_int_equal(run_cmd_fd(1, gs_cmd_info, 2, b, out, sizeof out), GS_EXIT_NO_GPU);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(doc, "devices")->valueint, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(doc, "error")->valuestring, detail);
    cJSON_Delete(doc);
}

static void test_help(void **state)
{
    (void)state;
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    assert_int_equal(gs_print_help(null, NULL), 0);
    assert_int_equal(gs_print_help(null, "info"), 0);
    assert_int_equal(gs_print_help(null, "bench"), 0);
    assert_int_equal(gs_print_help(null, "frobnicate"), -1);
    fclose(null);
}

/* `gridsync bench --compare OLD NEW` measures nothing: it needs no GPU, and
 * takes only --out and --md besides its two files. */
static void test_bench_compare(void **state)
{
    (void)state;
    char dir[] = "/tmp/gs_args_XXXXXX", md[64];
    assert_non_null(mkdtemp(dir));
    snprintf(md, sizeof md, "%s/r.md", dir);
    const char *old = RESULTS;
    const char *new = COMMITTED;
    const char *q[] = {"bench", "--compare", old, new, "--md", md};
    assert_int_equal(gs_cmd_bench(6, (char **)q), GS_EXIT_OK);
    const char *r[] = {"bench", "--compare", old, new, "--threads", "256"};
    assert_int_equal(gs_cmd_bench(6, (char **)r), GS_EXIT_USAGE);
    const char *t[] = {"bench", "--compare", old};
    assert_int_equal(gs_cmd_bench(3, (char **)t), GS_EXIT_USAGE);
    unlink(md);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_long_accepts), cmocka_unit_test(test_parse_long_rejects),
        cmocka_unit_test(test_parse_list),         cmocka_unit_test(test_parse_long_list_whole),
        cmocka_unit_test(test_parse_double_and_devices),
        cmocka_unit_test(test_path_for_device),
        cmocka_unit_test(test_bad_options_exit_2), cmocka_unit_test(test_bench_suites),
        cmocka_unit_test(test_option_messages),    cmocka_unit_test(test_help_with_arguments),
        cmocka_unit_test(test_output_paths),
        cmocka_unit_test(test_no_gpu_exit_3),      cmocka_unit_test(test_no_gpu_messages),
        cmocka_unit_test(test_help),               cmocka_unit_test(test_bench_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
