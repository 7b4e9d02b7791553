/* schema.c - every suite's columns as a markdown table (schema.h). */
#include "report/schema.h"

#include "results/registry.h"
#include "report/markdown.h"

void gs_schema_write(FILE *out)
{
    static const char *const headers[] = {"suite", "column", "unit", "meaning"};
    fputc('|', out);
    for (int c = 0; c < 4; ++c)
        gs_md_cell(out, headers[c]);
    fputc('\n', out);
    gs_md_rule(out, 4);
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        for (int c = 0; c < s->ncolumns; ++c)
            fprintf(out, "| `%s` | `%s` | %s | %s |\n", s->name, s->columns[c].name,
                    s->columns[c].unit, s->columns[c].meaning);
    }
}
