/* csv.c - CSV rows with RFC 4180 quoting (csv.h). */
#include "common/csv.h"

#include <string.h>

void gs_csv_row_begin(gs_csv_row *row, FILE *out)
{
    row->out = out;
    row->fields = 0;
}

void gs_csv_field(gs_csv_row *row, const char *s)
{
    if (row->fields++)
        fputc(',', row->out);
    if (!s)
        return;
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, row->out);
        return;
    }
    fputc('"', row->out);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', row->out);
        fputc(*s, row->out);
    }
    fputc('"', row->out);
}

void gs_csv_row_end(gs_csv_row *row) { fputc('\n', row->out); }
