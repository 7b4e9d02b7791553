/* test_spawn.c - programs found in PATH and run from an argument vector:
 * the working directory, the output descriptors, the exit status, and
 * arguments that a shell would have run as commands. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/spawn.h"

static void test_find_program(void **state)
{
    (void)state;
    char path[1024];
    assert_int_equal(gs_find_program("sh", path, sizeof path), 0);
    assert_true(path[0] == '/');
    assert_int_equal(gs_find_program("no-such-program-here", path, sizeof path), -1);
    assert_int_equal(gs_find_program("", path, sizeof path), -1);
    assert_int_equal(gs_find_program("/nonexistent/sh", path, sizeof path), -1);
    assert_int_equal(gs_find_program("sh", path, 2), -1); /* does not fit */
}

/* Run `argv` in `dir` with stdout read back into `out`; its exit status. */
static int run_read(const char *const argv[], const char *dir, char *out, size_t len)
{
    char path[1024];
    int fds[2];
    assert_int_equal(gs_find_program(argv[0], path, sizeof path), 0);
    assert_int_equal(pipe(fds), 0);
    pid_t pid = gs_spawn(path, argv, dir, fds[1], -1);
    close(fds[1]);
    assert_true(pid > 0);
    ssize_t n = read(fds[0], out, len - 1);
    out[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    return gs_spawn_wait(pid);
}

static void test_spawn(void **state)
{
    (void)state;
    char out[256], dir[] = "/tmp/gs_spawn_XXXXXX", real[PATH_MAX];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    const char *pwd[] = {"pwd", "-P", NULL};
    assert_int_equal(run_read(pwd, dir, out, sizeof out), 0);
    assert_true(strncmp(out, real, strlen(real)) == 0);
    /* an argument is one argument, never a command line */
    const char *echo[] = {"echo", "a'; touch PWNED; '$(touch PWNED)`touch PWNED`", NULL};
    assert_int_equal(run_read(echo, dir, out, sizeof out), 0);
    assert_string_equal(out, "a'; touch PWNED; '$(touch PWNED)`touch PWNED`\n");
    char canary[1100];
    snprintf(canary, sizeof canary, "%s/PWNED", dir);
    assert_int_equal(access(canary, F_OK), -1);
    const char *fails[] = {"false", NULL};
    assert_int_equal(run_read(fails, NULL, out, sizeof out), 1);
    /* a folder that is not there: the child cannot start (127) */
    assert_int_equal(run_read(pwd, "/nonexistent/dir", out, sizeof out), 127);
    rmdir(dir);
}

/* A bounded wait: a quick child's status; a child that outlives the bound
 * is killed and reaped, soon after the bound. */
static void test_wait_for(void **state)
{
    (void)state;
    char path[1024];
    int timed_out = -1;
    const char *quick[] = {"true", NULL}, *slow[] = {"sleep", "30", NULL};
    assert_int_equal(gs_find_program("true", path, sizeof path), 0);
    pid_t pid = gs_spawn(path, quick, NULL, -1, -1);
    assert_true(pid > 0);
    assert_int_equal(gs_spawn_wait_for(pid, 10.0, &timed_out), 0);
    assert_int_equal(timed_out, 0);
    assert_int_equal(gs_find_program("sleep", path, sizeof path), 0);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid = gs_spawn(path, slow, NULL, -1, -1);
    assert_true(pid > 0);
    assert_int_equal(gs_spawn_wait_for(pid, 0.2, &timed_out), -1);
    clock_gettime(CLOCK_MONOTONIC, &b);
    assert_int_equal(timed_out, 1);
    assert_true((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) < 5.0);
    assert_int_equal(kill(pid, 0), -1); /* gone and reaped */
}

/* Asking without waiting: running, then ended with its status; then a
 * pid that is no child of ours. */
static void test_ended(void **state)
{
    (void)state;
    char path[1024];
    int status = -7;
    const char *slow[] = {"sleep", "0.3", NULL}, *fails[] = {"false", NULL};
    assert_int_equal(gs_find_program("sleep", path, sizeof path), 0);
    pid_t pid = gs_spawn(path, slow, NULL, -1, -1);
    assert_true(pid > 0);
    assert_int_equal(gs_spawn_ended(pid, &status), 0);
    assert_int_equal(status, -7);
    assert_int_equal(gs_spawn_wait(pid), 0);
    assert_int_equal(gs_find_program("false", path, sizeof path), 0);
    pid = gs_spawn(path, fails, NULL, -1, -1);
    assert_true(pid > 0);
    int ended = 0;
    for (int i = 0; i < 1000 && (ended = gs_spawn_ended(pid, &status)) == 0; ++i) {
        struct timespec nap = {0, 10000000};
        nanosleep(&nap, NULL);
    }
    assert_int_equal(ended, 1);
    assert_int_equal(status, 1);
    assert_int_equal(gs_spawn_ended(pid, &status), -1); /* reaped already */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_program),
        cmocka_unit_test(test_spawn),
        cmocka_unit_test(test_wait_for),
        cmocka_unit_test(test_ended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
