/*
 * pdl_peer.cuh - a kernel boundary with programmatic dependent launch (PDL,
 * sm_90) as a careful CUDA user writes it without gridsync: the peer
 * "relaunch + PDL" (on a stream) and "relaunch graph + PDL" (those launches
 * captured once into a CUDA graph) of the barrier and sync suites, and the
 * apps suite's CG and wavefront PDL peers (which, on a GPU without PDL,
 * launch the same kernels without the attribute: plain stream order).
 *
 * Each kernel calls peer_pdl_trigger at its top, or after the work a step
 * may do before its wait (the next kernel may be scheduled once every
 * block has), then peer_pdl_wait before it touches
 * the exchanged memory: the previous kernel has then completed and its
 * writes are visible (PTX griddepcontrol.wait), and its reads are done, so
 * the kernel may overwrite what the previous one read. The launch carries
 * cudaLaunchAttributeProgrammaticStreamSerialization where the GPU and the
 * kernel's code can use it (compute capability 9.0, code from PTX 9.0 or
 * later: code JIT-compiled from older PTX has no wait, and must not start
 * early); gridsync's gs_pdl_overlaps (<gridsync/pdl_host.h>) asks exactly
 * that: the barrier and sync suites leave the rows out where it says no
 * (they would be plain relaunches), the apps suite launches without the
 * attribute.
 */
#ifndef GS_SUITES_PDL_PEER_CUH
#define GS_SUITES_PDL_PEER_CUH

#include <cuda_runtime.h>

#include "gridsync_internal.h"

/* cudaTriggerProgrammaticLaunchCompletion / cudaGridDependencySynchronize,
 * the CUDA runtime's device functions for griddepcontrol; sm_90 only. */
static __device__ __forceinline__ void peer_pdl_trigger(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
#endif
}

static __device__ __forceinline__ void peer_pdl_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
}

/* Launch `kernel` on `stream`, chained to the previous kernel by PDL where
 * `pdl` (gs_pdl_overlaps said yes), else in plain stream order (the
 * attribute left off); `args` as for cudaLaunchKernel. */
static inline gs_status peer_pdl_launch(const void *kernel, dim3 grid, dim3 block,
                                        cudaStream_t stream, void **args, int pdl)
{
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.stream = stream;
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = pdl ? attr : NULL;
    config.numAttrs = pdl ? 1 : 0;
    GS_CUDA_TRY(cudaLaunchKernelExC(&config, kernel, args));
    return GS_SUCCESS;
}

#endif
