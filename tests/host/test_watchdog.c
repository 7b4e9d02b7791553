/*
 * test_watchdog.c - the neighbour barrier's time-out sentence
 * (gs__format_neighbour_timeout, src/barrier/watchdog.c) on synthetic
 * records: it names the block(s) furthest behind, not the chain of blocks
 * waiting for them, then the wait that timed out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <gridsync/detail/barrier/barrier_layout.h>

#include "../../src/barrier/barrier_internal.h"

enum { BLOCKS = 132 };

/* The launch's generation in the high half of every epoch. */
static const unsigned long long GEN = 5ull << 32;

/* A neighbour wait's record: `observer` waited for `target` at neighbour
 * barrier `no`, for an epoch >= `want`, and saw `seen` (both of GEN). */
static void record(unsigned int *rec, unsigned int no, unsigned int observer,
                   unsigned int target, unsigned int seen, unsigned int want)
{
    memset(rec, 0, GS_LINE_WORDS * sizeof *rec);
    rec[GS_REC_FLAG] = 1u;
    rec[GS_REC_BARRIER] = no;
    rec[GS_REC_BLOCKS] = BLOCKS;
    rec[GS_REC_OBSERVER] = observer;
    rec[GS_REC_KIND] = GS_REC_KIND_WAIT_TIMEOUT;
    const unsigned int detail[5] = {target, seen, (unsigned int)(GEN >> 32), want,
                                    (unsigned int)(GEN >> 32)};
    memcpy(rec + GS_REC_DETAIL, detail, sizeof detail);
}

/* A launch's epochs: every block at `steps` of this launch, then the
 * exceptions; the sentence for a record made with record(). */
typedef struct launch_case {
    unsigned int rec[GS_LINE_WORDS];
    unsigned long long epochs[BLOCKS];
    char text[768];
} launch_case;

static void epochs_at(unsigned long long *epochs, unsigned int steps)
{
    for (unsigned int i = 0; i < BLOCKS; ++i)
        epochs[i] = GEN | steps;
}

static const char *sentence(launch_case *c, double timeout_s)
{
    gs__format_neighbour_timeout(c->text, sizeof c->text, c->rec, c->epochs, BLOCKS, timeout_s);
    print_message("%s\n", c->text);
    return c->text;
}

/* The kernel: block 37 of 132 returned after step 10 of a 1-D
 * neighbour loop; 36 and 38 wait at 11, the rest went on to 12, and the
 * wait that timed out was 39's for 38 (the chain's second link). */
static void test_names_the_block_behind(void **state)
{
    (void)state;
    launch_case c;
    epochs_at(c.epochs, 12u);
    c.epochs[37] = GEN | 10u;
    c.epochs[36] = c.epochs[38] = GEN | 11u;
    record(c.rec, 12u, 39u, 38u, 11u, 12u);
    assert_string_equal(sentence(&c, 0.25),
                        "neighbour barrier: block 37 fell behind: it arrived at 10 neighbour "
                        "barriers of this launch, the other 131 blocks at 11 to 12; the wait "
                        "that timed out: neighbour barrier #12: the epoch of block 38: block "
                        "39 waited for >= 12 but it stayed at 11 (time-out 0.250 s)");
}

/* Two blocks stopped at the same step: both named, nobody else. */
static void test_names_every_block_at_the_least(void **state)
{
    (void)state;
    launch_case c;
    epochs_at(c.epochs, 7u);
    c.epochs[3] = c.epochs[100] = GEN | 4u;
    c.epochs[2] = c.epochs[99] = GEN | 5u;
    record(c.rec, 5u, 2u, 3u, 4u, 5u);
    assert_non_null(strstr(sentence(&c, 1.0), "neighbour barrier: blocks 3, 100 fell behind: "
                                              "they arrived at 4 neighbour barriers of this "
                                              "launch, the other 130 blocks at 5 to 7;"));
}

/* A block that never called the barrier in this launch keeps an epoch of
 * an earlier launch (another generation): it arrived at none. */
static void test_block_that_never_started(void **state)
{
    (void)state;
    launch_case c;
    epochs_at(c.epochs, 1u);
    c.epochs[66] = (4ull << 32) | 30u; /* the last launch's last step */
    record(c.rec, 1u, 65u, 66u, 30u, 1u);
    c.rec[GS_REC_DETAIL + 2u] = 4u; /* what 65 saw was of the old launch */
    const char *text = sentence(&c, 0.2);
    assert_non_null(strstr(text, "block 66 fell behind: it arrived at 0 neighbour barriers of "
                                 "this launch, the other 131 blocks at 1;"));
    assert_non_null(strstr(text, "block 65 waited for >= 1 but it stayed at 0"));
}

/* Many blocks behind: the first 16 named, then how many more. */
static void test_many_behind(void **state)
{
    (void)state;
    launch_case c;
    epochs_at(c.epochs, 3u);
    for (unsigned int i = 0; i < 20; ++i)
        c.epochs[100 + i] = GEN | 2u;
    record(c.rec, 3u, 99u, 100u, 2u, 3u);
    assert_non_null(strstr(sentence(&c, 0.2),
                           "blocks 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, "
                           "112, 113, 114, 115 and 4 more fell behind: they arrived at 2 "
                           "neighbour barriers"));
}

/* Nobody behind the others (every epoch the same): the wait alone. */
static void test_nobody_behind(void **state)
{
    (void)state;
    launch_case c;
    epochs_at(c.epochs, 9u);
    record(c.rec, 9u, 1u, 0u, 9u, 10u);
    assert_string_equal(sentence(&c, 0.5), "neighbour barrier #9: the epoch of block 0: block 1 "
                                           "waited for >= 10 but it stayed at 9 (time-out "
                                           "0.500 s)");
}

/* A short buffer: cut, terminated, never overrun. */
static void test_short_buffer(void **state)
{
    (void)state;
    launch_case c;
    char buf[48];
    epochs_at(c.epochs, 12u);
    for (unsigned int i = 0; i < 40; ++i)
        c.epochs[2 * i] = GEN | 10u;
    record(c.rec, 12u, 1u, 0u, 10u, 11u);
    for (size_t len = 1; len <= sizeof buf - 8; ++len) {
        memset(buf, 'x', sizeof buf);
        gs__format_neighbour_timeout(buf, len, c.rec, c.epochs, BLOCKS, 0.25);
        assert_true(strlen(buf) < len);
        for (size_t k = len; k < sizeof buf; ++k)
            assert_int_equal(buf[k], 'x');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_the_block_behind),
        cmocka_unit_test(test_names_every_block_at_the_least),
        cmocka_unit_test(test_block_that_never_started),
        cmocka_unit_test(test_many_behind),
        cmocka_unit_test(test_nobody_behind),
        cmocka_unit_test(test_short_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
