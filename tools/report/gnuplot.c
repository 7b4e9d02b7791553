/* gnuplot.c - figures as gnuplot data and commands (gnuplot.h). */
#define _POSIX_C_SOURCE 200809L
#include "report/gnuplot.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"
#include "common/spawn.h"

/* gridsync's colours (blues, greens, a purple) and the peers' (oranges,
 * reds, a brown, a grey), each in the order a plot's series take them. */
static const char *const ours_palette[] = {"#08519c", "#31a354", "#6baed6", "#756bb1",
                                           "#006d2c", "#3182bd", "#74c476", "#9e9ac8"};
static const char *const peer_palette[] = {"#e6550d", "#a50f15", "#fd8d3c", "#8c6d31",
                                           "#de2d26", "#636363", "#fdae6b", "#bd9e39"};
enum { PALETTE = 8 };
static const int ours_points[] = {7, 5, 9, 11, 13}; /* filled */
static const int peer_points[] = {6, 4, 8, 10, 12}; /* open */

static const char *colour_of(int ours, int k)
{
    return ours ? ours_palette[k % PALETTE] : peer_palette[k % PALETTE];
}

/* A colour as gnuplot's "lc rgb variable" number. */
static long colour_number(int ours, int k)
{
    return strtol(colour_of(ours, k) + 1, NULL, 16);
}

/* `s` as a quoted string of a data file: its double quotes as single ones,
 * its backslashes as slashes, its control characters as spaces. */
static void dat_text(FILE *d, const char *s)
{
    fputc('"', d);
    for (; *s; ++s) {
        unsigned char ch = (unsigned char)*s;
        fputc(ch == '"' ? '\'' : ch == '\\' ? '/' : ch < 0x20 || ch == 0x7f ? ' ' : ch, d);
    }
    fputc('"', d);
}

static void end_block(FILE *d) { fputs("\n\n", d); }

/* The layout of one figure's data file and axes. */
typedef struct layout {
    int bars;            /* the bar style */
    double group, width; /* bars: the width of a category's group and of one bar */
    double x0, x1;       /* the x range */
    double y0, y1;       /* the y range */
    double base;         /* where bars start */
    int width_px, height_px;
} layout;

static double longest_category(const gs_figure *f)
{
    size_t n = 0;
    for (int c = 0; c < f->ncats; ++c)
        n = strlen(f->cats[c]) > n ? strlen(f->cats[c]) : n;
    return (double)n;
}

static void plan_layout(const gs_figure *f, layout *l)
{
    const gs_plot_spec *spec = f->spec;
    memset(l, 0, sizeof *l);
    l->bars = spec->style == GS_STYLE_BARS;
    l->width_px = 960;
    l->height_px = 600;
    if (f->categorical) {
        l->x0 = -0.6;
        l->x1 = f->ncats - 0.4;
        int per = l->bars ? 14 * (f->nseries > 1 ? f->nseries : 2) : 50;
        int need = 140 + f->ncats * (per > 70 ? per : 70);
        l->width_px = need > 960 ? (need < 1800 ? need : 1800) : 960;
    } else if (spec->logx) {
        l->x0 = f->xmin / 1.25;
        l->x1 = f->xmax * 1.25;
    } else {
        double pad = f->xmax > f->xmin ? 0.05 * (f->xmax - f->xmin) : 1.0;
        l->x0 = f->xmin - pad;
        l->x1 = f->xmax + pad;
    }
    l->group = f->nseries > 1 ? 0.8 : 0.55;
    l->width = l->group / (f->nseries > 0 ? f->nseries : 1);
    if (spec->logy) {
        l->y0 = f->ymin / (spec->logy == 2 ? 1.3 : 1.6);
        l->y1 = f->ymax * (spec->logy == 2 ? 1.3 : 1.6);
        l->base = l->y0; /* a ratio's bars start at its line at 1 */
        for (int i = 0; i < f->nlines; ++i)
            if (f->lines[i].kind == GS_LINE_REFERENCE)
                l->base = f->lines[i].y;
    } else {
        l->y0 = f->ymin < 0 ? f->ymin * 1.1 : 0.0;
        l->y1 = f->ymax > 0 ? f->ymax * 1.1 : 1.0;
        l->base = 0.0; /* a linear ratio's bars are fractions of the peer: from 0 */
    }
}

/* The bar of series j at category c: its centre, from and to. */
static void bar_at(const layout *l, int j, double c, double *centre, double *from, double *to)
{
    *from = c - l->group / 2 + j * l->width;
    *to = *from + l->width * 0.92;
    *centre = 0.5 * (*from + *to);
}

