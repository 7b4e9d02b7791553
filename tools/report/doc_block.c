/* doc_block.c - generated blocks of markdown documents (doc_block.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/doc_block.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"

/* The next line of `doc` from `from` on that is `marker` alone (a line
 * break or the end after it, a '\r' allowed), or NULL. */
static const char *marker_line(const char *doc, const char *from, const char *marker)
{
    size_t n = strlen(marker);
    for (const char *p = strstr(from, marker); p; p = strstr(p + 1, marker)) {
        const char *after = p + n + (p[n] == '\r');
        if ((p == doc || p[-1] == '\n') && (*after == '\n' || *after == '\0'))
            return p;
    }
    return NULL;
}

/* The block `name` of `doc` (*len bytes at the returned address), or NULL
 * with why in `why`: none, or more than one. */
static const char *find_block(const char *doc, const char *name, size_t *len, const char **why)
{
    char begin[128], end[128];
    snprintf(begin, sizeof begin, "<!-- %s:begin -->", name);
    snprintf(end, sizeof end, "<!-- %s:end -->", name);
    const char *from = marker_line(doc, doc, begin);
    const char *to = from ? marker_line(doc, from, end) : NULL;
    *why = "no";
    if (!to)
        return NULL;
    *why = "more than one";
    if (marker_line(doc, from + 1, begin) || marker_line(doc, to + 1, end))
        return NULL;
    from = strchr(from, '\n') + 1; /* the begin line ends before `to` */
    *len = (size_t)(to - from);
    return from;
}

const char *gs_doc_find_block(const char *doc, const char *name, size_t *len)
{
    const char *why;
    return find_block(doc, name, len, &why);
}

/* Whether `len` bytes of `text` hold `marker` anywhere. */
static int holds(const char *text, size_t len, const char *marker)
{
    size_t n = strlen(marker);
    for (size_t i = 0; i + n <= len; ++i)
        if (memcmp(text + i, marker, n) == 0)
            return 1;
    return 0;
}

/* Whether `text` holds a marker of block `name` anywhere. */
static int holds_marker(const char *text, size_t len, const char *name)
{
    char begin[128], end[128];
    snprintf(begin, sizeof begin, "<!-- %s:begin -->", name);
    snprintf(end, sizeof end, "<!-- %s:end -->", name);
    return holds(text, len, begin) || holds(text, len, end);
}

int gs_doc_replace_block(const char *path, const char *name, const char *text, size_t len,
                         char *err, size_t errlen)
{
    size_t doc_len = 0, old_len = 0;
    char shown[GS_SHOWN_SIZE];
    const char *why;
    gs_shown(path, shown, sizeof shown);
    if (holds_marker(text, len, name)) {
        snprintf(err, errlen, "the new text of block %s holds one of its markers: %s left as it is",
                 name, shown);
        return -1;
    }
    char *doc = gs_read_file(path, GS_DOC_MAX_BYTES, "a markdown document", &doc_len, err,
                             errlen);
    if (!doc)
        return -1;
    const char *old = find_block(doc, name, &old_len, &why);
    if (!old) {
        snprintf(err, errlen, "%s has %s <!-- %s:begin --> ... <!-- %s:end --> block (each "
                              "marker on a line of its own)",
                 shown, why, name, name);
        free(doc);
        return -1;
    }
    size_t head = (size_t)(old - doc), tail = doc_len - head - old_len;
    char *out = malloc(head + len + tail + 1);
    int rc = -1;
    if (!out) {
        snprintf(err, errlen, "out of memory rewriting %s", shown);
    } else {
        memcpy(out, doc, head);
        memcpy(out + head, text, len);
        memcpy(out + head + len, old + old_len, tail);
        rc = gs_replace_file(path, out, head + len + tail, err, errlen);
    }
    free(out);
    free(doc);
    return rc;
}
