/* coresident.cu - a minimal kernel with a grid barrier: how many blocks of
 * it fit at once (`gridsync info`, the barrier check's largest grid). */
#include <gridsync/barrier.cuh>

#include "common/device.h"

static __global__ void probe_kernel(gs_grid_barrier bar) { gs_grid_sync(&bar); }

extern "C" gs_status gs_probe_coresident(int threads, int *blocks)
{
    return gs_max_coresident_blocks((const void *)probe_kernel, threads, 0, blocks);
}
