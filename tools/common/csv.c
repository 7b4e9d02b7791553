/* csv.c - CSV rows with RFC 4180 quoting and formulas neutralised (csv.h). */
#include "common/csv.h"

#include <string.h>

void gs_csv_row_begin(gs_csv_row *row, FILE *out)
{
    row->out = out;
    row->fields = 0;
}

/* A plain decimal number: an optional sign, digits with at most one '.',
 * an optional exponent ("-1.5", "2e-06"); nothing else. */
static int plain_number(const char *s)
{
    int digits = 0;
    s += *s == '-' || *s == '+';
    for (; *s >= '0' && *s <= '9'; ++s)
        ++digits;
    if (*s == '.')
        for (++s; *s >= '0' && *s <= '9'; ++s)
            ++digits;
    if (digits && (*s == 'e' || *s == 'E')) {
        s += 1 + (s[1] == '-' || s[1] == '+');
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            ++s;
    }
    return digits > 0 && *s == '\0';
}

void gs_csv_field(gs_csv_row *row, const char *s)
{
    if (row->fields++)
        fputc(',', row->out);
    if (!s)
        return;
    /* a spreadsheet runs a cell that starts like a formula: a quote first
     * makes it text (OWASP, CSV injection); a number stays a number */
    int formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] && !plain_number(s);
    if (!formula && !strpbrk(s, ",\"\n\r")) {
        fputs(s, row->out);
        return;
    }
    fputc('"', row->out);
    if (formula)
        fputc('\'', row->out);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', row->out);
        fputc(*s, row->out);
    }
    fputc('"', row->out);
}

void gs_csv_row_end(gs_csv_row *row) { fputc('\n', row->out); }
