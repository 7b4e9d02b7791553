/*
 * gridsync/detail/tasks/runner.cuh - how a block walks its list of tasks
 * (internal; the public names and their contract are in gridsync/tasks.cuh).
 *
 * How: the block's dynamic shared memory holds a header (one mbarrier per
 * stage) and `stages` stages. Task k of the block's list lives in stage
 * k mod stages: its record (gs_task_record, written by the host) and then its
 * independent inputs. At the start thread 0 issues the copies of the first
 * `stages` tasks; when a task ends, the block posts its counters, then
 * thread 0 issues the copies of the task `stages` places later into the
 * stage just freed (the record of the ending task says what they are, so no
 * global load stands between the post and the copies). Waiting for task k:
 * thread 0 waits for its stage's copies to land (mbarrier phase), then for
 * its counters (polls, then the watched slow path), then the block passes a
 * block barrier and runs the task. The copies of later tasks stream in the
 * whole time: a wait costs the memory system nothing.
 *
 * Why correct (PTX memory model, GPU scope): a task's posts are
 * red.release.gpu by thread 0 after a block barrier that every thread of the
 * block passes after its last access of the task: the barrier orders those
 * accesses before thread 0's release (CTA-scope synchronization), and the
 * release is cumulative, so all of them happen-before any access that comes
 * after an acquire which reads the post's value or a later one (the
 * counter's atomics form one release sequence). A waiter's thread 0 polls
 * the counter with ld.acquire.gpu (inline, then in gs__wait_slow_counter);
 * the poll that sees the target is the acquire, then the block passes a
 * block barrier: every thread's accesses of the task come after the acquire.
 * A counter value thread 0 acquired once stays acquired: a later task of the
 * same block waiting on the same counter for a value at or below it skips
 * the poll (the counters only grow within a launch), and a wait that the
 * block's own earlier tasks satisfy (their posts within the launch reach its
 * value: the host marks it, wait_own, lists.c) is not polled at all: those
 * tasks ran before on this block, behind block barriers, so their accesses
 * are ordered before the task's at CTA scope (the counter in memory may
 * still lag: their posts can be deferred, and go out no later than before
 * the block next blocks; the host ends a deferral just before an own wait,
 * so that the posts leave when they did when such a wait flushed them). The
 * stages: a copy completes a phase of its stage's mbarrier (bulk_copy.cuh);
 * thread 0 observes it with try_wait (acquire, CTA scope) and the block
 * barrier after it extends that to every thread. A stage is refilled only
 * after the block barrier that ends its task, and the copy is preceded by
 * fence.proxy.async.shared::cta (generic reads before async writes).
 * Epochs: counters only grow across launches. A launch's waits add
 * (launches this block finished) x (the counter's posts per launch) to the
 * plan's value; every block finishes each launch (or the host re-arms the
 * state after a time-out), so all blocks agree on the launch count.
 * Targets compare wrap-safe: (int)(counter - target) >= 0.
 */
#ifndef GRIDSYNC_DETAIL_TASKS_RUNNER_CUH
#define GRIDSYNC_DETAIL_TASKS_RUNNER_CUH

#include <gridsync/task_view.h>
#include <gridsync/detail/barrier/barrier_wait.cuh>
#include <gridsync/detail/core/bounded_wait.cuh>
#include <gridsync/detail/core/bulk_copy.cuh>

/* What a block knows while it walks its list (every thread holds a copy). */
typedef struct gs_task_runner {
    gs_task_view v;
    unsigned char *smem;         /* the block's dynamic shared memory */
    unsigned int pos, end;       /* the next task's place in the records; the list's end */
    unsigned int begin, epoch, rank;
    unsigned int slot, parity;   /* the next task's stage and its mbarrier's phase parity */
    unsigned int seen_counter;   /* thread 0: the counter last acquired, and its value */
    unsigned int seen_value;
    unsigned int pend_n;         /* thread 0: posts deferred (GS_TASK_DEFER_POSTS) */
    unsigned int pend_counter[GS_TASK_MAX_POSTS], pend_delta[GS_TASK_MAX_POSTS];
} gs_task_runner;

/* The task a block runs now (gs_task_next fills it). */
typedef struct gs_task {
    const gs_task_record *rec; /* in the stage */
    unsigned char *stage;
    unsigned int op, id;
} gs_task;

