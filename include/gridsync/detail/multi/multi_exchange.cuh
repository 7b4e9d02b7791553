/*
 * gridsync/detail/multi/multi_exchange.cuh - the pieces of a cross-GPU meeting
 * (internal): the layout of each GPU's state words, system-scope loads and
 * stores, a block's arrival on its GPU and its wait there, and the last
 * arriver's exchange with the other GPUs. gs_multi_sync is built from them
 * (how and why: gridsync/multi.cuh), and so is gs_multi_allreduce, whose
 * exchange carries a value (gridsync/detail/multi/multi_allreduce.cuh).
 */
#ifndef GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH
#define GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH

#include <gridsync/detail/barrier/barrier_wait.cuh>
#include <gridsync/detail/core/bounded_wait.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync_multi.h>

/* Layout of a GPU's state words (device memory of that GPU). */
enum {
    GS_MULTI_EPOCH = 0,    /* meetings passed on this GPU, over all launches: the word the
                            * local blocks wait on (with BROKEN, one 64-bit word) */
    GS_MULTI_BROKEN = 1,   /* a cross-GPU wait timed out */
    GS_MULTI_REC_EPOCH = 2,
    GS_MULTI_REC_MISSING = 3, /* bitmask of GPUs whose epoch never came */
    GS_MULTI_REC_ABORTED = 4, /* the host raised the abort word: a rank's launch failed */
    GS_MULTI_RESULT = 6,      /* words 6-7: the last all-reduce's result, for the local blocks
                               * (gridsync/detail/multi/multi_allreduce.cuh); 8-byte aligned */
    GS_MULTI_ARRIVALS = 32,   /* size words: GPU j writes its epoch at [ARRIVALS + j] */
    GS_MULTI_COUNTER = 64,    /* the local blocks' arrivals (flip counter), a line of its own */
    GS_MULTI_VALUES = 96,     /* all-reduce: two sets (by the meeting's parity) of one 16-byte
                               * slot per GPU: GPU j writes its partial at
                               * [VALUES + (epoch & 1) * VALUE_SET_WORDS + 4 * j] */
    GS_MULTI_VALUE_SLOT_WORDS = 4,
    GS_MULTI_VALUE_SET_WORDS = GS_MULTI_VALUE_SLOT_WORDS * GS_MULTI_MAX_GPUS,
    GS_MULTI_STATE_WORDS = GS_MULTI_VALUES + 2 * GS_MULTI_VALUE_SET_WORDS
};

/* gs_multi_view.flags */
enum {
    GS_MULTI_VIEW_EPOCH_KNOWN = 1u, /* view.epoch holds the state's epoch */
    GS_MULTI_VIEW_BROKEN = 2u       /* a meeting broke: the rest skip the cross-GPU step */
};

/* Rank j's state words as this GPU reaches them (peer memory, or a CUDA IPC
 * mapping across processes): the view holds each rank's arrival words, and
 * every other word of that rank lies at its fixed distance from them in the
 * same allocation. */
GS_DEVICE unsigned int *gs__multi_peer_state(const gs_multi_view *v, int j)
{
    return v->peer_arrivals[j] - GS_MULTI_ARRIVALS;
}

/* Thread 0, once per launch, before the block's first arrival: the epoch
 * and broken flag of the state `s` (the view's) into the view. No meeting
 * of this launch can complete before this block arrives, so every block
 * reads the same epoch. */
GS_DEVICE void gs__multi_epoch_once(gs_multi_view *v, const unsigned int *s)
{
    if (!(v->flags & GS_MULTI_VIEW_EPOCH_KNOWN)) {
        unsigned long long w = *(const volatile unsigned long long *)(s + GS_MULTI_EPOCH);
        v->epoch = (unsigned int)w;
        v->flags |= GS_MULTI_VIEW_EPOCH_KNOWN | ((w >> 32) ? GS_MULTI_VIEW_BROKEN : 0u);
    }
}

/* Thread 0's arrival on its GPU's counter (flip's scheme: block 0 adds
 * 2^31 - (n - 1), the others 1, so the top bit flips at the last arrival),
 * with atom.acq_rel: a release of everything the block did before, and, for
 * the last arriver, an acquire of every block's release (the adds form one
 * release sequence). Returns 1 for the last to arrive. A grid of one block
 * has no counter: callers test n == 1 first, `n == 1u || gs__multi_arrive(...)`
 * (that shape compiles to the branch gs_multi_sync was measured with). */
GS_DEVICE int gs__multi_arrive(unsigned int *s, unsigned int n, unsigned int rank)
{
    const unsigned int add = rank == 0u ? 0x80000000u - (n - 1u) : 1u;
    const unsigned int old = gs__atom_add_acq_rel_gpu(s + GS_MULTI_COUNTER, add);
    return (((old + add) ^ old) & 0x80000000u) != 0u;
}

