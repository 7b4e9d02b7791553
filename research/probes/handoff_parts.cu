// handoff_parts.cu - probe (issue 44): what a task hand-off is made of.
// `gridsync bench handoff` puts the runtime's hand-off at 1.2 us on one
// block and 1.15-1.18 us at 66-1056 blocks (0.95 at 2), while the release,
// the trip to L2 and a poll that sees it add up to about 0.5 us
// (research/notes/barrier.md). This probe builds the same chain (8192
// steps, step i on block i mod G, waiting for counter i - 1 and posting
// counter i) from the runtime's parts, switched on one by one:
//   bare      thread 0 polls (ld.acquire), a block barrier, a block barrier,
//             thread 0's red.release: the runtime's skeleton
//   + copy    lane 0 of warp 1 copies the task-after-next's 288-byte record
//             into a stage (bulk copy, mbarrier) after the second barrier,
//             and thread 0 waits for the stage before polling, as the
//             runtime does
//   + done    thread 0 also stores its block's done-count after the post
//   copy after  the copy issued by thread 0 after its post instead
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
enum { COPY = 1, DONE = 2, COPY_AFTER = 4, LOCAL_LOAD = 8, LOCAL_POLL = 16, STRIDE_32B = 32,
       WATCHED = 64, SLOW = 128, COUNTER_WAIT = 1024, SLOW_TIGHT = 0, SLOW_TIMER32 = 256, SLOW_FLAG32 = 512,
       SLOW_RELAXED = 768, SLOW_KIND = 768 };

