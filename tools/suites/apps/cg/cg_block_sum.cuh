/*
 * cg_block_sum.cuh - the block reduction of the CG versions that reduce by
 * blocks (the peers cg_sample.cu and cg_pdl.cu, and cg_tasks.cu, whose
 * grid sums go through the task runtime's counters; also the probe
 * research/probes/tasks_allreduce.cu): what a CUDA programmer writes without
 * a library, warp shuffles and one shared array.
 */
#ifndef GS_BENCH_APPS_CG_BLOCK_SUM_CUH
#define GS_BENCH_APPS_CG_BLOCK_SUM_CUH

/* The sum of every thread's v over the block, in thread 0 (in warp 0's
 * other lanes: partial sums). How: each warp sums by shuffles, lane 0 puts
 * the warp's sum in shared memory, a block barrier, then warp 0 sums those.
 * blockDim.x a multiple of 32. Called again by the same block, it needs a
 * block barrier first (warp 0 must have read the array): both callers have
 * one in between. */
static __device__ double gs_cg_block_sum(double v)
{
    __shared__ double warp_sums[32];
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0u)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0u) {
        v = lane < (blockDim.x + 31u) / 32u ? warp_sums[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}

#endif
