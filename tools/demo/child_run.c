/* child_run.c - fork, wait with a deadline, kill on time-out. */
#define _POSIX_C_SOURCE 200809L
#include "demo/child_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

gs_child_result gs_child_run(int (*fn)(void *), void *arg, double limit_s)
{
    gs_child_result r = {GS_CHILD_FAILED, -1, 0, 0.0};
    double start = now();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return r;
    if (pid == 0)
        _exit(fn(arg) & 0xff);
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.seconds = now() - start;
            return r;
        }
        if (now() - start >= limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.outcome = GS_CHILD_TIMED_OUT;
            r.seconds = now() - start;
            return r;
        }
        struct timespec nap = {0, 5 * 1000 * 1000}; /* 5 ms */
        nanosleep(&nap, NULL);
    }
    r.seconds = now() - start;
    if (WIFEXITED(status)) {
        r.outcome = GS_CHILD_EXITED;
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.outcome = GS_CHILD_CRASHED;
        r.signal = WTERMSIG(status);
    }
    return r;
}
