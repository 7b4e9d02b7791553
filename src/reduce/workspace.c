/* workspace.c - a small, locked cache of per-(device, stream) workspaces. */
#include "workspace.h"

#include <pthread.h>
#include <stdlib.h>

#include "../core/error.h"

enum { GS_MAX_WORKSPACES = 256 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gs__reduce_ws cache[GS_MAX_WORKSPACES];
static int cached;

static gs_status create(int device, cudaStream_t stream, gs__reduce_ws *ws)
{
    ws->device = device;
    ws->stream = stream;
    GS_CUDA_TRY(cudaMalloc(&ws->partials, (size_t)GS_REDUCE_MAX_BLOCKS * 8u));
    GS_CUDA_TRY(cudaMalloc((void **)&ws->ticket, sizeof *ws->ticket));
    GS_CUDA_TRY(cudaMalloc(&ws->result, 8u));
    GS_CUDA_TRY(cudaMemset(ws->ticket, 0, sizeof *ws->ticket));
    return GS_SUCCESS;
}

static void destroy(gs__reduce_ws *ws)
{
    cudaFree(ws->partials);
    cudaFree(ws->ticket);
    cudaFree(ws->result);
    ws->partials = ws->result = NULL;
    ws->ticket = NULL;
}

gs_status gs__reduce_workspace(cudaStream_t stream, gs__reduce_ws **out)
{
    int device = 0;
    GS_CUDA_TRY(cudaGetDevice(&device));
    pthread_mutex_lock(&lock);
    for (int i = 0; i < cached; ++i)
        if (cache[i].device == device && cache[i].stream == stream) {
            *out = &cache[i];
            pthread_mutex_unlock(&lock);
            return GS_SUCCESS;
        }
    gs_status st = GS_SUCCESS;
    if (cached == GS_MAX_WORKSPACES) {
        st = gs__fail(GS_ERR_OUT_OF_MEMORY,
                      "more than %d streams have used gs_reduce; call "
                      "gs_reduce_release_workspaces() between phases",
                      GS_MAX_WORKSPACES);
    } else {
        gs__reduce_ws ws = {0};
        st = create(device, stream, &ws);
        if (st == GS_SUCCESS) {
            cache[cached] = ws;
            *out = &cache[cached++];
        } else {
            destroy(&ws);
        }
    }
    pthread_mutex_unlock(&lock);
    return st;
}

void gs_reduce_release_workspaces(void)
{
    int device = 0;
    pthread_mutex_lock(&lock);
    cudaGetDevice(&device);
    for (int i = 0; i < cached; ++i) {
        cudaSetDevice(cache[i].device);
        destroy(&cache[i]);
    }
    cached = 0;
    cudaSetDevice(device);
    pthread_mutex_unlock(&lock);
}
