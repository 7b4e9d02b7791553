/* probe.cu - a minimal kernel with a grid barrier, used by `gridsync info` to
 * report how many blocks of a given size can be co-resident. */
#include <gridsync/barrier.cuh>

#include "commands.h"

static __global__ void probe_kernel(gs_grid_barrier bar) { gs_grid_sync(&bar); }

extern "C" gs_status gs_cli_probe_coresident(int threads, int *blocks)
{
    return gs_max_coresident_blocks((const void *)probe_kernel, threads, 0, blocks);
}
