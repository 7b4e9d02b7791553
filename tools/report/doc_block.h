/* doc_block.h - the generated part of a markdown document: the lines between
 * "<!-- NAME:begin -->" and "<!-- NAME:end -->" (the README's results,
 * docs/results-schema.md's columns), replaced in place. */
#ifndef GS_REPORT_DOC_BLOCK_H
#define GS_REPORT_DOC_BLOCK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest document gs_doc_replace_block reads. */
#define GS_DOC_MAX_BYTES ((size_t)16 << 20)

/* Replace what stands between the markers of block `name` in the file
 * `path` with `len` bytes of `text` (lines, ending with a line break). 0, or
 * -1 with a sentence in `err` and the file untouched. */
int gs_doc_replace_block(const char *path, const char *name, const char *text, size_t len,
                         char *err, size_t errlen);

/* The block `name` of the text `doc`: *len bytes at the returned address,
 * or NULL when it has no such block. */
const char *gs_doc_find_block(const char *doc, const char *name, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
