#define _POSIX_C_SOURCE 200809L
/* test_task_plan.c - the task runtime's host logic, with no GPU: checking
 * and ordering a plan (every kind of bad plan and its sentence), the
 * blocks' lists, the records' ahead copies, the waits a block's own tasks
 * satisfy marked in its records, and the watchdog's sentence
 * naming the cause of a time-out rather than a victim. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync_tasks.h"
#include <gridsync/detail/barrier/barrier_layout.h>

#include "../../src/tasks/tasks_internal.h"

static gs_task_desc task(unsigned int op)
{
    gs_task_desc t;
    memset(&t, 0, sizeof t);
    t.op = op;
    return t;
}

static void wait_on(gs_task_desc *t, unsigned int c, unsigned int v)
{
    t->waits[t->nwaits++] = (gs_task_wait){c, v};
}

static void post_to(gs_task_desc *t, unsigned int c, unsigned int d)
{
    t->posts[t->nposts++] = (gs_task_post){c, d};
}

static gs_status order(const gs_task_desc *tasks, unsigned int n, unsigned int nc,
                       unsigned int *out, char *why, size_t len)
{
    unsigned int period[16];
    assert_true(nc <= 16);
    return gs__task_order(tasks, n, nc, out, period, why, len);
}

/* A chain added backwards: the order found runs it forwards. */
static void test_order_of_a_chain_added_backwards(void **state)
{
    (void)state;
    enum { N = 5 };
    gs_task_desc t[N];
    for (unsigned int i = 0; i < N; ++i) {
        t[i] = task(i);
        /* task i is step N-1-i: it waits for step N-2-i (counter N-2-i) */
        unsigned int step = N - 1 - i;
        if (step > 0)
            wait_on(&t[i], step - 1, 1);
        post_to(&t[i], step, 1);
    }
    unsigned int o[N];
    char why[512] = "";
    assert_int_equal(order(t, N, N, o, why, sizeof why), GS_SUCCESS);
    for (unsigned int k = 0; k < N; ++k)
        assert_int_equal(o[k], N - 1 - k);
}

/* Where the plan allows, the order is the order of the calls. */
static void test_order_keeps_the_order_added(void **state)
{
    (void)state;
    gs_task_desc t[4] = {task(0), task(1), task(2), task(3)};
    post_to(&t[0], 0, 1);
    post_to(&t[1], 0, 1);
    wait_on(&t[2], 0, 2);
    wait_on(&t[3], 0, 1);
    unsigned int o[4], period[1];
    char why[256];
    assert_int_equal(gs__task_order(t, 4, 1, o, period, why, sizeof why), GS_SUCCESS);
    for (unsigned int k = 0; k < 4; ++k)
        assert_int_equal(o[k], k);
    assert_int_equal(period[0], 2);
}

static void test_wait_beyond_every_post_is_refused(void **state)
{
    (void)state;
    gs_task_desc t[3] = {task(3), task(3), task(7)};
    post_to(&t[0], 0, 1);
    post_to(&t[1], 0, 1);
    wait_on(&t[2], 0, 3);
    unsigned int o[3];
    char why[512];
    assert_int_equal(order(t, 3, 1, o, why, sizeof why), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "task 2 (op 7) waits for counter 0 >= 3, but the plan's tasks "
                                "post only 2 to it"));
}

static void test_cycle_is_named(void **state)
{
    (void)state;
    /* task 0 runs; tasks 1 and 2 wait on each other; task 3 waits on task 2 */
    gs_task_desc t[4] = {task(0), task(1), task(2), task(3)};
    post_to(&t[0], 0, 1);
    wait_on(&t[1], 2, 1);
    post_to(&t[1], 1, 1);
    wait_on(&t[2], 1, 1);
    post_to(&t[2], 2, 1);
    wait_on(&t[3], 2, 1);
    unsigned int o[4];
    char why[1024];
    assert_int_equal(order(t, 4, 3, o, why, sizeof why), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "task 1 (op 1) can never run: it waits for counter 2 >= 1"));
    assert_non_null(strstr(why, "cycle"));
    assert_non_null(strstr(why, "task 1 waits for counter 2 >= 1 (posted by task 2)"));
    assert_non_null(strstr(why, "task 2 waits for counter 1 >= 1 (posted by task 1)"));
}

