/* plot_spec.h - what a suite plots, as the report draws it with gnuplot:
 * one picture per value of `facet`, `y` against `x`, one line per value of
 * `series`. Every name is one of the suite's columns. */
#ifndef GS_BENCH_PLOT_SPEC_H
#define GS_BENCH_PLOT_SPEC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_plot_spec {
    const char *facet;        /* one picture per value; NULL: one picture ("all") */
    const char *x, *y;        /* the axes' columns */
    const char *series;       /* one line per value */
    const char *xlabel, *ylabel;
    int logx, logy;           /* log scale base (2, 10); 0: linear */
    const char *xformat;      /* gnuplot format of the x tics ("2^%L": powers of 2) */
    const char *const *same;  /* keep rows whose columns here hold one value (NULL-ended);
                               * NULL: every row */
    const char *subset;       /* a one-picture plot's title after the suite's name:
                               * which rows `same` keeps ("square shapes"); NULL: none */
} gs_plot_spec;

#ifdef __cplusplus
}
#endif

#endif
