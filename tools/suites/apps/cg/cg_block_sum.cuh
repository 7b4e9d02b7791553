/*
 * cg_block_sum.cuh - the block reduction of the CG versions that reduce by
 * blocks (the peers cg_sample.cu and cg_pdl.cu, and cg_tasks.cu, whose
 * grid sums go through the task runtime's counters; also the probe
 * research/probes/tasks_allreduce.cu): what a CUDA programmer writes without
 * a library, warp shuffles and one shared array; and the task version's
 * sum of the blocks' partials.
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

/* The sum of the nb partials at `part` (one a block, written by every block
 * before its post of the counter this task waited for), the same bits in
 * every thread of every block: warp 0 adds them in a fixed order (lane strides, then xor shuffles), lane 0 leaves the sum in
 * `slot` (shared), and after a block barrier every thread returns it.
 * Ordinary loads: the task's counter wait (an acquire at GPU scope, then a
 * block barrier) made the partials visible. */
static __device__ double gs_cg_sum_partials(const double *part, int nb, double *slot)
{
    if (threadIdx.x < 32u) {
        double v = 0.0;
        for (int i = (int)threadIdx.x; i < nb; i += 32)
            v += part[i];
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0u)
            *slot = v;
    }
    __syncthreads();
    return *slot;
}

#endif
