/*
 * gridsync/signal.cuh - signals between blocks: 64-bit counters that a
 * block publishes (store, add) and others wait on (until >= a value), with
 * release/acquire semantics and the watchdog.
 *
 *   #include <gridsync/signal.cuh>
 *
 *   // a pipeline: block b consumes what block b - 1 produced, item by item
 *   __global__ void stage(gs_signal_set sig, unsigned long long base, ...)
 *   {
 *       for (int i = 0; i < items; ++i) {
 *           if (b > 0) gs_block_signal_wait(&sig, b - 1, base + i + 1);   // item i is ready
 *           work(b, i);
 *           gs_block_signal_store(&sig, b, base + i + 1);                 // mine is ready
 *       }
 *   }
 *
 * The host creates the set (gs_signals_create), passes its view
 * (gs_signals_device) to kernels, and collects the watchdog's verdict with
 * gs_signals_check.
 *
 * Thread-level operations (any thread; order only that thread's accesses,
 * and, by cumulativity, those it has synchronized with, for example the
 * block's writes before a __syncthreads):
 *   gs_signal_store(&sig, i, v)   counter i = max(counter, v), release. A
 *                                 v below the counter's value is a misuse
 *                                 (GS_ERR_MISUSE names the counter, its
 *                                 value and v) and leaves it unchanged.
 *                                 One atomic round trip.
 *   gs_signal_add(&sig, i, d)     counter i += d, release; fire and forget.
 *   gs_signal_wait(&sig, i, v)    until counter i >= v, acquire. Returns 1,
 *                                 or 0 when the wait timed out (or another
 *                                 one already did): then what it waited
 *                                 for must not be used.
 *   gs_signal_load(&sig, i)       the counter's value, acquire.
 * Block-level forms (every thread of the block calls them):
 *   gs_block_signal_store / gs_block_signal_add: a block barrier, then
 *     thread 0 publishes: every thread's earlier writes are released.
 *   gs_block_signal_wait: thread 0 waits, then a block barrier: every
 *     thread's later reads are acquired. On a time-out the block's threads
 *     leave the kernel (as the barriers' do).
 *
 * Values only grow. A later launch goes on from where the last one stopped:
 * pass it the value to start from (as `base` above: the number of items
 * handled so far), or reset the set between launches with
 * gs_signals_reset (stream-ordered, so it can sit in a CUDA graph).
 *
 * Why correct: a store or add with release is observed by an acquire
 * (the polls of wait, load) that reads its value or a later one in the
 * counter's modification order (atomics form one release sequence), so
 * every write before the release happens-before every read after the
 * acquire (PTX memory model, GPU scope).
 * Watchdog: a wait that exceeds the set's time-out records the counter,
 * the value it saw, the one it expected and the waiting block, raises the
 * set's flag (every other slow wait then gives up too) and returns;
 * gs_signals_check reports it ("signal 3: block 5 waited for >= 12, the
 * counter stayed at 11"). Nothing hangs the GPU.
 * When: pipelines, wavefronts and task graphs: dependencies between
 * particular blocks, not the whole grid. The blocks waited on must be able
 * to run: co-resident (gs_launch), or started earlier in the same grid.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_SIGNAL_CUH
#define GRIDSYNC_SIGNAL_CUH

#include <gridsync/signal_view.h>
#include <gridsync/detail/scoped/signal_ops.cuh>

GS_DEVICE void gs_signal_store(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    gs__signal_store(s, i, v);
}

GS_DEVICE void gs_signal_add(const gs_signal_set *s, unsigned int i, unsigned long long d)
{
    gs__signal_add(s, i, d);
}

GS_DEVICE int gs_signal_wait(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    return gs__signal_wait(s, i, v);
}

GS_DEVICE unsigned long long gs_signal_load(const gs_signal_set *s, unsigned int i)
{
    return gs__signal_load(s, i);
}

GS_DEVICE void gs_block_signal_store(const gs_signal_set *s, unsigned int i,
                                     unsigned long long v)
{
    __syncthreads(); /* the block's writes happen-before thread 0's release */
    if (gs__thread_rank() == 0u)
        gs__signal_store(s, i, v);
}

GS_DEVICE void gs_block_signal_add(const gs_signal_set *s, unsigned int i, unsigned long long d)
{
    __syncthreads();
    if (gs__thread_rank() == 0u)
        gs__signal_add(s, i, d);
}

GS_DEVICE void gs_block_signal_wait(const gs_signal_set *s, unsigned int i, unsigned long long v)
{
    int give_up = gs__thread_rank() == 0u ? !gs__signal_wait(s, i, v) : 0;
    if (__syncthreads_or(give_up)) /* thread 0's acquire before the block's reads */
        asm volatile("exit;");
}

#endif /* GRIDSYNC_SIGNAL_CUH */
