/* workspace.c - the per-stream workspaces of the runtime floor
 * (workspace.h): a locked cache keyed by (device, stream id). */
#define _POSIX_C_SOURCE 200809L
#include "workspace.h"
#include "fault_record.h"

#include <gridsync/detail/core/fault_record.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/error.h"

/* A device area that grows on demand: the scans' tile descriptors, the
 * split-k gemm's tile counters and partial tiles. */
typedef struct device_area {
    void *memory;
    size_t bytes;
} device_area;

/* An area that a larger one replaced: kept until the workspace is freed (a
 * call enqueued before the growth may still use it). */
typedef struct retired_area {
    void *memory;
    struct retired_area *next;
} retired_area;

struct gs__reduce_ws {
    int device;
    unsigned long long stream_id;
    void *memory;              /* partials, then the counters, then the result slot */
    unsigned int issued;       /* the last sequence number handed out (0: none) */
    unsigned int reduce_seq;   /* the last reduction's number: its done marker (0: none) */
    unsigned int scan_blocks;  /* blocks of every scan and split-k gemm so far, mod 2^32:
                                  counters[2] when done */
    device_area tagged;        /* descriptors tagged with a call's number (scans) */
    device_area zeroed;        /* counters left at zero by every call (split-k) */
    device_area scratch;       /* scratch (split-k partial tiles) */
    int descriptors_stale;     /* the numbering wrapped: clear tags before the next scan */
    retired_area *retired;
    int users;                 /* calls holding it */
    int retire;                /* free it when the last user lets go */
    unsigned long long touched;/* LRU clock */
    pthread_mutex_t order;     /* held by a call from its number to its release, so that
                                  calls reach the stream in the order of their numbers */
    volatile unsigned int *fault; /* host-mapped record (fault_record.h), once asked for */
    unsigned int *fault_device;   /* the device's address of it */
    unsigned int later_seen;      /* its GS_FAULT_LATER at the last report */
};

enum { PARTIALS_BYTES = GS_TUNE_REDUCE_MAX_BLOCKS * GS_REDUCE_SLOT_BYTES,
       WS_BYTES = PARTIALS_BYTES + 2 * GS_REDUCE_SLOT_BYTES };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gs__reduce_ws **cache; /* entries are allocated one by one: pointers stay valid */
static int cached, capacity;
static unsigned long long clock_now;

enum { GS_WS_MAX_DEVICES = 64 };
static cudaStream_t readers[GS_WS_MAX_DEVICES]; /* one per device, created on first use */
static pthread_mutex_t readers_lock = PTHREAD_MUTEX_INITIALIZER;

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
    pthread_mutex_init(&ws->order, NULL);
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc(&ws->memory, WS_BYTES);
    if (err == cudaSuccess) /* ordered before the first call, on the same stream */
        err = cudaMemsetAsync(ws->memory, 0, WS_BYTES, stream);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess) {
        cudaFree(ws->memory);
        free(ws);
        return gs__cuda_fail(err, "cudaMalloc/cudaMemsetAsync(reduction workspace)", __FILE__,
                             __LINE__);
    }
    *out = ws;
    return GS_SUCCESS;
}

/* Whether the workspace's calls have made their last access to it: the
 * number the last reduction's kernel stored (single_pass_done) is its
 * number, and the counted calls' blocks have all counted themselves out.
 * Read through a stream of our own, so that nothing else is waited for.
 * Nobody holds the workspace; the current device is the workspace's.
 * 1: done; 0: not yet; -1: it cannot be read (the device failed). */
static int completed(gs__reduce_ws *ws)
{
    unsigned int words[3] = {0, 0, 0};
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaError_t err = cudaSuccess;
    if (ws->issued == 0)
        return 1;
    if (ws->device < 0 || ws->device >= GS_WS_MAX_DEVICES)
        return -1;
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    pthread_mutex_lock(&readers_lock);
    if (!readers[ws->device])
        err = cudaStreamCreateWithFlags(&readers[ws->device], cudaStreamNonBlocking);
    pthread_mutex_unlock(&readers_lock);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(words, (char *)ws->memory + PARTIALS_BYTES, sizeof words,
                              cudaMemcpyDeviceToHost, readers[ws->device]);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(readers[ws->device]);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return words[1] == ws->reduce_seq && words[2] == ws->scan_blocks;
}

