#define _POSIX_C_SOURCE 200809L
/* test_status.c - status names, failure details, watchdog and co-residency
 * sentences (pure host code, no GPU). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"
#include <gridsync/detail/barrier/barrier_layout.h>

#include "../../src/barrier/barrier_internal.h"
#include "../../src/runtime/timeout.h"
#include "../../src/core/error.h"

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(gs_status_string(GS_SUCCESS), "GS_SUCCESS");
    assert_string_equal(gs_status_string(GS_ERR_NOT_CORESIDENT), "GS_ERR_NOT_CORESIDENT");
    assert_string_equal(gs_status_string(GS_ERR_BARRIER_TIMEOUT), "GS_ERR_BARRIER_TIMEOUT");
    assert_string_equal(gs_status_string((gs_status)999), "GS_ERR_UNKNOWN_STATUS");
    assert_string_equal(gs_status_string(GS_ERR_BUSY), "GS_ERR_BUSY");
    assert_string_equal(gs_status_string(GS_ERR_MISUSE), "GS_ERR_MISUSE");
    for (int s = GS_SUCCESS; s <= GS_ERR_MISUSE; ++s)
        assert_string_not_equal(gs_status_string((gs_status)s), "GS_ERR_UNKNOWN_STATUS");
}

static void test_detail_set_and_cleared(void **state)
{
    (void)state;
    gs_barrier_method m;
    gs_clear_error();
    assert_string_equal(gs_last_error_detail(), "");
    assert_int_equal(gs_barrier_method_parse("spinlock", &m), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "unknown barrier method 'spinlock'"));
    gs_clear_error();
    assert_string_equal(gs_last_error_detail(), "");
}

/* A detail may quote the current one ("GPU 1: %s", gs_last_error_detail()):
 * the result is the prefix once, then the old sentence, not a mix of both. */
static void test_detail_can_quote_itself(void **state)
{
    (void)state;
    gs__fail(GS_ERR_CUDA, "launch failed: too many blocks requested, at most 1056 fit");
    gs__fail(GS_ERR_CUDA, "GPU 1 (rank 1): %s", gs_last_error_detail());
    assert_string_equal(gs_last_error_detail(),
                        "GPU 1 (rank 1): launch failed: too many blocks requested, at most 1056 fit");
}

/* GRIDSYNC_BARRIER_TIMEOUT: seconds, "off" or 0; anything else refused. */
static void test_timeout_text(void **state)
{
    (void)state;
    unsigned long long ns = 1;
    assert_int_equal(gs__parse_timeout("2.5", &ns), 0);
    assert_true(ns == 2500000000ull);
    assert_int_equal(gs__parse_timeout("off", &ns), 0);
    assert_true(ns == 0);
    ns = 1;
    assert_int_equal(gs__parse_timeout("0", &ns), 0);
    assert_true(ns == 0);
    assert_int_equal(gs__parse_timeout("0.001", &ns), 0);
    assert_true(ns == 1000000ull);
    const char *bad[] = {"", "abc", "-1", "+2", " 2", "2s", "1e9", "nan", "inf", "0.0001", NULL};
    for (int i = 0; bad[i]; ++i)
        assert_int_equal(gs__parse_timeout(bad[i], &ns), -1);
    assert_int_equal(gs__parse_timeout(NULL, &ns), -1);
}

/* A malformed GRIDSYNC_BARRIER_TIMEOUT fails gs_barrier_create with a
 * sentence naming it (before any CUDA call: this runs without a GPU). */
static void test_timeout_env_refused(void **state)
{
    (void)state;
    gs_barrier_t bar = NULL;
    setenv("GRIDSYNC_BARRIER_TIMEOUT", "soon", 1);
    assert_int_equal(gs_barrier_create(&bar, GS_BARRIER_AUTO), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "GRIDSYNC_BARRIER_TIMEOUT='soon'"));
    assert_null(bar);
    unsetenv("GRIDSYNC_BARRIER_TIMEOUT");
}

static void test_method_names_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < GS_BARRIER_METHOD_COUNT; ++i) {
        gs_barrier_method m;
        assert_int_equal(gs_barrier_method_parse(gs_barrier_method_name((gs_barrier_method)i), &m),
                         GS_SUCCESS);
        assert_int_equal(m, i);
    }
    assert_string_equal(gs_barrier_method_name((gs_barrier_method)42), "unknown");
    assert_int_equal(gs_barrier_method_parse(NULL, NULL), GS_ERR_INVALID_ARGUMENT);
    gs_barrier_method m = GS_BARRIER_AUTO;
    assert_int_equal(gs_barrier_method_parse("tree", NULL), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "output pointer is NULL"));
    assert_int_equal(gs_barrier_method_parse(NULL, &m), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "name is NULL"));
    /* the values and names come from GS_BARRIER_METHODS, in its order */
    assert_int_equal(GS_BARRIER_LOCK, 1);
    assert_int_equal(GS_BARRIER_TREE, 4);
    assert_int_equal(GS_BARRIER_FLAGS, 5);
    assert_int_equal(GS_BARRIER_METHOD_COUNT, 6);
    assert_string_equal(gs_barrier_method_name(GS_BARRIER_LOCKFREE), "lockfree");
    assert_string_equal(gs_barrier_method_name(GS_BARRIER_FLAGS), "flags");
    assert_int_equal(gs_barrier_method_parse("flags", &m), GS_SUCCESS);
    assert_int_equal(m, GS_BARRIER_FLAGS);
}

