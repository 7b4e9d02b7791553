/*
 * gridsync/detail/core/bulk_copy.cuh - one-thread bulk copies from global to
 * shared memory, counted by a shared-memory barrier (internal; sm_90 and
 * later: the tensor memory accelerator's cp.async.bulk and mbarrier
 * transaction counts, PTX ISA 8.0).
 *
 * How: one thread announces the bytes to come on an mbarrier
 * (arrive.expect_tx), then issues one cp.async.bulk for them; the copy
 * counts its bytes down on the barrier as they land, and the barrier's
 * phase completes when the arrival and all the bytes are in. A waiter polls
 * the phase's parity with mbarrier.try_wait (which suspends the thread for a
 * while in hardware between answers). Nothing the block's threads issue
 * moves the data: the SM keeps its loads in flight while the threads do
 * something else.
 *
 * Why correct (PTX memory model): the completion of the barrier's phase
 * makes the copy's writes visible to a thread whose try_wait observes it
 * (try_wait has acquire semantics at CTA scope by default); a block barrier
 * after that wait extends the visibility to every thread of the block. A
 * copy writes through the async proxy: before one is issued over shared
 * memory the threads used through the generic proxy (read, or wrote), the
 * issuing thread orders those accesses before it with
 * fence.proxy.async.shared::cta (after the block barrier that ends them).
 *
 * Requirements: source and destination 16-byte aligned, a size that is a
 * multiple of 16 and below 2^20 (the transaction count's range).
 */
#ifndef GRIDSYNC_DETAIL_BULK_COPY_CUH
#define GRIDSYNC_DETAIL_BULK_COPY_CUH

#include <gridsync/detail/core/memory_order.cuh>

/* Whether this compilation has bulk copies (device code for sm_90 or
 * later). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GS_HAS_BULK_COPY 1
#else
#define GS_HAS_BULK_COPY 0
#endif

namespace gs {
namespace detail {

#if GS_HAS_BULK_COPY

/* The shared-window address of a shared-memory object. */
static __device__ __forceinline__ unsigned int shared_address(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

/* Initialize a barrier that completes a phase on `arrivals` arrivals (and
 * the transactions announced), visible to the block after a block barrier. */
static __device__ __forceinline__ void bulk_barrier_init(unsigned long long *bar,
                                                         unsigned int arrivals)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
                 "r"(arrivals)
                 : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* Arrive with nothing to copy: the phase completes without data. */
static __device__ __forceinline__ void bulk_barrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar))
                 : "memory");
}

/* Arrive, announcing `bytes`, and copy them from global `src` to shared
 * `dst`. The caller's earlier generic accesses to `dst` (by any thread,
 * ordered before this one by a block barrier) come first. */
static __device__ __forceinline__ void bulk_copy_to_shared(void *dst, const void *src,
                                                           unsigned int bytes,
                                                           unsigned long long *bar)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     shared_address(bar)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(shared_address(dst)),
                 "l"(src), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
}

/* Arrive, announcing `bytes` to come from copies issued after this
 * (bulk_copy_counted), all counted on `bar`. The caller's earlier generic
 * accesses to the destinations (ordered before this thread by a block
 * barrier) come first: fence.proxy.async.shared::cta. */
static __device__ __forceinline__ void bulk_barrier_expect(unsigned long long *bar,
                                                           unsigned int bytes)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     shared_address(bar)),
                 "r"(bytes)
                 : "memory");
}

/* Copy `bytes` from global `src` to shared `dst`, counted on `bar`, whose
 * phase the issuing thread announced with bulk_barrier_expect. */
static __device__ __forceinline__ void bulk_copy_counted(void *dst, const void *src,
                                                         unsigned int bytes,
                                                         unsigned long long *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(shared_address(dst)),
                 "l"(src), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
}

/* Whether the phase of parity `parity` has completed (acquire, CTA scope);
 * may suspend the thread for a while before answering no. */
static __device__ __forceinline__ bool bulk_barrier_try_wait(unsigned long long *bar,
                                                             unsigned int parity)
{
    unsigned int done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
    return done != 0u;
}

#endif /* GS_HAS_BULK_COPY */

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BULK_COPY_CUH */
