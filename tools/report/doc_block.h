/* doc_block.h - the generated part of a markdown document: the lines between
 * "<!-- NAME:begin -->" and "<!-- NAME:end -->" (the README's results,
 * docs/results-schema.md's columns), replaced in place. A marker counts
 * only as a line of its own, and only one block of a name: a marker inside
 * a line (a GPU name from a results file) ends nothing, and new text that
 * holds a marker is refused, so that a block cannot swallow the rest of the
 * document or leave part of itself behind. */
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
 * -1 with a sentence in `err` and the file untouched (no block, more than
 * one, or `text` holding a marker). */
int gs_doc_replace_block(const char *path, const char *name, const char *text, size_t len,
                         char *err, size_t errlen);

/* The block `name` of the text `doc`: *len bytes at the returned address,
 * or NULL when it has no such block or more than one. */
const char *gs_doc_find_block(const char *doc, const char *name, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
