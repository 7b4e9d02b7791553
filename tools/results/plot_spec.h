/*
 * plot_spec.h - what a suite plots, as the report draws it with gnuplot:
 * one picture per value of `facet`, `y` against `x` (or against evenly
 * spaced categories), one line or set of bars per value of `series`. Every
 * name is one of the suite's columns; texts (labels, titles) are the
 * registry's and reach the gnuplot script, never a value of the results,
 * which travels in the data files.
 *
 * Kinds: a value (time, bandwidth) or a ratio against a baseline series
 * (a speedup: the baseline's time over this one's, with a line at 1.0).
 * Series of gridsync's methods are drawn in one colour family (solid), the
 * peers in another (dashed); min-max bars from `low`/`high`, else from the
 * rows' fastest and slowest sample (rel_min, rel_max), where there are.
 */
#ifndef GS_BENCH_PLOT_SPEC_H
#define GS_BENCH_PLOT_SPEC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_plot_kind {
    GS_PLOT_VALUE = 0, /* y as it is */
    GS_PLOT_RATIO      /* y of `baseline` / y of the series (a speedup; with y_rate the
                        * inverse), row by row at the same x; a line at 1.0 */
} gs_plot_kind;

typedef enum gs_plot_style {
    GS_STYLE_LINES = 0, /* lines and points */
    GS_STYLE_BARS       /* bars side by side at each x; a ratio's bars start at 1.0 */
} gs_plot_style;

typedef struct gs_plot_spec {
    const char *facet;        /* one picture per value; NULL: one picture */
    const char *x, *y;        /* the axes' columns (x: NULL with `categories`) */
    const char *series;       /* one line per value; NULL: one, bars coloured by method */
    const char *xlabel, *ylabel;
    int logx, logy;           /* log scale base (2, 10); 0: linear */
    const char *xformat;      /* "2^%L": x ticks as powers of two; else numbers */
    const char *const *same;  /* keep rows whose columns here hold one value (NULL-ended);
                               * NULL: every row */
    const char *subset;       /* which rows `same` keeps ("square shapes"), for the title */
    const char *name;         /* the picture's file: <suite>-<name>[-<facet>].png */
    const char *title;        /* what it shows: the first line of its heading */
    gs_plot_kind kind;
    const char *baseline;     /* GS_PLOT_RATIO: the series divided by (the peer) */
    int y_rate;               /* y grows as the time shrinks (GB/s, TFLOP/s) */
    gs_plot_style style;
    const char *const *categories; /* x is categorical: these columns' values, evenly
                                    * spaced in first-seen (numbers: rising) order */
    const char *category_sep; /* joins a category's values ("x": "512x512x512"); NULL: the
                               * first, then the others in parentheses */
    const char *filter;       /* keep rows whose `filter` column is one of */
    const char *const *filter_values; /* these (NULL-ended) */
    double xmin, xmax;        /* numeric x: keep xmin <= x <= xmax (0: no bound) */
    const char *low, *high;   /* columns of y's fastest and slowest sample, in y's unit;
                               * NULL: the rows' rel_min and rel_max */
    const char *ceiling;      /* a series drawn as a horizontal line at its y (a measured
                               * ceiling: the copy bandwidth), not as a series */
    const char *env_ceiling;  /* an environment number drawn as a horizontal line */
    const char *env_ceiling_label; /* its legend text */
} gs_plot_spec;

#ifdef __cplusplus
}
#endif

#endif
