/* doc_block.c - generated blocks of markdown documents (doc_block.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/doc_block.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"

const char *gs_doc_find_block(const char *doc, const char *name, size_t *len)
{
    char begin[128], end[128];
    snprintf(begin, sizeof begin, "<!-- %s:begin -->\n", name);
    snprintf(end, sizeof end, "<!-- %s:end -->", name);
    const char *from = strstr(doc, begin);
    const char *to = from ? strstr(from + strlen(begin), end) : NULL;
    if (!to)
        return NULL;
    from += strlen(begin);
    *len = (size_t)(to - from);
    return from;
}

int gs_doc_replace_block(const char *path, const char *name, const char *text, size_t len,
                         char *err, size_t errlen)
{
    size_t doc_len = 0, old_len = 0;
    char *doc = gs_read_file(path, GS_DOC_MAX_BYTES, "a markdown document", &doc_len, err,
                             errlen);
    if (!doc)
        return -1;
    const char *old = gs_doc_find_block(doc, name, &old_len);
    if (!old) {
        snprintf(err, errlen, "%s has no <!-- %s:begin --> ... <!-- %s:end --> block", path,
                 name, name);
        free(doc);
        return -1;
    }
    size_t head = (size_t)(old - doc), tail = doc_len - head - old_len;
    char *out = malloc(head + len + tail + 1);
    int rc = -1;
    if (!out) {
        snprintf(err, errlen, "out of memory rewriting %s", path);
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
