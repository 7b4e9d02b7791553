/* workspace.c - the per-stream workspaces of the single-pass reduction
 * (workspace.h): a locked cache keyed by (device, stream id). */
#include "workspace.h"

#include <pthread.h>
#include <stdlib.h>

#include "../core/error.h"

struct gs__reduce_ws {
    int device;
    unsigned long long stream_id;
    void *memory;              /* partials, then ticket, then the result slot */
    cudaEvent_t done;          /* recorded after the last call that used it */
    int used;                  /* `done` has been recorded */
    int users;                 /* calls holding it */
    int retire;                /* free it when the last user lets go */
    unsigned long long touched;/* LRU clock */
    pthread_mutex_t result_lock;
};

enum { PARTIALS_BYTES = GS_TUNE_REDUCE_MAX_BLOCKS * GS_REDUCE_SLOT_BYTES,
       WS_BYTES = PARTIALS_BYTES + 2 * GS_REDUCE_SLOT_BYTES };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gs__reduce_ws **cache; /* entries are allocated one by one: pointers stay valid */
static int cached, capacity;
static unsigned long long clock_now;

static void fill_lease(gs__ws_lease *lease, void *memory)
{
    lease->partials = memory;
    lease->ticket = (unsigned int *)((char *)memory + PARTIALS_BYTES);
    lease->result = (char *)memory + PARTIALS_BYTES + GS_REDUCE_SLOT_BYTES;
}

/* Allocations run in relaxed capture mode: a capture under way in another
 * thread must not be invalidated by them. */
static gs_status create(int device, unsigned long long id, cudaStream_t stream,
                        gs__reduce_ws **out)
{
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    gs__reduce_ws *ws = calloc(1, sizeof *ws);
    if (!ws)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "reduction workspace: out of host memory");
    ws->device = device;
    ws->stream_id = id;
    pthread_mutex_init(&ws->result_lock, NULL);
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc(&ws->memory, WS_BYTES);
    if (err == cudaSuccess) /* ordered before the first call, on the same stream */
        err = cudaMemsetAsync(ws->memory, 0, WS_BYTES, stream);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&ws->done, cudaEventDisableTiming);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess) {
        cudaFree(ws->memory);
        free(ws);
        return gs__cuda_fail(err, "cudaMalloc/cudaMemset/cudaEventCreate(reduction workspace)",
                             __FILE__, __LINE__);
    }
    *out = ws;
    return GS_SUCCESS;
}

/* Wait for its last call, then free it (on its own device). */
static void destroy(gs__reduce_ws *ws)
{
    int current = 0;
    cudaGetDevice(&current);
    cudaSetDevice(ws->device);
    if (ws->used)
        cudaEventSynchronize(ws->done);
    cudaEventDestroy(ws->done);
    cudaFree(ws->memory);
    cudaSetDevice(current);
    pthread_mutex_destroy(&ws->result_lock);
    free(ws);
}

static int idle(gs__reduce_ws *ws)
{
    if (ws->users || ws->retire)
        return 0;
    if (!ws->used)
        return 1;
    cudaError_t err = cudaEventQuery(ws->done);
    if (err != cudaSuccess && err != cudaErrorNotReady)
        (void)cudaGetLastError();
    return err == cudaSuccess;
}

/* The least recently used idle workspace of `device`, once the cache is
 * full: its last call has finished, so its ticket is back to zero and it
 * can serve another stream. */
static gs__reduce_ws *recyclable(int device)
{
    gs__reduce_ws *best = NULL;
    if (cached < GS_WS_CACHE_SIZE)
        return NULL;
    for (int i = 0; i < cached; ++i)
        if (cache[i]->device == device && (!best || cache[i]->touched < best->touched) &&
            idle(cache[i]))
            best = cache[i];
    return best;
}

static gs_status append(gs__reduce_ws *ws)
{
    if (cached == capacity) {
        int grown = capacity ? 2 * capacity : GS_WS_CACHE_SIZE;
        gs__reduce_ws **bigger = realloc(cache, (size_t)grown * sizeof *bigger);
        if (!bigger)
            return gs__fail(GS_ERR_OUT_OF_MEMORY, "reduction workspace: out of host memory");
        cache = bigger;
        capacity = grown;
    }
    cache[cached++] = ws;
    return GS_SUCCESS;
}