/* The parse error lists every name of the registry. */
static void test_method_parse_lists_names(void **state)
{
    (void)state;
    gs_barrier_method m;
    assert_int_equal(gs_barrier_method_parse("spin", &m), GS_ERR_INVALID_ARGUMENT);
    assert_string_equal(gs_last_error_detail(), "unknown barrier method 'spin' (expected auto, "
                                                "lock, lockfree, flip, tree or flags)");
}

static void test_coresidency_sentence(void **state)
{
    (void)state;
    char buf[256];
    gs_format_coresidency(buf, sizeof buf, 1100, 132, 8, 256);
    assert_string_equal(buf, "1100 blocks requested, at most 1056 fit: 132 SMs x 8 blocks of 256 threads");
    gs_format_coresidency(buf, sizeof buf, 265, 132, 2, 1024);
    assert_string_equal(buf, "265 blocks requested, at most 264 fit: 132 SMs x 2 blocks of 1024 threads");
    gs_format_coresidency(buf, sizeof buf, 1, 132, 0, 1024);
    assert_non_null(strstr(buf, "none fit"));
}

static void test_timeout_sentence(void **state)
{
    (void)state;
    char buf[512];
    unsigned int where[1056];
    for (int i = 0; i < 1056; ++i)
        where[i] = 5;
    where[17] = 0;
    gs__format_timeout(buf, sizeof buf, 5, 1056, where);
    assert_string_equal(buf, "barrier #5: 1055/1056 blocks arrived; missing: block 17");

    where[17] = 5;
    where[3] = 4; /* waiting at another barrier: not arrived at #5 */
    where[900] = 0;
    gs__format_timeout(buf, sizeof buf, 5, 1056, where);
    assert_string_equal(buf, "barrier #5: 1054/1056 blocks arrived; missing: blocks 3, 900");

    for (int i = 0; i < 40; ++i)
        where[i] = 0;
    gs__format_timeout(buf, sizeof buf, 5, 1056, where);
    assert_non_null(strstr(buf, "1015/1056 blocks arrived; missing: blocks 0, 1, 2,"));
    assert_non_null(strstr(buf, " and 25 more"));

    /* a tiny buffer truncates, never overflows */
    char small[16];
    gs__format_timeout(small, sizeof small, 5, 1056, where);
    assert_int_equal(strlen(small), sizeof small - 1);
}

/* A tagged word's time-out: the writer, the waiter, both tags. */
static void test_tagged_timeout_sentence(void **state)
{
    (void)state;
    unsigned int rec[GS_REC_DETAIL + GS_REC_DETAIL_WORDS] = {0};
    rec[GS_REC_KIND] = GS_REC_KIND_TAGGED_TIMEOUT;
    rec[GS_REC_OBSERVER] = 6u;
    rec[GS_REC_DETAIL + 0] = 5u;  /* the writer */
    rec[GS_REC_DETAIL + 1] = 11u; /* the tag seen */
    rec[GS_REC_DETAIL + 3] = 12u; /* the tag expected */
    char buf[256];
    gs__format_tagged_timeout(buf, sizeof buf, rec, 0.5);
    assert_string_equal(buf, "tagged word from block 5: block 6 waited for tag 12 but saw tag 11 "
                             "(time-out 0.500 s)");
    char small[20]; /* truncates, never overflows */
    gs__format_tagged_timeout(small, sizeof small, rec, 0.5);
    assert_int_equal(strlen(small), sizeof small - 1);
}

static void test_state_size_grows_with_capacity(void **state)
{
    (void)state;
    assert_true(gs__barrier_state_bytes(1056) > gs__barrier_state_bytes(132));
    /* line-aligned regions */
    assert_int_equal(gs__barrier_state_bytes(1) % 128, 0);
    assert_int_equal(gs__barrier_state_bytes(4224) % 128, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_detail_set_and_cleared),
        cmocka_unit_test(test_detail_can_quote_itself),
        cmocka_unit_test(test_timeout_text),
        cmocka_unit_test(test_timeout_env_refused),
        cmocka_unit_test(test_method_names_round_trip),
        cmocka_unit_test(test_method_parse_lists_names),
        cmocka_unit_test(test_coresidency_sentence),
        cmocka_unit_test(test_timeout_sentence),
        cmocka_unit_test(test_tagged_timeout_sentence),
        cmocka_unit_test(test_state_size_grows_with_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
