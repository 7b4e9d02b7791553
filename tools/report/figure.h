/*
 * figure.h - the pictures a plot description (results/plot_spec.h) makes of a
 * suite's results, as numbers and labels, before any gnuplot: one figure per
 * facet value, its series (gridsync's or a peer's, with a colour that stays
 * the same in every figure of the plot), their points (a ratio already
 * divided; min-max bars where the results have them), its categories and
 * its horizontal lines (the 1.0 of a ratio, measured and datasheet
 * ceilings). Pure: tested on the host.
 *
 * Every text here that comes from a results file (series names, category
 * labels, facet values) is data: gnuplot gets it from a data file only.
 */
#ifndef GS_REPORT_FIGURE_H
#define GS_REPORT_FIGURE_H

#include <cjson/cJSON.h>

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    GS_FIG_FACETS = 16, /* pictures per plot at most */
    GS_FIG_SERIES = 16, /* series per picture */
    GS_FIG_CATS = 48,   /* categories per picture */
    GS_FIG_POINTS = 64, /* points per series */
    GS_FIG_LINES = 4,   /* horizontal lines */
    GS_FIG_TEXT = 128   /* bytes of a label */
};

typedef struct gs_fig_point {
    double x;      /* the x value, or the category's index */
    double y;
    double lo, hi; /* the fastest and slowest sample as y; NAN: no bar */
    int ours;      /* the row's method is gridsync's */
    int colour;    /* its method's place in its family (bars of a plot without series) */
} gs_fig_point;

typedef struct gs_fig_series {
    char name[GS_FIG_TEXT];  /* the legend's text ("" for the one series of a plot
                              * without `series`) */
    int ours;                /* a method of gridsync's (colour family) */
    int colour;              /* its place in its family, the same in every facet */
    int npoints;
    gs_fig_point points[GS_FIG_POINTS]; /* by rising x */
} gs_fig_series;

typedef enum gs_fig_line_kind {
    GS_LINE_REFERENCE, /* the 1.0 of a ratio */
    GS_LINE_MEASURED,  /* a ceiling measured in the same run */
    GS_LINE_DATASHEET  /* a ceiling from the environment */
} gs_fig_line_kind;

typedef struct gs_fig_line {
    char label[GS_FIG_TEXT];
    double y;
    gs_fig_line_kind kind;
} gs_fig_line;

typedef struct gs_figure {
    const gs_plot_spec *spec;
    char file[96];                 /* <suite>-<name>[-<facet>]: registry names, a facet's
                                    * number, or its index (never its text) */
    char title[2 * GS_FIG_TEXT];   /* the spec's title and the facet ("threads 256") */
    char facet[GS_FIG_TEXT];       /* "<facet label> = <value>", or "" */
    int categorical;
    int ncats;
    char cats[GS_FIG_CATS][GS_FIG_TEXT];
    int nseries;                   /* with points in this picture */
    gs_fig_series series[GS_FIG_SERIES];
    int nlines;
    gs_fig_line lines[GS_FIG_LINES];
    int bars;                      /* some point has a min-max bar */
    double xmin, xmax;             /* of the points (numeric x) */
    double ymin, ymax;             /* of points, bars and lines */
    double samples;                /* samples per point when they are all the same, else 0 */
    int timing;                    /* the rows' timing when all the same: 0 hot, 1 cold,
                                    * 2 host, -1 mixed or not recorded */
} gs_figure;

/* The figures of plot `index` of `suite` from its results `table` (`env`:
 * the results' environment, for an environment ceiling; may be NULL): one
 * per facet value that has points, in first-seen order (at most
 * GS_FIG_FACETS). *figures is malloc'ed (the caller frees it; NULL when
 * none). The count, or -1 when out of memory. */
int gs_figures_build(const gs_bench_suite *suite, int index, const cJSON *table,
                     const cJSON *env, gs_figure **figures);

/* The same for a plot description that is not the suite's (--compare's). */
int gs_figures_of_spec(const gs_bench_suite *suite, const gs_plot_spec *spec,
                       const cJSON *table, const cJSON *env, gs_figure **figures);

/* Whether `method` is one of gridsync's in `suite` (renamed methods by
 * their current name). */
int gs_method_is_ours(const gs_bench_suite *suite, const char *method);

#ifdef __cplusplus
}
#endif

#endif