/* The thread that issues the stages' copies: lane 0 of warp 1 (thread 0
 * where the block has one warp). Not thread 0, which posts: a release
 * orders the posting thread's earlier memory operations, and the copies
 * should stay out of that. */
GS_DEVICE unsigned int gs__task_copy_thread(void) { return gs__block_threads() > 32u ? 32u : 0u; }

/* The header's word through which thread 0 tells the block to leave. */
#define GS__TASK_LEAVE_WORD (GS_TASK_MAX_STAGES * 2u)

GS_DEVICE unsigned long long *gs__task_bars(const gs_task_runner *r)
{
    return (unsigned long long *)r->smem;
}

GS_DEVICE unsigned char *gs__task_stage(const gs_task_runner *r, unsigned int slot)
{
    return r->smem + GS_TASK_SMEM_HEADER + (unsigned long long)slot * r->v.stage_bytes;
}

/* A stage's record: its last GS_TASK_RECORD_BYTES (its inputs start at the
 * stage's beginning, 128-byte aligned). */
GS_DEVICE gs_task_record *gs__task_record_in(const gs_task_runner *r, unsigned char *stage)
{
    return (gs_task_record *)(stage + r->v.stage_bytes - GS_TASK_RECORD_BYTES);
}

GS_DEVICE unsigned int *gs__task_block_word(const gs_task_runner *r, unsigned int w)
{
    return r->v.block_state + (unsigned long long)r->rank * GS_TASK_BLOCK_WORDS + w;
}

/* All threads: copy `bytes` from global `src` into the stage at `dst`
 * (16-byte aligned), 16 bytes at a time where the source allows it. */
GS_DEVICE void gs__task_copy_by_threads(unsigned char *dst, const unsigned char *src,
                                        unsigned int bytes)
{
    const unsigned int t = gs__thread_rank(), n = gs__block_threads();
    if (((unsigned long long)src & 15u) == 0u) {
        for (unsigned int i = t; i < bytes / 16u; i += n)
            ((uint4 *)dst)[i] = __ldg((const uint4 *)src + i);
        for (unsigned int i = bytes / 16u * 16u + t; i < bytes; i += n)
            dst[i] = src[i];
    } else {
        for (unsigned int i = t; i < bytes; i += n)
            dst[i] = src[i];
    }
}

#if GS_HAS_BULK_COPY
/* Thread 0, at the start: the copies of the task at records[pos] into
 * `slot`, read from the record in global memory. */
GS_DEVICE void gs__task_issue_first(const gs_task_runner *r, unsigned int pos, unsigned int slot)
{
    const gs_task_record *g = r->v.records + pos;
    unsigned char *stage = gs__task_stage(r, slot);
    unsigned long long *bar = gs__task_bars(r) + slot;
    const unsigned int n = __ldg(&g->ninputs);
    const int own = (__ldg(&g->flags) & GS_TASK_COPY_BY_THREADS) == 0u;
    unsigned int bytes = GS_TASK_RECORD_BYTES;
    for (unsigned int i = 0; own && i < n; ++i)
        bytes += __ldg(&g->input_bytes[i]);
    gs::detail::bulk_barrier_expect(bar, bytes);
    gs::detail::bulk_copy_counted(gs__task_record_in(r, stage), g, GS_TASK_RECORD_BYTES, bar);
    for (unsigned int i = 0; own && i < n; ++i)
        gs::detail::bulk_copy_counted(stage + __ldg(&g->input_offset[i]),
                                      (const void *)__ldg(&g->input_src[i]),
                                      __ldg(&g->input_bytes[i]), bar);
}

/* The copy thread, when the task in `slot` ends: the copies of the task `stages`
 * places later, as the ending task's record lists them. The record is read
 * whole before the first copy is issued: the copies overwrite it. */
