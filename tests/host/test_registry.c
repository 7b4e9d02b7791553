/* test_registry.c - every registered benchmark suite is described whole:
 * its columns, presets, plots, README summary and reading (methods, key,
 * metric, headlines, column styles) name only what it has; every demo and
 * check too; `gridsync help` lists each of them. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/registry.h"
#include "results/table.h"
#include "suites/run.h"
#include "check/check.h"
#include "demo/demo.h"
#include "commands.h"
#include "report_support.h" /* slurp */

/* A name that may stand in a file name and a command line. */
static int plain(const char *s)
{
    return s && *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

static void assert_column(const gs_bench_suite *s, const char *name)
{
    if (gs_bench_suite_column(s, name) < 0)
        fail_msg("suite %s: '%s' is not one of its columns", s->name, name);
}

/* A format of one double: one conversion, f or g, and no other '%'. */
static void assert_number_format(const gs_bench_suite *s, const char *format)
{
    if (!format || strcmp(format, "2^") == 0)
        return;
    const char *p = strchr(format, '%');
    if (!p || strchr(p + 1, '%') || !strpbrk(p, "fg"))
        fail_msg("suite %s: format '%s' is not one of a number", s->name, format);
}

static void test_suites_and_columns(void **state)
{
    (void)state;
    assert_true(gs_bench_suite_count() > 0);
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        assert_true(plain(s->name));
        assert_ptr_equal(gs_bench_suite_find(s->name), s);
        assert_true(s->help[0] && s->title[0] && s->min_gpus >= 1);
        assert_non_null(gs_bench_runner_of(s)); /* (its run NULL: measured elsewhere) */
        assert_true(s->ncolumns > 0);
        for (int c = 0; c < s->ncolumns; ++c) {
            assert_true(plain(s->columns[c].name) && s->columns[c].unit &&
                        s->columns[c].meaning[0]);
            assert_int_equal(gs_bench_suite_column(s, s->columns[c].name), c);
            assert_true(s->columns[c].decimals >= 0 && s->columns[c].decimals <= 6);
        }
    }
    assert_null(gs_bench_suite_find("no such suite"));
}

/* The column names a file under tools/suites/<suite>/ gives gs_row_text,
 * gs_row_value and gs_row_measured as string literals (the run code's
 * cells) are that suite's columns: checked here, on the host, before a GPU
 * runs the code (a name it lacks would fail the run there). The folder
 * names the suite (reduce/ holds dot's code too: one table shape). */
static int row_columns_checked;

static void check_row_columns(const char *path, const gs_bench_suite *suite)
{
    const char *text = slurp(path);
    assert_non_null(text);
    for (const char *p = strstr(text, "gs_row_"); p; p = strstr(p + 1, "gs_row_")) {
        const char *open = strchr(p, '(');
        const char *comma = open ? strchr(open, ',') : NULL;
        if (!comma || strcspn(p, "(") > 16)
            continue;
        comma += strspn(comma + 1, " \n") + 1;
        if (*comma != '"')
            continue; /* a name passed through (a helper's parameter) */
        char name[64];
        size_t len = strcspn(comma + 1, "\"");
        assert_true(len < sizeof name);
        memcpy(name, comma + 1, len);
        name[len] = '\0';
        if (gs_bench_suite_column(suite, name) < 0)
            fail_msg("%s sets column '%s', which suite %s does not have", path, name,
                     suite->name);
        ++row_columns_checked;
    }
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    const char *dot = strrchr(path, '.');
    if (type != FTW_F || ftw->level < 2 || !dot ||
        (strcmp(dot, ".cu") != 0 && strcmp(dot, ".c") != 0 && strcmp(dot, ".cuh") != 0 &&
         strcmp(dot, ".h") != 0))
        return 0;
    const char *rel = strstr(path, "/tools/suites/") + strlen("/tools/suites/");
    char suite[64];
    size_t len = strcspn(rel, "/");
    assert_true(len < sizeof suite);
    memcpy(suite, rel, len);
    suite[len] = '\0';
    const gs_bench_suite *s = gs_bench_suite_find(suite);
    if (!s)
        fail_msg("tools/suites/%s/ is no suite's folder", suite);
    check_row_columns(path, s);
    return 0;
}

static void test_run_code_columns(void **state)
{
    (void)state;
    row_columns_checked = 0;
    assert_int_equal(nftw(GS_SOURCE_DIR "/tools/suites", visit, 16, FTW_PHYS), 0);
    assert_true(row_columns_checked > 50); /* the suites' cells were found */
}

