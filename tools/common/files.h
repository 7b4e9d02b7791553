/* files.h - folders and whole files for the tools: creating an output
 * folder, reading a file of bounded size, opening an output file that is
 * no link, FIFO or device, replacing a file's contents without leaving it
 * half written; and what an error message shows of a path or an argument. */
#ifndef GS_COMMON_FILES_H
#define GS_COMMON_FILES_H

#include <stddef.h>
#include <stdio.h>

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

/* The most an error message shows of one thing the user gave (a path, an
 * argument, a name from a file), with the "..." that says it was cut. */
#define GS_SHOWN_MAX 160
#define GS_SHOWN_SIZE (GS_SHOWN_MAX + 4)

/* `text` as an error message may echo it, into `buf` (GS_SHOWN_SIZE bytes
 * hold any): control characters (line breaks, escapes) as '?', and at most
 * GS_SHOWN_MAX bytes of it, cut at a character's start and ended with
 * "..." when longer. Every message that echoes what a user typed or a file
 * held passes it through here. Returns `buf`; NULL `text` shows as "". */
const char *gs_shown(const char *text, char *buf, size_t len);

/* mkdir -p `dir`; 0 or -1 (errno set). */
int gs_make_dirs(const char *dir);

/* The whole of the file `path` (NUL-terminated; *len bytes) when it holds at
 * most `max` bytes; the caller frees it. Only a regular file is read: a
 * FIFO, a device or a folder is refused without waiting on it. NULL with a
 * sentence in `err`: "cannot open P: why", "cannot read P: why", "out of
 * memory reading P", or "P is larger than N MiB: not <what>" (P shown as
 * gs_shown shows it). */
char *gs_read_file(const char *path, size_t max, const char *what, size_t *len, char *err,
                   size_t errlen);

/* `path` open for writing from its start, created if need be (0666 less
 * the umask), when it is, or becomes, a regular file of its own: a symbolic
 * link (one planted in an output folder would lead out of it), a FIFO, a
 * device or a socket (which would block or never end), a folder, or a file
 * with other hard links is refused without waiting and left as it was.
 * Every file the tools write goes through here (or gs_replace_file). The
 * descriptor, or -1 with "cannot write P: why" in `err`. */
int gs_open_output_fd(const char *path, char *err, size_t errlen);

/* The same as a stream ("w"), or NULL with the sentence in `err`. */
FILE *gs_open_output(const char *path, char *err, size_t errlen);

/* Remove what stands at `path` unless it is a folder (a link itself, not
 * what it points to), so that a program writing there (gnuplot) creates a
 * file anew. 0 when nothing stands there now, else -1 (errno set). */
int gs_clear_path(const char *path);

/* Replace the contents of `path` with `len` bytes of `text`: written to a
 * new file beside it (with its permissions), then renamed over it. 0, or -1
 * with a sentence in `err` (and `path` untouched). */
int gs_replace_file(const char *path, const char *text, size_t len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
