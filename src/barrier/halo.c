/* halo.c - halos: the tagged words of a decomposition's edges and each
 * block's epoch (the device side is gridsync/halo.cuh), their creation,
 * view, reset and the choice of tiles. Their waits are watched by the grid
 * barrier's record, so a halo has no check of its own. */
#include "barrier_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

#include <gridsync/detail/scoped/halo_split.h>

/* Tiles a halo may have: a grid larger than any GPU's co-resident maximum
 * is refused by gs_launch anyway; this bound keeps the epochs' size small. */
enum { GS_HALO_MAX_BLOCKS = 1 << 20 };

struct gs_halo_object {
    int w, h, gx, gy, dims, value_words;
    unsigned long long *words; /* GS_HALO_VALUES(w, h, gx, gy) * value_words */
    unsigned int *epochs;      /* gx * gy */
};

static size_t words_bytes(const struct gs_halo_object *o)
{
    return (size_t)GS_HALO_VALUES(o->w, o->h, o->gx, o->gy) * (size_t)o->value_words *
           sizeof(unsigned long long);
}

static size_t epochs_bytes(const struct gs_halo_object *o)
{
    return (size_t)o->gx * (size_t)o->gy * sizeof(unsigned int);
}

/* Zero words (tag 0, never waited for: the first tag is 1) and epochs. */
static gs_status rearm(struct gs_halo_object *o, cudaStream_t stream)
{
    if (words_bytes(o) > 0)
        GS_CUDA_TRY(cudaMemsetAsync(o->words, 0, words_bytes(o), stream));
    GS_CUDA_TRY(cudaMemsetAsync(o->epochs, 0, epochs_bytes(o), stream));
    return GS_SUCCESS;
}

static gs_status create(gs_halo_t *halo, const char *fn, int w, int h, int gx, int gy, int dims,
                        gs_dtype type)
{
    if (!halo)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: halo is NULL", fn);
    *halo = NULL;
    if (type != GS_FLOAT32 && type != GS_FLOAT64)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: a halo carries GS_FLOAT32 or GS_FLOAT64 "
                        "values, not type %d", fn, (int)type);
    if (w < 1 || h < 1 || gx < 1 || gy < 1 || gx > w || gy > h)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %d x %d tiles of a %d x %d field: each "
                        "tile needs a cell (1 <= tiles <= cells in each direction)", fn, gx, gy,
                        w, h);
    if ((long long)gx * gy > GS_HALO_MAX_BLOCKS || (long long)w * h >= (1ll << 31))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: %d x %d tiles of %d x %d cells: at most "
                        "%d tiles and 2^31 - 1 cells", fn, gx, gy, w, h, GS_HALO_MAX_BLOCKS);
    struct gs_halo_object *o = calloc(1, sizeof *o);
    if (!o)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    o->w = w;
    o->h = h;
    o->gx = gx;
    o->gy = gy;
    o->dims = dims;
    o->value_words = type == GS_FLOAT64 ? 2 : 1;
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    /* at least one word, so that the view's pointer is never NULL */
    const size_t wb = words_bytes(o) > 0 ? words_bytes(o) : sizeof(unsigned long long);
    cudaError_t err = cudaMalloc((void **)&o->words, wb);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&o->epochs, epochs_bytes(o));
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    gs_status st = err == cudaSuccess
                       ? GS_SUCCESS
                       : gs__cuda_fail(err, "cudaMalloc(halo)", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = rearm(o, 0);
    if (st == GS_SUCCESS && (err = cudaStreamSynchronize(0)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaStreamSynchronize(halo)", __FILE__, __LINE__);
    if (st != GS_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", gs_last_error_detail());
        gs_halo_destroy(o);
        return gs__fail(st, "%s", why);
    }
    *halo = o;
    return GS_SUCCESS;
}

gs_status gs_halo_create_1d(gs_halo_t *halo, int n, int blocks, gs_dtype type)
{
    return create(halo, "gs_halo_create_1d", n, 1, blocks, 1, 1, type);
}

gs_status gs_halo_create_2d(gs_halo_t *halo, int w, int h, int gx, int gy, gs_dtype type)
{
    return create(halo, "gs_halo_create_2d", w, h, gx, gy, 2, type);
}

gs_status gs_halo_destroy(gs_halo_t halo)
{
    if (!halo)
        return GS_SUCCESS;
    cudaError_t err = cudaSuccess;
    if (halo->words)
        err = cudaFree(halo->words);
    if (halo->epochs) {
        cudaError_t e = cudaFree(halo->epochs);
        err = err != cudaSuccess ? err : e;
    }
    free(halo);
    if (err != cudaSuccess)
        return gs__cuda_fail(err, "cudaFree(halo)", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs_halo_device(gs_halo_t halo, gs_halo *view)
{
    if (!halo || !view)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_halo_device: halo or view is NULL");
    memset(view, 0, sizeof *view);
    view->words = halo->words;
    view->epochs = halo->epochs;
    view->w = halo->w;
    view->h = halo->h;
    view->gx = halo->gx;
    view->gy = halo->gy;
    view->dims = halo->dims;
    view->value_words = halo->value_words;
    return GS_SUCCESS;
}

gs_status gs_halo_shared_bytes(gs_halo_t halo, size_t *bytes)
{
    if (!halo || !bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_halo_shared_bytes: halo or bytes is NULL");
    const size_t tw = (size_t)((halo->w + halo->gx - 1) / halo->gx);
    const size_t th = (size_t)((halo->h + halo->gy - 1) / halo->gy);
    const size_t rows = th + (halo->dims == 2 ? 2u : 0u);
    *bytes = 2u * rows * (tw + 2u) * 4u * (size_t)halo->value_words;
    return GS_SUCCESS;
}

gs_status gs_halo_blocks(gs_halo_t halo, int *blocks)
{
    if (!halo || !blocks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_halo_blocks: halo or blocks is NULL");
    *blocks = halo->gx * halo->gy;
    return GS_SUCCESS;
}

gs_status gs_halo_reset(gs_halo_t halo, cudaStream_t stream)
{
    if (!halo)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_halo_reset: halo is NULL");
    return rearm(halo, stream);
}

gs_status gs_halo_split_2d(int w, int h, int blocks, int *gx, int *gy)
{
    if (!gx || !gy || w < 1 || h < 1 || blocks < 1)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_halo_split_2d: a %d x %d field on %d "
                        "blocks (each must be >= 1, gx and gy not NULL)", w, h, blocks);
    gs__halo_split_2d(w, h, blocks, gx, gy);
    return GS_SUCCESS;
}
