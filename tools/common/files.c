/* files.c - output folders, bounded reads, whole-file replacement. */
#define _POSIX_C_SOURCE 200809L
#include "common/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gs_path_of(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

void gs_errorf(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

const char *gs_shown(const char *text, char *buf, size_t len)
{
    size_t n = 0, max = len > 4 ? len - 4 : 0;
    max = max < GS_SHOWN_MAX ? max : GS_SHOWN_MAX;
    if (!len)
        return buf;
    for (; text && text[n] && n < max; ++n) {
        unsigned char ch = (unsigned char)text[n];
        buf[n] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    if (text && text[n]) {
        while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
            --n; /* not inside a UTF-8 character */
        memcpy(buf + n, "...", len - n > 3 ? 3 : len - n - 1);
        n += len - n > 3 ? 3 : len - n - 1;
    }
    buf[n] = '\0';
    return buf;
}

int gs_make_dirs(const char *dir)
{
    char path[1024];
    if (!dir[0]) {
        errno = ENOENT;
        return -1;
    }
    if (gs_path_of(path, sizeof path, "%s", dir) != 0)
        return -1;
    for (char *p = path + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* The whole of `f`, at most `max` + 1 bytes of it (*len > max: it is
 * larger), as a string; NULL when out of memory. */
static char *read_at_most(FILE *f, size_t max, size_t *len)
{
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    *len = 0;
    while (text) {
        size_t want = cap - *len - 1;
        size_t got = fread(text + *len, 1, want, f);
        *len += got;
        if (got < want || *len > max)
            break;
        size_t bigger_cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
        char *bigger = realloc(text, bigger_cap);
        if (!bigger)
            free(text);
        text = bigger;
        cap = bigger_cap;
    }
    if (text)
        text[*len] = '\0';
    return text;
}

/* Why the open file `fd` is not one to read or write as a file, or NULL. */
static const char *not_a_file(int fd, int writing)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "a folder, not a file";
    if (!S_ISREG(st.st_mode))
        return "not a regular file (a FIFO, a device or a socket)";
    if (writing && st.st_nlink > 1)
        return "a file with other hard links (writing it would change them)";
    return NULL;
}

/* `fd`, opened with O_NONBLOCK, blocking again. 0 or -1. */
static int blocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? -1 : 0;
}

char *gs_read_file(const char *path, size_t max, const char *what, size_t *len, char *err,
                   size_t errlen)
{
    char shown[GS_SHOWN_SIZE];
    const char *why;
    /* non-blocking: a FIFO with no writer opens at once, and is refused */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", gs_shown(path, shown, sizeof shown),
                 strerror(errno));
        return NULL;
    }
    FILE *f = NULL;
    if ((why = not_a_file(fd, 0)) != NULL || blocking(fd) != 0 || !(f = fdopen(fd, "rb"))) {
        snprintf(err, errlen, "cannot read %s: %s", gs_shown(path, shown, sizeof shown),
                 why ? why : strerror(errno));
        close(fd);
        return NULL;
    }
    char *text = read_at_most(f, max, len);
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (text && !failed && *len <= max)
        return text;
    gs_shown(path, shown, sizeof shown);
    if (!text)
        snprintf(err, errlen, "out of memory reading %s", shown);
    else if (failed)
        snprintf(err, errlen, "cannot read %s: %s", shown, strerror(failed));
    else
        snprintf(err, errlen, "%s is larger than %d MiB: not %s", shown, (int)(max >> 20), what);
    free(text);
    return NULL;
}

int gs_open_output_fd(const char *path, char *err, size_t errlen)
{
    char shown[GS_SHOWN_SIZE];
    const char *why = NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0)
        why = errno == ELOOP ? "a symbolic link (refused: it may lead anywhere)"
              : errno == ENXIO ? "not a regular file (a FIFO, a device or a socket)"
                               : strerror(errno);
    else if ((why = not_a_file(fd, 1)) == NULL && (blocking(fd) != 0 || ftruncate(fd, 0) != 0))
        why = strerror(errno);
    if (!why)
        return fd;
    snprintf(err, errlen, "cannot write %s: %s", gs_shown(path, shown, sizeof shown), why);
    if (fd >= 0)
        close(fd);
    return -1;
}

FILE *gs_open_output(const char *path, char *err, size_t errlen)
{
    int fd = gs_open_output_fd(path, err, errlen);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        char shown[GS_SHOWN_SIZE];
        snprintf(err, errlen, "cannot write %s: %s", gs_shown(path, shown, sizeof shown),
                 strerror(errno));
        close(fd);
    }
    return f;
}

int gs_clear_path(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    return unlink(path);
}

int gs_replace_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char tmp[4096], shown[GS_SHOWN_SIZE];
    struct stat st;
    gs_shown(path, shown, sizeof shown);
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "cannot replace %s: %s", shown, strerror(errno));
        return -1;
    }
    int n = snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(err, errlen, "cannot replace %s: path too long", shown);
        return -1;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write beside %s: %s", shown, strerror(errno));
        if (fd >= 0)
            close(fd);
        if (fd >= 0)
            remove(tmp);
        return -1;
    }
    int ok = fwrite(text, 1, len, f) == len && fchmod(fd, st.st_mode & 07777) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot replace %s: %s", shown, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