/* A bar's whisker shows: its sample range is more than 2% of its height. */
static int visible_whisker(const gs_fig_point *p)
{
    return !isnan(p->lo) && p->y > 0 && (p->hi - p->lo) > 0.02 * p->y;
}

/* The data file: the series, the lines, the tick labels, the heading. */
static int write_data(const gs_figure *f, const layout *l, const char *subtitle,
                      const char *path)
{
    char err[GS_SHOWN_SIZE + 128];
    FILE *d = gs_open_output(path, err, sizeof err);
    if (!d)
        return -1;
    for (int s = 0; s < f->nseries; ++s) {
        const gs_fig_series *se = &f->series[s];
        dat_text(d, se->name[0] ? se->name : "all");
        fputc('\n', d);
        for (int i = 0; i < se->npoints; ++i) {
            const gs_fig_point *p = &se->points[i];
            double lo = isnan(p->lo) ? p->y : p->lo, hi = isnan(p->hi) ? p->y : p->hi;
            if (l->bars) {
                double centre, from, to;
                bar_at(l, s, p->x, &centre, &from, &to);
                fprintf(d, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %ld\n", centre,
                        p->y, from, to, l->base, p->y, lo, hi, visible_whisker(p),
                        colour_number(f->spec->series ? se->ours : p->ours,
                                      f->spec->series ? se->colour : p->colour));
            } else {
                fprintf(d, "%.17g %.17g %.17g %.17g\n", p->x, p->y, lo, hi);
            }
        }
        end_block(d);
    }
    for (int i = 0; i < f->nlines; ++i) {
        dat_text(d, f->lines[i].label);
        fprintf(d, "\n%.17g %.17g\n%.17g %.17g\n", l->x0, f->lines[i].y, l->x1, f->lines[i].y);
        end_block(d);
    }
    if (f->categorical) {
        for (int c = 0; c < f->ncats; ++c) {
            fprintf(d, "%d ", c);
            dat_text(d, f->cats[c]);
            fputc('\n', d);
        }
        end_block(d);
    }
    fputs("0.5 0.66 ", d);
    dat_text(d, f->title);
    fputc('\n', d);
    end_block(d);
    fputs("0.5 0.24 ", d);
    dat_text(d, subtitle);
    fputs("\n", d);
    return fclose(d) == 0 ? 0 : -1;
}

/* A round step near `span` / 6: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_step(double span)
{
    double raw = span / 6.0, p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1.0 : m < 2.25 ? 2.0 : m < 3.5 ? 2.5 : m < 7.5 ? 5.0 : 10.0) * p;
}

/* Tick values of a log axis of base `base` within [lo, hi]: powers of 2,
 * or 1-2-5 steps of each decade; round steps when the range is narrower
 * than a factor of 3 (two runs that differ by a few percent). */
static void log_ticks(FILE *gp, char axis, int base, double lo, double hi, int ratio)
{
    double v[64];
    int n = 0;
    if (hi / lo < 3.0) {
        double step = nice_step(hi - lo);
        for (double t = ceil(lo / step) * step; t <= hi && n < 64; t += step)
            v[n++] = round(t / step) * step;
    } else if (base == 2) {
        for (int k = -12; k <= 12 && n < 64; ++k)
            if (ldexp(1.0, k) >= lo && ldexp(1.0, k) <= hi)
                v[n++] = ldexp(1.0, k);
    } else {
        for (int e = -6; e <= 9 && n < 61; ++e)
            for (int m = 0; m < 3; ++m) {
                double t = (m == 0 ? 1.0 : m == 1 ? 2.0 : 5.0) * pow(10.0, e);
                if (t >= lo && t <= hi)
                    v[n++] = t;
            }
    }
    fprintf(gp, "set %ctics (", axis);
    for (int i = 0; i < n; ++i)
        fprintf(gp, "%s'%.6g%s' %.17g", i ? ", " : "", v[i], ratio ? "x" : "", v[i]);
    fputs(")\n", gp);
}

/* Numeric x: a tick at every x of the data, labelled (every k-th, when
 * there are many) as powers of two or numbers. */
