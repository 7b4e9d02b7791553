/* cg_host.c - what the CG versions share on the host (suites/apps/cg/cg.h). */
#include "suites/apps/cg/cg.h"

#include <stdlib.h>

#include "gridsync_internal.h"

gs_status gs_cg_impl_new(gs_cg_run *run, size_t size)
{
    run->impl = calloc(1, size);
    return run->impl ? GS_SUCCESS
                     : gs__fail(GS_ERR_OUT_OF_MEMORY, "bench apps cg: out of host memory");
}

void gs_cg_impl_free(gs_cg_run *run, void *const *device, int count)
{
    for (int i = 0; i < count; ++i)
        cudaFree(device[i]);
    free(run->impl);
    run->impl = NULL;
}

gs_status gs_cg_read_iterations(gs_cg_run *run, const int *iterations, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaMemcpyAsync(&run->iterations, iterations, sizeof(int),
                                cudaMemcpyDeviceToHost, stream));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}