static gs_status acquire_cached(int device, unsigned long long id, cudaStream_t stream,
                                gs__reduce_ws **out)
{
    gs__reduce_ws *ws = NULL;
    for (int i = 0; i < cached && !ws; ++i)
        if (cache[i]->device == device && cache[i]->stream_id == id && !cache[i]->retire)
            ws = cache[i];
    if (!ws && (ws = recyclable(device)) != NULL)
        ws->stream_id = id;
    if (!ws) {
        GS_TRY(create(device, id, stream, &ws));
        gs_status st = append(ws);
        if (st != GS_SUCCESS) {
            destroy(ws);
            return st;
        }
    }
    ws->users++;
    ws->touched = ++clock_now;
    *out = ws;
    return GS_SUCCESS;
}

/* In a capture: one graph-owned block, its ticket zeroed by a graph node. */
static gs_status acquire_in_graph(cudaStream_t stream, gs__ws_lease *lease)
{
    int device = 0, pools = 0;
    GS_CUDA_TRY(cudaGetDevice(&device));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    if (!pools)
        return gs__fail(GS_ERR_NOT_SUPPORTED,
                        "capturing a reduction needs stream-ordered memory (memory pools), "
                        "which device %d lacks", device);
    GS_CUDA_TRY(cudaMallocAsync(&lease->graph_block, WS_BYTES, stream));
    fill_lease(lease, lease->graph_block);
    GS_CUDA_TRY(cudaMemsetAsync(lease->ticket, 0, sizeof *lease->ticket, stream));
    return GS_SUCCESS;
}

gs_status gs__ws_acquire(cudaStream_t stream, int capturing, gs__ws_lease *lease)
{
    int device = 0;
    unsigned long long id = 0;
    lease->cached = NULL;
    lease->graph_block = NULL;
    if (capturing)
        return acquire_in_graph(stream, lease);
    GS_CUDA_TRY(cudaGetDevice(&device));
    GS_CUDA_TRY(cudaStreamGetId(stream, &id));
    pthread_mutex_lock(&lock);
    gs_status st = acquire_cached(device, id, stream, &lease->cached);
    pthread_mutex_unlock(&lock);
    if (st == GS_SUCCESS)
        fill_lease(lease, lease->cached->memory);
    return st;
}

void gs__ws_lock_result(gs__ws_lease *lease)
{
    if (lease->cached)
        pthread_mutex_lock(&lease->cached->result_lock);
}

void gs__ws_unlock_result(gs__ws_lease *lease)
{
    if (lease->cached)
        pthread_mutex_unlock(&lease->cached->result_lock);
}

gs_status gs__ws_release(gs__ws_lease *lease, cudaStream_t stream, gs_status st)
{
    if (lease->graph_block) {
        cudaError_t err = cudaFreeAsync(lease->graph_block, stream);
        lease->graph_block = NULL;
        if (err != cudaSuccess && st == GS_SUCCESS)
            st = gs__cuda_fail(err, "cudaFreeAsync(graph workspace)", __FILE__, __LINE__);
        return st;
    }
    gs__reduce_ws *ws = lease->cached;
    if (!ws)
        return st;
    cudaError_t err = cudaEventRecord(ws->done, stream);
    if (err != cudaSuccess && st == GS_SUCCESS)
        st = gs__cuda_fail(err, "cudaEventRecord(workspace done)", __FILE__, __LINE__);
    pthread_mutex_lock(&lock);
    ws->used |= err == cudaSuccess;
    int last = --ws->users == 0 && ws->retire;
    pthread_mutex_unlock(&lock);
    if (last) /* gs_reduce_release_workspaces left it to us */
        destroy(ws);
    lease->cached = NULL;
    return st;
}

void gs_reduce_release_workspaces(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < cached; ++i) {
        if (cache[i]->users) /* in use: its last user frees it */
            cache[i]->retire = 1;
        else
            destroy(cache[i]);
    }
    cached = 0;
    pthread_mutex_unlock(&lock);
}

int gs__ws_cached_count(void)
{
    pthread_mutex_lock(&lock);
    int n = cached;
    pthread_mutex_unlock(&lock);
    return n;
}
