/*
 * test_barrier_host.c - the host side of grid barriers (src/barrier) on the
 * stubbed CUDA runtime (cuda_stub.h), where a launch's kernel can be held
 * running: gs_barrier_destroy and gs_barrier_check wait for graph replays
 * of captured launches; gs_barrier_check waits without the barrier's lock,
 * so that a launch meanwhile returns GS_ERR_BUSY at once; the setters take
 * the lock (they wait for a launch under way).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gridsync.h"
#include <gridsync/detail/barrier/barrier_layout.h>

#include "cuda_stub.h"
#include "host_threads.h"

enum { PROMPT_MS = 2000, STILL_MS = 200 };

/* Any non-NULL handle: the stub's driver launches nothing real. */
#define KERNEL ((cudaFunction_t)(uintptr_t)0x1000)

static gs_barrier_t barrier_new(void)
{
    gs_barrier_t b = NULL;
    stub_reset();
    assert_int_equal(gs_barrier_create(&b, GS_BARRIER_AUTO), GS_SUCCESS);
    return b;
}

static cudaStream_t stream_new(void)
{
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    return s;
}

static gs_status launch_on(gs_barrier_t b, cudaStream_t s)
{
    void *args[1] = {NULL};
    dim3 grid = {4, 1, 1}, block = {32, 1, 1};
    return gs_launch_func(KERNEL, grid, block, 0, s, args, b);
}

/* A graph that captured a launch of `b`, replayed once on `s` with its
 * kernel held running: the held kernel. */
