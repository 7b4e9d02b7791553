/* lists.c - the blocks' lists of a task plan and the records a block copies
 * (pure host code), with the waits that the block's own earlier tasks
 * already satisfy marked in them.
 *
 * Assignment: the tasks in the plan's order, each to the block it names or
 * else to the least loaded block so far (by cost; the lowest-numbered on a
 * tie), so every list follows the order (which is what makes the plan
 * deadlock-free: tasks_internal.h) and the loads stay even. */
#include "tasks_internal.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(gs_task_record) == GS_TASK_RECORD_BYTES,
               "gs_task_record: GS_TASK_RECORD_BYTES bytes");
_Static_assert(GS_TASK_RECORD_BYTES % 16u == 0u && GS_TASK_STAGE_ALIGN % 128u == 0u,
               "a record at a stage's end stays 16-byte aligned");

static unsigned long long round_align(unsigned long long b)
{
    return (b + GS_TASK_STAGE_ALIGN - 1u) / GS_TASK_STAGE_ALIGN * GS_TASK_STAGE_ALIGN;
}

unsigned long long gs__task_need(const gs_task_desc *t)
{
    unsigned long long need = GS_TASK_RECORD_BYTES;
    for (unsigned int i = 0; i < t->ninputs; ++i)
        need += round_align(t->inputs[i].bytes);
    return need;
}

int gs__task_bulk_ok(const gs_task_desc *t)
{
    for (unsigned int i = 0; i < t->ninputs; ++i)
        if (((uintptr_t)t->inputs[i].ptr & 15u) != 0u || (t->inputs[i].bytes & 15u) != 0u)
            return 0;
    return 1;
}

static double cost_of(const gs_task_desc *t)
{
    if (t->cost > 0.0)
        return t->cost;
    double c = 4096.0;
    for (unsigned int i = 0; i < t->ninputs; ++i)
        c += (double)t->inputs[i].bytes;
    return c;
}

/* A min-heap of (load, block) with lazy deletion: an entry whose load is
 * no longer its block's is skipped. */
typedef struct entry {
    double load;
    unsigned int block;
} entry;

static int before(entry a, entry b) { return a.load < b.load || (a.load == b.load && a.block < b.block); }

