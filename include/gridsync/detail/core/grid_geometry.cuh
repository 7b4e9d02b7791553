/*
 * gridsync/detail/core/grid_geometry.cuh - a block's and a thread's linear rank
 * in 3-D grids and blocks, and their sizes (internal).
 */
#ifndef GRIDSYNC_DETAIL_GRID_GEOMETRY_CUH
#define GRIDSYNC_DETAIL_GRID_GEOMETRY_CUH

#include <gridsync/detail/core/memory_order.cuh>

GS_DEVICE unsigned int gs__block_rank(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

GS_DEVICE unsigned int gs__grid_blocks(void) { return gridDim.x * gridDim.y * gridDim.z; }

GS_DEVICE unsigned int gs__thread_rank(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

GS_DEVICE unsigned int gs__block_threads(void) { return blockDim.x * blockDim.y * blockDim.z; }

#endif /* GRIDSYNC_DETAIL_GRID_GEOMETRY_CUH */