/* Thread 0 of a block that did not arrive last: acquire polls of the GPU's
 * epoch word until the last arriver releases meeting `epoch`, fast polls
 * inline, then the grid barrier's watched wait (its time-out: the local
 * blocks wait while the last arriver meets the other GPUs). Sets the view's
 * broken flag when the word says the meeting broke. Returns 1 when the
 * block must leave (the grid's watchdog fired). */
GS_DEVICE int gs__multi_wait_local(gs_multi_view *v, unsigned int epoch, unsigned int rank)
{
    unsigned int *s = v->state;
    const unsigned long long *word = (const unsigned long long *)(s + GS_MULTI_EPOCH);
    const unsigned int late = gs__late(&v->grid);
    unsigned long long w = 0;
    int done = 0, give_up = 0;
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS && !done; ++k) {
        w = gs__ld_acquire_gpu_u64(word);
        done = (int)((unsigned int)w - epoch) >= 0;
    }
    if (!done || late) {
        give_up = gs__wait(&v->grid, rank, s + GS_MULTI_EPOCH,
                           GS__UNTIL_REACHED | GS__ACQUIRE_EACH, epoch, 0u, late);
        w = give_up ? 0ull : (unsigned long long)s[GS_MULTI_BROKEN] << 32;
    }
    if (w >> 32)
        v->flags |= GS_MULTI_VIEW_BROKEN;
    return give_up;
}

/* Every 64 polls of a cross-GPU wait: has the host called the meeting off
 * (a rank's launch failed), or is the deadline past (the bounded wait's,
 * bounded_wait.cuh: it starts at the first look; a time-out of 0 is off)?
 * If so the view is marked broken, *aborted says which, and 1 is returned;
 * the caller records the meeting with gs__multi_record_break. The waits
 * keep their own loops around this look (the polls of bounded_wait, written
 * out: its loop form changed the registers, so the SASS, of the kernels
 * that meet, down to their inline polls). */
GS_DEVICE unsigned int gs__multi_called_off(gs_multi_view *v, gs::detail::wait_deadline *deadline,
                                            unsigned int *aborted)
{
    *aborted = gs__ld_acquire_sys(v->abort) != 0u;
    const unsigned long long now = gs__globaltimer_ns();
    if (!deadline->word)
        *deadline = gs::detail::wait_deadline_at(now, v->timeout_ns);
    if (!*aborted && now < deadline->word)
        return 0u;
    v->flags |= GS_MULTI_VIEW_BROKEN;
    return 1u;
}

/* The state's record of a broken meeting: its epoch, the GPUs still
 * `missing` (a bitmask of ranks) and whether the host called it off. */
GS_DEVICE void gs__multi_record_break(gs_multi_view *v, unsigned int epoch, unsigned int missing,
                                      unsigned int aborted)
{
    unsigned int *s = v->state;
    gs__st_relaxed_gpu(s + GS_MULTI_REC_EPOCH, epoch);
    gs__st_relaxed_gpu(s + GS_MULTI_REC_MISSING, missing);
    gs__st_relaxed_gpu(s + GS_MULTI_REC_ABORTED, aborted);
}

/* The last arriver's store of {epoch, broken} into the GPU's epoch word,
 * in two parts around its cross-GPU wait. On a grid of one block nobody
 * waits on the word (only the next launch reads it): it is stored first,
 * relaxed, off the meeting's critical path, and stored again after the wait
 * only if the meeting broke. Where local blocks wait, it is stored after the
 * wait with release (gpu scope), so that they acquire what this thread
 * acquired from the peers (causality is transitive: peer -> this thread at
 * system scope, this thread -> the local blocks at gpu scope). */
GS_DEVICE void gs__multi_epoch_early(unsigned int *s, unsigned int epoch, int local_waiters,
                                     unsigned int broken)
{
    if (!local_waiters && !broken)
        gs__st_relaxed_gpu_u64((unsigned long long *)(s + GS_MULTI_EPOCH), epoch);
}

GS_DEVICE void gs__multi_release_local(unsigned int *s, unsigned int epoch, int local_waiters,
                                       unsigned int broken)
{
    if (local_waiters || broken)
        gs__st_release_gpu_u64((unsigned long long *)(s + GS_MULTI_EPOCH),
                              (unsigned long long)broken << 32 | epoch);
}

/* What thread 0's part of a meeting needs from the view, read before the
 * block barrier that precedes its arrival: the view is in local memory,
 * and loads there overlap the barrier instead of delaying the fence (about
 * 40 SM clocks a meeting with them after it, one block per GPU). The
 * epoch is read once per launch (gs__multi_epoch_once); `first` is the
 * lowest other rank, whose slot the exchange stores into first (2 GPUs:
 * the only one). */
struct gs__multi_plan {
    unsigned int epoch;       /* this meeting's */
    unsigned int broken;      /* a meeting of this launch broke: no cross-GPU step */
    int rank, size, first;    /* the view's, and the first peer (size when there is none) */
    unsigned int *first_slot; /* this GPU's slot on the first peer */
};