static void x_ticks(FILE *gp, const gs_figure *f)
{
    double xs[GS_FIG_SERIES * GS_FIG_POINTS];
    int n = 0;
    for (int s = 0; s < f->nseries; ++s)
        for (int i = 0; i < f->series[s].npoints; ++i) {
            double x = f->series[s].points[i].x;
            int seen = 0;
            for (int j = 0; j < n && !seen; ++j)
                seen = xs[j] == x;
            if (!seen)
                xs[n++] = x;
        }
    for (int i = 1; i < n; ++i) /* rising */
        for (int j = i; j > 0 && xs[j - 1] > xs[j]; --j) {
            double t = xs[j];
            xs[j] = xs[j - 1];
            xs[j - 1] = t;
        }
    int every = n > 12 ? (n + 11) / 12 : 1;
    int pow2 = strcmp(f->spec->xformat ? f->spec->xformat : "", "2^%L") == 0;
    fputs("set xtics (", gp);
    for (int i = 0; i < n; ++i) {
        int k = 0;
        char label[32] = "";
        if (i % every == 0) {
            if (pow2 && xs[i] >= 1 && frexp(xs[i], &k) == 0.5)
                snprintf(label, sizeof label, "2^%d", k - 1);
            else
                snprintf(label, sizeof label, "%.6g", xs[i]);
        }
        fprintf(gp, "%s'%s' %.17g%s", i ? ", " : "", label, xs[i], label[0] ? "" : " 1");
    }
    fputs(")\n", gp);
}

static void write_axes(FILE *gp, const gs_figure *f, const layout *l)
{
    const gs_plot_spec *spec = f->spec;
    int ratio = 0; /* ticks as "2x": a ratio, or a plot with a line at 1 */
    for (int i = 0; i < f->nlines; ++i)
        ratio |= f->lines[i].kind == GS_LINE_REFERENCE;
    fprintf(gp, "set xlabel '%s'\nset ylabel '%s'\n", spec->xlabel ? spec->xlabel : "",
            spec->ylabel ? spec->ylabel : "");
    fprintf(gp, "set xrange [%.17g:%.17g]\nset yrange [%.17g:%.17g]\n", l->x0, l->x1, l->y0,
            l->y1);
    if (f->categorical) {
        fputs("set xtics scale 0\n", gp);
        if (longest_category(f) * 7.5 > (l->width_px - 140.0) / (f->ncats ? f->ncats : 1))
            fputs("set xtics rotate by 25 right\n", gp);
        fputs("set grid ytics lc rgb '#dddddd' lw 1 dt 1\n", gp);
    } else {
        if (spec->logx)
            fprintf(gp, "set logscale x %d\n", spec->logx);
        x_ticks(gp, f);
        fputs("set grid xtics ytics lc rgb '#e4e4e4' lw 1 dt 1\n", gp);
    }
    if (spec->logy) {
        fprintf(gp, "set logscale y %d\n", spec->logy);
        log_ticks(gp, 'y', spec->logy, l->y0, l->y1, ratio);
    } else {
        fprintf(gp, "set format y '%s'\n", ratio ? "%gx" : "%g");
    }
}

/* "plot " before the first clause of a plot command, ", \" before the others. */
static const char *next_clause(int *first)
{
    const char *s = *first ? "plot " : ", \\\n     ";
    *first = 0;
    return s;
}

/* The plot command: the series, the bars' whiskers, the lines, the ticks. */
static void write_plot(FILE *gp, const gs_figure *f, const layout *l, const char *dat)
{
    int block = 0, first = 1;
#define NEXT next_clause(&first)
    for (int s = 0; s < f->nseries; ++s, ++block) {
        const gs_fig_series *se = &f->series[s];
        const char *c = colour_of(se->ours, se->colour);
        int has_bars = 0, whiskers = 0;
        for (int i = 0; i < se->npoints; ++i) {
            has_bars |= !isnan(se->points[i].lo);
            whiskers += visible_whisker(&se->points[i]);
        }
        if (l->bars) {
            if (f->spec->series)
                fprintf(gp, "%s'%s' index %d using 1:2:3:4:5:6 with boxxyerror fs solid 0.9 "
                            "noborder lc rgb '%s' title columnheader(1)",
                        NEXT, dat, block, c);
            else
                fprintf(gp, "%s'%s' index %d using 1:2:3:4:5:6:10 with boxxyerror fs solid 0.9 "
                            "noborder lc rgb variable notitle",
                        NEXT, dat, block);
            if (whiskers) /* fastest to slowest sample, where it is wide enough to see */
                fprintf(gp, "%s'%s' index %d using 1:($9 > 0 ? $7 : NaN):(0):($8 - $7) with "
                            "vectors heads size screen 0.004,90 lw 1.2 lc rgb '#222222' notitle",
                        NEXT, dat, block);
        } else {
            fprintf(gp, "%s'%s' index %d using 1:2%s with %s lc rgb '%s' lw %s dt %d pt %d ps 1.1 "
                        "title columnheader(1)",
                    NEXT, dat, block, has_bars ? ":3:4" : "",
                    has_bars ? "yerrorlines" : "linespoints", c, se->ours ? "2.5" : "1.8",
                    se->ours ? 1 : 2,
                    se->ours ? ours_points[se->colour % 5] : peer_points[se->colour % 5]);
        }
    }
    if (l->bars && !f->spec->series) { /* bars coloured by method: the families' keys */
        int family[2] = {0, 0};
        for (int s = 0; s < f->nseries; ++s)
            for (int i = 0; i < f->series[s].npoints; ++i)
                family[f->series[s].points[i].ours ? 1 : 0] = 1;
        if (family[1])
            fprintf(gp, "%skeyentry with boxes fs solid 0.9 noborder lc rgb '%s' "
                        "title 'gridsync'", NEXT, colour_of(1, 0));
        if (family[0])
            fprintf(gp, "%skeyentry with boxes fs solid 0.9 noborder lc rgb '%s' "
                        "title 'peers'", NEXT, colour_of(0, 0));
    }
    for (int i = 0; i < f->nlines; ++i, ++block) {
        const gs_fig_line *line = &f->lines[i];
        fprintf(gp, "%s'%s' index %d using 1:2 with lines lw %s dt %d lc rgb '%s' "
                    "title columnheader(1)",
                NEXT, dat, block, line->kind == GS_LINE_REFERENCE ? "1.5" : "2",
                line->kind == GS_LINE_DATASHEET ? 3 : line->kind == GS_LINE_MEASURED ? 4 : 1,
                line->kind == GS_LINE_REFERENCE ? "#222222" : "#555555");
    }
    if (f->categorical)
        fprintf(gp, "%s'%s' index %d using 1:(NaN):xtic(2) notitle", NEXT, dat, block++);
#undef NEXT
    fputc('\n', gp);
}