static void test_presets(void **state)
{
    (void)state;
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        int sized = s->sizes[GS_PRESET_DEFAULT].count > 0;
        for (int p = 0; p < GS_PRESET_COUNT; ++p) {
            const gs_size_list *l = &s->sizes[p];
            assert_int_equal(l->count > 0, sized); /* every preset, or none */
            for (int k = 0; k < l->count; ++k) {
                assert_true(l->log2[k] >= 0 && l->log2[k] <= 34); /* what --sizes takes */
                assert_true(k == 0 || l->log2[k] > l->log2[k - 1]);
            }
        }
    }
}

/* A registry text that goes into gnuplot's script: no quote, no line break. */
static void assert_script_text(const gs_bench_suite *s, const char *text)
{
    if (text && strpbrk(text, "'\n\r\\"))
        fail_msg("suite %s: '%s' cannot stand in a gnuplot string", s->name, text);
}

static void test_plots(void **state)
{
    (void)state;
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        assert_true(s->nplots > 0); /* every suite is plotted */
        for (int p = 0; p < s->nplots; ++p) {
            const gs_plot_spec *g = &s->plots[p];
            if (g->facet)
                assert_column(s, g->facet);
            if (g->categories) {
                for (const char *const *c = g->categories; *c; ++c)
                    assert_column(s, *c);
            } else {
                assert_column(s, g->x);
            }
            assert_column(s, g->y);
            if (g->series)
                assert_column(s, g->series);
            else
                assert_true(g->style == GS_STYLE_BARS && g->categories != NULL);
            for (const char *const *c = g->same; c && *c; ++c)
                assert_column(s, *c);
            if (g->filter) {
                assert_column(s, g->filter);
                assert_non_null(g->filter_values);
            }
            assert_true((g->low == NULL) == (g->high == NULL));
            if (g->low) {
                assert_column(s, g->low);
                assert_column(s, g->high);
            }
            if (g->kind == GS_PLOT_RATIO)
                assert_true(g->baseline && g->baseline[0]);
            if (g->env_ceiling)
                assert_non_null(g->env_ceiling_label);
            assert_true(g->logx == 0 || g->logx == 2 || g->logx == 10);
            assert_true(g->logy == 0 || g->logy == 2 || g->logy == 10);
            assert_true(g->xlabel && g->ylabel && g->xformat && g->title);
            assert_true(plain(g->name) && strlen(g->name) <= 24);
            for (int q = 0; q < p; ++q) /* one file name per plot */
                assert_true(strcmp(s->plots[q].name, g->name) != 0);
            assert_script_text(s, g->xlabel);
            assert_script_text(s, g->ylabel);
        }
    }
}

/* Every entry of a NULL-ended list is a method (non-empty), none twice. */
static void assert_methods(const gs_bench_suite *s, const char *const *list)
{
    assert_non_null(list);
    assert_non_null(list[0]);
    for (const char *const *m = list; *m; ++m) {
        assert_true((*m)[0] != '\0');
        for (const char *const *o = list; o < m; ++o)
            if (strcmp(*o, *m) == 0)
                fail_msg("suite %s: method '%s' listed twice", s->name, *m);
    }
}

/* Whether `m` is one of the reading's methods, ours or a peer. */
static int gs_listed_method(const gs_reading *r, const char *m)
{
    for (const char *const *o = r->ours; *o; ++o)
        if (strcmp(*o, m) == 0)
            return 1;
    for (const char *const *p = r->peers; *p; ++p)
        if (strcmp(*p, m) == 0)
            return 1;
    return 0;
}