/* Free a workspace nobody holds any more, on its own device. `done`: its
 * calls have made their last access; a workspace whose calls never end is
 * left allocated on the device rather than freed under a running kernel. */
static void destroy(gs__reduce_ws *ws, int done)
{
    if (done) {
        cudaFree(ws->memory);
        cudaFree(ws->tagged.memory);
        cudaFree(ws->zeroed.memory);
        cudaFree(ws->scratch.memory);
        for (retired_area *r = ws->retired; r; r = r->next)
            cudaFree(r->memory);
        if (ws->fault)
            cudaFreeHost((void *)ws->fault);
    }
    for (retired_area *r = ws->retired, *next; r; r = next) {
        next = r->next;
        free(r);
    }
    pthread_mutex_destroy(&ws->order);
    free(ws);
}

/* How long freeing waits, all workspaces together, for calls still running
 * on them. */
enum { FREE_WAIT_S = 60 };

/* Wait (up to FREE_WAIT_S for all of them together, outside every lock)
 * for the last calls of `n` workspaces that nobody holds any more, then
 * free them (destroy), each once done. */
static void free_when_done(gs__reduce_ws **list, int n)
{
    int current = 0, left = n;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    cudaGetDevice(&current);
    for (long pause_us = 100; left > 0; pause_us = pause_us < 10000 ? 2 * pause_us : pause_us) {
        for (int i = 0; i < n; ++i) {
            if (!list[i])
                continue;
            cudaSetDevice(list[i]->device);
            int done = completed(list[i]);
            if (done != 0) { /* done, or never readable again: freed or left */
                destroy(list[i], done > 0);
                list[i] = NULL;
                --left;
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (left == 0 || now.tv_sec - start.tv_sec >= FREE_WAIT_S)
            break;
        struct timespec pause = {0, pause_us * 1000};
        nanosleep(&pause, NULL);
    }
    for (int i = 0; i < n; ++i) /* past the wait: left allocated on the device */
        if (list[i])
            destroy(list[i], 0);
    cudaSetDevice(current);
}

/* ------------------------------------------------------- fault records */

/* Whether the workspace's record holds a fault not yet reported (then it
 * stays with its stream). Under the cache's lock, nobody holding it. */
static int fault_pending(const gs__reduce_ws *ws)
{
    return ws->fault &&
           (ws->fault[GS_FAULT_FLAG] != 0u || ws->fault[GS_FAULT_LATER] != ws->later_seen);
}

int gs__ws_fault_take(gs__ws_lease *lease, gs__ws_fault *fault)
{
    gs__reduce_ws *ws = lease->cached; /* its order lock held */
    if (!ws) {
        memset(fault, 0, sizeof *fault);
        return 0;
    }
    return gs__fault_record_take(ws->fault, &ws->later_seen, fault);
}

/* ----------------------------------------------------------- the cache */

static int by_age(const void *a, const void *b)
{
    unsigned long long x = (*(gs__reduce_ws *const *)a)->touched;
    unsigned long long y = (*(gs__reduce_ws *const *)b)->touched;
    return x < y ? -1 : x > y;
}

/* Once the cache is full: the least recently used workspace of `device`
 * that nobody holds and whose last call is done (so its ticket is back to
 * zero); it can serve another stream. Candidates are read oldest first, and
 * usually the first one is done. */
static gs__reduce_ws *recyclable(int device)
{
    gs__reduce_ws **candidates = NULL, *found = NULL;
    int n = 0;
    if (cached < GS_WS_CACHE_SIZE || !(candidates = malloc((size_t)cached * sizeof *candidates)))
        return NULL;
    for (int i = 0; i < cached; ++i)
        if (cache[i]->device == device && !cache[i]->users && !cache[i]->retire &&
            !fault_pending(cache[i]))
            candidates[n++] = cache[i];
    qsort(candidates, (size_t)n, sizeof *candidates, by_age);
    for (int i = 0; i < n && !found; ++i)
        if (completed(candidates[i]) == 1)
            found = candidates[i];
    free(candidates);
    return found;
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

/* The workspace of stream `id` on `device`, or NULL. Under the cache's
 * lock. */
static gs__reduce_ws *lookup(int device, unsigned long long id)
{
    for (int i = 0; i < cached; ++i)
        if (cache[i]->device == device && cache[i]->stream_id == id && !cache[i]->retire)
            return cache[i];
    return NULL;
}

static gs_status acquire_cached(int device, unsigned long long id, cudaStream_t stream,
                                gs__reduce_ws **out)
{
    gs__reduce_ws *ws = lookup(device, id);
    if (!ws && (ws = recyclable(device)) != NULL) {
        ws->stream_id = id;
        /* the ticket and the done word start from zero on the new stream,
         * before its first call, whatever the old stream left in flight;
         * `issued` goes on counting, so no old or zeroed word can equal the
         * new stream's next number. The scans' count goes on too (it is
         * complete: the host read it), and their descriptors and abort word
         * carry older numbers. */
        GS_CUDA_TRY(cudaMemsetAsync((char *)ws->memory + PARTIALS_BYTES, 0,
                                    2 * sizeof(unsigned int), stream));
        ws->reduce_seq = 0;
    }
    if (!ws) {
        GS_TRY(create(device, id, stream, &ws));
        gs_status st = append(ws);
        if (st != GS_SUCCESS) {
            destroy(ws, 1); /* no call yet */
            return st;
        }
    }
    ws->users++;
    ws->touched = ++clock_now;
    *out = ws;
    return GS_SUCCESS;
}

/* The next sequence number of `ws` (never 0). Under its order lock. */
static unsigned int next_number(gs__reduce_ws *ws)
{
    if (++ws->issued == 0) { /* 0 means "nothing issued": skip it when wrapping */
        ws->issued = 1;
        ws->descriptors_stale = 1; /* numbers come again: old tags could match */
    }
    return ws->issued;
}

/* `area` holding at least `need` bytes: a larger allocation (at least twice
 * the old one, and 64 KiB) zeroed on the stream before the call when needed,
 * the old one retired. Sets *grown when it allocated. Under the workspace's
 * order lock. */
static gs_status grow_area(gs__reduce_ws *ws, device_area *area, size_t need, cudaStream_t stream,
                           const char *what, int *grown)
{
    *grown = 0;
    if (need <= area->bytes)
        return GS_SUCCESS;
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    size_t bytes = area->bytes * 2 > need ? area->bytes * 2 : need;
    void *memory = NULL;
    retired_area *old = area->memory ? malloc(sizeof *old) : NULL;
    if (area->memory && !old)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "%s: out of host memory", what);
    bytes = bytes < (64u << 10) ? (64u << 10) : bytes;
    GS_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    cudaError_t err = cudaMalloc(&memory, bytes);
    if (err == cudaSuccess)
        err = cudaMemsetAsync(memory, 0, bytes, stream);
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (err != cudaSuccess) {
        cudaFree(memory);
        free(old);
        return gs__cuda_fail(err, what, __FILE__, __LINE__);
    }
    if (old) {
        *old = (retired_area){area->memory, ws->retired};
        ws->retired = old;
    }
    *area = (device_area){memory, bytes};
    *grown = 1;
    return GS_SUCCESS;
}

/* The tagged area of `bytes` on the stream's workspace (grow_area); its
 * tags and the abort word cleared when the numbering has wrapped. Under the
 * workspace's order lock. */
static gs_status tagged_area(gs__reduce_ws *ws, size_t bytes, cudaStream_t stream)
{
    int grown = 0;
    GS_TRY(grow_area(ws, &ws->tagged, bytes, stream,
                     "cudaMalloc/cudaMemsetAsync(workspace descriptors)", &grown));
    if (!grown && ws->descriptors_stale)
        GS_CUDA_TRY(cudaMemsetAsync(ws->tagged.memory, 0, ws->tagged.bytes, stream));
    if (ws->descriptors_stale) /* the abort word: counters[3] */
        GS_CUDA_TRY(cudaMemsetAsync((char *)ws->memory + PARTIALS_BYTES + 3 * sizeof(unsigned int),
                                    0, sizeof(unsigned int), stream));
    ws->descriptors_stale = 0;
    return GS_SUCCESS;
}

/* The areas a request asks for on the stream's workspace. The zeroed area
 * has an allocation of its own: it only ever holds counters, which every
 * complete call leaves at zero, so a larger call finds zeros past the
 * counters a smaller one used (sharing one allocation with the scratch,
 * they would have been a smaller call's partial tiles). Under the
 * workspace's order lock. */
static gs_status request_areas(gs__reduce_ws *ws, const gs__ws_request *rq)
{
    int grown = 0;
    if (rq->tagged_bytes)
        GS_TRY(tagged_area(ws, rq->tagged_bytes, rq->stream));
    if (rq->zeroed_bytes)
        GS_TRY(grow_area(ws, &ws->zeroed, rq->zeroed_bytes, rq->stream,
                         "cudaMalloc/cudaMemsetAsync(workspace counters)", &grown));
    if (rq->scratch_bytes)
        GS_TRY(grow_area(ws, &ws->scratch, rq->scratch_bytes, rq->stream,
                         "cudaMalloc/cudaMemsetAsync(workspace scratch)", &grown));
    return GS_SUCCESS;
}

/* In a capture: `bytes` of the graph's memory (an allocation node; the
 * caller's free node ends its life). */
static gs_status graph_block(const gs__ws_request *rq, size_t bytes, gs__ws_lease *lease)
{
    int pools = 0;
    GS_CUDA_TRY(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, rq->device));
    if (!pools)
        return gs__fail(GS_ERR_NOT_SUPPORTED,
                        "capturing a %s needs stream-ordered memory (memory pools), "
                        "which device %d lacks", rq->what, rq->device);
    GS_CUDA_TRY(cudaMallocAsync(&lease->graph_block, bytes, rq->stream));
    return GS_SUCCESS;
}

/* A call in a capture: one graph-owned block. A reduction's is laid out as
 * a cached workspace, its ticket zeroed by a graph node; a counted call's
 * holds the counters, then the tagged, zeroed and scratch areas, the first
 * three zeroed by one graph node at every replay. The call's number is 1
 * (never the zeroed tag); nobody reads it back. */
static gs_status acquire_in_graph(const gs__ws_request *rq, gs__ws_lease *lease)
{
    lease->seq = 1;
    if (rq->faults)
        GS_TRY(gs__fault_record_graph(&lease->fault));
    if (!rq->counted) {
        GS_TRY(graph_block(rq, WS_BYTES, lease));
        fill_lease(lease, lease->graph_block);
        GS_CUDA_TRY(cudaMemsetAsync(lease->ticket, 0, sizeof *lease->ticket, rq->stream));
        return GS_SUCCESS;
    }
    const size_t zero = GS_REDUCE_SLOT_BYTES + rq->tagged_bytes + rq->zeroed_bytes;
    GS_TRY(graph_block(rq, zero + rq->scratch_bytes, lease));
    GS_CUDA_TRY(cudaMemsetAsync(lease->graph_block, 0, zero, rq->stream));
    lease->ticket = (unsigned int *)lease->graph_block;
    lease->tagged = (char *)lease->graph_block + GS_REDUCE_SLOT_BYTES;
    lease->zeroed = (char *)lease->tagged + rq->tagged_bytes;
    lease->scratch = (char *)lease->zeroed + rq->zeroed_bytes;
    lease->counted = rq->counted;
    return GS_SUCCESS;
}

/* Two host threads may call on one stream: the pool hands the workspace to
 * one at a time (its order lock, from the call's number to its release),
 * so the kernels reach the stream in the order of their numbers and the
 * last number handed out is the last one stored. */
gs_status gs__ws_acquire(const gs__ws_request *rq, gs__ws_lease *lease)
{
    unsigned long long id = 0;
    memset(lease, 0, sizeof *lease);
    if (rq->capturing)
        return acquire_in_graph(rq, lease);
    GS_CUDA_TRY(cudaStreamGetId(rq->stream, &id));
    pthread_mutex_lock(&lock);
    gs_status st = acquire_cached(rq->device, id, rq->stream, &lease->cached);
    pthread_mutex_unlock(&lock);
    if (st != GS_SUCCESS)
        return st;
    gs__reduce_ws *ws = lease->cached;
    pthread_mutex_lock(&ws->order);
    const unsigned int number = next_number(ws);
    st = request_areas(ws, rq);
    if (st == GS_SUCCESS && rq->faults && !ws->fault)
        st = gs__fault_record_new(&ws->fault, &ws->fault_device);
    if (st != GS_SUCCESS) /* held, nothing counted: let go of it */
        return gs__ws_release(lease, rq->stream, st);
    fill_lease(lease, ws->memory);
    lease->seq = number;
    lease->tagged = ws->tagged.memory;
    lease->zeroed = ws->zeroed.memory;
    lease->scratch = ws->scratch.memory;
    lease->counted = rq->counted;
    lease->previous = ws->reduce_seq;
    lease->fault = rq->faults ? ws->fault_device : NULL;
    if (rq->counted)
        ws->scan_blocks += rq->counted;
    else
        ws->reduce_seq = number;
    return GS_SUCCESS;
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
    (void)stream; /* the kernel itself marks the call done (workspace.h) */
    if (!ws)
        return st;
    if (st != GS_SUCCESS && lease->seq) { /* a call that failed launched nothing */
        if (lease->counted)
            ws->scan_blocks -= lease->counted;
        else
            ws->reduce_seq = lease->previous;
    }
    pthread_mutex_unlock(&ws->order);
    pthread_mutex_lock(&lock);
    int last = --ws->users == 0 && ws->retire;
    pthread_mutex_unlock(&lock);
    if (last) /* gs_reduce_release_workspaces left it to us */
        free_when_done(&ws, 1);
    lease->cached = NULL;
    return st;
}

gs_status gs__ws_find(cudaStream_t stream, int device, gs__ws_lease *lease, int *found)
{
    unsigned long long id = 0;
    memset(lease, 0, sizeof *lease);
    *found = 0;
    GS_CUDA_TRY(cudaStreamGetId(stream, &id));
    pthread_mutex_lock(&lock);
    if ((lease->cached = lookup(device, id)) != NULL)
        lease->cached->users++;
    pthread_mutex_unlock(&lock);
    if (!lease->cached)
        return GS_SUCCESS;
    pthread_mutex_lock(&lease->cached->order);
    *found = 1;
    return GS_SUCCESS;
}

/* The cache is emptied under the lock; the workspaces nobody holds are
 * freed after it, outside it (free_when_done), so that no call on any
 * stream waits for their kernels; the held ones are left to their last
 * user. */
void gs_reduce_release_workspaces(void)
{
    pthread_mutex_lock(&lock);
    gs__reduce_ws **idle = cache;
    int n = 0;
    for (int i = 0; i < cached; ++i) {
        if (cache[i]->users) /* in use: its last user frees it */
            cache[i]->retire = 1;
        else
            idle[n++] = cache[i];
    }
    cache = NULL;
    cached = capacity = 0;
    pthread_mutex_unlock(&lock);
    free_when_done(idle, n);
    free(idle);
}

int gs__ws_cached_count(void)
{
    pthread_mutex_lock(&lock);
    int n = cached;
    pthread_mutex_unlock(&lock);
    return n;
}
