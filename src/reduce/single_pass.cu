/* single_pass.cu - host side shared by the single-pass kernels. */
#include "../core/error.h"
#include "kernel_shape.h"
#include "single_pass.cuh"

/* Where a pointer lives: 1 device (or managed), 0 host. */
static gs_status is_device_pointer(const void *p, int *device)
{
    cudaPointerAttributes attr;
    GS_CUDA_TRY(cudaPointerGetAttributes(&attr, p));
    *device = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
    return GS_SUCCESS;
}

/* Blocks for `n` elements read: GS_REDUCE_ITEMS per thread, raised to one block per SM
 * while each thread keeps GS_REDUCE_MIN_ITEMS, capped at one full wave
 * (`per_sm` resident blocks on each SM) and the partials' slots. Depends only
 * on n and the device, so results repeat bitwise. */
static int grid_for(long long n, int sms, int per_sm)
{
    long long threads = GS_REDUCE_THREADS;
    long long blocks = (n + threads * GS_REDUCE_ITEMS - 1) / (threads * GS_REDUCE_ITEMS);
    long long spread = (n + threads * GS_REDUCE_MIN_ITEMS - 1) / (threads * GS_REDUCE_MIN_ITEMS);
    long long most = (long long)sms * (per_sm > 0 ? per_sm : 1);
    if (spread > sms)
        spread = sms;
    if (blocks < spread)
        blocks = spread;
    if (most > GS_REDUCE_MAX_BLOCKS)
        most = GS_REDUCE_MAX_BLOCKS;
    if (blocks > most)
        blocks = most;
    return blocks < 1 ? 1 : (int)blocks;
}

gs_status gs__single_pass_prepare(const char *who, const void *kernel, gs_dtype type,
                                  const void *const *inputs, int ninputs, long long n,
                                  void *result, cudaStream_t stream,
                                  gs__single_pass_launch *launch)
{
    int dev = 0;
    gs__kernel_shape shape;
    if (n < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: length must be >= 0, got %lld", who, n);
    if (!result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: result pointer is NULL", who);
    for (int i = 0; i < ninputs && n > 0; ++i)
        if (!inputs[i])
            return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: input pointer is NULL", who);
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__kernel_shape_get(dev, kernel, GS_REDUCE_THREADS, &shape));
    if ((unsigned long long)n > shape.total_bytes / gs_dtype_size(type))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %lld elements of %s exceed the device's %.1f GiB",
                        who, n, gs_dtype_name(type), shape.total_bytes / 1073741824.0);
    for (int i = 0; i < ninputs && n > 0; ++i) {
        int on_device = 0;
        GS_TRY(is_device_pointer(inputs[i], &on_device));
        if (!on_device)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "%s: input %d is host memory; it must be device (or managed) memory",
                            who, i + 1);
    }
    GS_TRY(is_device_pointer(result, &launch->out_on_device));
    GS_TRY(gs__reduce_workspace(stream, &launch->ws));
    launch->out = launch->out_on_device ? result : launch->ws->result;
    /* sized by elements read: a dot reads two per index */
    launch->blocks = grid_for(n * ninputs, shape.sms, shape.per_sm);
    launch->kernel = kernel;
    launch->early_launch = shape.early_launch;
    return GS_SUCCESS;
}

gs_status gs__single_pass_start(const gs__single_pass_launch *launch, void **args,
                                cudaStream_t stream)
{
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned int)launch->blocks);
    config.blockDim = dim3(GS_REDUCE_THREADS);
    config.stream = stream;
    if (launch->early_launch) {
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        config.attrs = attr;
        config.numAttrs = 1;
    }
    GS_CUDA_TRY(cudaLaunchKernelExC(&config, launch->kernel, args));
    return GS_SUCCESS;
}

gs_status gs__single_pass_complete(const gs__single_pass_launch *launch, gs_dtype type,
                                   void *result, cudaStream_t stream)
{
    if (launch->out_on_device)
        return GS_SUCCESS;
    GS_CUDA_TRY(cudaMemcpyAsync(result, launch->ws->result, gs_dtype_size(type),
                                cudaMemcpyDeviceToHost, stream));
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return GS_SUCCESS;
}