struct params {
    unsigned int *counters, *done, *failed;
    unsigned int *record; /* a zeroed watchdog record for the watched wait */
    const unsigned char *records; /* STEPS records of RECORD bytes */
    int mode;
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
__device__ __noinline__ int slow_wait(const unsigned int *c, const unsigned int *flag,
                                      unsigned long long deadline, int kind)
{
    for (unsigned int spins = 1;; ++spins) {
        if (kind == SLOW_RELAXED) {
            if (gs__ld_relaxed_gpu(c) >= 1u) {
                (void)gs__ld_acquire_gpu(c);
                return 1;
            }
        } else if (gs__ld_acquire_gpu(c) >= 1u) {
            return 1;
        }
        if (kind == SLOW_TIGHT) {
            if ((spins & 65535u) == 0u && gs__globaltimer_ns() > deadline)
                return 0;
            continue;
        }
        if ((spins & 31u) != 0u)
            continue;
        if (kind != SLOW_TIMER32 && gs__ld_relaxed_gpu(flag) != 0u)
            return 0;
        if (gs__globaltimer_ns() > deadline)
            return 0;
    }
}

__global__ void __launch_bounds__(THREADS) chain(params p)
{
    __shared__ __align__(128) unsigned char stages[2 * 384];
    __shared__ unsigned long long bars[2];
    __shared__ int leave;
    /* volatile: kept in local memory, one load per use */
    volatile unsigned int one[2] = {1u, 1u};
    const unsigned int *volatile where[2] = {p.counters, p.counters};
    const int g = (int)gridDim.x, t = (int)threadIdx.x;
    const int mine = (STEPS - (int)blockIdx.x + g - 1) / g;
    const bool copy = (p.mode & COPY) != 0, after = (p.mode & COPY_AFTER) != 0;
    const int copier = after ? 0 : 32;
    const int stride = (p.mode & STRIDE_32B) ? 8 : 32; /* words */
#if GS_HAS_BULK_COPY
    if (t == 0) {
        gs::detail::bulk_barrier_init(&bars[0], 1u);
        gs::detail::bulk_barrier_init(&bars[1], 1u);
        leave = 0;
    }
    __syncthreads();
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
            const unsigned int *c = p.counters + (i - 1) * stride;
            if (i > 0 && (p.mode & WATCHED)) {
                const int until = GS__UNTIL_REACHED | GS__ACQUIRE_EACH;
                unsigned int k2 = 0;
                while (k2 < GS_TUNE_BARRIER_FAST_POLLS && gs__ld_acquire_gpu(c) < 1u)
                    ++k2;
                if (k2 == GS_TUNE_BARRIER_FAST_POLLS) {
                    gs__waiter wt = {p.record, c, 1u, 2000000000ull, 0u, (unsigned int)i,
                                     blockIdx.x, 0u, until, 0, (unsigned int)i - 1u};
                    ok = (p.mode & COUNTER_WAIT) ? !gs__wait_slow_counter(&wt) : !gs__wait_slow(&wt);
                }
            } else if (i > 0 && (p.mode & SLOW)) {
                unsigned int k2 = 0;
                while (k2 < GS_TUNE_BARRIER_FAST_POLLS && gs__ld_acquire_gpu(c) < 1u)
                    ++k2;
                if (k2 == GS_TUNE_BARRIER_FAST_POLLS)
                    ok = slow_wait(c, p.record, deadline, p.mode & SLOW_KIND);
            } else if (i > 0 && (p.mode & LOCAL_POLL))
                while (ok && gs__ld_acquire_gpu(where[k & 1] + (i - 1) * stride) < 1u)
                    ok = gs__globaltimer_ns() < deadline;
            else if (i > 0)
                while (ok && gs__ld_acquire_gpu(c) < 1u)
                    ok = gs__globaltimer_ns() < deadline;
            if (!ok) {
                atomicExch(p.failed, 1u);
                leave = 1;
            }
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
            gs__red_add_release_gpu(p.counters + i * stride, (p.mode & LOCAL_LOAD) ? one[k & 1] : 1u);
            if (p.mode & DONE)
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
    CK(cudaMemset(p.record, 0, 4096 * 4));
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
        int bits;
    } modes[] = {{"bare", 0},
                 {"+ copy", COPY},
                 {"+ done", DONE},
                 {"+ copy + done (the runtime's parts)", COPY | DONE},
                 {"copy after the post + done", COPY | COPY_AFTER | DONE},
                 {"bare + local load before the post", LOCAL_LOAD},
                 {"bare + poll address from local memory", LOCAL_POLL},
                 {"bare, counters 32 B apart", STRIDE_32B},
                 {"bare, slow: tight", SLOW | SLOW_TIGHT},
                 {"bare, slow: timer/32", SLOW | SLOW_TIMER32},
                 {"bare, slow: flag/32", SLOW | SLOW_FLAG32},
                 {"bare, slow: relaxed", SLOW | SLOW_RELAXED},
                 {"bare, the watched wait", WATCHED},
                 {"bare, the watched wait: counter", WATCHED | COUNTER_WAIT},
                 {"+ copy + done, the watched wait: counter", COPY | DONE | WATCHED | COUNTER_WAIT},
                 {"bare, the watched wait, counters 32 B apart", WATCHED | STRIDE_32B},
                 {"+ copy + done, the watched wait, counters 32 B apart", COPY | DONE | WATCHED | STRIDE_32B},
                 {"bare (again)", 0},
                 {"+ copy + done (again)", COPY | DONE}};
    const int grids[] = {1, 2, 132, 528};
    printf("handoff_parts: a chain of %d steps, step i on block i mod G; us a hand-off "
           "(median of 7 launches)\n\n| parts | G = 1 | G = 2 | G = 132 | G = 528 |\n|---|---|---|---|---|\n",
           STEPS);
    int bad = 0;
    for (const mode_t &m : modes) {
        p.mode = m.bits;
        printf("| %s |", m.name);
        for (int g : grids) {
            std::vector<float> ts;
            for (int rep = 0; rep < 8; ++rep) {
                CK(cudaMemset(p.counters, 0, (size_t)STEPS * 32 * 4));
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
                wrong += c[(size_t)i * ((m.bits & STRIDE_32B) ? 8 : 32)] != 1u;
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
