/* test_id_file.c - the file bootstrap of gridsync_multi.h on the host (no
 * GPU): the text format both ways and its refusals, a write read back, a
 * reader told another rank count, a file that never appears (time-out,
 * promptly), a file that is not ours, bad arguments, and the atomic write
 * (no temporary file left beside the path). */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

#include <cmocka.h>

#include "gridsync_multi.h"
#include "id_file.h"
#include "multi_internal.h"

static char dir[] = "/tmp/gs_id_file_XXXXXX";

static void test_format_parse(void **state)
{
    (void)state;
    unsigned char bytes[5] = {0x00, 0x7f, 0x80, 0xab, 0xff}, back[5];
    char text[256];
    int ranks = 0;
    assert_true(gs__id_format(text, sizeof text, bytes, 5, 12) > 0);
    assert_string_equal(text, "gridsync-nccl-unique-id 1\nranks 12\n007f80abff\n");
    assert_int_equal(gs__id_parse(text, back, 5, &ranks), 0);
    assert_memory_equal(back, bytes, 5);
    assert_int_equal(ranks, 12);
    assert_int_equal(gs__id_format(text, 20, bytes, 5, 12), -1); /* does not fit */
    const char *bad[] = {
        "", "gridsync-nccl-unique-id 2\nranks 2\n007f80abff\n",
        "gridsync-nccl-unique-id 1\nranks 0\n007f80abff\n",
        "gridsync-nccl-unique-id 1\nranks -2\n007f80abff\n",
        "gridsync-nccl-unique-id 1\nranks 2x\n007f80abff\n",
        "gridsync-nccl-unique-id 1\nranks 2\n007f80abf\n",     /* short */
        "gridsync-nccl-unique-id 1\nranks 2\n007f80abffff\n",  /* long */
        "gridsync-nccl-unique-id 1\nranks 2\n007F80ABFF\n",    /* upper case */
        "gridsync-nccl-unique-id 1\nranks 2\n007f80abff\nmore",
        "gridsync-nccl-unique-id 1\nranks 99999999999\n007f80abff\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        assert_int_equal(gs__id_parse(bad[i], back, 5, &ranks), -1);
}

static void path_in_dir(char *path, size_t len, const char *name)
{
    snprintf(path, len, "%s/%s", dir, name);
}

static void test_write_read(void **state)
{
    (void)state;
    ncclUniqueId id, back;
    char path[256];
    for (size_t i = 0; i < sizeof id.internal; ++i)
        id.internal[i] = (char)(i * 37 + 5);
    path_in_dir(path, sizeof path, "id one");  /* a space is just a character */
    assert_int_equal(gs_multi_unique_id_write(path, &id, 2), GS_SUCCESS);
    memset(&back, 0, sizeof back);
    assert_int_equal(gs_multi_unique_id_read(path, 2, 1.0, &back), GS_SUCCESS);
    assert_memory_equal(&back, &id, sizeof id);
    /* rewritten in place (rename over the old one) */
    id.internal[0] ^= 1;
    assert_int_equal(gs_multi_unique_id_write(path, &id, 2), GS_SUCCESS);
    assert_int_equal(gs_multi_unique_id_read(path, 2, 1.0, &back), GS_SUCCESS);
    assert_memory_equal(&back, &id, sizeof id);
    /* a reader told another rank count */
    assert_int_equal(gs_multi_unique_id_read(path, 3, 1.0, &back), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "mismatched rank counts"));
    /* nothing left beside it but the file itself */
    DIR *d = opendir(dir);
    struct dirent *e;
    int entries = 0;
    while ((e = readdir(d)))
        entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 1);
    unlink(path);
}

static void test_never_appears(void **state)
{
    (void)state;
    ncclUniqueId id;
    char path[256];
    struct timespec a, b;
    path_in_dir(path, sizeof path, "never");
    clock_gettime(CLOCK_MONOTONIC, &a);
    assert_int_equal(gs_multi_unique_id_read(path, 2, 0.2, &id), GS_ERR_BARRIER_TIMEOUT);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double took = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    assert_true(took >= 0.2 && took < 2.0);
    assert_non_null(strstr(gs_last_error_detail(), "no unique id appeared"));
}

static void test_not_ours(void **state)
{
    (void)state;
    ncclUniqueId id;
    char path[256];
    path_in_dir(path, sizeof path, "other");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nrm -rf /\n", f);
    fclose(f);
    assert_int_equal(gs_multi_unique_id_read(path, 2, 0.2, &id), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "not a unique-id file"));
    unlink(path);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    ncclUniqueId id;
    char path[256];
    memset(&id, 0, sizeof id);
    path_in_dir(path, sizeof path, "x");
    assert_int_equal(gs_multi_unique_id_write(NULL, &id, 2), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_write("", &id, 2), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_write(path, NULL, 2), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_write(path, &id, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_write("/nonexistent/dir/id", &id, 2),
                     GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "cannot create"));
    assert_int_equal(gs_multi_unique_id_read(path, 0, 1.0, &id), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_read(path, 2, -1.0, &id), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_unique_id_read(path, 2, 1.0, NULL), GS_ERR_INVALID_ARGUMENT);
    /* rank and rank-count checks of a group, before any GPU or NCCL call */
    gs_multi_t m = (gs_multi_t)&id;
    assert_int_equal(gs_multi_create_rank(&m, &id, 2, 2, 0, 1.0), GS_ERR_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(gs_multi_create_rank(&m, &id, 0, 0, 0, 1.0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_rank(&m, &id, 2, -1, 0, 1.0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_rank(&m, NULL, 2, 0, 0, 1.0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_create_rank(&m, &id, 2, 0, 0, -3.0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "time-out"));
    assert_int_equal(gs_multi_create_comm(&m, NULL, 0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_set_timeout(NULL, 1.0), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(gs_multi_size(NULL), 0);
    assert_int_equal(gs_multi_local_ranks(NULL), 0);
    assert_int_equal(gs_multi_rank(NULL, 0), -1);
}

/* A group's time-out: the program's own wins, and then a malformed
 * GRIDSYNC_MULTI_TIMEOUT is not read at all (it used to fail the creation
 * of a group given a time-out); without one, the variable decides. */
static void test_timeout_setting(void **state)
{
    (void)state;
    unsigned long long ns = 0;
    assert_int_equal(setenv("GRIDSYNC_MULTI_TIMEOUT", "soon", 1), 0);
    assert_int_equal(gs__multi_timeout(2.5, &ns), GS_SUCCESS);
    assert_true(ns == 2500000000ull);
    assert_int_equal(gs__multi_timeout(0.0, &ns), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "GRIDSYNC_MULTI_TIMEOUT='soon'"));
    assert_int_equal(setenv("GRIDSYNC_MULTI_TIMEOUT", "7", 1), 0);
    assert_int_equal(gs__multi_timeout(0.0, &ns), GS_SUCCESS);
    assert_true(ns == 7000000000ull);
    assert_int_equal(unsetenv("GRIDSYNC_MULTI_TIMEOUT"), 0);
    assert_int_equal(gs__multi_timeout(0.0, &ns), GS_SUCCESS);
    assert_true(ns == 60000000000ull);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_parse),  cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_never_appears), cmocka_unit_test(test_not_ours),
        cmocka_unit_test(test_bad_arguments), cmocka_unit_test(test_timeout_setting),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return failed;
}
