/*
 * cuda_stub.h - a stand-in for the CUDA runtime (and the five driver entry
 * points the library reaches through it), linked instead of libcudart into
 * host tests of the library's host code (tests/host/library.cmake): the
 * workspace pool, barriers, the watchdog, scan fault records.
 *
 * The model: "device memory" is host memory (cudaMalloc is calloc, a
 * device pointer is readable by the test). A stream is a queue of
 * operations (memset, copy, kernel, event record, free) run in order; an
 * operation runs as soon as everything before it on its stream has run,
 * except a kernel the test launched "held", which stays running (blocking
 * its stream) until the test finishes it. A kernel's effect (a function of
 * the test's) runs when it finishes: that is when a real kernel's last
 * stores would land. cudaStreamSynchronize and cudaEventSynchronize block
 * until the work they wait for has run (up to STUB_WAIT_LIMIT_S, then they
 * fail with cudaErrorLaunchTimeout so that a broken test cannot hang).
 * Stream capture records operations into a graph instead; cudaGraphLaunch
 * enqueues the graph's operations (kernels held or not as captured: a test
 * marks the kernels of its next launches held with stub_hold_next).
 * Everything is under one lock: any thread may call anything.
 */
#ifndef GS_TEST_CUDA_STUB_H
#define GS_TEST_CUDA_STUB_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { STUB_WAIT_LIMIT_S = 20 };

/* A kernel's effect when it finishes. */
typedef void (*stub_effect)(void *arg);

/* A kernel in flight (held), for stub_finish. */
typedef struct stub_op stub_op;

/* Enqueue a kernel on `stream` (or into its capture): `effect(arg)` runs
 * when it finishes; `held`: it stays running until stub_finish. Returns the
 * operation when held (NULL otherwise, or for a captured kernel). */
stub_op *stub_launch(cudaStream_t stream, stub_effect effect, void *arg, int held);

/* Finish a held kernel: its effect runs, and its stream goes on. */
void stub_finish(stub_op *op);

/* The next `count` kernels enqueued (by stub_launch, the driver's
 * cuLaunchCooperativeKernel or a graph launch) are held; stub_held(i)
 * returns the i-th of them (0-based, in enqueue order, NULL until then). */
void stub_hold_next(int count);
stub_op *stub_held(int i);

/* Called inside cuLaunchCooperativeKernel (the library's gs_launch), in the
 * launching thread, before the kernel is enqueued: NULL for none. */
void stub_set_launch_hook(void (*hook)(void *arg), void *arg);

/* The device's compute capability (major; 9 by default) and the PTX
 * version the driver reports for every kernel (90 by default). */
void stub_set_compute_capability(int major);
void stub_set_ptx_version(int version);

/* The last cuLaunchKernelEx (the library's gs_launch_pdl): its grid,
 * block, shared memory, stream and whether it carried the
 * programmatic-stream-serialization attribute; `count` launches so far.
 * The next one fails with `fail_next` (CUDA_SUCCESS: none). */
typedef struct stub_launch_ex {
    unsigned int grid[3], block[3], smem;
    cudaStream_t stream;
    int programmatic, count;
    int fail_next;
} stub_launch_ex;
stub_launch_ex stub_last_launch_ex(void);
void stub_fail_next_launch_ex(int result);

/* Device allocations (cudaMalloc, cudaMallocAsync) not freed yet. */
int stub_live_allocations(void);

/* Forget every stream's queue, held kernels and counters (between tests;
 * nothing may be running). */
void stub_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* GS_TEST_CUDA_STUB_H */
