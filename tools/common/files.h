/* files.h - folders and whole files for the tools: creating an output
 * folder, reading a file of bounded size, replacing a file's contents
 * without leaving it half written. */
#ifndef GS_COMMON_FILES_H
#define GS_COMMON_FILES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A path formatted into `buf` (printf); 0, or -1 if it does not fit. */
int gs_path_of(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A sentence into `err` (printf): what a function that fails says. */
void gs_errorf(char *err, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* mkdir -p `dir`; 0 or -1 (errno set). */
int gs_make_dirs(const char *dir);

/* The whole of the file `path` (NUL-terminated; *len bytes) when it holds at
 * most `max` bytes; the caller frees it. NULL with a sentence in `err`:
 * "cannot open P: why", "cannot read P: why", "out of memory reading P", or
 * "P is larger than N MiB: not <what>". */
char *gs_read_file(const char *path, size_t max, const char *what, size_t *len, char *err,
                   size_t errlen);

/* Replace the contents of `path` with `len` bytes of `text`: written to a
 * new file beside it (with its permissions), then renamed over it. 0, or -1
 * with a sentence in `err` (and `path` untouched). */
int gs_replace_file(const char *path, const char *text, size_t len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
