/*
 * multi_exchange_kernel.cuh - the ordering check of the cross-GPU barrier
 * tests (test_multi.cu: GPUs of one process; test_multiproc.cu: one process
 * per GPU, slots mapped through CUDA IPC). slots[r] is rank r's array of one
 * word per block, readable from every rank.
 */
#ifndef GS_TEST_MULTI_EXCHANGE_KERNEL_CUH
#define GS_TEST_MULTI_EXCHANGE_KERNEL_CUH

#include <gridsync/multi.cuh>

/* Every block of GPU r writes (it, r, b) into its own slot, meets the other
 * GPUs, reads a slot of the next GPU that another block wrote, meets again. */
static __global__ void exchange(gs_multi_view v, unsigned int *const *slots, int iters,
                                unsigned int *errors, int leave_at)
{
    unsigned int b = blockIdx.x, n = gridDim.x;
    int next = (v.rank + 1) % v.size;
    for (int it = 1; it <= iters; ++it) {
        if (it == leave_at)
            return; /* whole grid, uniformly: this GPU stops meeting the others */
        if (threadIdx.x == 0)
            slots[v.rank][b] = ((unsigned int)it << 16) | ((unsigned int)v.rank << 12) | b;
        gs_multi_sync(&v);
        if (threadIdx.x == 0) {
            unsigned int src = (b + (unsigned int)it) % n;
            unsigned int want = ((unsigned int)it << 16) | ((unsigned int)next << 12) | src;
            if (slots[next][src] != want)
                atomicAdd(errors, 1u);
        }
        gs_multi_sync(&v);
    }
}

#endif
