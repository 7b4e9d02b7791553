/* cuda_stub_internal.h - what the stub runtime's two files share: the
 * lock over all its state, the launch hook, the record of the last
 * cuLaunchKernelEx, the kernels' PTX version, the count of live
 * allocations, an operation and putting it on a stream (cuda_stub.c defines
 * them; cuda_stub_driver.c's entry points and cuda_stub_memory.c's
 * allocations, copies and memsets use them). Nothing here is for tests: they use cuda_stub.h. */
#ifndef GS_TESTS_CUDA_STUB_INTERNAL_H
#define GS_TESTS_CUDA_STUB_INTERNAL_H

#include <pthread.h>

#include "cuda_stub.h"

enum op_kind { OP_KERNEL, OP_MEMSET, OP_COPY, OP_RECORD, OP_FREE };

struct stub_op {
    enum op_kind kind;
    stub_effect effect; /* OP_KERNEL */
    void *arg;
    int held;           /* a held kernel not finished yet */
    void *dst;          /* OP_MEMSET, OP_COPY, OP_FREE */
    const void *src;
    size_t bytes;
    int value;
    struct CUevent_st *event; /* OP_RECORD */
    unsigned long long ticket;
    struct CUstream_st *stream;
    struct stub_op *next;
};

extern pthread_mutex_t stub__mu;
extern void (*stub__launch_hook)(void *);
extern void *stub__launch_hook_arg;
extern stub_launch_ex stub__last_ex;
extern int stub__ptx_version;
extern int stub__live_allocs; /* device allocations not freed */

/* Under stub__mu: the stream behind a handle, a new operation, and
 * putting it on the stream (it runs when the stream gets to it). */
struct CUstream_st *stub__stream_of(cudaStream_t s);
stub_op *stub__new_op(enum op_kind kind);
void stub__enqueue(struct CUstream_st *s, stub_op *op);

#endif