static void test_readings(void **state)
{
    (void)state;
    static const char *const generic[] = {GS_ROW_SAMPLES, GS_ROW_NOISE, GS_ROW_REL_MIN,
                                          GS_ROW_REL_MAX, GS_ROW_TIMING};
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        const gs_reading *r = s->reading;
        if (!r)
            fail_msg("suite %s describes no reading (results/reading.h)", s->name);
        assert_column(s, r->method);
        assert_methods(s, r->ours);
        assert_methods(s, r->peers);
        for (const char *const *m = r->ours; *m; ++m)
            for (const char *const *p = r->peers; *p; ++p)
                assert_true(strcmp(*m, *p) != 0); /* ours or a peer, never both */
        int has_method = 0;
        for (const char *const *k = r->key; k && *k; ++k) {
            assert_column(s, *k);
            has_method |= strcmp(*k, r->method) == 0;
        }
        assert_true(has_method);
        assert_column(s, r->metric);
        for (int h = 0; h < r->nheadlines; ++h) {
            const gs_headline *l = &r->headlines[h];
            assert_true(l->peer && l->peer[0]);
            assert_column(s, l->metric);
            for (const char *const *c = l->group_by; c && *c; ++c)
                assert_column(s, *c);
            for (const char *const *c = l->describe; c && *c; ++c)
                assert_column(s, *c);
            if (l->filter)
                assert_column(s, l->filter);
        }
        assert_true(r->nheadlines > 0);
        for (int w = 0; w < r->nwinners; ++w) { /* the fastest method per group */
            const gs_winners *x = &r->winners[w];
            assert_true(x->title && x->title[0] && x->npicks > 0);
            for (const char *const *c = x->group_by; c && *c; ++c)
                assert_column(s, *c);
            if (x->filter)
                assert_column(s, x->filter);
            for (int p = 0; p < x->npicks; ++p)
                for (const char *const *m = x->picks[p].among; m && *m; ++m)
                    if (!gs_listed_method(r, *m))
                        fail_msg("suite %s: winners pick '%s' names '%s', neither ours nor a "
                                 "peer", s->name, x->picks[p].header, *m);
        }
        for (int k = 0; k < r->nstyles; ++k) {
            assert_column(s, r->styles[k].column);
            assert_true(r->styles[k].label && r->styles[k].label[0] &&
                        strlen(r->styles[k].label) < 64);
            assert_script_text(s, r->styles[k].label); /* --compare's axis labels */
        }
        for (int g = 0; g < 5; ++g) /* the measured rows' fields are no column's names */
            assert_int_equal(gs_bench_suite_column(s, generic[g]), -1);
    }
}

static void test_summaries(void **state)
{
    (void)state;
    for (int i = 0; i < gs_bench_suite_count(); ++i) {
        const gs_bench_suite *s = gs_bench_suite_at(i);
        const gs_summary_spec *m = s->summary;
        if (!m)
            continue;
        assert_true(m->intro && m->ncolumns > 0);
        assert_column(s, m->pivot);
        for (const char *const *c = m->group_by; c && *c; ++c)
            assert_column(s, *c);
        if (m->filter)
            assert_column(s, m->filter);
        for (int c = 0; c < m->ncolumns; ++c) {
            const gs_summary_column *col = &m->columns[c];
            assert_true(col->header && col->header[0]);
            assert_number_format(s, col->format);
            if (col->kind == GS_SUMMARY_SHAPE) {
                assert_non_null(m->group_by);
                continue;
            }
            assert_column(s, col->column);
            if (col->kind == GS_SUMMARY_VALUE || col->kind == GS_SUMMARY_RATIO)
                assert_non_null(col->method);
            if (col->kind == GS_SUMMARY_RATIO)
                assert_non_null(col->over);
            if (col->kind == GS_SUMMARY_BEST)
                assert_non_null(m->best_of);
        }
    }
}

static void test_demos_and_checks(void **state)
{
    (void)state;
    assert_true(gs_demo_count() > 0 && gs_check_count() > 0);
    for (int i = 0; i < gs_demo_count(); ++i) {
        const gs_demo *d = gs_demo_at(i);
        assert_true(d->name[0] &&
                    strspn(d->name, "abcdefghijklmnopqrstuvwxyz-") == strlen(d->name));
        assert_ptr_equal(gs_demo_find(d->name), d);
        assert_true(d->help[0] && d->run && d->default_runs >= 0);
    }
    assert_null(gs_demo_find("no such demo"));
    for (int i = 0; i < gs_check_count(); ++i) {
        const gs_check *c = gs_check_at(i);
        assert_true(c->name[0] && strlen(c->name) <= 22 && c->help[0] && c->run);
        for (int j = 0; j < i; ++j)
            assert_true(strcmp(gs_check_at(j)->name, c->name) != 0);
    }
}

/* `gridsync help COMMAND` lists `name` at the start of a line. */
static void assert_listed(const char *command, const char *name)
{
    static char buf[1 << 14];
    char line[64];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    assert_int_equal(gs_print_help(f, command), 0);
    fclose(f);
    snprintf(line, sizeof line, "\n  %s ", name);
    if (!strstr(buf, line))
        fail_msg("gridsync help %s does not list '%s'", command, name);
}

static void test_help_lists_everything(void **state)
{
    (void)state;
    for (int i = 0; i < gs_bench_suite_count(); ++i)
        assert_listed("bench", gs_bench_suite_at(i)->name);
    for (int i = 0; i < gs_demo_count(); ++i)
        assert_listed("demo", gs_demo_at(i)->name);
    for (int i = 0; i < gs_check_count(); ++i)
        assert_listed("check", gs_check_at(i)->name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suites_and_columns),
        cmocka_unit_test(test_run_code_columns),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_plots),
        cmocka_unit_test(test_readings),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_demos_and_checks),
        cmocka_unit_test(test_help_lists_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
