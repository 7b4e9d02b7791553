/* test_ranks.c - the bench's two-process start (tools/harness/ranks.h), with
 * stand-ins for rank 1 (no GPU): a private folder with the id in it, a
 * child that gets ready, one that cannot start, ends early, is not ready in
 * time, fails or outlives the end's bound; the folder always goes. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/spawn.h"
#include "harness/ranks.h"
#include "harness/timer.h"

/* Begin, with `program` (found in PATH) standing in for this program. */
static void begin_with(gs_bench_ranks *r, const char *program)
{
    struct stat st;
    char id[PATH_MAX + 16];
    gs_status s = gs_bench_ranks_begin(r);
    if (s != GS_SUCCESS) /* ncclGetUniqueId needs a network interface */
        skip();
    assert_true(r->self[0] == '/' && r->child == 0);
    assert_int_equal(stat(r->dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode) && (st.st_mode & 077) == 0); /* private */
    snprintf(id, sizeof id, "%s/id", r->dir);
    assert_int_equal(access(id, R_OK), 0);
    assert_int_equal(gs_find_program(program, r->self, sizeof r->self), 0);
}

static void assert_gone(const char *dir)
{
    struct stat st;
    assert_int_equal(stat(dir, &st), -1);
}

static void test_ready_then_ends(void **state)
{
    (void)state;
    gs_bench_ranks r;
    char ready[PATH_MAX + 16], dir[PATH_MAX];
    begin_with(&r, "touch");
    snprintf(ready, sizeof ready, "%s/ready", r.dir);
    snprintf(dir, sizeof dir, "%s", r.dir);
    const char *const argv[] = {r.self, ready, NULL};
    assert_int_equal(gs_bench_ranks_start(&r, argv, 10.0), GS_SUCCESS);
    assert_int_equal(gs_bench_ranks_end(&r, 10.0), GS_SUCCESS);
    assert_gone(dir);
}

/* Rank 1 that never gets ready: each way, GS_ERR_NOT_SUPPORTED with its
 * sentence, soon; nothing is left running or on disk. */
static void never_ready(const char *program, const char *const *args, double bound,
                        const char *expect)
{
    gs_bench_ranks r;
    char dir[PATH_MAX];
    const char *argv[4] = {NULL, NULL, NULL, NULL};
    begin_with(&r, program);
    snprintf(dir, sizeof dir, "%s", r.dir);
    argv[0] = r.self;
    for (int i = 0; args[i] && i < 2; ++i)
        argv[i + 1] = args[i];
    double t0 = gs_now_seconds();
    assert_int_equal(gs_bench_ranks_start(&r, argv, bound), GS_ERR_NOT_SUPPORTED);
    assert_true(gs_now_seconds() - t0 < bound + 5.0);
    if (!strstr(gs_last_error_detail(), expect))
        fail_msg("expected '%s' in: %s", expect, gs_last_error_detail());
    assert_int_equal(r.child, 0);
    assert_int_equal(gs_bench_ranks_end(&r, 0.0), GS_SUCCESS);
    assert_gone(dir);
}

static void test_never_ready(void **state)
{
    (void)state;
    const char *none[] = {NULL}, *long_sleep[] = {"30", NULL};
    never_ready("false", none, 10.0, "ended with status 1 before it was ready to join");
    never_ready("sleep", long_sleep, 0.3, "was not ready to join within");
    /* a program that cannot be run: the child's exec fails (127) */
    gs_bench_ranks r;
    begin_with(&r, "true");
    snprintf(r.self, sizeof r.self, "/nonexistent/gridsync");
    const char *const argv[] = {r.self, NULL};
    assert_int_equal(gs_bench_ranks_start(&r, argv, 10.0), GS_ERR_NOT_SUPPORTED);
    assert_non_null(strstr(gs_last_error_detail(), "could not start"));
    gs_bench_ranks_end(&r, 0.0);
}

/* Ready, then a failure or a hang of its own: the end says so (bounded). */
static void test_end_reports(void **state)
{
    (void)state;
    gs_bench_ranks r;
    char script[PATH_MAX + 64];
    begin_with(&r, "sh");
    snprintf(script, sizeof script, "touch \"$0/ready\" && exit 3");
    const char *const fails[] = {r.self, "-c", script, r.dir, NULL};
    assert_int_equal(gs_bench_ranks_start(&r, fails, 10.0), GS_SUCCESS);
    assert_int_equal(gs_bench_ranks_end(&r, 10.0), GS_ERR_INTERNAL);
    assert_non_null(strstr(gs_last_error_detail(), "ended with status 3"));
    begin_with(&r, "sh");
    snprintf(script, sizeof script, "touch \"$0/ready\" && exec sleep 30");
    const char *const hangs[] = {r.self, "-c", script, r.dir, NULL};
    assert_int_equal(gs_bench_ranks_start(&r, hangs, 10.0), GS_SUCCESS);
    double t0 = gs_now_seconds();
    assert_int_equal(gs_bench_ranks_end(&r, 0.3), GS_ERR_INTERNAL);
    assert_true(gs_now_seconds() - t0 < 5.0);
    assert_non_null(strstr(gs_last_error_detail(), "it was stopped"));
}

/* Rank 1's side with no rank 0 (no folder; here no GPU either): an error,
 * promptly, and no group. */
static void test_child_without_rank0(void **state)
{
    (void)state;
    gs_multi_t m = NULL;
    double t0 = gs_now_seconds();
    gs_status st = gs_bench_ranks_join_child("/nonexistent/folder", 0, 0.5, &m);
    assert_true(st != GS_SUCCESS && m == NULL);
    assert_true(gs_now_seconds() - t0 < 10.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ready_then_ends),
        cmocka_unit_test(test_never_ready),
        cmocka_unit_test(test_end_reports),
        cmocka_unit_test(test_child_without_rank0),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
