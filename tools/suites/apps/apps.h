/*
 * apps.h - `gridsync bench apps`: whole programs (conjugate gradient, a 2-D
 * heat stencil, a wavefront, k-means), each written the ways CUDA programmers write
 * it today and with gridsync, timed in one run. The suite's description
 * (describe.c) owns the columns, plots and reading; each application adds
 * its rows to the one table from its own folder (<app>/run.cu).
 *
 * Every row is one (application, size, method), by column name: "app"
 * ("cg", "stencil 2-D", "wavefront", "k-means"), "size_log2" and "size" (the
 * problem size: unknowns, cells, points), "method" (gridsync's or a peer's), "blocks" (of
 * the persistent kernel, or of each relaunched kernel), "steps" (of one
 * timed solve; CG: iterations to the residual), "us_per_step" (the median,
 * gs_row_measured), "total_ms" (the whole solve), "vs_graph" and "vs_full"
 * (the speedups over the application's two reference peers measured in the
 * same call: the CUDA-graph relaunch version, and the full-barrier version:
 * CG's grid.sync sample design, the stencil's grid.sync, the wavefront's
 * full barrier per diagonal; none for k-means, whose persistent version is
 * that design) and "error" (the answer's difference to the
 * CPU's FP64 reference), "vs_persistent" (CG's task version only: the
 * hand-written persistent version's time over its), and "vs_pdl" (the
 * speedup over the version with a kernel per step in a CUDA graph with
 * programmatic dependent launch, where the application has one) - a row
 * whose answer is outside the application's stated bound is reported as an
 * error by the run function, never printed as a timing.
 */
#ifndef GS_BENCH_APPS_H
#define GS_BENCH_APPS_H

#include "harness/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The applications, in the order the suite runs them: one line each; the
 * folder <app>/ defines gs_apps_<app>. */
#define GS_APPS(X) \
    X(cg)          \
    X(stencil)     \
    X(wavefront)   \
    X(kmeans)

/* Each adds its rows (every size, every method) to `table`, made from the
 * suite's columns. Sizes: with --sizes (params->sizes_given), those of
 * params->sizes within the application's range; else the application's own
 * list for params->preset (quick: two or three sizes, under 5 s each). */
/* The sizes an application runs (log2 of its problem size), in order: those
 * of --sizes (params->sizes_given), else of its own list for the preset
 * (`lists`, indexed by gs_preset), kept within [min_log2, max_log2]; at most
 * `cap` into `out`. Returns how many. */
int gs_apps_sizes(const gs_bench_params *params, const gs_size_list lists[GS_PRESET_COUNT],
                  int min_log2, int max_log2, int *out, int cap);

#define GS_APPS_DECLARE(app) \
    gs_status gs_apps_##app(const gs_bench_params *params, gs_table *table);
GS_APPS(GS_APPS_DECLARE)
#undef GS_APPS_DECLARE

#ifdef __cplusplus
}
#endif

#endif
