/* cause.c - the task runtime's watchdog sentence (pure host code).
 *
 * After a time-out every block has left: each block's state says how many
 * tasks of its list it finished and how it left (finished, gave up waiting
 * on a counter, or neither: it left the kernel from inside an operation).
 * Starting from the wait that timed out, the chain goes to the earliest
 * unfinished task that posts to the awaited counter, then to the task that
 * task's block was stuck at (itself, or an earlier task of its list), and
 * on while that block was waiting too. The first task of the chain that was
 * not waiting is the cause: every other block in the chain is a victim. */
#include "tasks_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync/detail/barrier/barrier_layout.h"

#define MAX_LINKS 8u

typedef struct link {
    unsigned int task, block, counter, seen, needed;
} link;

static const unsigned int *state_of(const gs__task_snapshot *s, unsigned int b)
{
    return s->block_state + (size_t)b * GS_TASK_BLOCK_WORDS;
}

/* The task block b was at when it left (its first unfinished one), or ~0u. */
static unsigned int current_task(const struct gs_task_plan *p, const gs__task_snapshot *s,
                                 unsigned int b)
{
    unsigned int at = p->list_begin[b] + state_of(s, b)[GS_TB_DONE];
    return at < p->list_begin[b + 1] ? p->list[at] : ~0u;
}

static int finished(const struct gs_task_plan *p, const gs__task_snapshot *s, unsigned int t)
{
    return p->position[t] < state_of(s, p->block_of[t])[GS_TB_DONE];
}

/* The tasks that post to each counter, in the plan's order: CSR over the
 * counters (begin: ncounters + 1 offsets). Built once per report, so that
 * following a chain costs each link only its counter's posters. */
typedef struct posters {
    unsigned int *begin, *task;
} posters;

static int make_posters(const struct gs_task_plan *p, posters *q)
{
    unsigned long long total = 0;
    for (unsigned int t = 0; t < p->ntasks; ++t)
        total += p->tasks[t].nposts;
    q->begin = calloc((size_t)p->ncounters + 1, sizeof *q->begin);
    q->task = malloc((total ? total : 1) * sizeof *q->task);
    unsigned int *fill = calloc(p->ncounters ? p->ncounters : 1, sizeof *fill);
    if (!q->begin || !q->task || !fill) {
        free(fill);
        return -1;
    }
    for (unsigned int t = 0; t < p->ntasks; ++t)
        for (unsigned int k = 0; k < p->tasks[t].nposts; ++k)
            q->begin[p->tasks[t].posts[k].counter + 1]++;
    for (unsigned int c = 0; c < p->ncounters; ++c)
        q->begin[c + 1] += q->begin[c];
    for (unsigned int i = 0; i < p->ntasks; ++i) { /* in the plan's order */
        const unsigned int t = p->order[i];
        for (unsigned int k = 0; k < p->tasks[t].nposts; ++k) {
            const unsigned int c = p->tasks[t].posts[k].counter;
            q->task[q->begin[c] + fill[c]++] = t;
        }
    }
    free(fill);
    return 0;
}

/* The earliest (in the plan's order) unfinished task that posts to c. */
static unsigned int first_unfinished_poster(const struct gs_task_plan *p,
                                            const gs__task_snapshot *s, const posters *q,
                                            unsigned int c)
{
    for (unsigned int i = q->begin[c]; i < q->begin[c + 1]; ++i)
        if (!finished(p, s, q->task[i]))
            return q->task[i];
    return ~0u;
}

static int ordinal(char *buf, size_t len, unsigned int n)
{
    const char *suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                         : n % 10 == 1                   ? "st"
                         : n % 10 == 2                   ? "nd"
                         : n % 10 == 3                   ? "rd"
                                                         : "th";
    return snprintf(buf, len, "%u%s", n, suffix);
}

/* "task T (op O, block B, the Nth of its M)" */
static int name_task(char *buf, size_t len, const struct gs_task_plan *p, unsigned int t)
{
    char nth[16];
    unsigned int b = p->block_of[t];
    ordinal(nth, sizeof nth, p->position[t] + 1);
    return snprintf(buf, len, "task %u (op %u, block %u, the %s of its %u)", t, p->tasks[t].op,
                    b, nth, p->list_begin[b + 1] - p->list_begin[b]);
}

