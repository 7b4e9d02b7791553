/* order.c - checking a task plan as a whole and fixing the order its lists
 * follow (pure host code).
 *
 * Counters only grow and a wait is "counter >= value", so running a task
 * can only make other tasks runnable, never the reverse: the tasks that can
 * ever run are found by running, on the host, any task whose waits are met,
 * until none is left (the lowest-numbered runnable task first, so a plan
 * added in a runnable order keeps it). What is left can never run; the
 * sentence follows its unmet waits to the tasks that would post them, which
 * are stuck too, until a task repeats (a cycle). */
#include "tasks_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A binary min-heap of task numbers. */
typedef struct heap {
    unsigned int *v;
    unsigned int n;
} heap;

static void heap_push(heap *h, unsigned int x)
{
    unsigned int i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static unsigned int heap_pop(heap *h)
{
    unsigned int top = h->v[0], x = h->v[--h->n], i = 0;
    for (;;) {
        unsigned int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            ++c;
        if (h->v[c] >= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n > 0)
        h->v[i] = x;
    return top;
}

/* The waits on each counter, sorted by value: CSR over counters. */
typedef struct wait_ref {
    unsigned int value, task;
} wait_ref;

static int by_value(const void *a, const void *b)
{
    const wait_ref *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value ? 1 : (x->task > y->task) - (x->task < y->task);
}

typedef struct work {
    unsigned int *begin;  /* ncounters + 1: waits of counter c at refs[begin[c] .. begin[c+1]) */
    wait_ref *refs;
    unsigned int *next;   /* per counter: first wait not yet met */
    unsigned int *unmet;  /* per task */
    unsigned long long *value;
    unsigned char *ran;
    unsigned int *poster_begin, *posters; /* CSR: the tasks that post to each counter */
} work;

static void free_work(work *w)
{
    free(w->begin);
    free(w->refs);
    free(w->next);
    free(w->unmet);
    free(w->value);
    free(w->ran);
    free(w->poster_begin);
    free(w->posters);
}

static int make_work(work *w, const gs_task_desc *tasks, unsigned int n, unsigned int nc)
{
    unsigned long long nwaits = 0, nposts = 0;
    for (unsigned int t = 0; t < n; ++t) {
        nwaits += tasks[t].nwaits;
        nposts += tasks[t].nposts;
    }
    memset(w, 0, sizeof *w);
    w->begin = calloc((size_t)nc + 1, sizeof *w->begin);
    w->refs = malloc((nwaits ? nwaits : 1) * sizeof *w->refs);
    w->next = calloc(nc, sizeof *w->next);
    w->unmet = calloc(n ? n : 1, sizeof *w->unmet);
    w->value = calloc(nc, sizeof *w->value);
    w->ran = calloc(n ? n : 1, 1);
    w->poster_begin = calloc((size_t)nc + 1, sizeof *w->poster_begin);
    w->posters = malloc((nposts ? nposts : 1) * sizeof *w->posters);
    if (!w->begin || !w->refs || !w->next || !w->unmet || !w->value || !w->ran ||
        !w->poster_begin || !w->posters)
        return -1;
    for (unsigned int t = 0; t < n; ++t) {
        for (unsigned int i = 0; i < tasks[t].nwaits; ++i)
            w->begin[tasks[t].waits[i].counter + 1]++;
        for (unsigned int i = 0; i < tasks[t].nposts; ++i)
            w->poster_begin[tasks[t].posts[i].counter + 1]++;
    }
    for (unsigned int c = 0; c < nc; ++c) {
        w->begin[c + 1] += w->begin[c];
        w->poster_begin[c + 1] += w->poster_begin[c];
    }
    unsigned int *fill = calloc(nc ? nc : 1, sizeof *fill), *pfill = calloc(nc ? nc : 1, sizeof *pfill);
    if (!fill || !pfill) {
        free(fill);
        free(pfill);
        return -1;
    }
    for (unsigned int t = 0; t < n; ++t) {
        for (unsigned int i = 0; i < tasks[t].nwaits; ++i) {
            unsigned int c = tasks[t].waits[i].counter;
            w->refs[w->begin[c] + fill[c]++] = (wait_ref){tasks[t].waits[i].value, t};
        }
        for (unsigned int i = 0; i < tasks[t].nposts; ++i) {
            unsigned int c = tasks[t].posts[i].counter;
            w->posters[w->poster_begin[c] + pfill[c]++] = t;
        }
    }
    free(fill);
    free(pfill);
    for (unsigned int c = 0; c < nc; ++c)
        qsort(w->refs + w->begin[c], w->begin[c + 1] - w->begin[c], sizeof *w->refs, by_value);
    return 0;
}

/* Wake the waits of counter c that its value now meets. */
static void wake(work *w, unsigned int c, heap *ready)
{
    while (w->next[c] < w->begin[c + 1] - w->begin[c]) {
        const wait_ref *r = w->refs + w->begin[c] + w->next[c];
        if (r->value > w->value[c])
            break;
        if (--w->unmet[r->task] == 0)
            heap_push(ready, r->task);
        ++w->next[c];
    }
}

/* The first unmet wait of stuck task t (its index). */
static unsigned int unmet_wait(const work *w, const gs_task_desc *t)
{
    for (unsigned int i = 0; i < t->nwaits; ++i)
        if (w->value[t->waits[i].counter] < t->waits[i].value)
            return i;
    return 0;
}

/* The first poster of counter c that never ran. */
static unsigned int stuck_poster(const work *w, unsigned int c)
{
    for (unsigned int i = w->poster_begin[c]; i < w->poster_begin[c + 1]; ++i)
        if (!w->ran[w->posters[i]])
            return w->posters[i];
    return ~0u;
}

/* The sentence for a plan whose task `first` can never run. */
static void explain_stuck(const work *w, const gs_task_desc *tasks, unsigned int n,
                          unsigned int first, char *why, size_t len)
{
    const gs_task_desc *t = tasks + first;
    const gs_task_wait *wt = t->waits + unmet_wait(w, t);
    int k = snprintf(why, len,
                     "task %u (op %u) can never run: it waits for counter %u >= %u, but the "
                     "tasks that can run post only %llu to it",
                     first, t->op, wt->counter, wt->value, w->value[wt->counter]);
    /* follow the unmet waits through stuck posters until a task repeats */
    unsigned char *seen = calloc(n, 1);
    unsigned int *path = malloc((size_t)n * sizeof *path);
    unsigned int steps = 0, cur = first;
    if (!seen || !path) {
        free(seen);
        free(path);
        return;
    }
    while (!seen[cur]) {
        seen[cur] = 1;
        path[steps++] = cur;
        const gs_task_desc *c = tasks + cur;
        unsigned int next = stuck_poster(w, c->waits[unmet_wait(w, c)].counter);
        if (next == ~0u)
            break;
        cur = next;
    }
    unsigned int start = 0;
    while (start < steps && path[start] != cur)
        ++start;
    if (k > 0 && (size_t)k < len && start < steps) {
        k += snprintf(why + k, len - (size_t)k, "; the posts it needs wait on a cycle:");
        for (unsigned int i = start; i < steps && k > 0 && (size_t)k < len; ++i) {
            const gs_task_desc *c = tasks + path[i];
            const gs_task_wait *cw = c->waits + unmet_wait(w, c);
            k += snprintf(why + k, len - (size_t)k, " task %u waits for counter %u >= %u (posted by task %u)%s",
                          path[i], cw->counter, cw->value, i + 1 < steps ? path[i + 1] : cur,
                          i + 1 < steps ? "," : "");
        }
    }
    free(seen);
    free(path);
}

/* An output range of some task, for the independence check. */
typedef struct out_ref {
    unsigned long long lo, hi; /* [lo, hi) */
    unsigned int task;
} out_ref;

static int by_lo(const void *a, const void *b)
{
    const out_ref *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Every independent input must overlap no output a task names. */
static gs_status check_inputs(const gs_task_desc *tasks, unsigned int n, char *why, size_t len)
{
    unsigned long long nout = 0;
    for (unsigned int t = 0; t < n; ++t)
        nout += tasks[t].noutputs;
    if (nout == 0)
        return GS_SUCCESS;
    out_ref *outs = malloc(nout * sizeof *outs);
    out_ref *far = malloc(nout * sizeof *far); /* far[i]: the one reaching furthest in 0..i */
    if (!outs || !far) {
        free(outs);
        free(far);
        snprintf(why, len, "out of host memory checking the plan's inputs");
        return GS_ERR_OUT_OF_MEMORY;
    }
    unsigned long long k = 0;
    for (unsigned int t = 0; t < n; ++t)
        for (unsigned int i = 0; i < tasks[t].noutputs; ++i) {
            unsigned long long lo = (unsigned long long)(uintptr_t)tasks[t].outputs[i].ptr;
            outs[k++] = (out_ref){lo, lo + tasks[t].outputs[i].bytes, t};
        }
    qsort(outs, nout, sizeof *outs, by_lo);
    for (unsigned long long i = 0; i < nout; ++i)
        far[i] = i > 0 && far[i - 1].hi > outs[i].hi ? far[i - 1] : outs[i];
    gs_status st = GS_SUCCESS;
    for (unsigned int t = 0; t < n && st == GS_SUCCESS; ++t)
        for (unsigned int i = 0; i < tasks[t].ninputs && st == GS_SUCCESS; ++i) {
            unsigned long long lo = (unsigned long long)(uintptr_t)tasks[t].inputs[i].ptr;
            unsigned long long hi = lo + tasks[t].inputs[i].bytes;
            /* the last output starting below hi; does any up to it reach past lo? */
            unsigned long long a = 0, b = nout;
            while (a < b) {
                unsigned long long m = (a + b) / 2;
                if (outs[m].lo < hi)
                    a = m + 1;
                else
                    b = m;
            }
            if (a > 0 && far[a - 1].hi > lo) {
                snprintf(why, len,
                         "task %u's independent input %u (%zu bytes at %p) overlaps what task "
                         "%u writes: an independent input is read before the task waits, so no "
                         "task of the plan may write it (name it as an ordinary read instead)",
                         t, i, tasks[t].inputs[i].bytes, tasks[t].inputs[i].ptr, far[a - 1].task);
                st = GS_ERR_INVALID_ARGUMENT;
            }
        }
    free(outs);
    free(far);
    return st;
}

gs_status gs__task_order(const gs_task_desc *tasks, unsigned int n, unsigned int nc,
                         unsigned int *order, unsigned int *period, char *why, size_t len)
{
    /* each counter's posts per launch, and every wait within them */
    memset(period, 0, (size_t)nc * sizeof *period);
    unsigned long long *total = calloc(nc ? nc : 1, sizeof *total);
    if (!total) {
        snprintf(why, len, "out of host memory checking the plan");
        return GS_ERR_OUT_OF_MEMORY;
    }
    for (unsigned int t = 0; t < n; ++t)
        for (unsigned int i = 0; i < tasks[t].nposts; ++i)
            total[tasks[t].posts[i].counter] += tasks[t].posts[i].delta;
    for (unsigned int c = 0; c < nc; ++c) {
        if (total[c] > 0x7fffffffull) {
            snprintf(why, len,
                     "counter %u receives %llu per launch from its tasks' posts, more than "
                     "2^31 - 1: split it into several counters or post smaller deltas",
                     c, total[c]);
            free(total);
            return GS_ERR_INVALID_ARGUMENT;
        }
        period[c] = (unsigned int)total[c];
    }
    for (unsigned int t = 0; t < n; ++t)
        for (unsigned int i = 0; i < tasks[t].nwaits; ++i) {
            const gs_task_wait *wt = tasks[t].waits + i;
            if (wt->value > total[wt->counter]) {
                snprintf(why, len,
                         "task %u (op %u) waits for counter %u >= %u, but the plan's tasks post "
                         "only %llu to it in all: that wait could never finish",
                         t, tasks[t].op, wt->counter, wt->value, total[wt->counter]);
                free(total);
                return GS_ERR_INVALID_ARGUMENT;
            }
        }
    free(total);
    gs_status st = check_inputs(tasks, n, why, len);
    if (st != GS_SUCCESS)
        return st;

    work w;
    heap ready = {malloc((n ? n : 1) * sizeof(unsigned int)), 0};
    if (make_work(&w, tasks, n, nc) != 0 || !ready.v) {
        free_work(&w);
        free(ready.v);
        snprintf(why, len, "out of host memory ordering the plan");
        return GS_ERR_OUT_OF_MEMORY;
    }
    for (unsigned int t = 0; t < n; ++t)
        w.unmet[t] = tasks[t].nwaits;
    for (unsigned int t = 0; t < n; ++t)
        if (w.unmet[t] == 0)
            heap_push(&ready, t);
    for (unsigned int c = 0; c < nc; ++c)
        wake(&w, c, &ready); /* waits for >= 0 */
    unsigned int placed = 0;
    while (ready.n > 0) {
        unsigned int t = heap_pop(&ready);
        order[placed++] = t;
        w.ran[t] = 1;
        for (unsigned int i = 0; i < tasks[t].nposts; ++i) {
            unsigned int c = tasks[t].posts[i].counter;
            w.value[c] += tasks[t].posts[i].delta;
            wake(&w, c, &ready);
        }
    }
    st = GS_SUCCESS;
    if (placed < n) {
        unsigned int first = 0;
        while (w.ran[first])
            ++first;
        explain_stuck(&w, tasks, n, first, why, len);
        st = GS_ERR_INVALID_ARGUMENT;
    }
    free_work(&w);
    free(ready.v);
    return st;
}
