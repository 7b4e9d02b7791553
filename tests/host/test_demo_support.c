/* test_demo_support.c - PNG round trip and the child-process time limit. */
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

#include "demo/child_run.h"
#include "demo/png_image.h"

static void test_png_round_trip(void **state)
{
    (void)state;
    enum { W = 37, H = 21 }; /* odd sizes: no row padding assumptions */
    unsigned char px[W * H * 3], *back = NULL;
    for (int i = 0; i < W * H * 3; ++i)
        px[i] = (unsigned char)(i * 7 + 3);
    char path[] = "/tmp/gs_png_XXXXXX", err[256];
    int fd = mkstemp(path), w = 0, h = 0;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(gs_png_write_rgb(path, W, H, px, err, sizeof err), 0);
    assert_int_equal(gs_png_read_rgb(path, &w, &h, &back, err, sizeof err), 0);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    assert_memory_equal(back, px, sizeof px);
    free(back);
    remove(path);
}

static void test_png_errors(void **state)
{
    (void)state;
    unsigned char px[3] = {1, 2, 3}, *back = NULL;
    char err[256];
    int w, h;
    assert_int_equal(gs_png_write_rgb("/nonexistent/dir/x.png", 1, 1, px, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot write"));
    assert_int_equal(gs_png_write_rgb("/tmp/x.png", 0, 1, px, err, sizeof err), -1);
    assert_int_equal(gs_png_read_rgb("/nonexistent.png", &w, &h, &back, err, sizeof err), -1);
    assert_null(back);
}

static int exits_7(void *arg)
{
    (void)arg;
    return 7;
}
static int hangs(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return 0;
}
static int crashes(void *arg)
{
    (void)arg;
    abort();
}

static void test_child_time_limit(void **state)
{
    (void)state;
    gs_child_result r = gs_child_run(exits_7, NULL, 5.0);
    assert_int_equal(r.outcome, GS_CHILD_EXITED);
    assert_int_equal(r.exit_code, 7);
    r = gs_child_run(hangs, NULL, 0.3);
    assert_int_equal(r.outcome, GS_CHILD_TIMED_OUT);
    assert_true(r.seconds >= 0.3 && r.seconds < 3.0);
    r = gs_child_run(crashes, NULL, 5.0);
    assert_int_equal(r.outcome, GS_CHILD_CRASHED);
    assert_int_equal(r.signal, 6); /* SIGABRT */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_round_trip),
        cmocka_unit_test(test_png_errors),
        cmocka_unit_test(test_child_time_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
