/*
 * gridsync/detail/reduce/single_pass.cuh - the single-pass agent: one kernel
 * template behind gs_reduce (sum, min, max, argmin, argmax) and gs_dot,
 * parameterized by a tuning policy, a reduction operator (which fixes the
 * accumulator type, gridsync/detail/reduce/reduce_ops.cuh), an input and a
 * transform of the loaded elements (gridsync/detail/reduce/single_pass_input.cuh).
 * The CUDA SDK's __threadfence tutorial's single-pass sum (docs/tutorials.md),
 * made correct and fast.
 *
 * How: a grid of at most one full wave.
 * Phase 1: every thread folds a grid-stride slice of the input into four
 * independent accumulators. When the input is 16-byte aligned the bulk is
 * read as 16-byte vectors, policy::vectors per thread per loop trip (4 for
 * one array, 2 pairs for two: 64 bytes in flight per thread, enough to cover
 * HBM latency at full occupancy), with streaming loads (ld.global.cs: read
 * once, evict first; 1-3% faster than plain loads from 2^20 to 2^25 on H200);
 * the < 1 vector of remainder, and misaligned inputs, element by element.
 * Then the block reduces the accumulators (gs::block_reduce) and thread 0
 * holds the block's partial.
 * Phase 2 (single_pass_finish): thread 0 publishes the partial and takes a
 * ticket with an acq_rel atomic; the block that draws the last ticket folds
 * all partials in index order, writes the result and resets the ticket to
 * zero for the next call. A one-block grid skips the ticket.
 *
 * Why correct: the ticket's release orders each block's partial before its
 * ticket; the last block's acquire of the final ticket value (the RMWs on
 * the ticket form a release sequence) makes every partial visible to its
 * thread 0, and the block barrier that follows extends that to the whole
 * last block; it reads the partials with ld.global.cg (L2, never a stale L1
 * line). The tutorial's version read the partials with no fence on the
 * reading side. The ticket is back to zero when the kernel ends, so the
 * next call on the stream reuses it.
 *
 * Deterministic: the grid size depends only on n and the device, each
 * thread's slice and fold order are fixed (by n, the grid and the pointers'
 * alignment), and the last block folds the partials in index order,
 * whichever block draws the last ticket. So a result is bitwise identical
 * from run to run.
 *
 * When: every length; one launch instead of CUB's two (the cost that
 * dominates for small inputs).
 */
#ifndef GRIDSYNC_DETAIL_SINGLE_PASS_CUH
#define GRIDSYNC_DETAIL_SINGLE_PASS_CUH

#include <gridsync/detail/reduce/block_reduce.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/reduce/single_pass_input.cuh>
#include <gridsync/detail/core/tuning.h>
#include <gridsync/detail/core/value_traits.cuh>

