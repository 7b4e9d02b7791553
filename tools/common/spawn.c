/* spawn.c - fork, chdir, dup2 and execv: a program run without a shell;
 * waiting for it, with or without a bound. */
#define _POSIX_C_SOURCE 200809L
#include "common/spawn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* `candidate` is an executable regular file: its path into `path`, made
 * absolute (a child may change directory before it starts it). */
static int resolve(const char *candidate, char *path, size_t len)
{
    struct stat st;
    char cwd[PATH_MAX];
    if (stat(candidate, &st) != 0 || !S_ISREG(st.st_mode) || access(candidate, X_OK) != 0)
        return -1;
    if (candidate[0] != '/' && !getcwd(cwd, sizeof cwd))
        return -1;
    int n = snprintf(path, len, "%s%s%s", candidate[0] == '/' ? "" : cwd,
                     candidate[0] == '/' ? "" : "/", candidate);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int gs_find_program(const char *name, char *path, size_t len)
{
    if (!name[0])
        return -1;
    if (strchr(name, '/'))
        return resolve(name, path, len);
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/usr/bin:/bin";
    for (const char *p = dirs;; ++p) {
        size_t n = strcspn(p, ":");
        char candidate[PATH_MAX];
        /* an empty entry is the current directory, as for execvp */
        int w = snprintf(candidate, sizeof candidate, "%.*s%s%s", (int)n, p, n ? "/" : "./", name);
        if (w > 0 && (size_t)w < sizeof candidate && resolve(candidate, path, len) == 0)
            return 0;
        p += n;
        if (!*p)
            return -1;
    }
}

pid_t gs_spawn(const char *path, const char *const argv[], const char *dir, int out_fd,
               int err_fd)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* the child: only async-signal-safe calls until exec */
    if ((out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) ||
        (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0) || (dir && chdir(dir) != 0))
        _exit(127);
    execv(path, (char *const *)argv);
    _exit(127);
}

int gs_spawn_wait(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int gs_spawn_ended(pid_t pid, int *status)
{
    int raw;
    pid_t w;
    while ((w = waitpid(pid, &raw, WNOHANG)) < 0)
        if (errno != EINTR)
            return -1;
    if (w == 0)
        return 0;
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return 1;
}

int gs_spawn_wait_for(pid_t pid, double seconds, int *timed_out)
{
    struct timespec start, now, nap = {0, 5000000}; /* 5 ms */
    int status;
    *timed_out = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int ended = gs_spawn_ended(pid, &status);
        if (ended != 0)
            return ended > 0 ? status : -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec) >=
            seconds) {
            *timed_out = 1;
            kill(pid, SIGKILL);
            (void)gs_spawn_wait(pid);
            return -1;
        }
        nanosleep(&nap, NULL);
    }
}
