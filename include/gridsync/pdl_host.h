/*
 * gridsync/pdl_host.h - launching kernels chained by programmatic dependent launch
 * (gs_launch_pdl; the device side is <gridsync/pdl.cuh>, docs/pdl.md).
 * Part of the public host API (C17): <gridsync.h> includes it, and it
 * includes <gridsync.h>, so either may be included first.
 */
#ifndef GRIDSYNC_PDL_HOST_H
#define GRIDSYNC_PDL_HOST_H

#include "../gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------- programmatic dependent launch */

/* gs_launch_pdl for a driver function handle (see gs_max_coresident_blocks_func):
 * kernels compiled at run time (NVRTC, CuPy, numba-cuda) launch this way. */
GS_API gs_status gs_launch_pdl_func(cudaFunction_t func, dim3 grid, dim3 block,
                                    size_t dynamic_smem, cudaStream_t stream, void **args);

/* Whether gs_launch_pdl_func(func, ...) on the current device lets the
 * launch overlap the previous kernel on its stream (*overlap = 1): compute
 * capability 9.0 or later and the kernel's code built for it (PTX 9.0 or
 * later); 0 where its launches are ordinary stream-ordered ones. */
GS_API gs_status gs_pdl_overlaps_func(cudaFunction_t func, int *overlap);

/* Launch `kernel` chained to the previous kernel on `stream` by
 * programmatic dependent launch (PDL, sm_90): the launch may start while
 * that kernel is still finishing (once each of its blocks has called
 * gs_pdl_launch_dependents, or ended), and the kernel calls gs_pdl_wait
 * (<gridsync/pdl.cuh>) before it touches anything an earlier kernel
 * writes or reads: the wait returns once the previous kernel has completed
 * and its memory is visible. A kernel boundary that costs less than a
 * plain one (H200: 0.7-1.0 us a step against 0.9-1.3 us in a CUDA graph,
 * up to 528 blocks; docs/pdl.md says when it beats an in-kernel barrier).
 * Any grid size (no co-residency needed); `args` as for cudaLaunchKernel.
 * Inside a stream capture the graph gets a programmatic edge, so replays
 * overlap the same way. Below compute capability 9.0, or for code built
 * without sm_90 (gs_pdl_overlaps), it is an ordinary launch on `stream`,
 * and gs_pdl_wait compiles to nothing there: the chain is correct either
 * way. Bad arguments (NULL kernel, a zero grid or block dimension, more
 * than 1024 threads a block) return GS_ERR_INVALID_ARGUMENT and launch
 * nothing; a failed launch GS_ERR_CUDA naming the call and the error.
 * Works whichever CUDA runtime the program links. Asynchronous. */
static inline gs_status gs_launch_pdl(const void *kernel, dim3 grid, dim3 block,
                                      size_t dynamic_smem, cudaStream_t stream, void **args)
{
    cudaFunction_t func;
    gs_status st = gs__launch_target(kernel, &func, &stream);
    if (st != GS_SUCCESS)
        return st;
    return gs_launch_pdl_func(func, grid, block, dynamic_smem, stream, args);
}

/* gs_pdl_overlaps_func for a __global__ function pointer. */
static inline gs_status gs_pdl_overlaps(const void *kernel, int *overlap)
{
    cudaFunction_t func;
    gs_status st = gs__kernel_func(kernel, &func);
    if (st != GS_SUCCESS)
        return st;
    return gs_pdl_overlaps_func(func, overlap);
}

#ifdef __cplusplus
}
#endif

#endif /* GRIDSYNC_PDL_HOST_H */
