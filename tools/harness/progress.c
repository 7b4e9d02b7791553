/* progress.c - elapsed/remaining progress lines on stderr. */
#define _POSIX_C_SOURCE 200809L
#include "harness/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "harness/timer.h"

void gs_progress_begin(gs_progress *p, const char *label, int total)
{
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->start = gs_now_seconds();
    p->last_print = p->start;
    p->tty = isatty(fileno(stderr));
    p->printed = 0;
}

void gs_progress_step(gs_progress *p, int done, const char *what)
{
    double now = gs_now_seconds(), elapsed = now - p->start;
    if (elapsed < 1.0 || (!p->tty && now - p->last_print < 1.0))
        return;
    double remaining = done > 0 ? elapsed * (p->total - done) / done : 0.0;
    fprintf(stderr, "%s[%s] %d/%d %s  elapsed %.0fs, about %.0fs left%s", p->tty ? "\r" : "",
            p->label, done, p->total, what ? what : "", elapsed, remaining,
            p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->last_print = now;
    p->printed = 1;
}

void gs_progress_end(gs_progress *p)
{
    if (p->printed && p->tty)
        fputc('\n', stderr);
    if (p->printed)
        fprintf(stderr, "[%s] done in %.1fs\n", p->label, gs_now_seconds() - p->start);
}
