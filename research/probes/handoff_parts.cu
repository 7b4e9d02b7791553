// handoff_parts.cu - probe (issue 44): what a task hand-off is made of.
// `gridsync bench handoff` put the runtime's hand-off at 1.2 us on one
// block and 1.15-1.18 us at 66-1056 blocks (0.95 at 2), while the release,
// the trip to L2 and a poll that sees it add up to about 0.5 us
// (research/notes/barrier.md). This probe builds the same chain (8192
// steps, step i on block i mod G, waiting for counter i - 1 and posting
// counter i) from the runtime's parts, switched on one by one. The parts:
//   bare      thread 0 polls (ld.acquire, the clock each poll), a block
//             barrier, a block barrier, thread 0's red.release: the
//             runtime's skeleton
//   + copy    lane 0 of warp 1 copies the task-after-next's 288-byte record
//             into a stage (bulk copy, mbarrier) after the second barrier,
//             and thread 0 waits for the stage before polling, as the
//             runtime does
//   + done    thread 0 also stores its block's done-count after the post
//   copy after  the copy issued by thread 0 after its post instead
//   + local load  thread 0 reads a word of local memory (stored at the
//             kernel's start) between the second barrier and its post (the
//             post's delta depends on it)
//   + spill   thread 0 stores a word of local memory before the first
//             barrier and reloads it for its post after the second: what a
//             register spilled across gs_task_end's barrier does
//   32 B apart  the counters 32 bytes apart, as the runtime's
//             (GS_TASK_COUNTER_STRIDE), not 128: four to an L2 line
// and the waits (after GS_TUNE_BARRIER_FAST_POLLS inline polls, as the
// runtime, for all but the first two):
//   poll + clock      bare's: every poll reads the clock too (inline)
//   local address     the same, the counter's address reloaded from local
//                     memory before every poll (as gs__wait_slow reads its
//                     operands through a pointer to a local struct)
//   slow: tight       out of line: polls, the clock every 65536
//   slow: timer/32    the clock every 32 polls
//   slow: flag/32     the record's flag and the clock every 32 polls (the
//                     watched wait's looks)
//   slow: relaxed     flag/32 with relaxed polls and one ld.acquire at the end
//   gs__wait_slow     the barriers' watched wait
//   gs__wait_slow_counter  the task counters' watched wait (what
//                     gs__task_wait_counter calls)
// The slow variants are one template instance each: no per-poll dispatch.
// Each launch timed with events over the chain; the median of 7 launches.
// `make research` builds it: build/research/probes/handoff_parts
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <gridsync/detail/barrier/barrier_wait.cuh>
#include <gridsync/detail/core/bulk_copy.cuh>
#include <gridsync/detail/core/memory_order.cuh>

#include "probe_check.h"

