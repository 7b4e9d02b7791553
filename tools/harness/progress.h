/*
 * progress.h - progress lines on stderr for runs longer than a second.
 * On a terminal the line is rewritten in place; otherwise one plain line per
 * update, at most one per second. Silent for the first second.
 */
#ifndef GS_BENCH_PROGRESS_H
#define GS_BENCH_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_progress {
    const char *label;
    int total;
    double start, last_print;
    int tty, printed;
} gs_progress;

void gs_progress_begin(gs_progress *p, const char *label, int total);
void gs_progress_step(gs_progress *p, int done, const char *what);
void gs_progress_end(gs_progress *p);

#ifdef __cplusplus
}
#endif

#endif
