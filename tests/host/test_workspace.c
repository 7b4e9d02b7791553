/*
 * test_workspace.c - the workspace pool (src/runtime/workspace.c) on the
 * stubbed CUDA runtime (cuda_stub.h): calls from two host threads on one
 * stream, whose kernels reach the stream in the order the threads launch
 * them, not the order they acquired the workspace; freeing workspaces
 * whose kernels are still running, or never ran; and the fault records of
 * calls that gave up (gridsync/detail/core/fault_record.h), which belong to the
 * stream whose call raised them.
 *
 * A "kernel" here is the stub's: its effect is the reduction kernel's last
 * access, the store of its call's number into the done word (ticket[1]),
 * when it finishes; a held kernel is still running.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include <gridsync/detail/core/fault_record.h>

#include "../../internal/gridsync_internal.h"
#include "../../src/runtime/workspace.h"
#include "cuda_stub.h"
#include "host_threads.h"

enum { SLOW_MS = 2000 }; /* longer than any prompt call here, far shorter than a stuck one */

/* The reduction kernel's last access: its number into the done word. */
typedef struct done_store {
    unsigned int *ticket;
    unsigned int seq;
} done_store;

static void store_done(void *arg)
{
    done_store *d = arg;
    d->ticket[1] = d->seq;
}

static gs__ws_request reduction(cudaStream_t s)
{
    return gs__ws_request_for(s, 0, 0, "reduction");
}

/* A whole reduction call on `s`: acquire, launch (held or not), release. */
static stub_op *reduce_call(cudaStream_t s, done_store *d, int held)
{
    gs__ws_lease lease;
    gs__ws_request rq = reduction(s);
    assert_int_equal(gs__ws_acquire(&rq, &lease), GS_SUCCESS);
    *d = (done_store){lease.ticket, lease.seq};
    stub_op *op = stub_launch(s, store_done, d, held);
    assert_int_equal(gs__ws_release(&lease, s, GS_SUCCESS), GS_SUCCESS);
    return op;
}

/* Every test starts with an empty pool and a stream of its own. */
static cudaStream_t fresh_start(void)
{
    cudaStream_t s;
    gs_reduce_release_workspaces();
    stub_reset();
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    return s;
}

/* ------------------------------------------------ two threads, one stream */

/* Thread A acquires first; thread B acquires while A still holds the
 * workspace if the pool lets it (it should not: B would get the next
 * number, launch first, and A's kernel, with the older number, would end
 * the stream's calls). */
typedef struct race {
    cudaStream_t stream;
    int hold_a;          /* A's kernel stays running */
    sem_t a_acquired, b_acquired, b_launched;
    done_store a, b;
    stub_op *a_kernel;
    unsigned int *a_ticket;
} race;

static void *thread_b(void *arg)
{
    race *r = arg;
    gs__ws_lease lease;
    gs__ws_request rq = reduction(r->stream);
    sem_wait(&r->a_acquired);
    if (gs__ws_acquire(&rq, &lease) != GS_SUCCESS)
        return NULL;
    sem_post(&r->b_acquired);
    r->b = (done_store){lease.ticket, lease.seq};
    stub_launch(r->stream, store_done, &r->b, 0);
    sem_post(&r->b_launched);
    gs__ws_release(&lease, r->stream, GS_SUCCESS);
    return NULL;
}

static void run_race(race *r)
{
    pthread_t b;
    gs__ws_lease lease;
    gs__ws_request rq = reduction(r->stream);
    sem_init(&r->a_acquired, 0, 0);
    sem_init(&r->b_acquired, 0, 0);
    sem_init(&r->b_launched, 0, 0);
    assert_int_equal(pthread_create(&b, NULL, thread_b, r), 0);
    assert_int_equal(gs__ws_acquire(&rq, &lease), GS_SUCCESS);
    r->a_ticket = lease.ticket;
    sem_post(&r->a_acquired);
    if (wait_ms(&r->b_acquired, 300)) /* B was let in while A holds it: B launches first */
        sem_wait(&r->b_launched);
    r->a = (done_store){lease.ticket, lease.seq};
    r->a_kernel = stub_launch(r->stream, store_done, &r->a, r->hold_a);
    assert_int_equal(gs__ws_release(&lease, r->stream, GS_SUCCESS), GS_SUCCESS);
    pthread_join(b, NULL);
}

/* A workspace whose last launched kernel is still running is never handed
 * to another stream, whatever order the threads launched in. */
