/* files.c - output folders, bounded reads, whole-file replacement. */
#define _POSIX_C_SOURCE 200809L
#include "common/files.h"

#include <errno.h>
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

char *gs_read_file(const char *path, size_t max, const char *what, size_t *len, char *err,
                   size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = read_at_most(f, max, len);
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (text && !failed && *len <= max)
        return text;
    if (!text)
        snprintf(err, errlen, "out of memory reading %s", path);
    else if (failed)
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(failed));
    else
        snprintf(err, errlen, "%s is larger than %d MiB: not %s", path, (int)(max >> 20), what);
    free(text);
    return NULL;
}

int gs_replace_file(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    char tmp[4096];
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
        return -1;
    }
    int n = snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(err, errlen, "cannot replace %s: path too long", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot write beside %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        if (fd >= 0)
            remove(tmp);
        return -1;
    }
    int ok = fwrite(text, 1, len, f) == len && fchmod(fd, st.st_mode & 07777) == 0;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