/* A wait that some posts can never reach because their poster is stuck
 * behind another wait, not in a cycle with it. */
static void test_stuck_poster_is_followed(void **state)
{
    (void)state;
    gs_task_desc t[3] = {task(0), task(1), task(2)};
    wait_on(&t[0], 1, 1); /* counter 1 is posted by task 1, which waits on itself */
    post_to(&t[0], 0, 1);
    wait_on(&t[1], 1, 1);
    post_to(&t[1], 1, 1);
    post_to(&t[2], 1, 1); /* only 1 of the 2 posts to counter 1 can come */
    wait_on(&t[2], 0, 0);
    unsigned int o[3];
    char why[1024];
    /* task 2 runs (counter 1 = 1), then task 0 can run (>= 1), then task 1 (>= 1): all run */
    assert_int_equal(order(t, 3, 2, o, why, sizeof why), GS_SUCCESS);
    assert_int_equal(o[0], 2);
    /* now tasks 0 and 1 need both posts to counter 1, one of which is task 1's */
    t[0].waits[0].value = 2;
    t[1].waits[0].value = 2;
    assert_int_equal(order(t, 3, 2, o, why, sizeof why), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "task 0 (op 0) can never run: it waits for counter 1 >= 2, but "
                                "the tasks that can run post only 1 to it"));
    assert_non_null(strstr(why, "task 1 waits for counter 1 >= 2 (posted by task 1)"));
}

static void test_counter_total_overflow(void **state)
{
    (void)state;
    gs_task_desc t[2] = {task(0), task(0)};
    post_to(&t[0], 0, 0x40000000u);
    post_to(&t[1], 0, 0x40000000u);
    unsigned int o[2];
    char why[512];
    assert_int_equal(order(t, 2, 1, o, why, sizeof why), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "counter 0 receives 2147483648 per launch"));
}

static void test_input_written_by_a_task_is_refused(void **state)
{
    (void)state;
    static char buffer[4096];
    gs_task_desc t[2] = {task(0), task(0)};
    t[0].outputs[t[0].noutputs++] = (gs_task_range){buffer + 1024, 512};
    t[1].inputs[t[1].ninputs++] = (gs_task_range){buffer, 1025}; /* its last byte */
    unsigned int o[2];
    char why[512];
    assert_int_equal(order(t, 2, 1, o, why, sizeof why), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(why, "task 1's independent input 0"));
    assert_non_null(strstr(why, "overlaps what task 0 writes"));
    t[1].inputs[0].bytes = 1024; /* ends where the output starts: fine */
    assert_int_equal(order(t, 2, 1, o, why, sizeof why), GS_SUCCESS);
}

/* Lists follow the order, balance the cost, and keep pinned tasks. */
static void test_lists(void **state)
{
    (void)state;
    enum { N = 10, B = 3 };
    gs_task_desc t[N];
    unsigned int o[N], begin[B + 1], list[N], block_of[N], pos[N];
    for (unsigned int i = 0; i < N; ++i) {
        t[i] = task(i);
        t[i].cost = 1.0;
        o[i] = N - 1 - i; /* some order */
    }
    t[4].block = 3;   /* block 2 */
    t[4].cost = 5.0;  /* a heavy task: block 2 gets fewer others */
    gs__task_lists(t, N, o, B, begin, list, block_of, pos);
    assert_int_equal(begin[0], 0);
    assert_int_equal(begin[B], N);
    assert_int_equal(block_of[4], 2);
    unsigned int place[N];
    for (unsigned int i = 0; i < N; ++i)
        place[o[i]] = i;
    for (unsigned int b = 0; b < B; ++b)
        for (unsigned int i = begin[b]; i < begin[b + 1]; ++i) {
            assert_int_equal(block_of[list[i]], b);
            assert_int_equal(pos[list[i]], i - begin[b]);
            if (i > begin[b])
                assert_true(place[list[i - 1]] < place[list[i]]);
        }
    /* loads: 10 tasks of cost 1 (one of them 5) over 3 blocks: block 2 takes the
     * heavy one and at most one more */
    assert_true(begin[3] - begin[2] <= 2);
}

