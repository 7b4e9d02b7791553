/* markdown.c - escaped markdown text, cells and rules (markdown.h). */
#include "report/markdown.h"

#include <string.h>

void gs_md_inline_escape(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (; *in; ++in) {
        unsigned char ch = (unsigned char)*in;
        int escape = strchr("\\*_`[]<>|", ch) != NULL && ch != '\0';
        if (n + (escape ? 2 : 1) >= len)
            break;
        if (escape)
            out[n++] = '\\';
        out[n++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
    }
    if (len)
        out[n] = '\0';
}

void gs_md_text(FILE *f, const char *s)
{
    char buf[1024];
    gs_md_inline_escape(s, buf, sizeof buf);
    fputs(buf, f);
}

void gs_md_code(FILE *f, const char *s)
{
    if (!s[0] || strpbrk(s, "`<>|\\") || strlen(s) > 1000) {
        gs_md_text(f, s);
        return;
    }
    fputc('`', f);
    for (; *s; ++s)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    fputc('`', f);
}

void gs_md_cell(FILE *f, const char *s)
{
    fputc(' ', f);
    gs_md_text(f, s);
    fputs(" |", f);
}

void gs_md_rule(FILE *f, int ncols)
{
    fputc('|', f);
    for (int c = 0; c < ncols; ++c)
        fputs("---|", f);
    fputc('\n', f);
}
