/* child_run.c - fork, wait with a deadline, kill on time-out; a GPU checked
 * from a child process. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "demo/child_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gridsync_internal.h"
#include "common/clock.h"
#include "common/device.h"


gs_child_result gs_child_run(int (*fn)(void *), void *arg, double limit_s)
{
    gs_child_result r = {GS_CHILD_FAILED, -1, 0, 0.0};
    double start = gs_now_seconds();
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
            r.seconds = gs_now_seconds() - start;
            return r;
        }
        if (gs_now_seconds() - start >= limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            r.outcome = GS_CHILD_TIMED_OUT;
            r.seconds = gs_now_seconds() - start;
            return r;
        }
        struct timespec nap = {0, 5 * 1000 * 1000}; /* 5 ms */
        nanosleep(&nap, NULL);
    }
    r.seconds = gs_now_seconds() - start;
    if (WIFEXITED(status)) {
        r.outcome = GS_CHILD_EXITED;
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.outcome = GS_CHILD_CRASHED;
        r.signal = WTERMSIG(status);
    }
    return r;
}

/* What the probing child leaves in memory shared with its parent. */
typedef struct probe_page {
    int device;
    gs_status status;
    char detail[1024];
} probe_page;

/* In the child: select the GPU; 0 when it is usable. */
static int probe_child(void *arg)
{
    probe_page *p = arg;
    gs_device_info info;
    p->status = gs_select_device(p->device, &info);
    if (p->status != GS_SUCCESS)
        snprintf(p->detail, sizeof p->detail, "%s", gs_last_error_detail());
    return p->status == GS_SUCCESS ? 0 : 1;
}

gs_status gs_child_select_device(int device, double limit_s)
{
    probe_page *p = mmap(NULL, sizeof *p, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                         -1, 0);
    if (p == MAP_FAILED)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "checking GPU %d: mmap: %s", device,
                        strerror(errno));
    memset(p, 0, sizeof *p);
    p->device = device;
    gs_child_result r = gs_child_run(probe_child, p, limit_s);
    gs_status st = GS_SUCCESS;
    if (r.outcome == GS_CHILD_EXITED && r.exit_code != 0 && p->status != GS_SUCCESS)
        st = gs__fail(p->status, "%s", p->detail);
    else if (r.outcome != GS_CHILD_EXITED || r.exit_code != 0)
        st = gs__fail(GS_ERR_CUDA, "checking GPU %d in a child process: it %s", device,
                      r.outcome == GS_CHILD_TIMED_OUT ? "did not finish in time"
                      : r.outcome == GS_CHILD_CRASHED ? "crashed"
                      : r.outcome == GS_CHILD_FAILED  ? "could not be started"
                                                      : "failed");
    munmap(p, sizeof *p);
    return st;
}