/* A record describes the copies of the task `stages` places later. */
static void test_records_ahead(void **state)
{
    (void)state;
    static char buffer[1 << 16] __attribute__((aligned(16)));
    enum { N = 4 };
    gs_task_desc t[N];
    for (unsigned int i = 0; i < N; ++i) {
        t[i] = task(i);
        t[i].inputs[t[i].ninputs++] = (gs_task_range){buffer + 1024 * i, 256};
    }
    t[3].inputs[0].ptr = buffer + 3; /* not aligned: copied by threads */
    unsigned int list[N] = {0, 1, 2, 3}, begin[2] = {0, N}, period[1] = {0};
    gs_task_record r[N];
    gs__task_records(t, list, N, begin, 1, period, 2, r);
    assert_int_equal(sizeof r[0], GS_TASK_RECORD_BYTES);
    assert_int_equal(r[0].input_offset[0], 0); /* inputs first, the record at the end */
    assert_int_equal(r[0].ahead_valid, 1);
    assert_int_equal(r[0].ahead_n, 1);
    assert_int_equal(r[0].ahead_src[0], (unsigned long long)(uintptr_t)(buffer + 2048));
    assert_int_equal(r[0].ahead_bytes, GS_TASK_RECORD_BYTES + 256);
    assert_int_equal(r[1].ahead_n, 0); /* task 3 brings only its record */
    assert_int_equal(r[1].ahead_bytes, GS_TASK_RECORD_BYTES);
    assert_int_equal(r[3].flags & GS_TASK_COPY_BY_THREADS, GS_TASK_COPY_BY_THREADS);
    assert_int_equal(r[2].ahead_valid, 0);
    assert_int_equal(r[3].ahead_valid, 0);
}

/* Order, lists and records of a small plan (at most 16 tasks and counters)
 * with stages of 2, as gs_task_plan_build makes them; `list`, `begin`
 * (blocks + 1) and `pos` as gs__task_lists gives them. */
static void build_records(const gs_task_desc *t, unsigned int n, unsigned int nc,
                          unsigned int blocks, unsigned int *begin, unsigned int *list,
                          unsigned int *pos, gs_task_record *r)
{
    unsigned int o[16], period[16], block_of[16];
    char why[256];
    assert_true(n <= 16 && nc <= 16);
    assert_int_equal(gs__task_order(t, n, nc, o, period, why, sizeof why), GS_SUCCESS);
    gs__task_lists(t, n, o, blocks, begin, list, block_of, pos);
    gs__task_records(t, list, n, begin, blocks, period, 2, r);
}

/* Waits the block's own earlier tasks satisfy are marked in its records;
 * the others are not, and every wait stays. Block 0 runs tasks 0, 1, 3;
 * block 1 task 2. Counter 0 gets 1 from task 0 (block 0) and 1 from task
 * 2 (block 1). */
