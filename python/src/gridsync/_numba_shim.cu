/*
 * _numba_shim.cu - gridsync's device API for numba-cuda kernels, in numba's
 * foreign-function ABI (an int status, then a pointer to the return value,
 * then the arguments): linked into a kernel by gridsync.numba's
 * declarations. A numba record argument arrives as a pointer to its bytes.
 *
 * A grid barrier's view counts the barriers its owner has passed, so each
 * thread needs its own copy (as a by-value kernel parameter is in CUDA C):
 * gs_numba_barrier_init copies the kernel argument into the thread's local
 * record, and gs_numba_grid_sync works on that copy. Signal sets are read
 * only: their functions take the kernel argument itself.
 */
#include <gridsync/barrier.cuh>
#include <gridsync/signal.cuh>

extern "C" __device__ int gs_numba_barrier_init(int *ret, gs_grid_barrier *mine,
                                                const gs_grid_barrier *given)
{
    (void)ret;
    *mine = *given;
    return 0;
}

extern "C" __device__ int gs_numba_grid_sync(int *ret, gs_grid_barrier *mine)
{
    (void)ret;
    gs_grid_sync(mine);
    return 0;
}

extern "C" __device__ int gs_numba_signal_store(int *ret, const gs_signal_set *s, unsigned int i,
                                                unsigned long long v)
{
    (void)ret;
    gs_block_signal_store(s, i, v);
    return 0;
}

extern "C" __device__ int gs_numba_signal_wait(int *ret, const gs_signal_set *s, unsigned int i,
                                               unsigned long long v)
{
    (void)ret;
    gs_block_signal_wait(s, i, v);
    return 0;
}