static size_t append(size_t len, size_t at, int k)
{
    if (k < 0)
        return at;
    at += (size_t)k;
    return at < len ? at : len - 1;
}

void gs__task_cause(const struct gs_task_plan *p, const gs__task_snapshot *s, char *buf,
                    size_t len)
{
    const unsigned int *rec = s->record;
    unsigned int observer = rec[GS_REC_OBSERVER];
    double timeout_s = (double)p->timeout_ns / 1e9;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (observer >= p->blocks || rec[GS_REC_BARRIER] >= p->ntasks) {
        snprintf(buf, len, "a task wait timed out (time-out %g s), but the record names block "
                 "%u and task %u, outside the plan", timeout_s, observer, rec[GS_REC_BARRIER]);
        return;
    }
    link chain[MAX_LINKS];
    unsigned int nlinks = 0, total = 0;
    posters q = {NULL, NULL};
    unsigned char *visited = make_posters(p, &q) == 0 ? calloc(p->ntasks, 1) : NULL;
    unsigned int cur = rec[GS_REC_BARRIER], cause = ~0u, exit_kind = GS_TASK_EXIT_NONE;
    while (visited && cur != ~0u && !visited[cur]) {
        visited[cur] = 1;
        unsigned int b = p->block_of[cur];
        const unsigned int *st = state_of(s, b);
        if (current_task(p, s, b) != cur || st[GS_TB_EXIT] != GS_TASK_EXIT_WAITING) {
            cause = cur;
            exit_kind = current_task(p, s, b) == cur ? st[GS_TB_EXIT] : GS_TASK_EXIT_NONE;
            break;
        }
        link l = {cur, b, st[GS_TB_COUNTER], st[GS_TB_SEEN], st[GS_TB_NEEDED]};
        if (nlinks < MAX_LINKS)
            chain[nlinks++] = l;
        else
            chain[MAX_LINKS - 1] = l; /* keep the one nearest the cause */
        ++total;
        unsigned int poster = l.counter < p->ncounters
                                  ? first_unfinished_poster(p, s, &q, l.counter)
                                  : ~0u;
        if (poster == ~0u)
            break; /* every poster finished: the value came after the time-out */
        unsigned int pb = p->block_of[poster];
        cur = current_task(p, s, pb) != ~0u ? current_task(p, s, pb) : poster;
    }
    free(visited);
    free(q.begin);
    free(q.task);

    size_t at = 0;
    if (cause != ~0u) {
        at = append(len, at, name_task(buf, len, p, cause));
        unsigned int b = p->block_of[cause];
        const char *how =
            exit_kind == GS_TASK_EXIT_COPY
                ? "never started: its block gave up waiting for its inputs to arrive"
            : current_task(p, s, b) == cause
                ? "never finished: its block left the kernel while running it (an operation "
                  "returned, trapped or never ended)"
                : "never started: its block stopped at an earlier task";
        at = append(len, at, snprintf(buf + at, len - at, " %s", how));
    } else if (nlinks > 0) {
        const link *l = chain[nlinks - 1].counter < p->ncounters ? &chain[nlinks - 1] : NULL;
        at = append(len, at,
                     snprintf(buf + at, len - at,
                              "counter %u reached its value only after the time-out (every task "
                              "posting to it had finished)",
                              l ? l->counter : 0u));
    } else {
        at = append(len, at, snprintf(buf + at, len - at, "a task wait timed out"));
    }
    /* the victims, from the cause back to the wait that timed out */
    for (unsigned int i = nlinks; i-- > 0;) {
        char who[96];
        name_task(who, sizeof who, p, chain[i].task);
        at = append(len, at,
                    snprintf(buf + at, len - at, "%s %s waited for counter %u >= %u (saw %u)",
                             i + 1 == nlinks ? "; waiting on it:" : " <-", who, chain[i].counter,
                             chain[i].needed, chain[i].seen));
        if (i + 1 == nlinks && total > nlinks)
            at = append(len, at,
                        snprintf(buf + at, len - at, " <- (%u more)", total - nlinks));
    }
    snprintf(buf + at, len - at, " (time-out %g s)", timeout_s);
}
