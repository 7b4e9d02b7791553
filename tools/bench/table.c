/* table.c - result tables: aligned text, CSV and JSON. */
#include "bench/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"

typedef struct cell {
    char *text;     /* printed form; NULL when unset */
    int is_number;
    double number;
} cell;

struct gs_table {
    char *title;
    int ncols, nrows, cap;
    char **cols;
    int *decimals; /* per column */
    cell *cells;   /* nrows x ncols */
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* A table of `ncols` columns named by `names`, with decimals 3, or as
 * `described` names them and gives their decimals. */
static gs_table *new_table(const char *title, int ncols, const char *const *names,
                           const gs_column *described)
{
    gs_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    t->title = dup_str(title ? title : "");
    t->cols = calloc((size_t)ncols, sizeof *t->cols);
    t->decimals = calloc((size_t)ncols, sizeof *t->decimals);
    if (!t->title || !t->cols || !t->decimals) {
        gs_table_free(t);
        return NULL;
    }
    for (int c = 0; c < ncols; ++c) {
        t->decimals[c] = described ? described[c].decimals : 3;
        if (!(t->cols[c] = dup_str(described ? described[c].name : names[c]))) {
            gs_table_free(t);
            return NULL;
        }
    }
    return t;
}

gs_table *gs_table_new(const char *title, int ncols, const char *const *cols)
{
    return new_table(title, ncols, cols, NULL);
}

gs_table *gs_table_new_columns(const char *title, int ncols, const gs_column *cols)
{
    return new_table(title, ncols, NULL, cols);
}

void gs_table_free(gs_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nrows * t->ncols; ++i)
        free(t->cells[i].text);
    for (int c = 0; c < t->ncols && t->cols; ++c)
        free(t->cols[c]);
    free(t->cols);
    free(t->decimals);
    free(t->cells);
    free(t->title);
    free(t);
}

int gs_table_add_row(gs_table *t)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        cell *c = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *c);
        if (!c)
            return -1;
        t->cells = c;
        t->cap = cap;
    }
    memset(t->cells + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof(cell));
    t->nrows++;
    return 0;
}

static cell *current(gs_table *t, int col)
{
    if (t->nrows == 0 || col < 0 || col >= t->ncols)
        return NULL;
    return &t->cells[(size_t)(t->nrows - 1) * (size_t)t->ncols + (size_t)col];
}

int gs_table_set_text(gs_table *t, int col, const char *text)
{
    cell *c = current(t, col);
    if (!c)
        return -1;
    free(c->text);
    c->is_number = 0;
    c->text = dup_str(text);
    return c->text ? 0 : -1;
}

int gs_table_set_number(gs_table *t, int col, double value, int decimals)
{
    char buf[64];
    cell *c = current(t, col);
    if (!c)
        return -1;
    if (isfinite(value))
        snprintf(buf, sizeof buf, "%.*f", decimals, value);
    else
        snprintf(buf, sizeof buf, "%s", isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
    free(c->text);
    c->text = dup_str(buf);
    c->is_number = 1;
    c->number = value;
    return c->text ? 0 : -1;
}

int gs_table_set(gs_table *t, int col, double value)
{
    if (col < 0 || col >= t->ncols)
        return -1;
    return gs_table_set_number(t, col, value, t->decimals[col]);
}

int gs_table_rows(const gs_table *t) { return t->nrows; }
const char *gs_table_title(const gs_table *t) { return t->title; }

static const char *cell_text(const gs_table *t, int r, int c)
{
    const char *s = t->cells[(size_t)r * (size_t)t->ncols + (size_t)c].text;
    return s ? s : "-";
}

void gs_table_print(const gs_table *t, FILE *out)
{
    int *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < t->ncols; ++c) {
        w[c] = (int)strlen(t->cols[c]);
        for (int r = 0; r < t->nrows; ++r) {
            int len = (int)strlen(cell_text(t, r, c));
            if (len > w[c])
                w[c] = len;
        }
    }
    if (t->title[0])
        fprintf(out, "%s\n", t->title);
    for (int c = 0; c < t->ncols; ++c)
        fprintf(out, "%s%*s", c ? "  " : "", w[c], t->cols[c]);
    fputc('\n', out);
    for (int c = 0; c < t->ncols; ++c) {
        fprintf(out, "%s", c ? "  " : "");
        for (int i = 0; i < w[c]; ++i)
            fputc('-', out);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; ++r) {
        for (int c = 0; c < t->ncols; ++c)
            fprintf(out, "%s%*s", c ? "  " : "", w[c], cell_text(t, r, c));
        fputc('\n', out);
    }
    free(w);
}

int gs_table_write_csv(const gs_table *t, FILE *out)
{
    gs_csv_row row;
    gs_csv_row_begin(&row, out);
    for (int c = 0; c < t->ncols; ++c)
        gs_csv_field(&row, t->cols[c]);
    gs_csv_row_end(&row);
    for (int r = 0; r < t->nrows; ++r) {
        gs_csv_row_begin(&row, out);
        for (int c = 0; c < t->ncols; ++c)
            gs_csv_field(&row, t->cells[(size_t)r * (size_t)t->ncols + (size_t)c].text);
        gs_csv_row_end(&row);
    }
    return ferror(out) ? -1 : 0;
}

cJSON *gs_table_to_json(const gs_table *t)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *cols = cJSON_AddArrayToObject(root, "columns");
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    if (!root || !cols || !rows || !cJSON_AddStringToObject(root, "title", t->title)) {
        cJSON_Delete(root);
        return NULL;
    }
    for (int c = 0; c < t->ncols; ++c)
        cJSON_AddItemToArray(cols, cJSON_CreateString(t->cols[c]));
    for (int r = 0; r < t->nrows; ++r) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddItemToArray(rows, row);
        for (int c = 0; c < t->ncols; ++c) {
            const cell *x = &t->cells[(size_t)r * (size_t)t->ncols + (size_t)c];
            if (!x->text)
                cJSON_AddNullToObject(row, t->cols[c]);
            else if (x->is_number && isfinite(x->number))
                cJSON_AddNumberToObject(row, t->cols[c], x->number);
            else
                cJSON_AddStringToObject(row, t->cols[c], x->text);
        }
    }
    return root;
}
