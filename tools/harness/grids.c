/* grids.c - the grid sizes of a suite of persistent kernels (grids.h). */
#include "harness/grids.h"

#include "gridsync_internal.h"

static void add_unique(int *out, int *n, int g)
{
    for (int j = 0; j < *n; ++j)
        if (out[j] == g)
            return;
    if (*n < GS_BENCH_MAX_GRIDS)
        out[(*n)++] = g;
}

gs_status gs_bench_grids(const gs_bench_params *o, int threads, int sms, int max_blocks,
                         const int *per_sm, int nper_sm, int *out, int *n)
{
    *n = 0;
    if (o->blocks) {
        for (int j = 0; j < o->nblocks && j < GS_BENCH_MAX_GRIDS; ++j) {
            if (o->blocks[j] > max_blocks)
                return gs__fail(GS_ERR_NOT_CORESIDENT,
                                "%d blocks of %d threads cannot be co-resident: at most %d",
                                o->blocks[j], threads, max_blocks);
            out[(*n)++] = o->blocks[j];
        }
        return GS_SUCCESS;
    }
    add_unique(out, n, 1 < max_blocks ? 1 : max_blocks);
    for (int i = 0; i < nper_sm; ++i)
        add_unique(out, n, per_sm[i] * sms < max_blocks ? per_sm[i] * sms : max_blocks);
    add_unique(out, n, max_blocks);
    return GS_SUCCESS;
}