static void test_no_recycling_under_a_running_kernel(void **state)
{
    (void)state;
    race r = {0};
    cudaStream_t others[GS_WS_CACHE_SIZE];
    done_store done[GS_WS_CACHE_SIZE];
    r.stream = fresh_start();
    r.hold_a = 1;
    run_race(&r);
    /* the cache full of idle workspaces, r.stream's the least recently used */
    for (int i = 0; i < GS_WS_CACHE_SIZE - 1; ++i) {
        assert_int_equal(cudaStreamCreate(&others[i]), cudaSuccess);
        reduce_call(others[i], &done[i], 0);
    }
    assert_int_equal(gs__ws_cached_count(), GS_WS_CACHE_SIZE);
    /* a new stream: the pool recycles an idle workspace */
    cudaStream_t fresh;
    gs__ws_lease lease;
    assert_int_equal(cudaStreamCreate(&fresh), cudaSuccess);
    gs__ws_request rq = reduction(fresh);
    assert_int_equal(gs__ws_acquire(&rq, &lease), GS_SUCCESS);
    int reused = lease.ticket == r.a_ticket;
    done_store mine = {lease.ticket, lease.seq};
    stub_launch(fresh, store_done, &mine, 0);
    gs__ws_release(&lease, fresh, GS_SUCCESS);
    stub_finish(r.a_kernel);
    if (reused)
        fail_msg("the workspace of a stream whose kernel (call #%u) was still running went to "
                 "another stream: call #%u, launched first, had stored its number",
                 r.a.seq, r.b.seq);
    gs_reduce_release_workspaces();
    assert_int_equal(stub_live_allocations(), 0);
}

/* gs_reduce_release_workspaces in a thread of its own (host_call). */
static void release_all(void *arg)
{
    (void)arg;
    gs_reduce_release_workspaces();
}

/* After the releasing call has returned: every device allocation is
 * freed. */
static void end_releasing(host_call *rel)
{
    host_call_done(rel, 0);
    gs_reduce_release_workspaces();
    assert_int_equal(stub_live_allocations(), 0);
}

/* A reduction on another stream, in a thread of its own. */
typedef struct bystander {
    cudaStream_t stream;
    done_store d;
} bystander;

static void call_elsewhere(void *arg)
{
    bystander *b = arg;
    reduce_call(b->stream, &b->d, 0);
}

/* A call on another stream goes through within SLOW_MS while workspaces
 * are being freed (it must not wait for the global lock). */
static void assert_others_proceed(const char *while_what)
{
    bystander by;
    host_call c;
    assert_int_equal(cudaStreamCreate(&by.stream), cudaSuccess);
    host_call_start(&c, call_elsewhere, &by);
    if (!host_call_done(&c, SLOW_MS))
        fail_msg("a reduction on another stream waited more than %d ms while %s", SLOW_MS,
                 while_what);
}

/* Two threads' calls whose kernels reached the stream in the other order:
 * both ran, so the workspace is done, and freeing it is prompt. */
static void test_done_whatever_the_launch_order(void **state)
{
    (void)state;
    race r = {0};
    host_call rel;
    r.stream = fresh_start();
    run_race(&r);
    double start = now_ms();
    host_call_start(&rel, release_all, NULL);
    sleep_ms(100);
    assert_others_proceed("gs_reduce_release_workspaces freed a workspace whose kernels had run");
    if (!host_call_done(&rel, SLOW_MS))
        fail_msg("gs_reduce_release_workspaces waited more than %d ms for a workspace whose "
                 "kernels (calls #%u and #%u) had both run",
                 SLOW_MS, r.a.seq, r.b.seq);
    print_message("released in %.0f ms\n", now_ms() - start);
    end_releasing(&rel);
}

/* Freeing a workspace whose kernel is still running waits for it, without
 * holding up other streams' calls, and frees it once it has finished. */
static void test_release_waits_outside_the_lock(void **state)
{
    (void)state;
    host_call rel;
    done_store d;
    cudaStream_t s = fresh_start();
    stub_op *running = reduce_call(s, &d, 1);
    host_call_start(&rel, release_all, NULL);
    sleep_ms(100);
    assert_others_proceed("gs_reduce_release_workspaces waited for a running kernel");
    assert_false(host_call_done(&rel, 100)); /* still waiting for the kernel */
    stub_finish(running);
    if (!host_call_done(&rel, SLOW_MS))
        fail_msg("gs_reduce_release_workspaces did not return once the kernel had finished");
    end_releasing(&rel);
}

/* A reduction that launched nothing (its launch failed) is no call the
 * workspace waits for. */
static void test_failed_launch_is_not_waited_for(void **state)
{
    (void)state;
    host_call rel;
    done_store d;
    gs__ws_lease lease;
    cudaStream_t s = fresh_start();
    reduce_call(s, &d, 0);
    gs__ws_request rq = reduction(s);
    assert_int_equal(gs__ws_acquire(&rq, &lease), GS_SUCCESS);
    assert_int_equal(gs__ws_release(&lease, s, GS_ERR_CUDA), GS_ERR_CUDA);
    host_call_start(&rel, release_all, NULL);
    if (!host_call_done(&rel, SLOW_MS))
        fail_msg("gs_reduce_release_workspaces waited for call #%u, whose launch had failed",
                 lease.seq);
    end_releasing(&rel);
}

/* ------------------------------------------------------ fault records */

/* A scan-like call's kernel that gives up: what scan_record_fault
 * (gridsync/detail/scan/scan_tile_state.cuh) does to its stream's record. */
typedef struct giving_up {
    unsigned int *record;
    unsigned int call, tile, tiles;
} giving_up;

