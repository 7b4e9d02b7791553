/*
 * gnuplot.h - figures (figure.h) drawn by gnuplot: per figure a data file
 * <file>.dat and the commands that draw <file>.png, gathered in plots.gp;
 * gnuplot run on it from an argument vector, never a shell.
 *
 * The script holds only what this program writes: the registry's texts
 * (labels, titles), colours, numbers it formatted, and file names made of
 * registry names and numbers. Everything that comes from a results file
 * (series names, categories, the GPU, the date) is in the data files, as
 * quoted strings with their quotes, backslashes and control characters
 * neutralised; gnuplot shows it as a legend entry, a tick label or a
 * heading, and never reads it as a command.
 *
 * A picture: a heading of two lines (what it shows; the GPU, CUDA, date,
 * timing and what the bars mean), the plot with gridsync's series in blues
 * and greens (solid) and the peers in oranges and reds (dashed), the
 * legend below it, ticks where the data are.
 */
#ifndef GS_REPORT_GNUPLOT_H
#define GS_REPORT_GNUPLOT_H

#include <stdio.h>

#include "report/figure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write `dir`/<f->file>.dat and the commands that draw <f->file>.png to
 * `gp`, with `subtitle` (data) as the heading's second line. 0, or -1 when
 * the data file cannot be written. */
int gs_figure_write(const gs_figure *f, const char *dir, const char *subtitle, FILE *gp);

/* Run gnuplot (`gnuplot`: its path) on `script` in `dir`, without a shell;
 * its messages go to gnuplot.log, which is removed when gnuplot succeeded
 * without a word. Returns 1 when it succeeded (*warned: it said something,
 * and gnuplot.log keeps it), else 0. */
int gs_plots_render(const char *dir, const char *gnuplot, const char *script, int *warned);

#ifdef __cplusplus
}
#endif

#endif