namespace {

constexpr int STEPS = 8192, THREADS = 128, RECORD = 288;
enum { COPY = 1, DONE = 2, COPY_AFTER = 4, LOCAL_LOAD = 8, SPILL = 16, STRIDE_32B = 32 };
enum wait_kind {
    POLL_CLOCK, LOCAL_ADDRESS, SLOW_TIGHT, SLOW_TIMER32, SLOW_FLAG32, SLOW_RELAXED,
    LIBRARY_BARRIER_WAIT, LIBRARY_COUNTER_WAIT
};

struct params {
    unsigned int *counters, *done, *failed;
    unsigned int *record;         /* a zeroed watchdog record for the watched waits */
    const unsigned char *records; /* STEPS records of RECORD bytes */
    int parts;
    wait_kind wait;
};

__device__ __forceinline__ void issue(const params &p, unsigned char *stages,
                                      unsigned long long *bars, int k, int step)
{
#if GS_HAS_BULK_COPY
    gs::detail::bulk_barrier_expect(&bars[k % 2], RECORD);
    gs::detail::bulk_copy_counted(stages + (k % 2) * 384, p.records + (size_t)step * RECORD, RECORD,
                                  &bars[k % 2]);
#else
    (void)p, (void)stages, (void)bars, (void)k, (void)step;
#endif
}

/* Thread 0, after the inline polls: one variant of the watched slow path
 * (out of line, as gs__wait_slow). 1: counter c reached 1; 0: gave up. */
template <wait_kind Kind>
__device__ __noinline__ int slow_wait(const unsigned int *c, const unsigned int *flag,
                                      unsigned long long deadline)
{
    for (unsigned int spins = 1;; ++spins) {
        if (Kind == SLOW_RELAXED) {
            if (gs__ld_relaxed_gpu(c) >= 1u) {
                (void)gs__ld_acquire_gpu(c);
                return 1;
            }
        } else if (gs__ld_acquire_gpu(c) >= 1u) {
            return 1;
        }
        if (Kind == SLOW_TIGHT) {
            if ((spins & 65535u) == 0u && gs__globaltimer_ns() > deadline)
                return 0;
            continue;
        }
        if ((spins & 31u) != 0u)
            continue;
        if (Kind != SLOW_TIMER32 && gs__ld_relaxed_gpu(flag) != 0u)
            return 0;
        if (gs__globaltimer_ns() > deadline)
            return 0;
    }
}

/* Thread 0: wait for counter c to reach 1 the way p.wait says. 1: reached. */
__device__ int wait_for(const params &p, const unsigned int *c, const unsigned int *const *addr,
                        unsigned long long deadline, unsigned int step)
{
    if (p.wait == POLL_CLOCK) {
        while (gs__ld_acquire_gpu(c) < 1u)
            if (gs__globaltimer_ns() >= deadline)
                return 0;
        return 1;
    }
    if (p.wait == LOCAL_ADDRESS) {
        const size_t off = (size_t)(c - p.counters);
        while (gs__ld_acquire_gpu(*(const unsigned int *const volatile *)addr + off) < 1u)
            if (gs__globaltimer_ns() >= deadline)
                return 0;
        return 1;
    }
    for (unsigned int k = 0; k < GS_TUNE_BARRIER_FAST_POLLS; ++k)
        if (gs__ld_acquire_gpu(c) >= 1u)
            return 1;
    gs__waiter wt = {p.record, c, 1u, 2000000000ull, 0u, step, blockIdx.x, 0u,
                     GS__UNTIL_REACHED | GS__ACQUIRE_EACH, 0, step - 1u};
    switch (p.wait) {
    case SLOW_TIGHT: return slow_wait<SLOW_TIGHT>(c, p.record, deadline);
    case SLOW_TIMER32: return slow_wait<SLOW_TIMER32>(c, p.record, deadline);
    case SLOW_FLAG32: return slow_wait<SLOW_FLAG32>(c, p.record, deadline);
    case SLOW_RELAXED: return slow_wait<SLOW_RELAXED>(c, p.record, deadline);
    case LIBRARY_BARRIER_WAIT: return !gs__wait_slow(&wt);
    default: return !gs__wait_slow_counter(&wt);
    }
}

__global__ void __launch_bounds__(THREADS) chain(params p)
{
    __shared__ __align__(128) unsigned char stages[2 * 384];
    __shared__ unsigned long long bars[2];
    __shared__ int leave;
    /* volatile: kept in local memory, one access per use */
    volatile unsigned int one[2] = {1u, 1u};
    volatile unsigned int spilled[2];
    const unsigned int *volatile addr[2] = {p.counters, p.counters};
    const int g = (int)gridDim.x, t = (int)threadIdx.x;
    const int mine = (STEPS - (int)blockIdx.x + g - 1) / g;
    const bool copy = (p.parts & COPY) != 0, after = (p.parts & COPY_AFTER) != 0;
    const int copier = after ? 0 : 32;
    const int stride = (p.parts & STRIDE_32B) ? 8 : 32; /* words */
#if GS_HAS_BULK_COPY
    if (t == 0) {
        gs::detail::bulk_barrier_init(&bars[0], 1u);
        gs::detail::bulk_barrier_init(&bars[1], 1u);
    }
#endif
    if (t == 0)
        leave = 0;
    __syncthreads();
#if GS_HAS_BULK_COPY
    if (copy && t == copier)
        for (int k = 0; k < 2 && k < mine; ++k)
            issue(p, stages, bars, k, (int)blockIdx.x + k * g);
#endif
    for (int k = 0; k < mine; ++k) {
        const int i = (int)blockIdx.x + k * g;
        if (t == 0) {
            const unsigned long long deadline = gs__globaltimer_ns() + 2000000000ull;
            int ok = 1;
#if GS_HAS_BULK_COPY
            if (copy)
                while (ok && !gs::detail::bulk_barrier_try_wait(&bars[k % 2], (unsigned int)(k / 2) & 1u))
                    ok = gs__globaltimer_ns() < deadline;
#endif
            if (ok && i > 0)
                ok = wait_for(p, p.counters + (i - 1) * stride, (const unsigned int *const *)&addr[k & 1],
                              deadline, (unsigned int)i);
            if (!ok) {
                atomicExch(p.failed, 1u);
                leave = 1;
            }
            if (p.parts & SPILL)
                spilled[k & 1] = 1u;
        }
        __syncthreads(); /* next() */
        if (leave)
            return;
        __syncthreads(); /* end() */
#if GS_HAS_BULK_COPY
        if (copy && !after && t == copier && k + 2 < mine)
            issue(p, stages, bars, k, i + 2 * g);
#endif
        if (t == 0) {
            const unsigned int delta = (p.parts & SPILL) ? spilled[k & 1]
                                       : (p.parts & LOCAL_LOAD) ? one[k & 1] : 1u;
            gs__red_add_release_gpu(p.counters + i * stride, delta);
            if (p.parts & DONE)
                gs__st_relaxed_gpu(p.done + blockIdx.x, (unsigned int)k + 1u);
#if GS_HAS_BULK_COPY
            if (copy && after && k + 2 < mine)
                issue(p, stages, bars, k, i + 2 * g);
#endif
        }
    }
}

} // namespace