static void record_fault(void *arg)
{
    giving_up *g = arg;
    if (g->record[GS_FAULT_FLAG] == 0u) {
        g->record[GS_FAULT_CALL] = g->call;
        g->record[GS_FAULT_WHERE] = g->tile;
        g->record[GS_FAULT_OF] = g->tiles;
        g->record[GS_FAULT_FLAG] = 1u;
    } else {
        g->record[GS_FAULT_LATER] += 1u;
    }
}

/* A counted call that may record a fault on `s`: its one block counts out;
 * when `g` is not NULL the kernel gives up first. */
typedef struct counted_call {
    unsigned int *ticket;
    giving_up g;
    int gives_up;
} counted_call;

static void count_out(void *arg)
{
    counted_call *c = arg;
    if (c->gives_up)
        record_fault(&c->g);
    c->ticket[2] += 1u;
}

static void scan_call(cudaStream_t s, counted_call *c, int gives_up)
{
    gs__ws_lease lease;
    gs__ws_request rq = gs__ws_request_for(s, 0, 0, "scan");
    rq.counted = 1;
    rq.tagged_bytes = 64;
    rq.faults = 1;
    assert_int_equal(gs__ws_acquire(&rq, &lease), GS_SUCCESS);
    assert_non_null(lease.fault);
    *c = (counted_call){lease.ticket, {lease.fault, lease.seq, 1u, 2u}, gives_up};
    stub_launch(s, count_out, c, 0);
    assert_int_equal(gs__ws_release(&lease, s, GS_SUCCESS), GS_SUCCESS);
}

/* What gs_scan_check(s) reads: the stream's fault, taken. */
static int take(cudaStream_t s, gs__ws_fault *f)
{
    gs__ws_lease held;
    int found = 0;
    assert_int_equal(gs__ws_find(s, 0, &held, &found), GS_SUCCESS);
    if (!found)
        return 0;
    int any = gs__ws_fault_take(&held, f);
    gs__ws_release(&held, s, GS_SUCCESS);
    return any;
}

/* A fault belongs to the stream whose call raised it: the other stream
 * reports nothing, the faulting one reports its call, once. */
static void test_faults_belong_to_their_stream(void **state)
{
    (void)state;
    counted_call a1, b1;
    gs__ws_fault f;
    cudaStream_t a = fresh_start(), b;
    assert_int_equal(cudaStreamCreate(&b), cudaSuccess);
    scan_call(a, &a1, 1);
    scan_call(b, &b1, 0);
    assert_false(take(b, &f));
    assert_true(take(a, &f));
    assert_true(f.described);
    assert_int_equal(f.call, a1.g.call);
    assert_int_equal(f.where, 1u);
    assert_int_equal(f.of, 2u);
    assert_int_equal(f.later, 0u);
    assert_false(take(a, &f)); /* reported once */
    gs_reduce_release_workspaces();
    assert_int_equal(stub_live_allocations(), 0);
}

/* A second fault before the first is reported keeps the first and is
 * counted; one after the report is described. */
static void test_second_fault_kept(void **state)
{
    (void)state;
    counted_call c1, c2, c3;
    gs__ws_fault f;
    cudaStream_t s = fresh_start();
    scan_call(s, &c1, 1);
    scan_call(s, &c2, 1);
    assert_true(take(s, &f));
    assert_true(f.described);
    assert_int_equal(f.call, c1.g.call);
    assert_int_equal(f.later, 1u);
    assert_false(take(s, &f));
    scan_call(s, &c3, 1);
    assert_true(take(s, &f));
    assert_int_equal(f.call, c3.g.call);
    assert_int_equal(f.later, 0u);
    gs_reduce_release_workspaces();
    assert_int_equal(stub_live_allocations(), 0);
}

/* A stream's unreported fault keeps its workspace from being recycled to
 * another stream (it would be reported there, or lost). */
static void test_unreported_fault_stays_with_its_stream(void **state)
{
    (void)state;
    counted_call c;
    done_store done[GS_WS_CACHE_SIZE];
    gs__ws_fault f;
    cudaStream_t s = fresh_start(), fresh;
    scan_call(s, &c, 1);
    for (int i = 0; i < GS_WS_CACHE_SIZE - 1; ++i) {
        cudaStream_t other;
        assert_int_equal(cudaStreamCreate(&other), cudaSuccess);
        reduce_call(other, &done[i], 0);
    }
    assert_int_equal(cudaStreamCreate(&fresh), cudaSuccess);
    done_store mine;
    reduce_call(fresh, &mine, 0);
    assert_ptr_not_equal(mine.ticket, c.ticket);
    assert_true(take(s, &f));
    assert_int_equal(f.call, c.g.call);
    gs_reduce_release_workspaces();
    assert_int_equal(stub_live_allocations(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_recycling_under_a_running_kernel),
        cmocka_unit_test(test_done_whatever_the_launch_order),
        cmocka_unit_test(test_release_waits_outside_the_lock),
        cmocka_unit_test(test_failed_launch_is_not_waited_for),
        cmocka_unit_test(test_faults_belong_to_their_stream),
        cmocka_unit_test(test_second_fault_kept),
        cmocka_unit_test(test_unreported_fault_stays_with_its_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
