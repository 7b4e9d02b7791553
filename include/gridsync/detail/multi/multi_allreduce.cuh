/*
 * gridsync/detail/multi/multi_allreduce.cuh - gs::multi_allreduce (internal): a
 * reduction over every thread of every GPU of a gs_multi_view's group whose
 * result every thread gets, folded into one cross-GPU meeting. The public
 * names: gridsync/multi_allreduce.cuh.
 */
#ifndef GRIDSYNC_DETAIL_MULTI_ALLREDUCE_CUH
#define GRIDSYNC_DETAIL_MULTI_ALLREDUCE_CUH

#include <gridsync/detail/reduce/block_reduce.cuh>
#include <gridsync/detail/scoped/grid_allreduce.cuh>
#include <gridsync/detail/multi/multi_exchange.cuh>
#include <gridsync/detail/reduce/reduce_ops.cuh>

namespace gs {
namespace detail {

/* A value of 4 or 8 bytes as the payload of the all-reduce's slot words
 * (gs__st_relaxed_sys_v2_u64): its bits, low 32 in the first word, high 32
 * in the second; a 4-byte value needs the first word only. */
template <class T>
struct multi_payload {
    static_assert(sizeof(T) == 4u || sizeof(T) == 8u,
                  "gs_multi_allreduce carries values of 4 or 8 bytes");
    static __device__ __forceinline__ unsigned long long bits(T v)
    {
        union {
            T v;
            unsigned long long u;
        } c;
        c.u = 0ull;
        c.v = v;
        return c.u;
    }
    static __device__ __forceinline__ T value(unsigned long long u)
    {
        union {
            T v;
            unsigned long long u;
        } c;
        c.u = u;
        return c.v;
    }
};

/* This GPU's slot words for the values of meeting `epoch` (its parity's
 * set); rank j's slot is words [2j, 2j + 1]. */
GS_DEVICE unsigned long long *multi_value_set(unsigned int *state, unsigned int epoch)
{
    return (unsigned long long *)(state + GS_MULTI_VALUES +
                                  (epoch & 1u) * GS_MULTI_VALUE_SET_WORDS);
}

template <class T, class Op>
static __device__ __noinline__ T multi_wait_values(gs_multi_view *v, unsigned int epoch, T mine,
                                                   Op op, int local_waiters);

/* Thread 0 of the GPU's last block, with `mine`, the GPU's partial: the
 * exchange of gs__multi_exchange, with the partial in the stores. One
 * fence.release.sys, then into this GPU's slot of every other GPU's set for
 * this meeting one st.relaxed.sys.v2.u64 of {epoch : low 32 bits, epoch :
 * high 32 bits} (one u64 for a 4-byte value). The slot words are the flag:
 * the meeting's arrival words (GS_MULTI_ARRIVALS) are not written, and
 * nothing is stored ahead of the fence but the block's own
 * writes (as gs__multi_exchange). Then the wait, out of line. */
template <class T, class Op>
static __device__ __forceinline__ T multi_exchange_value(gs_multi_view *v, unsigned int epoch,
                                                         T mine, Op op, int local_waiters)
{
    if (!(v->flags & GS_MULTI_VIEW_BROKEN)) {
        const unsigned long long tag = (unsigned long long)epoch << 32;
        const unsigned long long u = multi_payload<T>::bits(mine);
        const int size = v->size, rank = v->rank;
        const unsigned int slot = GS_MULTI_VALUES + (epoch & 1u) * GS_MULTI_VALUE_SET_WORDS +
                                  GS_MULTI_VALUE_SLOT_WORDS * (unsigned int)rank;
        gs__fence_release_sys();
        for (int j = 0; j < size; ++j) {
            if (j == rank)
                continue;
            unsigned long long *p = (unsigned long long *)(gs__multi_peer_state(v, j) + slot);
            if (sizeof(T) == 8u)
                gs__st_relaxed_sys_v2_u64(p, tag | (u & 0xffffffffull), tag | (u >> 32));
            else
                gs__st_relaxed_sys_u64(p, tag | u);
        }
    }
    return multi_wait_values(v, epoch, mine, op, local_waiters);
}

/* Whether rank j's slot in `set` carries `epoch` (an acquire load): both
 * words for an 8-byte value, the first for a 4-byte one (the only word
 * multi_exchange_value writes then); *bits gets the payload. */
template <class T>
static __device__ __forceinline__ bool multi_slot_arrived(const unsigned long long *set, int j,
                                                          unsigned int epoch,
                                                          unsigned long long *bits)
{
    unsigned long long lo, hi;
    if (sizeof(T) == 8u) {
        gs__ld_acquire_sys_v2_u64(set + 2 * j, &lo, &hi);
    } else {
        lo = gs__ld_acquire_sys_u64(set + 2 * j);
        hi = lo;
    }
    *bits = (lo & 0xffffffffull) | hi << 32;
    return (unsigned int)(lo >> 32) == epoch && (unsigned int)(hi >> 32) == epoch;
}

/* The GPUs (a bitmask) whose slot in `set` does not carry `epoch`, for the
 * record of a broken meeting. */
template <class T>
static __device__ __forceinline__ unsigned int missing_slots(const unsigned long long *set,
                                                             int size, int rank,
                                                             unsigned int epoch)
{
    unsigned int missing = 0;
    for (int j = 0; j < size; ++j) {
        unsigned long long bits;
        if (j != rank && !multi_slot_arrived<T>(set, j, epoch, &bits))
            missing |= 1u << j;
    }
    return missing;
}

/* The wait of multi_exchange_value: the other GPUs' slots in this GPU's set
 * for the meeting in rank order, each polled (acquire) until it carries
 * `epoch` (in both words), and folded as it comes in: op(...op(op(p0, p1),
 * p2)..., p_last), the same operations on the same values on every GPU.
 * Then the result for the local blocks (GS_MULTI_RESULT) and the release of
 * the epoch word (gs__multi_release_local), which orders the result's store
 * before any local block's load of it. Time-out and abort as
 * gs__multi_wait_peers; a broken meeting (this one or an earlier one of the
 * launch) returns `mine`, this GPU's own partial, and the local blocks get
 * the same. */
template <class T, class Op>
static __device__ __noinline__ T multi_wait_values(gs_multi_view *v, unsigned int epoch, T mine,
                                                   Op op, int local_waiters)
{
    unsigned int *s = v->state;
    const unsigned long long *set = multi_value_set(s, epoch);
    const int size = v->size, rank = v->rank; /* in registers, as gs__multi_wait_peers */
    unsigned int broken = (v->flags & GS_MULTI_VIEW_BROKEN) != 0u;
    T acc = mine;
    gs__multi_epoch_early(s, epoch, local_waiters, broken);
    gs::detail::wait_deadline deadline = {0ull};
    for (int j = 0; j < size && !broken; ++j) {
        T x = mine;
        if (j != rank) {
            unsigned long long bits;
            for (unsigned int spins = 1; !multi_slot_arrived<T>(set, j, epoch, &bits); ++spins) {
                unsigned int aborted;
                if ((spins & 63u) != 0u || !gs__multi_called_off(v, &deadline, &aborted))
                    continue;
                gs__multi_record_break(v, epoch, missing_slots<T>(set, size, rank, epoch),
                                       aborted);
                broken = 1u;
                break;
            }
            x = multi_payload<T>::value(bits);
        }
        acc = j == 0 ? x : op(acc, x);
    }
    const T result = broken ? mine : acc;
    if (local_waiters)
        *(T *)(s + GS_MULTI_RESULT) = result;
    gs__multi_release_local(s, epoch, local_waiters, broken);
    return result;
}

} // namespace detail

/*
 * multi_allreduce(&view, v, op) - every thread of every GPU of the view's
 * group passes v; every thread gets op over all of them. All threads of
 * every block on every GPU call it, the same number of times; it is one
 * meeting of gs_multi_sync's (a complete barrier across the GPUs, counted
 * as one in the view's grid count and epoch).
 *
 * How: the block reduces its values (gs::block_reduce); thread 0 stores the
 *   block's value in its slot of the GPU's grid-barrier state (the grid
 *   all-reduce's partials, the same two sets by turns) and arrives on the
 *   GPU's counter (gs__multi_arrive). The block that arrives last folds the
 *   n slots, every thread a share, then the block's shares in order
 *   (fold_slots, block_reduce), into the GPU's partial; its thread 0 writes
 *   the partial into its slot on every other GPU with the meeting's epoch
 *   in the same words, polls its own GPU's slots until every other GPU's
 *   partial of this meeting is there, folds the partials in rank order,
 *   stores the result for its GPU and releases the local blocks, whose
 *   thread 0 read the result after their acquire.
 * Why correct: (1) a block's slot store precedes its release (the add);
 *   the adds form one release sequence, so the last arriver's acquiring add
 *   sees every slot, and its block reads them after thread 0's acquire
 *   (bar.sync orders them after it). (2) Across GPUs the slot words are the
 *   flags of gs_multi_sync's release pattern (fence.release.sys, then
 *   strong system-scope stores), so a GPU that acquires a peer's words for
 *   this epoch sees everything that peer's grid wrote before the meeting,
 *   as the barrier does; the partial itself rides in the words, each word
 *   single-copy atomic with its epoch, so a word that shows the epoch shows
 *   that meeting's bits. (3) The result is stored before the release of the
 *   epoch word and loaded after the local blocks' acquire of it. (4) Reuse:
 *   a GPU's slots on a peer are in the set of the meeting's parity; it
 *   writes set s again at meeting e + 2 only after passing meeting e + 1,
 *   which the peer joins only after it has read set s for meeting e. The
 *   result word is rewritten only after every local block has arrived at
 *   the next meeting, after its load. The block slots: a block writes set s
 *   for all-reduce k + 2 after passing k + 1, and set s for k was read by
 *   the last arriver of k before it released k (and, mixed with
 *   gs_grid_allreduce on the view's grid, by every block before it arrived
 *   at k + 1).
 * Deterministic: the block's tree is fixed by its shape, the GPU's fold by
 *   the grid's size and the block's shape, the group's by the rank order,
 *   and every GPU folds the same partials in the same order: the same bits
 *   on every run, in every thread of every GPU.
 * Watchdog: as gs_multi_sync. A peer that never arrives (time-out) or a
 *   launch the host called off breaks the meeting: every thread of this GPU
 *   gets this GPU's own partial (op over its grid only), and the launch's
 *   later all-reduces return their GPU's partial too (they skip the
 *   cross-GPU step, so the kernel ends); gs_multi_barrier_check reports it
 *   and the launch's results are to be discarded. A local block that never
 *   arrives ends the grid as a time-out of its grid barrier (the blocks
 *   leave the kernel).
 * Cost: gs_multi_sync's meeting, plus a block reduction before it, the last
 *   block's fold of the n slots (one round of loads spread over the block)
 *   before the exchange, and one load of the result after it.
 */
template <class T, class Op>
static __device__ __forceinline__ T multi_allreduce(gs_multi_view *v, T x, Op op)
{
    __shared__ T smem[32];
    __shared__ T block_result;
    gs_grid_barrier *b = &v->grid;
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    const unsigned int n = gs__grid_blocks();
    /* thread 0: the block's value; the barriers in it also order the
     * block's writes before thread 0's release */
    x = block_reduce(x, smem, op);
    b->count += 1u;
    b->reduces += 1u;
    T *slots = (T *)(b->state + GS_W_PARTIALS(b->capacity) +
                     (b->reduces & 1u) * GS_PARTIAL_SET_WORDS(b->capacity));
    unsigned int epoch = 0u;
    int last = 0, give_up = 0;
    if (tid == 0u) {
        unsigned int *s = v->state;
        gs__multi_epoch_once(v, s);
        epoch = v->epoch + 1u;
        const unsigned int rank = gs__block_rank();
        if (n > 1u)
            slots[rank] = x; /* ordered before the arrival's release */
        last = n == 1u || gs__multi_arrive(s, n, rank);
        if (!last) {
            give_up = gs__multi_wait_local(v, epoch, rank);
            if (!give_up)
                block_result = *(const T *)(s + GS_MULTI_RESULT);
        }
    }
    if (__syncthreads_or(last)) { /* the GPU's last block: thread 0's acquire before its loads */
        if (n > 1u)
            x = block_reduce(fold_slots((const T *)slots, n, tid, nt, op), smem, op);
        if (tid == 0u)
            block_result = detail::multi_exchange_value(v, epoch, x, op, n > 1u);
    }
    if (tid == 0u)
        v->epoch = epoch;
    if (__syncthreads_or(give_up)) /* block_result written before every thread reads it */
        asm volatile("exit;");
    return block_result;
}

} // namespace gs

#endif /* GRIDSYNC_DETAIL_MULTI_ALLREDUCE_CUH */