static void test_own_waits_marked(void **state)
{
    (void)state;
    enum { N = 4, B = 2, C = 3 };
    gs_task_desc t[N];
    for (unsigned int i = 0; i < N; ++i)
        t[i] = task(i);
    post_to(&t[0], 0, 1);
    wait_on(&t[1], 2, 1);  /* posted by task 2 (block 1): polled */
    wait_on(&t[1], 0, 1);  /* task 0 posted 1 on this block: own */
    post_to(&t[1], 1, 2);
    post_to(&t[2], 0, 1);
    post_to(&t[2], 2, 1);
    wait_on(&t[2], 0, 1);  /* block 1 posted nothing before: polled */
    wait_on(&t[3], 1, 2);  /* task 1's 2: own */
    wait_on(&t[3], 0, 2);  /* block 0 posted 1 of the 2: polled */
    t[0].block = t[1].block = t[3].block = 1;
    t[2].block = 2;
    unsigned int begin[B + 1], list[N], pos[N];
    gs_task_record r[N];
    build_records(t, N, C, B, begin, list, pos, r);
    unsigned long long own[C] = {0, 0, 0};
    gs__task_mark_own_waits(t, list, begin, B, own, r);
    for (unsigned int c = 0; c < C; ++c)
        assert_int_equal(own[c], 0); /* zeros again */
    const gs_task_record *r0 = r + begin[0] + pos[0], *r1 = r + begin[0] + pos[1];
    const gs_task_record *r2 = r + begin[1] + pos[2], *r3 = r + begin[0] + pos[3];
    assert_int_equal(r0->wait_own, 0);
    assert_int_equal(r1->nwaits, 2);
    assert_int_equal(r1->wait_own, 2); /* wait 1 */
    assert_int_equal(r2->nwaits, 1);
    assert_int_equal(r2->wait_own, 0);
    assert_int_equal(r3->nwaits, 2);
    assert_int_equal(r3->wait_own, 1); /* wait 0 */
    assert_int_equal(r3->wait_counter[1], 0);
    assert_int_equal(r3->wait_value[1], 2);
}

/* An own wait ends the deferral before it: block 0 runs T0 (posts c) and
 * T1 (waits c >= 1, its own, posts c), block 1 T2 (waits c >= 1). T0 would
 * defer its post to T1's (same counters); since T1 does not wait, T0 posts
 * at its end, so T2 need not wait for T1. */
static void test_own_wait_ends_deferral(void **state)
{
    (void)state;
    enum { N = 3, B = 2, C = 1 };
    gs_task_desc t[N];
    for (unsigned int i = 0; i < N; ++i)
        t[i] = task(i);
    post_to(&t[0], 0, 1);
    wait_on(&t[1], 0, 1);
    post_to(&t[1], 0, 1);
    wait_on(&t[2], 0, 1);
    post_to(&t[2], 0, 1);
    t[0].block = t[1].block = 1;
    t[2].block = 2;
    unsigned int begin[B + 1], list[N], pos[N];
    gs_task_record r[N];
    build_records(t, N, C, B, begin, list, pos, r);
    gs_task_record *r0 = r + begin[0] + pos[0], *r1 = r + begin[0] + pos[1];
    assert_int_equal(r0->flags & GS_TASK_DEFER_POSTS, GS_TASK_DEFER_POSTS); /* before */
    unsigned long long own[C] = {0};
    gs__task_mark_own_waits(t, list, begin, B, own, r);
    assert_int_equal(r1->wait_own, 1);
    assert_int_equal(r0->flags & GS_TASK_DEFER_POSTS, 0);
}

/* A plan of 4 blocks, a chain through them: block 1's task 5 never finished
 * (its block left the kernel inside it); blocks 2 and 3 waited behind it,
 * and block 3's wait timed out first. The sentence names task 5. */