GS_DEVICE void gs__task_issue_ahead(const gs_task_runner *r, const gs_task_record *rec,
                                    unsigned int pos)
{
    if (!rec->ahead_valid)
        return;
    const unsigned int n = rec->ahead_n, bytes = rec->ahead_bytes;
    unsigned long long src[GS_TASK_MAX_INPUTS];
    unsigned int len[GS_TASK_MAX_INPUTS], dst[GS_TASK_MAX_INPUTS];
#pragma unroll
    for (unsigned int i = 0; i < GS_TASK_MAX_INPUTS; ++i) {
        src[i] = rec->ahead_src[i];
        len[i] = rec->ahead_len[i];
        dst[i] = rec->ahead_dst[i];
    }
    unsigned char *stage = gs__task_stage(r, r->slot);
    unsigned long long *bar = gs__task_bars(r) + r->slot;
    gs::detail::bulk_barrier_expect(bar, bytes);
#pragma unroll
    for (unsigned int i = 0; i < GS_TASK_MAX_INPUTS; ++i)
        if (i < n)
            gs::detail::bulk_copy_counted(stage + dst[i], (const void *)src[i], len[i], bar);
    gs::detail::bulk_copy_counted(gs__task_record_in(r, stage), r->v.records + pos + r->v.stages,
                                  GS_TASK_RECORD_BYTES, bar);
}
#endif

/* Thread 0: a wait gave up; say where, for the host's report (`words`:
 * the block's words of the plan's state). The out-of-line helpers take
 * values, never the runner: a runner whose address reached a call would
 * live in local memory, and every field the hot path touches would be a
 * local load or store (measured: a hand-off 1.17 -> 1.07 us once they took
 * values). */
static __device__ __noinline__ void gs__task_left(unsigned int *words, unsigned int how,
                                                  unsigned int counter, unsigned int seen,
                                                  unsigned int needed)
{
    gs__st_relaxed_gpu(words + GS_TB_COUNTER, counter);
    gs__st_relaxed_gpu(words + GS_TB_SEEN, seen);
    gs__st_relaxed_gpu(words + GS_TB_NEEDED, needed);
    gs__st_relaxed_gpu(words + GS_TB_EXIT, how);
}

#if GS_HAS_BULK_COPY
/* Thread 0: wait for the stage's copies (bounded: a copy that never lands
 * would be a fault, but no wait here is unbounded). 1: landed. */
static __device__ __noinline__ int gs__task_stage_wait_slow(unsigned long long *bar,
                                                            unsigned int parity,
                                                            unsigned long long timeout_ns,
                                                            const unsigned int *flag,
                                                            unsigned int *words)
{
    const gs::detail::wait_deadline deadline = gs::detail::wait_deadline_from_now(timeout_ns);
    /* the clock every try (a register read); the record's flag, an L2 round
     * trip, only every 1024 tries: a copy waited for here normally lands
     * within microseconds, and the answer must not lag it */
    for (unsigned int tries = 1;; ++tries) {
        if (gs::detail::bulk_barrier_try_wait(bar, parity))
            return 1;
        if (gs::detail::wait_deadline_reached(deadline) ||
            ((tries & 1023u) == 0u && gs__ld_relaxed_gpu(flag) != 0u)) {
            gs__task_left(words, GS_TASK_EXIT_COPY, 0u, 0u, 0u);
            return 0;
        }
    }
}
#endif

/* Thread 0: post what the block's finished tasks deferred (one release
 * for all of them), and count them finished for the watchdog. */
GS_DEVICE void gs__task_flush(gs_task_runner *r)
{
    if (r->pend_n == 0u)
        return;
#pragma unroll
    for (unsigned int p = 0; p < GS_TASK_MAX_POSTS; ++p)
        if (p < r->pend_n)
            gs__red_add_release_gpu(r->v.counters + (unsigned long long)r->pend_counter[p] *
                                                       GS_TASK_COUNTER_STRIDE,
                                   r->pend_delta[p]);
    r->pend_n = 0u;
    gs__st_relaxed_gpu(gs__task_block_word(r, GS_TB_DONE), r->pos - r->begin);
}

/* Thread 0: wait until counter c has reached (epoch x period + value).
 * 1: reached (acquired); 0: the wait gave up (the block must leave). */