/* The heading: a second plot over the top of the first, its two lines
 * read from the data file. */
static void write_heading(FILE *gp, const char *dat, int block, double top)
{
    fprintf(gp,
            "unset key\nunset border\nunset tics\nunset xlabel\nunset ylabel\nunset grid\n"
            "unset logscale\nunset format\nset xrange [0:1]\nset yrange [0:1]\n"
            "set lmargin at screen 0\nset rmargin at screen 1\nset tmargin at screen 1\n"
            "set bmargin at screen %.4f\n"
            "plot '%s' index %d using 1:2:3 with labels font ',15' notitle, \\\n"
            "     '%s' index %d using 1:2:3 with labels font ',10.5' tc rgb '#444444' notitle\n",
            top, dat, block, dat, block + 1);
}

int gs_figure_write(const gs_figure *f, const char *dir, const char *subtitle, FILE *gp)
{
    char path[1024], dat[128];
    layout l;
    plan_layout(f, &l);
    snprintf(dat, sizeof dat, "%s.dat", f->file);
    if (gs_path_of(path, sizeof path, "%s/%s", dir, dat) != 0 ||
        write_data(f, &l, subtitle, path) != 0)
        return -1;
    /* gnuplot writes the picture itself, following a link that stands at
     * its name: none may stand there */
    if (gs_path_of(path, sizeof path, "%s/%s.png", dir, f->file) != 0 || gs_clear_path(path) != 0)
        return -1;
    double top = 1.0 - 78.0 / l.height_px;
    fprintf(gp,
            "# %s\nreset\nset terminal pngcairo size %d,%d noenhanced font 'sans,11'\n"
            "set output '%s.png'\nset multiplot\nset tmargin at screen %.4f\n"
            "set lmargin 11\nset rmargin 4\nset border 3 lc rgb '#444444'\n"
            "set tics nomirror out\nset key below horizontal center Left reverse samplen 3 "
            "spacing 1.15 width 2\n",
            f->file, l.width_px, l.height_px, f->file, top);
    write_axes(gp, f, &l);
    write_plot(gp, f, &l, dat);
    int heading = f->nseries + f->nlines + (f->categorical ? 1 : 0);
    write_heading(gp, dat, heading, top);
    fputs("unset multiplot\n\n", gp);
    return 0;
}

int gs_plots_render(const char *dir, const char *gnuplot, const char *script, int *warned)
{
    char log[1024];
    struct stat st;
    *warned = 0;
    if (gs_path_of(log, sizeof log, "%s/gnuplot.log", dir) != 0)
        return 0;
    char err[GS_SHOWN_SIZE + 128];
    int fd = gs_open_output_fd(log, err, sizeof err);
    if (fd < 0) {
        fprintf(stderr, "gridsync: warning: %s: the plots are not drawn\n", err);
        return 0;
    }
    const char *const argv[] = {"gnuplot", script, NULL};
    pid_t pid = gs_spawn(gnuplot, argv, dir, -1, fd);
    close(fd);
    int ok = pid > 0 && gs_spawn_wait(pid) == 0;
    if (ok && stat(log, &st) == 0 && st.st_size > 0)
        *warned = 1; /* kept: what gnuplot said */
    else if (ok)
        remove(log);
    return ok;
}