static void test_cause_names_the_block_that_left(void **state)
{
    (void)state;
    enum { N = 8, B = 4 };
    gs_task_desc t[N];
    for (unsigned int i = 0; i < N; ++i) {
        t[i] = task(i % 3);
        if (i > 0)
            wait_on(&t[i], i - 1, 1);
        post_to(&t[i], i, 1);
        t[i].block = (int)(i % B) + 1; /* task i on block i mod 4 */
    }
    struct gs_task_plan p;
    memset(&p, 0, sizeof p);
    unsigned int o[N], period[N], begin[B + 1], list[N], block_of[N], pos[N];
    char why[256];
    assert_int_equal(gs__task_order(t, N, N, o, period, why, sizeof why), GS_SUCCESS);
    gs__task_lists(t, N, o, B, begin, list, block_of, pos);
    p.tasks = t;
    p.ntasks = N;
    p.ncounters = N;
    p.blocks = B;
    p.order = o;
    p.period = period;
    p.list_begin = begin;
    p.list = list;
    p.block_of = block_of;
    p.position = pos;
    p.timeout_ns = 200000000ull;
    /* tasks 0-4 done; block 1 stopped inside task 5 (its second);
     * block 2 waits at task 6 for counter 5; block 3 at task 7 for counter 6 */
    unsigned int st[B * GS_TASK_BLOCK_WORDS];
    memset(st, 0, sizeof st);
    st[0 * GS_TASK_BLOCK_WORDS + GS_TB_DONE] = 2; /* tasks 0, 4 */
    st[0 * GS_TASK_BLOCK_WORDS + GS_TB_EXIT] = GS_TASK_EXIT_FINISHED;
    st[1 * GS_TASK_BLOCK_WORDS + GS_TB_DONE] = 1; /* task 1; in task 5 */
    st[1 * GS_TASK_BLOCK_WORDS + GS_TB_EXIT] = GS_TASK_EXIT_NONE;
    unsigned int *s2 = st + 2 * GS_TASK_BLOCK_WORDS, *s3 = st + 3 * GS_TASK_BLOCK_WORDS;
    s2[GS_TB_DONE] = 1;
    s2[GS_TB_EXIT] = GS_TASK_EXIT_WAITING;
    s2[GS_TB_COUNTER] = 5;
    s2[GS_TB_SEEN] = 0;
    s2[GS_TB_NEEDED] = 1;
    s3[GS_TB_DONE] = 1;
    s3[GS_TB_EXIT] = GS_TASK_EXIT_WAITING;
    s3[GS_TB_COUNTER] = 6;
    s3[GS_TB_SEEN] = 0;
    s3[GS_TB_NEEDED] = 1;
    unsigned int rec[GS_LINE_WORDS];
    memset(rec, 0, sizeof rec);
    rec[GS_REC_FLAG] = 1;
    rec[GS_REC_KIND] = GS_REC_KIND_WAIT_TIMEOUT;
    rec[GS_REC_OBSERVER] = 3;
    rec[GS_REC_BARRIER] = 7;
    unsigned int counters[N] = {1, 1, 1, 1, 1, 0, 0, 0};
    gs__task_snapshot snap = {rec, st, counters};
    char msg[1024];
    gs__task_cause(&p, &snap, msg, sizeof msg);
    assert_non_null(strstr(msg, "task 5 (op 2, block 1, the 2nd of its 2) never finished: its "
                                "block left the kernel while running it"));
    assert_non_null(strstr(msg, "waiting on it: task 6 (op 0, block 2, the 2nd of its 2) "
                                "waited for counter 5 >= 1 (saw 0) <- task 7"));
    assert_non_null(strstr(msg, "(time-out 0.2 s)"));
    /* the victim is not named as the cause */
    assert_null(strstr(msg, "task 7 (op 1, block 3, the 2nd of its 2) never"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_of_a_chain_added_backwards),
        cmocka_unit_test(test_order_keeps_the_order_added),
        cmocka_unit_test(test_wait_beyond_every_post_is_refused),
        cmocka_unit_test(test_cycle_is_named),
        cmocka_unit_test(test_stuck_poster_is_followed),
        cmocka_unit_test(test_counter_total_overflow),
        cmocka_unit_test(test_input_written_by_a_task_is_refused),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_records_ahead),
        cmocka_unit_test(test_own_waits_marked),
        cmocka_unit_test(test_own_wait_ends_deferral),
        cmocka_unit_test(test_cause_names_the_block_that_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