GS_DEVICE int gs__task_wait_counter(gs_task_runner *r, const gs_task_record *rec, unsigned int w)
{
    const unsigned int c = rec->wait_counter[w];
    const unsigned int target = r->epoch * rec->wait_period[w] + rec->wait_value[w];
    if (c == r->seen_counter && (int)(r->seen_value - target) >= 0)
        return 1; /* acquired before, by an earlier task of this block */
    gs__task_flush(r); /* never wait holding posts */
    const unsigned int *p = r->v.counters + (unsigned long long)c * GS_TASK_COUNTER_STRIDE;
    /* every poll an ld.acquire: the one that sees the target is the acquire;
     * the slow path is the counters' own (gs__wait_slow_counter: a counter
     * grows only by the posts of tasks that ran) */
    const int until = GS__UNTIL_REACHED | GS__ACQUIRE_EACH; /* the time-out report's */
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k) {
        const unsigned int v = gs__ld_acquire_gpu(p);
        if ((int)(v - target) >= 0) {
            r->seen_counter = c;
            r->seen_value = v;
            return 1;
        }
    }
    gs__waiter wt = {r->v.record, p, target, r->v.timeout_ns, 0u, rec->id, r->rank, 0u, until, 0,
                     c};
    if (gs__wait_slow_counter(&wt)) {
        const unsigned int base = r->epoch * rec->wait_period[w];
        gs__task_left(gs__task_block_word(r, 0u), GS_TASK_EXIT_WAITING, c,
                      gs__ld_relaxed_gpu(p) - base, rec->wait_value[w]);
        return 0;
    }
    r->seen_counter = c;
    r->seen_value = target; /* at least */
    return 1;
}

/* Thread 0, once `ok` (the task's record is in its stage): wait for the
 * task's counters, all but those the block's own earlier tasks met
 * (wait_own), taken as a bit set: for most tasks of a chain kept on one
 * block it is empty and the loop is not entered. 1: all reached; 0: not
 * ok, or a wait gave up (the block must leave). */
GS_DEVICE int gs__task_wait_polled(gs_task_runner *r, const gs_task_record *rec, int ok)
{
    /* at most GS_TASK_MAX_WAITS bits, whatever nwaits holds */
    for (unsigned int todo = ok ? ((1u << (rec->nwaits & 31u)) - 1u) &
                                      ((1u << GS_TASK_MAX_WAITS) - 1u) & ~rec->wait_own
                                : 0u;
         ok && todo != 0u; todo &= todo - 1u)
        ok = gs__task_wait_counter(r, rec, (unsigned int)__ffs(todo) - 1u);
    return ok;
}

/* Every thread: start walking the block's list. */
GS_DEVICE void gs__task_begin(gs_task_runner *r, const gs_task_view *view, void *smem)
{
    r->v = *view;
    r->smem = (unsigned char *)smem;
    r->rank = gs__block_rank();
    r->slot = 0u;
    r->parity = 0u;
    r->seen_counter = ~0u;
    r->seen_value = 0u;
    r->pend_n = 0u;
    if (gs__grid_blocks() != r->v.blocks) {
        /* the lists were made for another grid: nothing runs (a misuse;
         * gs_task_plan_launch refuses such grids) */
        if (gs__thread_rank() == 0u && r->rank == 0u)
            gs__raise_misuse(r->v.record, 0u, 0, GS_MISUSE_TASK_GRID, gs__grid_blocks(),
                             r->v.blocks, 0u, 0u);
        r->begin = r->end = r->pos = 0u;
        r->epoch = 0u;
        r->v.blocks = 0u; /* next() leaves at once, recording nothing */
        return;
    }
    r->begin = r->pos = r->v.list_begin[r->rank];
    r->end = r->v.list_begin[r->rank + 1u];
    r->epoch = *gs__task_block_word(r, GS_TB_EPOCH);
    if (gs__thread_rank() == 0u) {
        gs__st_relaxed_gpu(gs__task_block_word(r, GS_TB_DONE), 0u);
        gs__st_relaxed_gpu(gs__task_block_word(r, GS_TB_EXIT), GS_TASK_EXIT_NONE);
    }
#if GS_HAS_BULK_COPY
    if (gs__thread_rank() == gs__task_copy_thread()) {
        const unsigned int first = min(r->v.stages, r->end - r->begin);
        for (unsigned int s = 0; s < first; ++s)
            gs::detail::bulk_barrier_init(gs__task_bars(r) + s, 1u);
        for (unsigned int s = 0; s < first; ++s)
            gs__task_issue_first(r, r->begin + s, s);
    }
    __syncthreads(); /* the barriers initialized before thread 0 waits on them */
#endif
}

/* Every thread: the next task, or 0 at the end of the list (or when the
 * block must leave after a time-out). */
