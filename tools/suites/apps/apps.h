/*
 * apps.h - `gridsync bench apps`: whole programs (conjugate gradient, a 2-D
 * heat stencil, a wavefront), each written the ways CUDA programmers write
 * it today and with gridsync, timed in one run. The suite (apps.cu) owns
 * the description (columns, plots, reading); each application adds its
 * rows to the one table from its own file (apps_<name>.cu), with the
 * columns below.
 *
 * Every row is one (application, size, method): the method's time per step
 * (a CG iteration, a stencil step, a wavefront diagonal), the steps of one
 * solve, the speedups over the application's two reference peers measured
 * in the same call, and the answer's difference to the CPU reference (FP64)
 * - a row whose answer is outside the application's stated bound is
 * reported as an error by the run function, never printed as a timing.
 */
#ifndef GS_BENCH_APPS_H
#define GS_BENCH_APPS_H

#include "results/suite.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gs_apps_column {
    GS_APPS_APP,          /* "cg", "stencil 2-D", "wavefront" */
    GS_APPS_SIZE_LOG2,    /* log2 of the problem size (unknowns, cells) */
    GS_APPS_SIZE,         /* the problem size itself */
    GS_APPS_METHOD,       /* how the program synchronizes (gridsync's or a peer's) */
    GS_APPS_BLOCKS,       /* blocks of the persistent kernel, or of each relaunched kernel */
    GS_APPS_STEPS,        /* steps of one timed solve (CG: iterations to the residual) */
    GS_APPS_US_PER_STEP,  /* median time per step (gs_table_set_measured) */
    GS_APPS_TOTAL_MS,     /* median time of the whole solve */
    GS_APPS_VS_GRAPH,     /* the CUDA-graph relaunch version's time / this time */
    GS_APPS_VS_FULL,      /* the full-barrier version's time / this time (CG: NVIDIA's
                           * grid.sync sample design; stencil: grid.sync; wavefront: a
                           * full barrier per diagonal) */
    GS_APPS_ERROR,        /* largest relative difference to the CPU reference */
    GS_APPS_NCOLS
};

/* Each adds its rows (every size, every method) to `table`, made from the
 * suite's columns. Sizes: with --sizes (params->sizes_given), those of
 * params->sizes within the application's range; else the application's own
 * list for params->preset (quick: two or three sizes, under 5 s each). */
gs_status gs_apps_cg(const gs_bench_params *params, gs_table *table);
gs_status gs_apps_stencil(const gs_bench_params *params, gs_table *table);
gs_status gs_apps_wavefront(const gs_bench_params *params, gs_table *table);

#ifdef __cplusplus
}
#endif

#endif