int main()
{
    params p = {};
    CK(cudaMalloc(&p.counters, (size_t)STEPS * 32 * 4));
    CK(cudaMalloc(&p.done, 4096 * 4));
    CK(cudaMalloc(&p.failed, 4));
    CK(cudaMalloc(&p.record, 4096 * 4));
    CK(cudaMemset(p.failed, 0, 4));
    unsigned char *rec;
    CK(cudaMalloc(&rec, (size_t)STEPS * RECORD));
    CK(cudaMemset(rec, 0, (size_t)STEPS * RECORD));
    p.records = rec;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    struct mode_t {
        const char *name;
        int parts;
        wait_kind wait;
    } modes[] = {{"bare", 0, POLL_CLOCK},
                 {"+ copy", COPY, POLL_CLOCK},
                 {"+ done", DONE, POLL_CLOCK},
                 {"+ copy + done (the runtime's parts)", COPY | DONE, POLL_CLOCK},
                 {"copy after the post + done", COPY | COPY_AFTER | DONE, POLL_CLOCK},
                 {"bare + local load before the post", LOCAL_LOAD, POLL_CLOCK},
                 {"bare + spill across the barriers", SPILL, POLL_CLOCK},
                 {"bare, the poll's address from local memory", 0, LOCAL_ADDRESS},
                 {"bare, counters 32 B apart", STRIDE_32B, POLL_CLOCK},
                 {"bare, slow: tight", 0, SLOW_TIGHT},
                 {"bare, slow: timer/32", 0, SLOW_TIMER32},
                 {"bare, slow: flag/32", 0, SLOW_FLAG32},
                 {"bare, slow: relaxed", 0, SLOW_RELAXED},
                 {"bare, gs__wait_slow", 0, LIBRARY_BARRIER_WAIT},
                 {"bare, gs__wait_slow_counter", 0, LIBRARY_COUNTER_WAIT},
                 {"+ copy + done, gs__wait_slow_counter, 32 B apart (the runtime's all)",
                  COPY | DONE | STRIDE_32B, LIBRARY_COUNTER_WAIT},
                 {"bare (again)", 0, POLL_CLOCK},
                 {"+ copy + done (again)", COPY | DONE, POLL_CLOCK}};
    const int grids[] = {1, 2, 132, 528};
    printf("handoff_parts: a chain of %d steps, step i on block i mod G; us a hand-off "
           "(median of 7 launches)\n\n| parts | G = 1 | G = 2 | G = 132 | G = 528 |\n|---|---|---|---|---|\n",
           STEPS);
    int bad = 0;
    for (const mode_t &m : modes) {
        p.parts = m.parts;
        p.wait = m.wait;
        printf("| %s |", m.name);
        for (int g : grids) {
            std::vector<float> ts;
            for (int rep = 0; rep < 8; ++rep) {
                CK(cudaMemset(p.counters, 0, (size_t)STEPS * 32 * 4));
                CK(cudaMemset(p.record, 0, 4096 * 4)); /* a time-out must not carry over */
                CK(cudaEventRecord(e0));
                chain<<<g, THREADS>>>(p);
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                CK(cudaGetLastError());
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (rep)
                    ts.push_back(ms * 1e3f / (STEPS - 1));
            }
            unsigned int failed;
            CK(cudaMemcpy(&failed, p.failed, 4, cudaMemcpyDeviceToHost));
            std::vector<unsigned int> c(STEPS * 32);
            CK(cudaMemcpy(c.data(), p.counters, c.size() * 4, cudaMemcpyDeviceToHost));
            int wrong = 0;
            for (int i = 0; i < STEPS; ++i)
                wrong += c[(size_t)i * ((m.parts & STRIDE_32B) ? 8 : 32)] != 1u;
            bad += wrong + (int)failed;
            std::sort(ts.begin(), ts.end());
            printf(" %.3f%s |", ts[ts.size() / 2], wrong || failed ? " WRONG" : "");
            CK(cudaMemset(p.failed, 0, 4));
        }
        printf("\n");
    }
    printf("\nhandoff_parts: %s\n", bad ? "FAILED (a step not posted once, or a wait gave up)"
                                       : "every step posted once");
    return bad ? 1 : 0;
}
