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

static gs_status read_rr(const double *rr, double *value, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaMemcpyAsync(value, rr, sizeof *value, cudaMemcpyDeviceToHost, stream));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}

gs_status gs_cg_iterate_to_tol(gs_cg_run *run, gs_cg_iteration_fn iteration, const double *rr,
                               cudaStream_t stream)
{
    double now = 0.0;
    GS_TRY(read_rr(rr, &now, stream));
    const double goal = run->tol >= 0.0 ? run->tol * run->tol * now : -1.0;
    int it = 0;
    while (it < run->max_iters && !(now <= goal)) {
        GS_TRY(iteration(run, stream));
        GS_TRY(read_rr(rr, &now, stream));
        ++it;
    }
    run->iterations = it;
    return GS_SUCCESS;
}

gs_status gs_cg_iterate_timed(gs_cg_run *run, gs_cg_iteration_fn iteration, cudaStream_t stream)
{
    for (int i = 0; i < run->timed_iters; ++i)
        GS_TRY(iteration(run, stream));
    return GS_SUCCESS;
}

gs_status gs_cg_read_iterations(gs_cg_run *run, const int *iterations, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaMemcpyAsync(&run->iterations, iterations, sizeof(int),
                                cudaMemcpyDeviceToHost, stream));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}
