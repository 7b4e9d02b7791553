/* grids.h - the grid sizes a suite of persistent kernels measures for one
 * block size: those of --blocks, or its defaults. */
#ifndef GS_BENCH_GRIDS_H
#define GS_BENCH_GRIDS_H

#include "harness/params.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { GS_BENCH_MAX_GRIDS = 16 };

/* The grids for blocks of `threads` threads, at most GS_BENCH_MAX_GRIDS:
 * --blocks when given (each must fit `max_blocks`, the co-resident maximum
 * of the suite's kernels, else GS_ERR_NOT_CORESIDENT), else one block,
 * `per_sm[i]` blocks per SM for each i, and the maximum, each clipped to the
 * maximum, without repeats. */
gs_status gs_bench_grids(const gs_bench_params *o, int threads, int sms, int max_blocks,
                         const int *per_sm, int nper_sm, int *out, int *n);

#ifdef __cplusplus
}
#endif

#endif
