/*
 * workspace.h - the workspace pool of the runtime floor (internal): scratch
 * memory for the library's kernels that keep state between their blocks
 * (the single-pass reduction, the scan, the split-k and stream-k matrix
 * multiplies; any component may use it through the one acquire below).
 * A workspace holds block partials, the counters (the ticket, zero between
 * calls; the reductions' done marker; the count of finished blocks of
 * counted calls and the abort word of tagged calls), a result slot, and
 * three areas that grow on demand: descriptors tagged with the call's
 * number (scans), counters that every complete call leaves at zero
 * (split-k tile counters) and scratch (split-k partial tiles).
 *
 * Outside a stream capture each stream has its own, found by the stream's
 * unique id (cudaStreamGetId: never reused within a process, and each
 * thread's own stream for cudaStreamPerThread), so calls that share one are
 * ordered by their stream. Each call on a workspace gets the next sequence
 * number, which its kernel stores into the workspace as its very last access
 * (ticket[1]); once the stored number is the last one handed out and nobody
 * holds the workspace, it can be recycled for another stream (the cache
 * keeps GS_WS_CACHE_SIZE of them) or freed. The host reads that word only
 * then: a call pays no extra operation on its stream (an event recorded
 * after each call would stand between back-to-back kernels).
 * Calls from several host threads on one stream hold the workspace one at
 * a time, from taking their number to their release (after their last
 * operation is enqueued): so their kernels reach the stream in the order of
 * their numbers, and the last number handed out is the last one stored,
 * whatever order the threads run in. A call that fails before its launch
 * gives its marks back at its release. Freeing waits for the calls still
 * running (a minute at most, all workspaces together) outside every lock,
 * so that no other stream's call waits for them.
 * A scan cannot mark itself done that way (its blocks touch the workspace
 * until they end, in any order): each of its blocks adds one to counters[2]
 * (a release) after its last access to the workspace (the one-tile kernel
 * before storing its tile's output, which the count does not cover), and
 * the host, which knows how many blocks it launched
 * there, compares. Its tile descriptors carry the call's sequence number
 * (gridsync/detail/scan/scan_tile_state.cuh), so they are never cleared between
 * calls: only when the area is allocated or grown, and when the numbering
 * wraps (after 2^32 - 1 calls).
 * A split-k gemm counts itself out the same way (each tile's last arriving
 * block adds the tile's slices: the blocks launched, once all are done). Its
 * tile counters come back to zero by themselves at the end of every call
 * (src/gemm/sgemm_splitk.cu), so they are zeroed only when the area is
 * allocated or grown.
 * Inside a stream capture a call takes a workspace from the graph's memory
 * (allocation, zeroing and free become graph nodes), so replays of a graph
 * never share state with anything else.
 */
#ifndef GS_RUNTIME_WORKSPACE_H
#define GS_RUNTIME_WORKSPACE_H

#include <gridsync/detail/core/tuning.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per partial slot (GS_TUNE_REDUCE_MAX_BLOCKS of them) and of the
 * result slot: room for the widest accumulator, a value and a 64-bit index
 * (argmin). The operator registry (reduce.cu) checks at compile time that
 * every accumulator fits. */
#define GS_REDUCE_SLOT_BYTES 16
/* Workspaces kept for reuse before idle ones are recycled. */
#define GS_WS_CACHE_SIZE 64
/* Bytes of descriptors per scan tile: two slots (aggregate, inclusive
 * prefix) of up to two 8-byte words. */
#define GS_SCAN_TILE_BYTES 32

typedef struct gs__reduce_ws gs__reduce_ws;

/* What a call needs of a workspace (gs__ws_acquire). */
typedef struct gs__ws_request {
    cudaStream_t stream;
    int device;            /* the current one */
    int capturing;         /* the stream is being captured into a graph */
    const char *what;      /* the call, in error sentences ("scan") */
    unsigned int counted;  /* blocks that count themselves out in counters[2] (scans,
                              split-k); 0: the kernel stores the call's number into
                              counters[1] as its last access (reductions) */
    size_t tagged_bytes;   /* descriptors tagged with the call's number (scans) */
    size_t zeroed_bytes;   /* counters every complete call leaves at zero (split-k) */
    size_t scratch_bytes;  /* scratch (split-k partial tiles) */
    int faults;            /* the call may give up and record it: lease.fault */
} gs__ws_request;

/* A request for a call on `stream` that needs only the partials, the
 * counters and the result slot (a reduction); callers set the rest. */
static inline gs__ws_request gs__ws_request_for(cudaStream_t stream, int device, int capturing,
                                                const char *what)
{
    gs__ws_request r = {stream, device, capturing, what, 0u, 0, 0, 0, 0};
    return r;
}

/* What a call holds between gs__ws_acquire and gs__ws_release. */
typedef struct gs__ws_lease {
    gs__reduce_ws *cached; /* a stream's own, or NULL in a capture */
    void *graph_block;     /* in a capture: the graph-owned allocation */
    void *partials;
    unsigned int *ticket;  /* the counters: [0] the ticket; [1] the last reduction done;
                              [2] counted blocks finished; [3] a tagged call that gave up
                              (its number) */
    unsigned int seq;      /* this call's sequence number (never 0) */
    void *result;          /* GS_REDUCE_SLOT_BYTES for results bound to host memory */
    void *tagged;          /* tagged_bytes: zeroed or tagged by older calls */
    void *zeroed;          /* zeroed_bytes of zeros */
    void *scratch;         /* scratch_bytes */
    unsigned int counted;  /* the request's counted blocks, expected in counters[2] */
    unsigned int previous; /* the done marker before this call (restored if it fails) */
    unsigned int *fault;   /* requested: the fault record (gridsync/detail/core/fault_record.h)
                              of the stream's workspace, or of graphs, as the device sees it */
} gs__ws_lease;

/* A workspace for one call (the request says what it needs). In a capture
 * the areas come from the graph's memory, zeroed (tagged and zeroed) at
 * every replay, and the call's number is 1. */
gs_status gs__ws_acquire(const gs__ws_request *request, gs__ws_lease *lease);

/* Give the workspace back after the call's last operation on `stream` has
 * been enqueued. Returns `st`, or the first failure of its own. A counted
 * call that failed (`st`) launched nothing: its blocks are no longer
 * expected. */
gs_status gs__ws_release(gs__ws_lease *lease, cudaStream_t stream, gs_status st);

/* Hold the workspace of `stream` on `device` without a call (as a call
 * does: until gs__ws_release), to read its fault record; *found = 0 when
 * the stream has none (then there is nothing to release). */
gs_status gs__ws_find(cudaStream_t stream, int device, gs__ws_lease *lease, int *found);

/* A fault as the record held it: the call that gave up, where (a scan's
 * tile), out of how many, and how many more calls gave up after it before
 * it was reported (their details were not kept). */
typedef struct gs__ws_fault {
    int described;      /* call, where and of are set */
    unsigned int call, where, of;
    unsigned int later; /* further faults since the last report */
} gs__ws_fault;

/* Take (report and clear) the fault record of the held workspace: 1 when
 * it held something to report. Faults of calls still running on the stream
 * are left for a later take, never lost. */
int gs__ws_fault_take(gs__ws_lease *lease, gs__ws_fault *fault);

/* The same for the record of the calls captured into graphs (their
 * replays may run on any stream). */
int gs__ws_graph_fault_take(gs__ws_fault *fault);

/* gs__ws_cached_count (for tests) is declared in internal/gridsync_internal.h. */

#ifdef __cplusplus
}
#endif

#endif
