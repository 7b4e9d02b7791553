/* device.c - device enumeration, properties and co-residency arithmetic. */
#include "error.h"

#include "driver.h"

#include <stdio.h>
#include <string.h>

gs_status gs_device_count(int *count)
{
    if (!count)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_device_count: count is NULL");
    *count = 0;
    cudaError_t err = cudaGetDeviceCount(count);
    if (err != cudaSuccess) {
        *count = 0;
        (void)cudaGetLastError(); /* do not leave the error for the next call */
        if (err == cudaErrorDevicesUnavailable)
            return gs__fail(GS_ERR_NO_DEVICE,
                            "no usable NVIDIA GPU: every GPU is busy or unavailable "
                            "(cudaGetDeviceCount: %s)", cudaGetErrorName(err));
        if (gs__status_from_cuda(err) == GS_ERR_NO_DEVICE)
            return gs__fail(GS_ERR_NO_DEVICE,
                            "no NVIDIA GPU or driver found (cudaGetDeviceCount: %s)",
                            cudaGetErrorName(err));
        return gs__cuda_fail(err, "cudaGetDeviceCount(count)", __FILE__, __LINE__);
    }
    if (*count == 0)
        return gs__fail(GS_ERR_NO_DEVICE,
                        "no NVIDIA GPU or driver found (cudaGetDeviceCount: 0 devices)");
    return GS_SUCCESS;
}

static gs_status attr(int *value, enum cudaDeviceAttr a, int dev, const char *name)
{
    cudaError_t err = cudaDeviceGetAttribute(value, a, dev);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, name, __FILE__, __LINE__);
    return GS_SUCCESS;
}
#define GS_ATTR(field, a) GS_TRY(attr(&(field), a, ordinal, "cudaDeviceGetAttribute(" #a ")"))

gs_status gs_device_query(int ordinal, gs_device_info *info)
{
    int count = 0;
    if (!info)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_device_query: info is NULL");
    GS_TRY(gs_device_count(&count));
    if (ordinal < 0 || ordinal >= count)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "device %d does not exist: %d device%s present (0..%d)", ordinal,
                        count, count == 1 ? " is" : "s are", count - 1);

    struct cudaDeviceProp p;
    GS_CUDA_TRY(cudaGetDeviceProperties(&p, ordinal));
    memset(info, 0, sizeof *info);
    info->ordinal = ordinal;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->sm_count = p.multiProcessorCount;
    info->global_mem_bytes = p.totalGlobalMem;
    info->l2_bytes = p.l2CacheSize;
    info->smem_per_sm_bytes = p.sharedMemPerMultiprocessor;
    info->smem_per_block_bytes = p.sharedMemPerBlock;
    info->smem_per_block_optin_bytes = p.sharedMemPerBlockOptin;
    info->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    info->max_threads_per_block = p.maxThreadsPerBlock;
    info->regs_per_sm = p.regsPerMultiprocessor;
    info->warp_size = p.warpSize;
    GS_ATTR(info->sm_clock_khz, cudaDevAttrClockRate);
    GS_ATTR(info->mem_clock_khz, cudaDevAttrMemoryClockRate);
    GS_ATTR(info->mem_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth);
    GS_ATTR(info->max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor);
    GS_ATTR(info->cooperative_launch, cudaDevAttrCooperativeLaunch);
    /* DDR: two transfers per clock. */
    info->mem_bandwidth_gbs =
        2.0 * info->mem_clock_khz * 1e3 * (info->mem_bus_width_bits / 8.0) / 1e9;
    GS_CUDA_TRY(cudaDriverGetVersion(&info->driver_version));
    GS_CUDA_TRY(cudaRuntimeGetVersion(&info->runtime_version));
    return GS_SUCCESS;
}

void gs_format_coresidency(char *buf, size_t len, long long requested, int sm_count,
                           int blocks_per_sm, int block_threads)
{
    long long fit = (long long)sm_count * blocks_per_sm;
    if (blocks_per_sm == 0)
        snprintf(buf, len,
                 "%lld blocks requested, none fit: a block of %d threads exceeds what one "
                 "SM can hold (threads, registers or shared memory)",
                 requested, block_threads);
    else
        snprintf(buf, len, "%lld block%s requested, at most %lld fit: %d SMs x %d block%s of %d threads",
                 requested, requested == 1 ? "" : "s", fit, sm_count, blocks_per_sm,
                 blocks_per_sm == 1 ? "" : "s", block_threads);
}

gs_status gs__is_capturing(cudaStream_t stream, int *capturing)
{
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    GS_CUDA_TRY(cudaStreamIsCapturing(stream, &cs));
    *capturing = cs != cudaStreamCaptureStatusNone;
    return GS_SUCCESS;
}

gs_status gs__check_launch_shape(const char *who, dim3 grid, dim3 block, size_t dynamic_smem)
{
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 ||
        block.z == 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: grid (%u,%u,%u) and block (%u,%u,%u) must have no zero dimension",
                        who, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    long long threads = (long long)block.x * block.y * block.z;
    if (threads > 1024)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "%s: %lld threads per block, at most 1024 are allowed", who, threads);
    if (dynamic_smem > 0xffffffffu)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %zu bytes of shared memory", who,
                        dynamic_smem);
    return GS_SUCCESS;
}

gs_status gs__occupancy(cudaFunction_t func, int block_threads, size_t dynamic_smem,
                        int *sm_count, int *blocks_per_sm)
{
    int dev = 0;
    const gs__driver_api *drv = NULL;
    if (block_threads <= 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "block size must be positive, got %d",
                        block_threads);
    GS_TRY(gs__driver(&drv));
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(sm_count, cudaDevAttrMultiProcessorCount, dev));
    GS_CU_TRY(drv->occupancy(blocks_per_sm, (CUfunction)func, block_threads, dynamic_smem),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return GS_SUCCESS;
}

gs_status gs__kernel_lookup_failed(const void *kernel, int cuda_error)
{
    if (!kernel)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "kernel is NULL");
    return gs__fail(GS_ERR_INVALID_ARGUMENT,
                    "%p is not a __global__ function that this program's CUDA runtime knows "
                    "(cudaGetFuncBySymbol: %s)",
                    kernel, cudaGetErrorName((cudaError_t)cuda_error));
}

gs_status gs__runtime_call_failed(const char *call, int cuda_error)
{
    cudaError_t err = (cudaError_t)cuda_error;
    return gs__fail(gs__status_from_cuda(err), "%s failed: %s (%s)",
                    call ? call : "a CUDA runtime call", cudaGetErrorName(err),
                    cudaGetErrorString(err));
}

gs_status gs_max_coresident_blocks_func(cudaFunction_t func, int block_threads,
                                        size_t dynamic_smem, int *max_blocks)
{
    int sms = 0, per_sm = 0;
    if (!max_blocks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_max_coresident_blocks: max_blocks is NULL");
    if (!func)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_max_coresident_blocks: kernel is NULL");
    GS_TRY(gs__occupancy(func, block_threads, dynamic_smem, &sms, &per_sm));
    *max_blocks = sms * per_sm;
    return GS_SUCCESS;
}