GS_DEVICE gs__multi_plan gs__multi_plan_meeting(gs_multi_view *v)
{
    gs__multi_epoch_once(v, v->state);
    gs__multi_plan p;
    p.epoch = v->epoch + 1u;
    p.broken = (v->flags & GS_MULTI_VIEW_BROKEN) != 0u;
    p.rank = v->rank;
    p.size = v->size;
    p.first = p.rank == 0 ? 1 : 0;
    p.first_slot = p.first < p.size ? v->peer_arrivals[p.first] + p.rank : (unsigned int *)0;
    return p;
}

/* Thread 0 of the GPU's last block to arrive: the cross-GPU exchange for
 * meeting `p.epoch`, then the release of the local blocks.
 * One release pattern (fence.release.sys, then relaxed system-scope stores
 * into every peer's slot), then acquire polls of the peers' slots. A system
 * fence is the expensive part (~900 SM clocks on H200 even with nothing
 * pending), so there is exactly one, before the stores; an ld.acquire needs
 * none (an acquire fence after relaxed polls cost as much as a second
 * release: 2.8 us per meeting against NCCL's 1.4 us, research/notes/multi-gpu.md).
 * No slot for this GPU itself. The fence is release-only: fence.acq_rel.sys
 * would also invalidate the SM's L1, which nothing here needs.
 * Nothing is stored ahead of the fence (the fence waits for every access
 * before it to complete: a store of the epoch there, or the register spills
 * of a call, cost a round trip each), so the fence and the stores are inline
 * and only the wait is a call (out of line: the rest of the grid never pays
 * its registers). */
static __device__ __noinline__ void gs__multi_wait_peers(gs_multi_view *v, unsigned int epoch,
                                                         int local_waiters);

static __device__ __forceinline__ void gs__multi_exchange(gs_multi_view *v, gs__multi_plan p,
                                                          int local_waiters)
{
    if (!p.broken) {
        gs__fence_release_sys();
        if (p.first_slot)
            gs__st_relaxed_sys(p.first_slot, p.epoch);
        for (int j = p.first + 1; j < p.size; ++j)
            if (j != p.rank)
                gs__st_relaxed_sys(v->peer_arrivals[j] + p.rank, p.epoch);
    }
    gs__multi_wait_peers(v, p.epoch, local_waiters);
}

/* The ranks other than `rank` whose arrival word has not reached `epoch`
 * (a bitmask), for the record of a broken meeting. */
GS_DEVICE unsigned int gs__multi_missing(const unsigned int *arrivals, int size, int rank,
                                         unsigned int epoch)
{
    unsigned int missing = 0;
    for (int j = 0; j < size; ++j)
        if (j != rank && (int)(gs__ld_acquire_sys(arrivals + j) - epoch) < 0)
            missing |= 1u << j;
    return missing;
}

/* The wait of gs__multi_exchange, with {epoch, broken} stored into the
 * GPU's epoch word around it (gs__multi_epoch_early and
 * gs__multi_release_local): the peers one after another, each polled until
 * its word reaches the epoch (a peer already there costs one load), so
 * the loop that waits is a load, a compare and a branch and, every 64
 * polls, the watchdog's test (a pass over every peer per poll, with a
 * bitmask of the missing ones, made a meeting of one block per GPU slower:
 * docs/multi-gpu.md). After a broken meeting the cross-GPU step
 * is skipped: the launch's remaining meetings are local barriers only, so
 * the kernel ends promptly and gs_multi_barrier_check reports the break. */
static __device__ __noinline__ void gs__multi_wait_peers(gs_multi_view *v, unsigned int epoch,
                                                         int local_waiters)
{
    unsigned int *s = v->state;
    const unsigned int *arrivals = s + GS_MULTI_ARRIVALS;
    /* in registers: the loop reads nothing from the view */
    const int size = v->size, rank = v->rank;
    unsigned int broken = (v->flags & GS_MULTI_VIEW_BROKEN) != 0u;
    gs__multi_epoch_early(s, epoch, local_waiters, broken);
    gs::detail::wait_deadline deadline = {0ull};
    for (int j = 0; j < size && !broken; ++j) {
        if (j == rank)
            continue;
        /* from 1: the first look at the abort word (host memory, a PCIe
         * round trip) and the clock comes after 64 polls, never on a
         * prompt meeting */
        for (unsigned int spins = 1; (int)(gs__ld_acquire_sys(arrivals + j) - epoch) < 0; ++spins) {
            unsigned int aborted;
            if ((spins & 63u) != 0u || !gs__multi_called_off(v, &deadline, &aborted))
                continue;
            gs__multi_record_break(v, epoch, gs__multi_missing(arrivals, size, rank, epoch),
                                   aborted);
            broken = 1u;
            break;
        }
    }
    gs__multi_release_local(s, epoch, local_waiters, broken);
}

#endif /* GRIDSYNC_DETAIL_MULTI_EXCHANGE_CUH */
