/*
 * single_pass.cuh - what the single-pass kernels (reduce.cu, dot.cu) share
 * (internal): the last-block finish, grid sizing, argument checks common to
 * device inputs, and moving the result to host memory.
 */
#ifndef GS_REDUCE_SINGLE_PASS_CUH
#define GS_REDUCE_SINGLE_PASS_CUH

#include <gridsync/reduce.cuh>

#include "gridsync.h"
#include "workspace.h"

/* Grid sizing (single_pass.cu): 16 elements read per thread (a dot reads
 * two per index), but at least one block per SM while each thread still
 * gets 4 (measured on H200: more blocks help latency-bound lengths,
 * 2^13..2^19), and at most one wave. */
enum { GS_REDUCE_THREADS = 256, GS_REDUCE_ITEMS = 16, GS_REDUCE_MIN_ITEMS = 4 };

/*
 * Phase 2 of a single pass: thread 0 publishes the block's result `r` and
 * takes a ticket with an acq_rel atomic; the block that draws the last ticket
 * folds all partials in index order into *out and resets the ticket.
 * Why correct: each block's partial is released by its ticket; the last
 * block acquires the final ticket value (a release sequence of RMWs), and its
 * block barrier extends that to all of its threads. The seed (001) had no
 * fence on the reading side. All threads of the block must call it.
 */
#define GS__DEFINE_SINGLE_PASS_FINISH(T, op, t, ID)                                         \
    static __device__ __forceinline__ void gs__single_pass_finish_##op##_##t(               \
        T r, T *partials, unsigned int *ticket, T *out, T *smem)                            \
    {                                                                                       \
        __shared__ int last;                                                                \
        if (gridDim.x == 1u) { /* one block: no partials, no ticket */                      \
            if (threadIdx.x == 0)                                                           \
                *out = r;                                                                   \
            return;                                                                         \
        }                                                                                   \
        if (threadIdx.x == 0) {                                                             \
            unsigned int drawn;                                                             \
            partials[blockIdx.x] = r;                                                       \
            asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"                     \
                         : "=r"(drawn)                                                      \
                         : "l"(ticket)                                                      \
                         : "memory");                                                       \
            last = drawn == gridDim.x - 1u;                                                 \
        }                                                                                   \
        __syncthreads();                                                                    \
        if (!last)                                                                          \
            return;                                                                         \
        T a = ID;                                                                           \
        for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x)                  \
            a = gs_op_##op##_##t(a, __ldcg(partials + j));                                  \
        r = gs_block_reduce_##op##_##t(a, smem);                                            \
        if (threadIdx.x == 0) {                                                             \
            *out = r;                                                                       \
            gs_st_relaxed_gpu(ticket, 0u);                                                  \
        }                                                                                   \
    }

#define GS__DEFINE_SINGLE_PASS_FINISH_TYPE(T, t, T_UP)                                      \
    GS__DEFINE_SINGLE_PASS_FINISH(T, sum, t, GS_IDENTITY_SUM_##T_UP)                        \
    GS__DEFINE_SINGLE_PASS_FINISH(T, min, t, GS_IDENTITY_MIN_##T_UP)                        \
    GS__DEFINE_SINGLE_PASS_FINISH(T, max, t, GS_IDENTITY_MAX_##T_UP)

GS__DEFINE_SINGLE_PASS_FINISH_TYPE(float, f32, F32)
GS__DEFINE_SINGLE_PASS_FINISH_TYPE(double, f64, F64)
GS__DEFINE_SINGLE_PASS_FINISH_TYPE(int, i32, I32)
GS__DEFINE_SINGLE_PASS_FINISH_TYPE(long long, i64, I64)

/*
 * First thing in every single-pass kernel. They are launched with
 * programmatic dependent launch on sm_90+ (gs__single_pass_start), so a call
 * can be scheduled while the previous kernel on the stream is finishing:
 * griddepcontrol.wait blocks until that kernel has completed and its memory
 * is visible (so inputs, partials and the ticket are safe to touch), and
 * launch_dependents lets the next call be scheduled early in turn. Saves
 * about a microsecond per call back to back. Without such a launch, or
 * before sm_90, both are no-ops.
 */
static __device__ __forceinline__ void gs__single_pass_begin(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

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
    gs__result_kind result_kind;
} gs__single_pass_launch;

/* Checks shared by every single-pass call, the cheap ones before any CUDA
 * call (so bad input fails the same with or without a GPU): n >= 0, result
 * and inputs not NULL, n fits device memory, every input is device memory,
 * a host result outside a capture; then picks the grid for `kernel` (one
 * full wave at most, from its occupancy; fixed by n, the kernel and the
 * device, so results repeat bitwise) and takes a workspace for `stream`.
 * `who` names the API in error details. After a success the caller must
 * end with gs__single_pass_finish, whatever happens in between. */
gs_status gs__single_pass_prepare(const char *who, const void *kernel, gs_dtype type,
                                  const void *const *inputs, int ninputs, long long n,
                                  void *result, cudaStream_t stream,
                                  gs__single_pass_launch *launch);

/* Launch the prepared kernel with `args` on `stream`. */
gs_status gs__single_pass_start(const gs__single_pass_launch *launch, void **args,
                                cudaStream_t stream);

/* After the launch (`st`: how it went): bring a host-bound result back and
 * wait for host and managed results, then give the workspace back. */
gs_status gs__single_pass_finish(gs__single_pass_launch *launch, gs_dtype type, void *result,
                                 cudaStream_t stream, gs_status st);

#endif
