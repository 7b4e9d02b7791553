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

/* The slices' sizes in bytes: r, edges, pbuf. */
static void slice_bytes(const gs_cg_run *run, size_t bytes[3])
{
    const size_t nx = (size_t)run->nx, blocks = (size_t)run->grid.blocks;
    bytes[0] = (size_t)run->n * sizeof(double);
    bytes[1] = 2 * blocks * nx * sizeof(double);
    bytes[2] = blocks * ((size_t)run->grid.rows + 2) * nx * sizeof(double);
}

gs_status gs_cg_slices_alloc(const gs_cg_run *run, int with_pbuf, gs_cg_slices *s)
{
    size_t bytes[3];
    slice_bytes(run, bytes);
    GS_CUDA_TRY(cudaMalloc((void **)&s->r, bytes[0]));
    GS_CUDA_TRY(cudaMalloc((void **)&s->edges, bytes[1]));
    if (with_pbuf)
        GS_CUDA_TRY(cudaMalloc((void **)&s->pbuf, bytes[2]));
    return GS_SUCCESS;
}

gs_status gs_cg_slices_poison(const gs_cg_run *run, const gs_cg_slices *s, cudaStream_t stream)
{
    size_t bytes[3];
    slice_bytes(run, bytes);
    double *const buffers[3] = {s->r, s->edges, s->pbuf};
    for (int i = 0; i < 3; ++i)
        if (buffers[i])
            GS_CUDA_TRY(cudaMemsetAsync(buffers[i], 0xff, bytes[i], stream));
    return GS_SUCCESS;
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
