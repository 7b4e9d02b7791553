/* single_pass.cu - host side shared by the single-pass kernels. */
#include <gridsync/detail/core/tuning.h>

#include "../core/error.h"
#include "../runtime/kernel_shape.h"
#include "single_pass.h"

/* The inputs' names in the sentences (a dot reads two; no formatting on
 * every call's path). */
static const char *const input_names[] = {"input 1", "input 2"};

static gs__result_kind result_kind(enum cudaMemoryType type)
{
    return type == cudaMemoryTypeDevice    ? GS__RESULT_DEVICE
           : type == cudaMemoryTypeManaged ? GS__RESULT_MANAGED
                                           : GS__RESULT_HOST;
}

/* Blocks for `n` elements read: GS_TUNE_REDUCE_ITEMS per thread, raised to
 * one block per SM while each thread keeps GS_TUNE_REDUCE_MIN_ITEMS, capped
 * at one full wave (`per_sm` resident blocks on each SM) and the partials'
 * slots (tuning.h). Depends only on n and the device, so results repeat
 * bitwise. */
static int grid_for(long long n, int sms, int per_sm)
{
    long long threads = GS_TUNE_REDUCE_THREADS;
    long long blocks = (n + threads * GS_TUNE_REDUCE_ITEMS - 1) / (threads * GS_TUNE_REDUCE_ITEMS);
    long long spread =
        (n + threads * GS_TUNE_REDUCE_MIN_ITEMS - 1) / (threads * GS_TUNE_REDUCE_MIN_ITEMS);
    long long most = (long long)sms * (per_sm > 0 ? per_sm : 1);
    if (spread > sms)
        spread = sms;
    if (blocks < spread)
        blocks = spread;
    if (most > GS_TUNE_REDUCE_MAX_BLOCKS)
        most = GS_TUNE_REDUCE_MAX_BLOCKS;
    if (blocks > most)
        blocks = most;
    return blocks < 1 ? 1 : (int)blocks;
}

gs_status gs__single_pass_prepare(const char *who, const void *kernel, gs_dtype type,
                                  size_t result_bytes, const void *const *inputs, int ninputs,
                                  long long n, void *result, cudaStream_t stream,
                                  gs__single_pass_launch *launch)
{
    int dev = 0;
    gs__kernel_shape shape;
    if (ninputs < 1 || ninputs > (int)(sizeof input_names / sizeof input_names[0]))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %d inputs", who, ninputs);
    if (n < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: length must be >= 0, got %lld", who, n);
    if (!result)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: result pointer is NULL", who);
    for (int i = 0; i < ninputs && n > 0; ++i)
        if (!inputs[i])
            return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: input pointer is NULL", who);
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__kernel_shape_get(dev, kernel, GS_TUNE_REDUCE_THREADS, 0, &shape));
    if ((unsigned long long)n > shape.total_bytes / gs_dtype_size(type))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %lld elements of %s exceed the device's %.1f GiB",
                        who, n, gs_dtype_name(type), shape.total_bytes / 1073741824.0);
    enum cudaMemoryType where;
    for (int i = 0; i < ninputs && n > 0; ++i)
        GS_TRY(gs__gpu_memory_on(who, input_names[i], inputs[i], dev, &where));
    enum cudaMemoryType out_type = cudaMemoryTypeUnregistered;
    GS_TRY(gs__memory_on(who, "the result", result, dev, &out_type));
    GS_TRY(gs__is_capturing(stream, &launch->capturing));
    launch->result_kind = result_kind(out_type);
    if (launch->capturing && launch->result_kind == GS__RESULT_HOST)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: a result in host memory needs the call to wait, which a stream "
                        "capture cannot; pass device (or managed) memory",
                        who);
    const gs__ws_request request = gs__ws_request_for(stream, dev, launch->capturing, "reduction");
    /* held until finish: another call on the stream, from another thread,
     * would otherwise overwrite a host-bound result between this kernel and
     * its copy */
    GS_TRY(gs__ws_acquire(&request, &launch->ws));
    launch->out = launch->result_kind == GS__RESULT_HOST ? launch->ws.result : result;
    /* sized by elements read: a dot reads two per index */
    launch->blocks = grid_for(n * ninputs, shape.sms, shape.per_sm);
    launch->kernel = kernel;
    launch->result_bytes = result_bytes;
    launch->early_launch = shape.early_launch;
    return GS_SUCCESS;
}

gs_status gs__single_pass_start(const gs__single_pass_launch *launch, const void *const *inputs,
                                long long n, cudaStream_t stream)
{
    gs__ws_lease ws = launch->ws;
    void *out = launch->out;
    void *args[] = {(void *)inputs, &n, &ws.partials, &ws.ticket, &ws.seq, &out};
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned int)launch->blocks);
    config.blockDim = dim3(GS_TUNE_REDUCE_THREADS);
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

/* The result copy and waits of gs__single_pass_finish. */
static gs_status deliver(const gs__single_pass_launch *launch, void *result,
                         cudaStream_t stream)
{
    if (launch->result_kind == GS__RESULT_HOST)
        GS_CUDA_TRY(cudaMemcpyAsync(result, launch->ws.result, launch->result_bytes,
                                    cudaMemcpyDeviceToHost, stream));
    return GS_SUCCESS;
}

gs_status gs__single_pass_finish(gs__single_pass_launch *launch, void *result,
                                 cudaStream_t stream, gs_status st)
{
    if (st == GS_SUCCESS)
        st = deliver(launch, result, stream);
    st = gs__ws_release(&launch->ws, stream, st);
    if (st == GS_SUCCESS && launch->result_kind != GS__RESULT_DEVICE && !launch->capturing)
        GS_CUDA_TRY(cudaStreamSynchronize(stream));
    return st;
}
