/* paths.c - output paths, checked before any work starts. */
#define _POSIX_C_SOURCE 200809L
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"

/* NULL when `dir` is a folder this process may write in, else why not. */
static const char *unwritable_folder(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? "does not exist" : strerror(errno);
    if (!S_ISDIR(st.st_mode))
        return "is not a folder";
    return access(dir, W_OK | X_OK) == 0 ? NULL : "is not writable";
}

/* Why the file `path` itself cannot be written over, or NULL: what
 * gs_open_output refuses (a link, a FIFO, a device), said before any work. */
static const char *unwritable_file(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return NULL; /* a new file */
    if (S_ISDIR(st.st_mode))
        return "is a folder, not a file";
    if (S_ISLNK(st.st_mode))
        return "is a symbolic link (name the file itself)";
    if (!S_ISREG(st.st_mode))
        return "is not a regular file (a FIFO, a device or a socket)";
    return access(path, W_OK) == 0 ? NULL : "is not writable";
}

int gs_check_output_path(const char *path, const char *name, int prefix, char *err,
                         size_t errlen)
{
    if (!*path) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    char *dir = strdup(path); /* the folder: all before the last '/' */
    if (!dir) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        dir[1] = '\0'; /* "/x": the root folder */
    else if (slash)
        *slash = '\0';
    const char *folder = slash ? dir : ".";
    const char *why = unwritable_folder(folder), *file_why = NULL;
    char shown[GS_SHOWN_SIZE], shown_folder[GS_SHOWN_SIZE];
    gs_shown(path, shown, sizeof shown);
    if (why)
        snprintf(err, errlen, "%s '%s': folder '%s' %s", name, shown,
                 gs_shown(folder, shown_folder, sizeof shown_folder), why);
    else if (!prefix && (file_why = unwritable_file(path)) != NULL)
        snprintf(err, errlen, "%s '%s': %s", name, shown, file_why);
    free(dir);
    return why || file_why ? -1 : 0;
}

int gs_prepare_output_dir(const char *dir, const char *name, char *err, size_t errlen)
{
    if (!*dir) {
        snprintf(err, errlen, "%s: a value is required", name);
        return -1;
    }
    char shown[GS_SHOWN_SIZE];
    gs_shown(dir, shown, sizeof shown);
    errno = 0;
    if (gs_make_dirs(dir) != 0) {
        snprintf(err, errlen, "%s '%s': cannot create it (%s)", name, shown,
                 errno ? strerror(errno) : "path too long");
        return -1;
    }
    const char *why = unwritable_folder(dir);
    if (why)
        snprintf(err, errlen, "%s '%s': %s", name, shown, why);
    return why ? -1 : 0;
}

int gs_path_for_device(const char *path, int ordinal, int n, char *buf, size_t len)
{
    if (n <= 1)
        return snprintf(buf, len, "%s", path) < (int)len ? 0 : -1;
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) /* no extension, or a name like ".hidden" */
        dot = base + strlen(base);
    int w = snprintf(buf, len, "%.*s-dev%d%s", (int)(dot - path), path, ordinal, dot);
    return w >= 0 && w < (int)len ? 0 : -1;
}
