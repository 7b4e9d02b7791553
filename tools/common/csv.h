/* csv.h - the one CSV writer of the tools (RFC 4180): a field holding a
 * comma, a quote or a line break is quoted, its quotes doubled; a field that
 * a spreadsheet would run as a formula (it starts with = + - @, a tab or a
 * carriage return, and is not a plain number like "-1.5") is written as
 * text, a single quote before it, quoted (OWASP's advice on CSV injection);
 * other fields are written as they are. Rows end with "\n". */
#ifndef GS_COMMON_CSV_H
#define GS_COMMON_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A row being written. */
typedef struct gs_csv_row {
    FILE *out;
    int fields; /* written so far */
} gs_csv_row;

void gs_csv_row_begin(gs_csv_row *row, FILE *out);
/* The next field; NULL is an empty one. */
void gs_csv_field(gs_csv_row *row, const char *text);
void gs_csv_row_end(gs_csv_row *row);

#ifdef __cplusplus
}
#endif

#endif
