/* l2flush.c - one scratch buffer per device, twice its L2, written before
 * every cold sample (l2flush.h). The bench runs on one host thread. */
#include "harness/l2flush.h"

#include "gridsync_internal.h"

enum { MAX_DEVICES = 64 };

static struct scratch {
    void *buf;
    size_t bytes;
} scratch[MAX_DEVICES];

static gs_status scratch_of(int device, struct scratch **out)
{
    if (device < 0 || device >= MAX_DEVICES)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "L2 flush: device %d out of range", device);
    struct scratch *s = &scratch[device];
    if (!s->buf) {
        int l2 = 0;
        GS_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        size_t bytes = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20);
        GS_CUDA_TRY(cudaMalloc(&s->buf, bytes));
        s->bytes = bytes;
    }
    *out = s;
    return GS_SUCCESS;
}

gs_status gs_l2_flush(cudaStream_t stream)
{
    int device = 0;
    struct scratch *s = NULL;
    GS_CUDA_TRY(cudaGetDevice(&device));
    GS_TRY(scratch_of(device, &s));
    GS_CUDA_TRY(cudaMemsetAsync(s->buf, 0, s->bytes, stream));
    return GS_SUCCESS;
}

void gs_l2_flush_release(void)
{
    int current = 0, any = 0;
    for (int d = 0; d < MAX_DEVICES; ++d)
        any |= scratch[d].buf != NULL;
    if (!any)
        return; /* nothing to free: no CUDA call at all */
    if (cudaGetDevice(&current) != cudaSuccess)
        current = -1;
    for (int d = 0; d < MAX_DEVICES; ++d) {
        if (!scratch[d].buf)
            continue;
        if (cudaSetDevice(d) == cudaSuccess)
            cudaFree(scratch[d].buf);
        scratch[d].buf = NULL;
        scratch[d].bytes = 0;
    }
    if (current >= 0)
        cudaSetDevice(current);
    (void)cudaGetLastError(); /* leave no error for the next call */
}
