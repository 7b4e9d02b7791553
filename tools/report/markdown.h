/* markdown.h - the one markdown writer of the tools (report.md, the README's
 * results section, docs/results-schema.md): text that stays in its table
 * cell and on its line, running text that shows as it is, table rows and
 * rules (report/format.h formats the values). */
#ifndef GS_REPORT_MARKDOWN_H
#define GS_REPORT_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `in` as markdown text that shows as it is, stays in its table cell and
 * on its line: \ * _ ` [ ] < > | backslash-escaped (emphasis, code, links,
 * autolinks and HTML of a results file stay text: no "<!-- -->", no
 * "javascript:" link), control characters (line breaks too) as spaces;
 * truncated to fit `len` bytes with the terminating NUL (an escape is
 * never cut in two). */
void gs_md_inline_escape(const char *in, char *out, size_t len);

/* `s`, escaped (at most 1023 bytes of it). */
void gs_md_text(FILE *f, const char *s);

/* `s` as code ("`s`", control characters as spaces) when it holds nothing
 * a code span cannot show as it is (` < > | \), else escaped text. */
void gs_md_code(FILE *f, const char *s);

/* " <s escaped> |": one cell of a row that the caller began with '|'. */
void gs_md_cell(FILE *f, const char *s);

/* "|---|---|\n" for `ncols` columns. */
void gs_md_rule(FILE *f, int ncols);

#ifdef __cplusplus
}
#endif

#endif
