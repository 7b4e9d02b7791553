/* table.c - result tables: aligned text, CSV and JSON; rows that carry how
 * their figure was measured. */
#include "results/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/csv.h"

typedef struct cell {
    char *text;     /* printed form; NULL when unset */
    int is_number;
    double number;
} cell;

/* How a row's figure was measured (gs_table_set_measured). */
typedef struct measured {
    int has;
    double samples, noise, rel_min, rel_max;
    int timing;
} measured;

struct gs_table {
    char *title;
    int ncols, nrows, cap;
    char **cols;
    int *decimals; /* per column */
    cell *cells;   /* nrows x ncols */
    measured *meas; /* per row */
    int any_measured;
    int has_sampling;
    gs_sampling sampling;
    char *unknown; /* the first column name a gs_row_* call gave that the table lacks */
};

const char *gs_timing_name(int timing)
{
    return timing == GS_TIMING_COLD ? "cold" : timing == GS_TIMING_HOST ? "host" : "hot";
}

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
    free(t->meas);
    free(t->title);
    free(t->unknown);
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
        measured *m = realloc(t->meas, (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        t->meas = m;
        t->cap = cap;
    }
    memset(t->cells + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof(cell));
    memset(&t->meas[t->nrows], 0, sizeof t->meas[0]);
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

int gs_table_set_measured(gs_table *t, int col, const gs_stats *stats, double scale)
{
    if (t->nrows == 0 || gs_table_set(t, col, stats->median * scale) != 0)
        return -1;
    measured *m = &t->meas[t->nrows - 1];
    m->has = 1;
    m->samples = (double)stats->n;
    m->noise = stats->noise;
    m->rel_min = stats->median > 0 ? stats->min / stats->median : NAN;
    m->rel_max = stats->median > 0 ? stats->max / stats->median : NAN;
    m->timing = stats->timing;
    t->any_measured = 1;
    return 0;
}

/* The index of column `name`, or -1 (and the name kept, the first one). */
static int named(gs_table *t, const char *name)
{
    for (int c = 0; c < t->ncols; ++c)
        if (strcmp(t->cols[c], name) == 0)
            return c;
    if (!t->unknown)
        t->unknown = dup_str(name);
    return -1;
}

int gs_row_text(gs_table *t, const char *column, const char *text)
{
    return gs_table_set_text(t, named(t, column), text);
}

int gs_row_value(gs_table *t, const char *column, double value)
{
    return gs_table_set(t, named(t, column), value);
}

int gs_row_ratio(gs_table *t, const char *column, double num, double den)
{
    if (!(isfinite(num) && isfinite(den) && den > 0.0))
        return 0;
    return gs_row_value(t, column, num / den);
}

int gs_row_measured(gs_table *t, const char *column, const gs_stats *stats, double scale)
{
    return gs_table_set_measured(t, named(t, column), stats, scale);
}

const char *gs_table_unknown_column(const gs_table *t) { return t->unknown; }

void gs_table_set_sampling(gs_table *t, const gs_sampling *rule)
{
    t->has_sampling = rule != NULL;
    if (rule)
        t->sampling = *rule;
}

int gs_table_rows(const gs_table *t) { return t->nrows; }
const char *gs_table_title(const gs_table *t) { return t->title; }

/* The extra columns of the printed table and the CSV when rows were
 * measured: noise (a percentage) and samples. */
enum { EXTRA_NOISE, EXTRA_SAMPLES, NEXTRA };
static const char *const extra_names[NEXTRA] = {GS_ROW_NOISE, GS_ROW_SAMPLES};

static int total_columns(const gs_table *t) { return t->ncols + (t->any_measured ? NEXTRA : 0); }

static const char *column_name(const gs_table *t, int c)
{
    return c < t->ncols ? t->cols[c] : extra_names[c - t->ncols];
}

/* Cell (r, c) as printed, NULL when unset; an extra column's text is made
 * in `buf`. */
static const char *cell_or_null(const gs_table *t, int r, int c, char *buf, size_t len)
{
    if (c < t->ncols)
        return t->cells[(size_t)r * (size_t)t->ncols + (size_t)c].text;
    const measured *m = &t->meas[r];
    if (!m->has)
        return NULL;
    if (c - t->ncols == EXTRA_SAMPLES)
        snprintf(buf, len, "%.0f", m->samples);
    else if (isfinite(m->noise))
        snprintf(buf, len, "%.2f%%", 100.0 * m->noise);
    else
        return NULL;
    return buf;
}

static const char *cell_text(const gs_table *t, int r, int c, char *buf, size_t len)
{
    const char *s = cell_or_null(t, r, c, buf, len);
    return s ? s : "-";
}

void gs_table_print(const gs_table *t, FILE *out)
{
    int n = total_columns(t);
    int *w = calloc((size_t)n, sizeof *w);
    char buf[64];
    if (!w)
        return;
    for (int c = 0; c < n; ++c) {
        w[c] = (int)strlen(column_name(t, c));
        for (int r = 0; r < t->nrows; ++r) {
            int len = (int)strlen(cell_text(t, r, c, buf, sizeof buf));
            if (len > w[c])
                w[c] = len;
        }
    }
    if (t->title[0])
        fprintf(out, "%s\n", t->title);
    for (int c = 0; c < n; ++c)
        fprintf(out, "%s%*s", c ? "  " : "", w[c], column_name(t, c));
    fputc('\n', out);
    for (int c = 0; c < n; ++c) {
        fprintf(out, "%s", c ? "  " : "");
        for (int i = 0; i < w[c]; ++i)
            fputc('-', out);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; ++r) {
        for (int c = 0; c < n; ++c)
            fprintf(out, "%s%*s", c ? "  " : "", w[c], cell_text(t, r, c, buf, sizeof buf));
        fputc('\n', out);
    }
    free(w);
}

int gs_table_write_csv(const gs_table *t, FILE *out)
{
    gs_csv_row row;
    char buf[64];
    int n = total_columns(t);
    gs_csv_row_begin(&row, out);
    for (int c = 0; c < n; ++c)
        gs_csv_field(&row, column_name(t, c));
    gs_csv_row_end(&row);
    for (int r = 0; r < t->nrows; ++r) {
        gs_csv_row_begin(&row, out);
        for (int c = 0; c < n; ++c) {
            const char *text = cell_or_null(t, r, c, buf, sizeof buf);
            if (text && c - t->ncols == EXTRA_NOISE) /* the CSV's noise: a fraction */
                snprintf(buf, sizeof buf, "%.6f", t->meas[r].noise);
            gs_csv_field(&row, text);
        }
        gs_csv_row_end(&row);
    }
    return ferror(out) ? -1 : 0;
}

/* The measured row's GS_ROW_* fields. */
static void add_measured(cJSON *row, const measured *m)
{
    if (!m->has)
        return;
    cJSON_AddNumberToObject(row, GS_ROW_SAMPLES, m->samples);
    if (isfinite(m->noise))
        cJSON_AddNumberToObject(row, GS_ROW_NOISE, m->noise);
    if (isfinite(m->rel_min) && isfinite(m->rel_max)) {
        cJSON_AddNumberToObject(row, GS_ROW_REL_MIN, m->rel_min);
        cJSON_AddNumberToObject(row, GS_ROW_REL_MAX, m->rel_max);
    }
    cJSON_AddStringToObject(row, GS_ROW_TIMING, gs_timing_name(m->timing));
}

static void add_sampling(cJSON *root, const gs_sampling *r)
{
    cJSON *s = cJSON_AddObjectToObject(root, "sampling");
    if (!s)
        return;
    cJSON_AddStringToObject(s, "mode", r->cold ? "cold" : "hot");
    cJSON_AddNumberToObject(s, "min_samples", r->min_samples);
    cJSON_AddNumberToObject(s, "max_samples", r->max_samples);
    cJSON_AddNumberToObject(s, "min_time_s", r->min_time_s);
    cJSON_AddNumberToObject(s, "max_noise", r->max_noise);
    cJSON_AddNumberToObject(s, "timeout_s", r->timeout_s);
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
        add_measured(row, &t->meas[r]);
    }
    if (t->has_sampling)
        add_sampling(root, &t->sampling);
    return root;
}