GS_DEVICE int gs__task_next(gs_task_runner *r, gs_task *t)
{
    volatile unsigned int *leave = (volatile unsigned int *)r->smem + GS__TASK_LEAVE_WORD;
    if (r->pos == r->end) {
        if (gs__thread_rank() == 0u && r->v.blocks != 0u) {
            gs__task_flush(r);
            gs__st_relaxed_gpu(gs__task_block_word(r, GS_TB_EXIT), GS_TASK_EXIT_FINISHED);
            gs__st_relaxed_gpu(gs__task_block_word(r, GS_TB_EPOCH), r->epoch + 1u);
        }
        return 0;
    }
    unsigned char *stage = gs__task_stage(r, r->slot);
    const gs_task_record *rec = gs__task_record_in(r, stage);
#if GS_HAS_BULK_COPY
    if (gs__thread_rank() == 0u) {
        unsigned long long *bar = gs__task_bars(r) + r->slot;
        const int in = gs::detail::bulk_barrier_try_wait(bar, r->parity) ||
                       gs__task_stage_wait_slow(bar, r->parity, r->v.timeout_ns,
                                                r->v.record + GS_REC_FLAG,
                                                gs__task_block_word(r, 0u));
        const int ok = gs__task_wait_polled(r, rec, in);
        *leave = !ok;
    }
    __syncthreads();
    if (*leave)
        return 0;
    if (rec->flags & GS_TASK_COPY_BY_THREADS) {
        for (unsigned int i = 0; i < rec->ninputs; ++i)
            gs__task_copy_by_threads(stage + rec->input_offset[i],
                                     (const unsigned char *)rec->input_src[i],
                                     rec->input_bytes[i]);
        __syncthreads();
    }
#else
    /* no bulk copies: the block's threads bring the record and the inputs */
    const gs_task_record *g = r->v.records + r->pos;
    gs__task_copy_by_threads((unsigned char *)rec, (const unsigned char *)g, GS_TASK_RECORD_BYTES);
    for (unsigned int i = 0, n = __ldg(&g->ninputs); i < n; ++i)
        gs__task_copy_by_threads(stage + __ldg(&g->input_offset[i]),
                                 (const unsigned char *)__ldg(&g->input_src[i]),
                                 __ldg(&g->input_bytes[i]));
    __syncthreads();
    if (gs__thread_rank() == 0u) {
        const int ok = gs__task_wait_polled(r, rec, 1);
        *leave = !ok;
    }
    __syncthreads();
    if (*leave)
        return 0;
#endif
    t->rec = rec;
    t->stage = stage;
    t->op = rec->op;
    t->id = rec->id;
    return 1;
}

/* Every thread: the task is done; post its counters (or defer them to the
 * next task's, GS_TASK_DEFER_POSTS) and refill its stage. */
GS_DEVICE void gs__task_end(gs_task_runner *r, const gs_task *t)
{
    const gs_task_record *rec = t->rec;
    const unsigned int me = gs__thread_rank();
    /* read before the barrier: after it the stage is refilled. Every thread
     * reads (a broadcast): written on thread 0's branch only, the arrays were
     * left partly in local memory, spilled across the barrier and reloaded on
     * the post's path. With it gone the hand-off at 2 blocks went 0.886 ->
     * 0.842 us on H200, but handoff_parts measures such a spill alone at
     * nothing: the gain's cause is not isolated (research/notes/tasks.md,
     * run 10) */
    unsigned int counter[GS_TASK_MAX_POSTS], delta[GS_TASK_MAX_POSTS];
    const unsigned int n = rec->nposts, flags = rec->flags;
#pragma unroll
    for (unsigned int p = 0; p < GS_TASK_MAX_POSTS; ++p) {
        counter[p] = rec->post_counter[p];
        delta[p] = rec->post_delta[p];
    }
    __syncthreads();
#if GS_HAS_BULK_COPY
    if (me == gs__task_copy_thread())
        gs__task_issue_ahead(r, rec, r->pos);
#endif
    ++r->pos;
    if (me == 0u) {
#pragma unroll
        for (unsigned int p = 0; p < GS_TASK_MAX_POSTS; ++p)
            if (p < n) {
                r->pend_delta[p] = (r->pend_n ? r->pend_delta[p] : 0u) + delta[p];
                r->pend_counter[p] = counter[p];
            }
        r->pend_n = n;
        if (!(flags & GS_TASK_DEFER_POSTS))
            gs__task_flush(r);
    }
    if (++r->slot == r->v.stages) {
        r->slot = 0u;
        r->parity ^= 1u;
    }
}

#endif /* GRIDSYNC_DETAIL_TASKS_RUNNER_CUH */
