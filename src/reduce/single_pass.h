/*
 * single_pass.h - the host side of a single-pass call (internal): checks,
 * grid, workspace, launch, and bringing the result to where the caller
 * wants it. The kernels are instantiations of the agent in
 * gridsync/detail/reduce/single_pass.cuh (reduce.cu, dot.cu).
 */
#ifndef GS_REDUCE_SINGLE_PASS_H
#define GS_REDUCE_SINGLE_PASS_H

#include "gridsync.h"
#include "../runtime/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a single-pass call's result goes (gridsync.h, gs_reduce). */
typedef enum gs__result_kind {
    GS__RESULT_DEVICE = 0,  /* written by the kernel; the call is asynchronous */
    GS__RESULT_MANAGED = 1, /* written by the kernel; the call waits for it */
    GS__RESULT_HOST = 2     /* written to the workspace, copied, and the call waits */
} gs__result_kind;

/* A prepared launch: grid size, workspace, and where the kernel writes. */
typedef struct gs__single_pass_launch {
    const void *kernel;
    int early_launch; /* programmatic dependent launch (sm_90+) */
    int blocks;
    int capturing;    /* the stream is being captured into a graph */
    gs__ws_lease ws;
    void *out; /* the caller's pointer, or the workspace's result slot */
    size_t result_bytes; /* what the kernel writes at `out` */
    gs__result_kind result_kind;
} gs__single_pass_launch;

/* Checks shared by every single-pass call, the cheap ones before any CUDA
 * call (so bad input fails the same with or without a GPU): n >= 0, result
 * and inputs not NULL, n fits device memory, every input is device memory,
 * a host result outside a capture; then picks the grid for `kernel` (one
 * full wave at most, from its occupancy; fixed by n, the kernel and the
 * device, so results repeat bitwise) and takes a workspace for `stream`.
 * `who` names the API in error details; the kernel writes `result_bytes`
 * (at most GS_REDUCE_SLOT_BYTES). After a success the caller must end with
 * gs__single_pass_finish, whatever happens in between. */
gs_status gs__single_pass_prepare(const char *who, const void *kernel, gs_dtype type,
                                  size_t result_bytes, const void *const *inputs, int ninputs,
                                  long long n, void *result, cudaStream_t stream,
                                  gs__single_pass_launch *launch);

/* Launch the prepared kernel on `stream`. Its parameters
 * (gridsync/detail/reduce/single_pass.cuh): the input (the array `inputs` of its
 * pointers), n, the workspace's partials and ticket, the call's sequence
 * number (workspace.h), and the output. */
gs_status gs__single_pass_start(const gs__single_pass_launch *launch, const void *const *inputs,
                                long long n, cudaStream_t stream);

/* After the launch (`st`: how it went): bring a host-bound result back and
 * wait for host and managed results, then give the workspace back. */
gs_status gs__single_pass_finish(gs__single_pass_launch *launch, void *result,
                                 cudaStream_t stream, gs_status st);

#ifdef __cplusplus
}
#endif

#endif /* GS_REDUCE_SINGLE_PASS_H */