static void push(entry *h, unsigned int *n, entry e)
{
    unsigned int i = (*n)++;
    while (i > 0 && before(e, h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = e;
}

static entry pop(entry *h, unsigned int *n)
{
    entry top = h[0], x = h[--*n];
    unsigned int i = 0;
    for (;;) {
        unsigned int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(h[c + 1], h[c]))
            ++c;
        if (!before(h[c], x))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = x;
    return top;
}

void gs__task_lists(const gs_task_desc *tasks, unsigned int n, const unsigned int *order,
                    unsigned int blocks, unsigned int *list_begin, unsigned int *list,
                    unsigned int *block_of, unsigned int *position)
{
    double *load = calloc(blocks, sizeof *load);
    /* at most one entry per block plus one per pinned task */
    entry *h = malloc(((size_t)blocks + n + 1) * sizeof *h);
    unsigned int hn = 0;
    for (unsigned int b = 0; b < blocks; ++b)
        push(h, &hn, (entry){0.0, b});
    memset(list_begin, 0, ((size_t)blocks + 1) * sizeof *list_begin);
    for (unsigned int i = 0; i < n; ++i) {
        const gs_task_desc *t = tasks + order[i];
        unsigned int b;
        if (t->block > 0) {
            b = (unsigned int)(t->block - 1);
        } else {
            entry e;
            do
                e = pop(h, &hn);
            while (e.load != load[e.block]);
            b = e.block;
        }
        load[b] += cost_of(t);
        push(h, &hn, (entry){load[b], b});
        block_of[order[i]] = b;
        position[order[i]] = list_begin[b + 1]++;
    }
    for (unsigned int b = 0; b < blocks; ++b)
        list_begin[b + 1] += list_begin[b];
    for (unsigned int t = 0; t < n; ++t)
        list[list_begin[block_of[t]] + position[t]] = t;
    free(load);
    free(h);
}

/* Fill the part of a record that describes task t itself. */
static void fill_own(gs_task_record *r, const gs_task_desc *t, unsigned int id,
                     const unsigned int *period)
{
    memset(r, 0, sizeof *r);
    memcpy(r->arg, t->arg, sizeof r->arg);
    r->op = t->op;
    r->id = id;
    r->nwaits = t->nwaits;
    for (unsigned int i = 0; i < t->nwaits; ++i) {
        r->wait_counter[i] = t->waits[i].counter;
        r->wait_value[i] = t->waits[i].value;
        r->wait_period[i] = period[t->waits[i].counter];
    }
    r->nposts = t->nposts;
    for (unsigned int i = 0; i < t->nposts; ++i) {
        r->post_counter[i] = t->posts[i].counter;
        r->post_delta[i] = t->posts[i].delta;
    }
    r->ninputs = t->ninputs;
    unsigned long long offset = 0;
    for (unsigned int i = 0; i < t->ninputs; ++i) {
        r->input_src[i] = (unsigned long long)(uintptr_t)t->inputs[i].ptr;
        r->input_bytes[i] = (unsigned int)t->inputs[i].bytes;
        r->input_offset[i] = (unsigned int)offset;
        offset += round_align(t->inputs[i].bytes);
    }
    r->flags = gs__task_bulk_ok(t) ? 0u : GS_TASK_COPY_BY_THREADS;
}

/* The copies of task `a` that the block issues ahead (bulk copies only:
 * a task whose inputs are copied by threads brings just its record). */
static void fill_ahead(gs_task_record *r, const gs_task_record *a)
{
    r->ahead_valid = 1u;
    r->ahead_bytes = GS_TASK_RECORD_BYTES;
    r->ahead_n = 0u;
    if (a->flags & GS_TASK_COPY_BY_THREADS)
        return;
    r->ahead_n = a->ninputs;
    for (unsigned int i = 0; i < a->ninputs; ++i) {
        r->ahead_src[i] = a->input_src[i];
        r->ahead_len[i] = a->input_bytes[i];
        r->ahead_dst[i] = a->input_offset[i];
        r->ahead_bytes += a->input_bytes[i];
    }
}

/* Whether task b posts the same counters as task a, in the same order. */
static int same_posts(const gs_task_desc *a, const gs_task_desc *b)
{
    if (a->nposts != b->nposts || a->nposts == 0)
        return 0;
    for (unsigned int i = 0; i < a->nposts; ++i)
        if (a->posts[i].counter != b->posts[i].counter)
            return 0;
    return 1;
}

void gs__task_records(const gs_task_desc *tasks, const unsigned int *list, unsigned int n,
                      const unsigned int *list_begin, unsigned int blocks,
                      const unsigned int *period, unsigned int stages, gs_task_record *records)
{
    for (unsigned int i = 0; i < n; ++i)
        fill_own(records + i, tasks + list[i], list[i], period);
    for (unsigned int b = 0; b < blocks; ++b) {
        for (unsigned int i = list_begin[b]; i + stages < list_begin[b + 1]; ++i)
            fill_ahead(records + i, records + i + stages);
        for (unsigned int i = list_begin[b]; i + 1 < list_begin[b + 1]; ++i) {
            const gs_task_desc *t = tasks + list[i];
            if (!(t->flags & GS_TASK_POST_AT_ONCE) && same_posts(t, tasks + list[i + 1]))
                records[i].flags |= GS_TASK_DEFER_POSTS;
        }
    }
}

/* A wait of task t on counter c for value v is met before t starts when
 * the tasks before t in its block's list post at least v to c within the
 * launch: the counter only grows, and the block runs its list in order with
 * block barriers between tasks, so everything those tasks wrote is visible
 * to t's threads (CTA-scope ordering) whatever the counter's value in
 * global memory. Such a wait is marked in t's record (wait_own), and the
 * block does not poll for it (a round trip to L2 behind its own release);
 * the task before t no longer defers its posts (GS_TASK_DEFER_POSTS), so
 * they leave when a wait of t would have flushed them. The record keeps every wait, as the
 * task was given. */
void gs__task_mark_own_waits(const gs_task_desc *tasks, const unsigned int *list,
                             const unsigned int *list_begin, unsigned int blocks,
                             unsigned long long *own, gs_task_record *records)
{
    for (unsigned int b = 0; b < blocks; ++b) {
        for (unsigned int i = list_begin[b]; i < list_begin[b + 1]; ++i) {
            gs_task_record *r = records + i;
            for (unsigned int w = 0; w < r->nwaits; ++w)
                if (own[r->wait_counter[w]] >= r->wait_value[w])
                    r->wait_own |= 1u << w;
            /* a wait used to flush the posts the tasks before it deferred
             * (gs__task_flush): an own wait does not run, so the task
             * before it posts at its end instead, and other blocks waiting
             * for those posts start as early as they did */
            if (r->wait_own && i > list_begin[b])
                records[i - 1].flags &= ~GS_TASK_DEFER_POSTS;
            const gs_task_desc *t = tasks + list[i];
            for (unsigned int p = 0; p < t->nposts; ++p)
                own[t->posts[p].counter] += t->posts[p].delta;
        }
        for (unsigned int i = list_begin[b]; i < list_begin[b + 1]; ++i) {
            const gs_task_desc *t = tasks + list[i];
            for (unsigned int p = 0; p < t->nposts; ++p)
                own[t->posts[p].counter] = 0u;
        }
    }
}
