/* ranks.c - two processes of one GPU each for a bench suite (ranks.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/ranks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gridsync_internal.h"
#include "common/spawn.h"
#include "harness/timer.h"

/* `name` in the folder `dir`, or -1 when the path does not fit. */
static int in_dir(const char *dir, const char *name, char *path, size_t len)
{
    int n = snprintf(path, len, "%s/%s", dir, name);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Remove what rank 0 put in the folder, and the folder. */
static void remove_dir(gs_bench_ranks *r)
{
    char path[PATH_MAX + 16];
    if (!r->dir[0])
        return;
    if (in_dir(r->dir, "id", path, sizeof path) == 0)
        unlink(path);
    if (in_dir(r->dir, "ready", path, sizeof path) == 0)
        unlink(path);
    rmdir(r->dir);
    r->dir[0] = '\0';
}

static void nap_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

gs_status gs_bench_ranks_begin(gs_bench_ranks *r)
{
    memset(r, 0, sizeof *r);
    ssize_t n = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
    if (n <= 0 || (size_t)n >= sizeof r->self - 1)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "cannot find this program (/proc/self/exe: %s)",
                        n < 0 ? strerror(errno) : "path too long");
    r->self[n] = '\0';
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/' || strlen(tmp) > 256)
        tmp = "/tmp";
    if (snprintf(r->dir, sizeof r->dir, "%s/gridsync-multi-XXXXXX", tmp) >= (int)sizeof r->dir ||
        !mkdtemp(r->dir)) {
        gs_status st = gs__fail(GS_ERR_NOT_SUPPORTED, "cannot make a private folder in %s: %s",
                                tmp, strerror(errno));
        r->dir[0] = '\0';
        return st;
    }
    char path[PATH_MAX + 16];
    ncclResult_t res = ncclGetUniqueId(&r->id);
    gs_status st = GS_SUCCESS;
    if (res != ncclSuccess)
        st = gs__fail(GS_ERR_NOT_SUPPORTED, "ncclGetUniqueId failed: %s", ncclGetErrorString(res));
    else if (in_dir(r->dir, "id", path, sizeof path) != 0)
        st = gs__fail(GS_ERR_NOT_SUPPORTED, "the folder's path is too long: %s", r->dir);
    else
        st = gs_multi_unique_id_write(path, &r->id, 2);
    if (st != GS_SUCCESS)
        remove_dir(r);
    return st;
}

gs_status gs_bench_ranks_start(gs_bench_ranks *r, const char *const argv[], double seconds)
{
    char ready[PATH_MAX + 16];
    if (in_dir(r->dir, "ready", ready, sizeof ready) != 0)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "the folder's path is too long: %s", r->dir);
    /* its stdout onto our stderr: ours may be the results (--json -) */
    pid_t pid = gs_spawn(r->self, argv, NULL, STDERR_FILENO, -1);
    if (pid < 0)
        return gs__fail(GS_ERR_NOT_SUPPORTED, "cannot start rank 1 (fork: %s)", strerror(errno));
    r->child = pid;
    const double deadline = gs_now_seconds() + seconds;
    for (;;) {
        if (access(ready, F_OK) == 0)
            return GS_SUCCESS;
        int status = 0, ended = gs_spawn_ended(pid, &status);
        if (ended != 0) {
            char how[64];
            if (ended < 0)
                snprintf(how, sizeof how, "could not be waited for");
            else if (status == 127)
                snprintf(how, sizeof how, "could not start");
            else if (status < 0)
                snprintf(how, sizeof how, "was ended by a signal");
            else
                snprintf(how, sizeof how, "ended with status %d", status);
            r->child = 0;
            r->child_status = ended < 0 ? -1 : status;
            return gs__fail(GS_ERR_NOT_SUPPORTED,
                            "rank 1 (%s started again) %s before it was ready to join", r->self,
                            how);
        }
        if (gs_now_seconds() > deadline) {
            int timed_out = 0;
            gs_spawn_wait_for(pid, 0.0, &timed_out); /* kills it, and reaps it */
            r->child = 0;
            r->child_status = -1;
            return gs__fail(GS_ERR_NOT_SUPPORTED,
                            "rank 1 (%s started again) was not ready to join within %.0f s; it "
                            "was stopped",
                            r->self, seconds);
        }
        nap_ms(5);
    }
}

gs_status gs_bench_ranks_join(gs_bench_ranks *r, int device, double seconds, gs_multi_t *m)
{
    return gs_multi_create_rank(m, &r->id, 2, 0, device, seconds);
}

gs_status gs_bench_ranks_end(gs_bench_ranks *r, double seconds)
{
    gs_status st = GS_SUCCESS;
    if (r->child > 0) {
        int timed_out = 0;
        r->child_status = gs_spawn_wait_for(r->child, seconds, &timed_out);
        r->child = 0;
        if (timed_out)
            st = gs__fail(GS_ERR_INTERNAL, "rank 1 (%s started again) had not ended %.0f s after "
                                           "the measurements; it was stopped",
                          r->self, seconds);
        else if (r->child_status != 0)
            st = gs__fail(GS_ERR_INTERNAL, "rank 1 (%s started again) ended with %s %d (its "
                                           "error is above, on stderr)",
                          r->self, r->child_status < 0 ? "a signal, status" : "status",
                          r->child_status);
    }
    remove_dir(r);
    return st;
}

gs_status gs_bench_ranks_join_child(const char *dir, int device, double seconds, gs_multi_t *m)
{
    char id_path[PATH_MAX + 16], ready[PATH_MAX + 16];
    ncclUniqueId id;
    if (in_dir(dir, "id", id_path, sizeof id_path) != 0 ||
        in_dir(dir, "ready", ready, sizeof ready) != 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "--rank-child: the folder's path is too long");
    /* CUDA up first: rank 0's wait for the group then covers NCCL alone */
    GS_CUDA_TRY(cudaSetDevice(device));
    GS_CUDA_TRY(cudaFree(0));
    GS_TRY(gs_multi_unique_id_read(id_path, 2, seconds, &id));
    int fd = open(ready, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "--rank-child: cannot create %s: %s", ready,
                        strerror(errno));
    close(fd);
    return gs_multi_create_rank(m, &id, 2, 1, device, seconds);
}
