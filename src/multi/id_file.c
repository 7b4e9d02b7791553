/*
 * id_file.c - the launcher-independent bootstrap (gridsync_multi.h): rank 0
 * writes the unique id into a temporary file beside the path, flushes it to
 * disk and renames it into place (rename is atomic, so a reader sees the
 * whole file or none); the other ranks poll for the path until the file is
 * there or the time-out passes. The path is only opened, never run or
 * parsed as a command.
 */
#define _POSIX_C_SOURCE 200809L
#include "id_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "multi_internal.h"

#define GS_ID_MAGIC "gridsync-nccl-unique-id 1\n"

enum { MAX_TEXT = 64 + 2 * NCCL_UNIQUE_ID_BYTES + 8, MAX_PATH = 4000 };

int gs__id_format(char *buf, size_t len, const unsigned char *bytes, size_t nbytes, int nranks)
{
    int n = snprintf(buf, len, GS_ID_MAGIC "ranks %d\n", nranks);
    if (n < 0 || (size_t)n + 2 * nbytes + 2 > len)
        return -1;
    for (size_t i = 0; i < nbytes; ++i)
        n += snprintf(buf + n, len - (size_t)n, "%02x", bytes[i]);
    n += snprintf(buf + n, len - (size_t)n, "\n");
    return n;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

int gs__id_parse(const char *text, unsigned char *bytes, size_t nbytes, int *nranks)
{
    const size_t magic = strlen(GS_ID_MAGIC);
    if (strncmp(text, GS_ID_MAGIC, magic) != 0 || strncmp(text + magic, "ranks ", 6) != 0)
        return -1;
    const char *p = text + magic + 6;
    if (*p < '1' || *p > '9')
        return -1;
    char *end = NULL;
    errno = 0;
    long n = strtol(p, &end, 10);
    if (errno || n < 1 || n > 1000000000L || *end != '\n')
        return -1;
    p = end + 1;
    for (size_t i = 0; i < nbytes; ++i) {
        int hi = hex_digit(p[2 * i]), lo = hi < 0 ? -1 : hex_digit(p[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        bytes[i] = (unsigned char)(hi * 16 + lo);
    }
    if (strcmp(p + 2 * nbytes, "\n") != 0)
        return -1;
    *nranks = (int)n;
    return 0;
}

static gs_status check_path(const char *fn, const char *path)
{
    if (!path || !*path || strlen(path) > MAX_PATH)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: need a file path (1 .. %d characters)", fn,
                        MAX_PATH);
    return GS_SUCCESS;
}

static gs_status write_all(int fd, const char *text, size_t len)
{
    while (len) {
        ssize_t w = write(fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return GS_ERR_CUDA; /* the caller words it */
        text += w;
        len -= (size_t)w;
    }
    return GS_SUCCESS;
}

gs_status gs_multi_unique_id_write(const char *path, const ncclUniqueId *id, int nranks)
{
    char text[MAX_TEXT], tmp[MAX_PATH + 32];
    GS_TRY(check_path("gs_multi_unique_id_write", path));
    if (!id || nranks < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_unique_id_write: need an id and a rank count >= 1 (got %d)",
                        nranks);
    int len = gs__id_format(text, sizeof text, (const unsigned char *)id->internal,
                            sizeof id->internal, nranks);
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    (void)unlink(tmp); /* a left-over of an earlier process with this pid */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_unique_id_write: cannot create '%s': %s",
                        tmp, strerror(errno));
    int failed = len < 0 || write_all(fd, text, (size_t)len) != GS_SUCCESS || fsync(fd) != 0;
    int err = errno;
    failed |= close(fd) != 0;
    if (!failed && rename(tmp, path) != 0)
        failed = 1, err = errno;
    if (failed) {
        (void)unlink(tmp);
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_unique_id_write: cannot write '%s': %s",
                        path, strerror(err));
    }
    return GS_SUCCESS;
}

/* One look at the file: 1 read and parsed, 0 not there yet, or a failure. */
static gs_status try_read(const char *path, int nranks, ncclUniqueId *id, int *found)
{
    char text[MAX_TEXT + 1];
    int fd = open(path, O_RDONLY | O_CLOEXEC), file_ranks = 0;
    *found = 0;
    if (fd < 0 && errno == ENOENT)
        return GS_SUCCESS;
    if (fd < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_unique_id_read: cannot open '%s': %s",
                        path, strerror(errno));
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, text + got, sizeof text - 1 - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
        if (got == sizeof text - 1)
            break;
    }
    close(fd);
    text[got] = '\0';
    if (gs__id_parse(text, (unsigned char *)id->internal, sizeof id->internal, &file_ranks) != 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_unique_id_read: '%s' is not a unique-id file of gridsync", path);
    if (file_ranks != nranks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_unique_id_read: mismatched rank counts: '%s' is for %d ranks, "
                        "this process was told %d",
                        path, file_ranks, nranks);
    *found = 1;
    return GS_SUCCESS;
}

gs_status gs_multi_unique_id_read(const char *path, int nranks, double timeout_s,
                                  ncclUniqueId *id)
{
    GS_TRY(check_path("gs_multi_unique_id_read", path));
    if (!id || nranks < 1 || !(timeout_s >= 0.0) || timeout_s > 86400.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_unique_id_read: need an id, a rank count >= 1 and a time-out "
                        "of 0 .. 86400 s");
    const unsigned long long deadline = gs__now_ns() + (unsigned long long)(timeout_s * 1e9);
    for (;;) {
        int found = 0;
        GS_TRY(try_read(path, nranks, id, &found));
        if (found)
            return GS_SUCCESS;
        if (gs__now_ns() >= deadline)
            return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                            "gs_multi_unique_id_read: no unique id appeared at '%s' within %.3f s "
                            "(has rank 0 started, with the same path?)",
                            path, timeout_s);
        struct timespec nap = {0, 10000000}; /* 10 ms */
        nanosleep(&nap, NULL);
    }
}