namespace gs {
namespace detail {

/* The single pass's tuning (tuning.h) for an input of `Arrays` arrays. */
template <int Arrays>
struct single_pass_policy {
    static constexpr int threads = GS_TUNE_REDUCE_THREADS;
    static constexpr int vectors =
        Arrays == 1 ? GS_TUNE_REDUCE_VECTORS_ONE_INPUT : GS_TUNE_REDUCE_VECTORS_TWO_INPUTS;
    static_assert(vectors == 1 || vectors == 2 || vectors == 4, "vectors in flight: 1, 2 or 4");
};

/* Fold the W contributions of one item into `a`; `first` is the index of
 * its first element. The fold shapes are fixed: they set the rounding of
 * floating sums, which must not depend on anything but n and the device. */
template <class Input, class Op, class Transform>
static __device__ __forceinline__ typename Op::accumulator
fold_item(typename Op::accumulator a, const Input &in, const typename Input::item &it,
          long long first, Op op, Transform t)
{
    if constexpr (Input::width == 4) {
        return op(op(a, in.template apply<0>(it, first, t)),
                  op(op(in.template apply<1>(it, first + 1, t), in.template apply<2>(it, first + 2, t)),
                     in.template apply<3>(it, first + 3, t)));
    } else if constexpr (Input::width == 8) { /* 16-bit elements: a tree of pairs */
        const auto e01 =
            op(in.template apply<0>(it, first, t), in.template apply<1>(it, first + 1, t));
        const auto e23 =
            op(in.template apply<2>(it, first + 2, t), in.template apply<3>(it, first + 3, t));
        const auto e45 =
            op(in.template apply<4>(it, first + 4, t), in.template apply<5>(it, first + 5, t));
        const auto e67 =
            op(in.template apply<6>(it, first + 6, t), in.template apply<7>(it, first + 7, t));
        return op(a, op(op(e01, e23), op(e45, e67)));
    } else {
        static_assert(Input::width == 2, "16-byte vectors of 2, 4 or 8 elements");
        return op(a, op(in.template apply<0>(it, first, t), in.template apply<1>(it, first + 1, t)));
    }
}

/* Phase 1 for the calling thread: its grid-stride slice of the n elements,
 * folded into four accumulators and then into one. Vector k of a loop trip
 * folds into accumulator k * (4 / vectors) and the element-by-element
 * remainder into accumulator 1. */
template <class Policy, class Op, class Input, class Transform>
static __device__ __forceinline__ typename Op::accumulator
single_pass_thread_fold(const Input &in, long long n, Op op, Transform t)
{
    typedef typename Op::accumulator acc_t;
    constexpr int vectors = Policy::vectors, spread = 4 / Policy::vectors;
    const long long width = Input::width;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long scalar_from = 0;
    acc_t acc[4] = {Op::identity(), Op::identity(), Op::identity(), Op::identity()};
    if (in.aligned()) {
        const long long nv = n / width;
        long long i = first;
        for (; i + (vectors - 1) * stride < nv; i += vectors * stride) {
            typename Input::item items[vectors];
#pragma unroll
            for (int k = 0; k < vectors; ++k)
                items[k] = in.load(i + k * stride);
#pragma unroll
            for (int k = 0; k < vectors; ++k)
                acc[k * spread] =
                    fold_item(acc[k * spread], in, items[k], (i + k * stride) * width, op, t);
        }
        for (; i < nv; i += stride)
            acc[0] = fold_item(acc[0], in, in.load(i), i * width, op, t);
        scalar_from = nv * width;
    }
    for (long long i = scalar_from + first; i < n; i += stride)
        acc[1] = op(acc[1], in.apply_at(i, t));
    return op(op(acc[0], acc[1]), op(acc[2], acc[3]));
}

/* First thing in every single-pass kernel, after the scan kernels' L2
 * prefetch (single_pass_prefetch_l2, below). They are launched with
 * programmatic dependent launch on sm_90+ (gs__single_pass_start), so a call
 * can be scheduled while the previous kernel on the stream is finishing:
 * griddepcontrol.wait blocks until that kernel has completed and its memory
 * is visible (so inputs, partials and the ticket are safe to touch), and
 * launch_dependents lets the next call be scheduled early in turn. Saves
 * about a microsecond per call back to back. Without such a launch, or
 * before sm_90, both are no-ops. */
static __device__ __forceinline__ void single_pass_begin()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Before single_pass_begin: bring the calling block's bytes [p, p + bytes)
 * into L2, one prefetch.L2 per 128-byte line (generic address), the block's threads
 * taking the lines in turn. Launched early (sm_90, programmatic dependent
 * launch), a block runs this while the previous kernel on the stream is
 * still running, so the input's trip from DRAM overlaps that kernel instead
 * of following it.
 * Why a load after griddepcontrol.wait still reads what that kernel wrote,
 * even into these very bytes: prefetch.L2 only fills a line of this GPU's
 * L2 and gives the thread no value (PTX ISA, prefetch), it does not touch
 * L1, and this GPU's L2 is where the GPU keeps its own memory coherent:
 * every store of the previous kernel to these bytes updates the line in L2
 * before that kernel counts as complete, and the loads come after the
 * wait. The PTX memory model does not speak of prefetches, so the caller
 * uses this only for memory of the GPU it runs on (scan_args'
 * prefetch_input, set by the host from the pointer's attributes: not for
 * managed memory, whose pages may be elsewhere, nor a peer's memory, whose
 * home is another GPU's L2); gpu_scan_prefetch checks it with a kernel that writes
 * the input while the scan's blocks are already prefetching it. Every
 * address lies inside [p, p + bytes) (the first line from p itself), so a
 * prefetch never strays past the caller's array. Before sm_90 (no early
 * launch) it does nothing. */
static __device__ __forceinline__ void single_pass_prefetch_l2(const void *p, long long bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (bytes <= 0)
        return;
    const unsigned long long first = (unsigned long long)p;
    const unsigned long long line0 = first & ~127ull;
    const long long lines = (long long)((first + (unsigned long long)bytes - 1ull - line0) >> 7) + 1;
    for (long long i = threadIdx.x; i < lines; i += blockDim.x) {
        const unsigned long long a = i == 0 ? first : line0 + ((unsigned long long)i << 7);
        asm volatile("prefetch.L2 [%0];" ::"l"(a));
    }
#else
    (void)p;
    (void)bytes;
#endif
}

/* The call's last access to its workspace: ticket[1] = seq, stored after
 * the result and the ticket's reset. The host reads that word (rarely: only
 * to recycle or free the workspace) to know that the call no longer reads
 * the workspace, instead of recording an event after every call. Relaxed: a
 * release here would make the kernel's last thread wait for its earlier
 * stores (0.3 us per call at 2^22 on H200); nothing is read after it, and
 * what was read before it was consumed before the block barrier ahead of it.
 * Whoever recycles the workspace zeroes its ticket again on the new stream,
 * so the old reset store's timing does not matter (workspace.c). */
static __device__ __forceinline__ void single_pass_done(unsigned int *ticket, unsigned int seq)
{
    gs__st_relaxed_gpu(ticket + 1, seq);
}

/* Phase 2: thread 0 publishes the block's result `r` and takes a ticket
 * (atom.acq_rel); the block that draws the last ticket folds all partials
 * in index order into *out, resets the ticket and marks the call done
 * (`seq`). All threads of the block must call it. (Why correct: the file
 * comment; the other blocks' last access to the workspace is their ticket,
 * which precedes the last block's fold, and the last block's readers are
 * done before the block barrier inside block_reduce.) */
template <class Op>
static __device__ __forceinline__ void
single_pass_finish(typename Op::accumulator r, typename Op::accumulator *partials,
                   unsigned int *ticket, unsigned int seq, typename Op::accumulator *out,
                   typename Op::accumulator *smem, Op op)
{
    typedef typename Op::accumulator acc_t;
    __shared__ int last;
    if (gridDim.x == 1u) { /* one block: no partials, no ticket */
        if (threadIdx.x == 0) {
            *out = r;
            single_pass_done(ticket, seq);
        }
        return;
    }
    if (threadIdx.x == 0) {
        unsigned int drawn;
        partials[blockIdx.x] = r;
        asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                     : "=r"(drawn)
                     : "l"(ticket)
                     : "memory");
        last = drawn == gridDim.x - 1u;
    }
    __syncthreads();
    if (!last)
        return;
    acc_t a = Op::identity();
    for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x)
        a = op(a, value_traits<acc_t>::load_cg(partials + j));
    r = block_reduce(a, smem, op);
    if (threadIdx.x == 0) {
        *out = r;
        gs__st_relaxed_gpu(ticket, 0u);
        single_pass_done(ticket, seq);
    }
}

/* The kernel: `in` by value (the host passes the array of its pointers),
 * partials, ticket and the call's sequence number from the caller's
 * workspace, the result to `out`. */
template <class Policy, class Op, class Input, class Transform>
static __global__ void __launch_bounds__(Policy::threads)
    single_pass_kernel(Input in, long long n, typename Op::accumulator *partials,
                       unsigned int *ticket, unsigned int seq, typename Op::accumulator *out)
{
    __shared__ typename Op::accumulator smem[32];
    single_pass_begin();
    Op op;
    typename Op::accumulator r =
        block_reduce(single_pass_thread_fold<Policy>(in, n, op, Transform()), smem, op);
    single_pass_finish(r, partials, ticket, seq, out, smem, op);
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SINGLE_PASS_CUH */
