/*
 * gridsync/detail/reduce/block_reduce.cuh - gs::block_reduce and
 * gs::block_reduce_tree: reductions over every thread of a block, generic
 * over the value type and the operator (gridsync/detail/reduce/reduce_ops.cuh).
 * Any block shape (1-, 2- or 3-D), any size up to 1024 threads.
 */
#ifndef GRIDSYNC_DETAIL_BLOCK_REDUCE_CUH
#define GRIDSYNC_DETAIL_BLOCK_REDUCE_CUH

#include <gridsync/detail/reduce/warp_reduce.cuh>

namespace gs {

/*
 * block_reduce - warp shuffles, then one warp over the warps' results.
 * `smem` holds 32 values. Result in thread 0. All threads must call it.
 * How: each warp reduces its lanes (warp_reduce), lane 0 stores the warp's
 * result in smem[warp], then warp 0 reduces those.
 * Why correct: one barrier orders the warps' stores before warp 0's loads
 * (bar.sync orders shared-memory accesses of the block); one more at entry
 * keeps a previous call's readers from seeing this call's writes, so `smem`
 * can be reused back to back.
 * When: the fast one (log2(32) shuffles per warp, two barriers).
 *
 *   __shared__ float smem[32];
 *   float total = gs::block_reduce(x, smem, gs::sum<float>());  // thread 0
 */
template <class T, class Op>
static __device__ __forceinline__ T block_reduce(T v, T *smem, Op op)
{
    detail::check_combined<Op, T>();
    unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned int n = blockDim.x * blockDim.y * blockDim.z;
    unsigned int warp = tid >> 5, nwarps = (n + 31u) >> 5;
    unsigned int lanes = warp == nwarps - 1u ? n - (warp << 5) : 32u;
    __syncthreads(); /* a previous call's readers are done with smem */
    v = warp_reduce(v, lanes, op);
    if ((tid & 31u) == 0u)
        smem[warp] = v;
    __syncthreads(); /* warps' results written before warp 0 reads them */
    if (warp == 0u) {
        v = tid < nwarps ? smem[tid] : Op::identity();
        v = warp_reduce(v, n < 32u ? n : 32u, op);
    }
    return v;
}

/*
 * block_reduce_tree - the shared-memory tree of the __syncthreads tutorial
 * (docs/tutorials.md), fixed for any block size (not only powers of two).
 * `smem` holds one value per thread. Result in every thread.
 * How: every thread stores its value; then at each level the lower half of
 * the active range folds in the upper half, halving until one value is left.
 * Why correct: a barrier after every level: level k reads what level k-1
 * wrote in other threads' slots (bar.sync orders the block's shared-memory
 * accesses), and the entry barrier protects a previous call's readers.
 * When: the reference the tutorials teach, and what to use when every
 * thread needs the result.
 */
template <class T, class Op>
static __device__ __forceinline__ T block_reduce_tree(T v, T *smem, Op op)
{
    detail::check_combined<Op, T>();
    unsigned int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned int n = blockDim.x * blockDim.y * blockDim.z, half = 1u;
    while (half * 2u < n)
        half *= 2u;
    __syncthreads(); /* a previous call's readers are done with smem */
    smem[tid] = v;
    __syncthreads();
    for (; half > 0u; half >>= 1) {
        if (tid < half && tid + half < n)
            smem[tid] = op(smem[tid], smem[tid + half]);
        __syncthreads(); /* this level's writes before the next level's reads */
    }
    return smem[0];
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_BLOCK_REDUCE_CUH */
