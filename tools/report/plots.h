/* plots.h - a suite's plots in a report's folder: <suite>-<name>.dat, the
 * commands that draw <suite>-<name>.png in plots.gp, and gnuplot run on it. */
#ifndef GS_REPORT_PLOTS_H
#define GS_REPORT_PLOTS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "bench/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a report is written. */
typedef struct gs_plot_out {
    const char *dir; /* the folder */
    FILE *md;        /* report.md: which value a picture named by index shows */
    FILE *gp;        /* plots.gp */
    int nplots;      /* pictures in plots.gp so far */
} gs_plot_out;

/* The plots `suite` describes, of its results `table`: a picture per facet
 * value, named by the value when every value is a plain name
 * ([A-Za-z0-9._-], up to 48), else by its index from 1 (and report.md says
 * which value that is). 0, or -1 when a data file cannot be written. */
int gs_plot_suite(const gs_bench_suite *suite, const cJSON *table, gs_plot_out *o);

/* Run gnuplot (`gnuplot`: its path) on plots.gp in `dir`, without a shell;
 * its messages go to gnuplot.log, removed when it succeeds. 1 if it did. */
int gs_plots_render(const char *dir, const char *gnuplot);

#ifdef __cplusplus
}
#endif

#endif