static stub_op *replay_held(gs_barrier_t b, cudaStream_t s)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    assert_int_equal(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    assert_int_equal(launch_on(b, s), GS_SUCCESS);
    assert_int_equal(cudaStreamEndCapture(s, &graph), cudaSuccess);
    assert_int_equal(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    stub_hold_next(1);
    assert_int_equal(cudaGraphLaunch(exec, s), cudaSuccess);
    stub_op *op = stub_held(0);
    assert_non_null(op);
    return op;
}

/* A library call in a thread of its own (host_call). */
typedef struct task {
    gs_status (*run)(struct task *);
    gs_barrier_t b;
    cudaStream_t s;
    gs_status st;
    char detail[256]; /* gs_last_error_detail() of its thread */
    host_call call;
} task;

static void task_run(void *arg)
{
    task *t = arg;
    t->st = t->run(t);
    snprintf(t->detail, sizeof t->detail, "%s", gs_last_error_detail());
}

static void task_start(task *t, gs_status (*run)(task *), gs_barrier_t b, cudaStream_t s)
{
    t->run = run;
    t->b = b;
    t->s = s;
    t->st = GS_ERR_INTERNAL;
    host_call_start(&t->call, task_run, t);
}

static int task_done(task *t, int ms) { return host_call_done(&t->call, ms); }

static gs_status run_destroy(task *t) { return gs_barrier_destroy(t->b); }
static gs_status run_check(task *t) { return gs_barrier_check(t->b, t->s); }
static gs_status run_launch(task *t) { return launch_on(t->b, t->s); }
static gs_status run_set_timeout(task *t) { return gs_barrier_set_timeout(t->b, 1.5); }
static gs_status run_set_tree(task *t) { return gs_barrier_set_tree_params(t->b, 64, 16); }

/* ------------------------------------------------------------- the tests */

/* `run` on a barrier whose graph replay is running must not return until
 * the replay has finished. */
static void assert_waits_for_replay(gs_status (*run)(task *), const char *what)
{
    task t;
    gs_barrier_t b = barrier_new();
    stub_op *running = replay_held(b, stream_new());
    task_start(&t, run, b, stream_new()); /* another stream than the replay's */
    if (task_done(&t, STILL_MS))
        fail_msg("%s while a graph replay using the barrier was still running", what);
    stub_finish(running);
    assert_true(task_done(&t, PROMPT_MS));
    assert_int_equal(t.st, GS_SUCCESS);
    if (run != run_destroy)
        assert_int_equal(gs_barrier_destroy(b), GS_SUCCESS);
}

static void test_destroy_waits_for_graph_replay(void **state)
{
    (void)state;
    assert_waits_for_replay(run_destroy, "gs_barrier_destroy freed the barrier");
}

static void test_check_waits_for_graph_replay(void **state)
{
    (void)state;
    assert_waits_for_replay(run_check, "gs_barrier_check read (and could re-arm) the state");
}

/* While a check waits for the barrier's running launch, a launch (on
 * another stream or on the same) and a second check return GS_ERR_BUSY at
 * once; after the check, launches go through again. */
static void test_launch_during_check_is_busy(void **state)
{
    (void)state;
    task check, other;
    gs_barrier_t b = barrier_new();
    cudaStream_t s1 = stream_new(), s2 = stream_new();
    stub_hold_next(1);
    assert_int_equal(launch_on(b, s1), GS_SUCCESS);
    stub_op *running = stub_held(0);
    assert_non_null(running);
    task_start(&check, run_check, b, s1);
    sleep_ms(100); /* the check is waiting for s1 */
    const cudaStream_t streams[2] = {s2, s1};
    for (int i = 0; i < 2; ++i) {
        task_start(&other, run_launch, b, streams[i]);
        if (!task_done(&other, PROMPT_MS))
            fail_msg("gs_launch waited behind gs_barrier_check (the barrier's lock held across "
                     "its stream synchronize) instead of returning GS_ERR_BUSY");
        assert_int_equal(other.st, GS_ERR_BUSY);
        assert_non_null(strstr(other.detail, "gs_barrier_check"));
    }
    task_start(&other, run_check, b, s2);
    assert_true(task_done(&other, PROMPT_MS));
    assert_int_equal(other.st, GS_ERR_BUSY);
    assert_false(task_done(&check, STILL_MS));
    stub_finish(running);
    assert_true(task_done(&check, PROMPT_MS));
    assert_int_equal(check.st, GS_SUCCESS);
    assert_int_equal(launch_on(b, s2), GS_SUCCESS);
    assert_int_equal(gs_barrier_destroy(b), GS_SUCCESS);
}

/* A launch under way holds the barrier's lock (inside the driver's launch
 * here): the setters wait for it instead of writing beside it. */
typedef struct gate {
    sem_t inside, go;
} gate;

static void hold_launch(void *arg)
{
    gate *g = arg;
    sem_post(&g->inside);
    wait_ms(&g->go, 10000);
}

static void test_setters_take_the_lock(void **state)
{
    (void)state;
    gate g;
    task launch, timeout, tree;
    gs_barrier_t b = barrier_new();
    sem_init(&g.inside, 0, 0);
    sem_init(&g.go, 0, 0);
    stub_set_launch_hook(hold_launch, &g);
    task_start(&launch, run_launch, b, stream_new());
    assert_true(wait_ms(&g.inside, PROMPT_MS));
    task_start(&timeout, run_set_timeout, b, NULL);
    task_start(&tree, run_set_tree, b, NULL);
    int early = task_done(&timeout, STILL_MS) + task_done(&tree, 0);
    sem_post(&g.go);
    assert_true(task_done(&launch, PROMPT_MS));
    assert_true(task_done(&timeout, PROMPT_MS));
    assert_true(task_done(&tree, PROMPT_MS));
    stub_set_launch_hook(NULL, NULL);
    if (early)
        fail_msg("%d setter%s wrote the barrier while a launch held its lock", early,
                 early == 1 ? "" : "s");
    assert_int_equal(launch.st, GS_SUCCESS);
    assert_int_equal(timeout.st, GS_SUCCESS);
    assert_int_equal(tree.st, GS_SUCCESS);
    gs_grid_barrier view;
    assert_int_equal(gs_barrier_device(b, 4, &view), GS_SUCCESS);
    assert_true(view.timeout_ns == 1500000000ull);
    assert_int_equal(view.flat_max, 64u);
    assert_int_equal(view.group_size, 16u);
    assert_int_equal(gs_barrier_destroy(b), GS_SUCCESS);
}

/* A neighbour barrier's time-out as gs_barrier_check reports it: the
 * record and every block's epoch read from the state (the stub's device
 * memory is the host's): the block furthest behind is named. */
static void test_neighbour_report_names_the_block_behind(void **state)
{
    (void)state;
    gs_barrier_t b = barrier_new();
    gs_grid_barrier view;
    const unsigned int blocks = 132, gen = 3;
    assert_int_equal(gs_barrier_device(b, blocks, &view), GS_SUCCESS);
    unsigned int *rec = view.state;
    unsigned long long *epochs = (unsigned long long *)(view.state + GS_W_EPOCHS(view.capacity));
    for (unsigned int i = 0; i < blocks; ++i) /* one 64-bit epoch at the start of each line */
        epochs[i * (GS_LINE_WORDS / 2u)] = (unsigned long long)gen << 32 | (i == 37u ? 10u : 12u);
    const unsigned int detail[5] = {38u, 12u, gen, 13u, gen};
    memcpy(rec + GS_REC_DETAIL, detail, sizeof detail);
    rec[GS_REC_BARRIER] = 13u;
    rec[GS_REC_BLOCKS] = blocks;
    rec[GS_REC_OBSERVER] = 39u;
    rec[GS_REC_KIND] = GS_REC_KIND_WAIT_TIMEOUT;
    rec[GS_REC_FLAG] = 1u;
    assert_int_equal(gs_barrier_check(b, stream_new()), GS_ERR_BARRIER_TIMEOUT);
    const char *detail_text = gs_last_error_detail();
    print_message("%s\n", detail_text);
    assert_non_null(strstr(detail_text, "neighbour barrier: block 37 fell behind: it arrived at 10 "
                                        "neighbour barriers of this launch, the other 131 blocks "
                                        "at 12;"));
    assert_int_equal(rec[GS_REC_FLAG], 0u); /* re-armed */
    assert_int_equal(gs_barrier_destroy(b), GS_SUCCESS);
}

int main(void)
{
    unsetenv("GRIDSYNC_BARRIER_TIMEOUT"); /* the setters' values must stick */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_destroy_waits_for_graph_replay),
        cmocka_unit_test(test_check_waits_for_graph_replay),
        cmocka_unit_test(test_launch_during_check_is_busy),
        cmocka_unit_test(test_setters_take_the_lock),
        cmocka_unit_test(test_neighbour_report_names_the_block_behind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
