/*
 * wavefront_signal.cuh - the signal version of the wavefront
 * (wavefront.cuh, which includes this file): a block of two warps per band,
 * one computing, one synchronizing, handing top rows over through a ring in
 * shared memory guarded by mbarriers.
 */
#ifndef GS_BENCH_WAVEFRONT_SIGNAL_CUH
#define GS_BENCH_WAVEFRONT_SIGNAL_CUH

static_assert((WF_DEPTH & (WF_DEPTH - 1)) == 0, "WF_DEPTH: a power of two");
static_assert(WF_DEPTH > WF_LAG, "WF_DEPTH: a free slot for the tile the compute warp waits for");

/*
 * The ring's hand-off barriers: one warp arrives (all 32 lanes, once per
 * phase), the other tests or waits for a phase by its parity, as CUTLASS's
 * pipelines do. From sm_80 they are mbarriers: arrive is a release and a
 * successful test/wait an acquire at CTA scope (PTX ISA, mbarrier), and
 * compute-sanitizer's racecheck sees them as synchronization. Before sm_80
 * (no mbarrier) a counter of completed phases stands in: the arriving warp
 * syncs, then lane 0 fences (CTA scope) and bumps the counter; a test
 * reads it, then fences: the same release/acquire, which racecheck cannot
 * see (the gate runs on sm_90).
 * Parity: a test for phase n (parity n & 1) is exact only while the barrier
 * is at most one phase ahead of it; the ring keeps every barrier so (see
 * wf_signal_feed).
 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define WF_MBARRIER 0
#else
#define WF_MBARRIER 1
#endif

static __device__ __forceinline__ unsigned int wf_smem(const void *p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

/* One thread, before a __syncthreads: phase 0 opens, awaiting 32 arrivals. */
static __device__ __forceinline__ void wf_bar_init(unsigned long long *b)
{
#if WF_MBARRIER
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(wf_smem(b)), "r"(32) : "memory");
#else
    *b = 0ull;
#endif
}

/* Every lane of one warp: the phase completes (release, CTA scope). */
static __device__ __forceinline__ void wf_bar_arrive(unsigned long long *b)
{
#if WF_MBARRIER
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(wf_smem(b)) : "memory");
#else
    __syncwarp(); /* every lane's accesses before lane 0's release */
    if ((threadIdx.x & 31u) == 0u) {
        volatile unsigned long long *phases = b;
        __threadfence_block();
        *phases = *phases + 1ull;
    }
#endif
}

/* Has the phase of this parity completed? Never blocks; true: acquired. */
static __device__ __forceinline__ bool wf_bar_test(unsigned long long *b, unsigned int parity)
{
#if WF_MBARRIER
    unsigned int ok;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(ok)
                 : "r"(wf_smem(b)), "r"(parity)
                 : "memory");
    return ok != 0u;
#else
    const unsigned long long phases = *(volatile unsigned long long *)b;
    __threadfence_block();
    return (unsigned int)(phases & 1ull) != parity;
#endif
}

/* Until the phase of this parity completes (acquire). Bounded only by the
 * arriving warp: the caller says why it arrives. On sm_90 try_wait lets
 * the thread sleep in hardware until the phase completes. */
static __device__ __forceinline__ void wf_bar_wait(unsigned long long *b, unsigned int parity)
{
#if WF_MBARRIER && __CUDA_ARCH__ >= 900
    unsigned int ok = 0u;
    while (!ok)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(ok)
                     : "r"(wf_smem(b)), "r"(parity)
                     : "memory");
#else
    while (!wf_bar_test(b, parity)) {
    }
#endif
}

/* What a block's two warps share. Tiles are numbered by `seq`, counted
 * since the launch began over the block's bands (the k-th band's tile t is
 * k * tc + t), and tile seq lives in slot seq % DEPTH, so the barriers'
 * phases go on from band to band and need no reset. */
struct wf_ring {
    wf_top slot[WF_DEPTH];             /* the top rows of the tiles in flight */
    unsigned long long full[WF_DEPTH]; /* phase n of full[s]: slot s holds tile n DEPTH + s */
    unsigned long long done[WF_DEPTH]; /* phase n of done[s]: the compute warp has left it */
    int stop[WF_DEPTH]; /* set with a fill that never came: the signal warp timed out */
};

static __device__ __forceinline__ void wf_ring_init(wf_ring *ring)
{
    for (int s = 0; s < WF_DEPTH; ++s) {
        wf_bar_init(&ring->full[s]);
        wf_bar_init(&ring->done[s]);
        ring->stop[s] = 0;
    }
}

/* The compute warp's feed (wf_band): top rows from the ring. */
struct wf_ring_feed {
    wf_ring *ring;
    int seq0; /* the band's first tile, counted since the launch */
    const wf_problem *p;
    __device__ void enter(int t) const
    {
        const int seq = seq0 + t, s = seq % WF_DEPTH;
        wf_delay(*p, 2u * (unsigned int)seq);
        /* bounded: the signal warp fills the slot, or stops the warp there */
        wf_bar_wait(&ring->full[s], (unsigned int)(seq / WF_DEPTH) & 1u);
        if (ring->stop[s])
            asm volatile("exit;");
    }
    __device__ void leave(int t) const
    {
        /* every lane's h and v writes of the tile, and lane 0's reads of its
         * slot, before the signal warp's acquire */
        wf_bar_arrive(&ring->done[(seq0 + t) % WF_DEPTH]);
    }
    __device__ const wf_top &slot(int t) const { return ring->slot[(seq0 + t) % WF_DEPTH]; }
};

/*
 * wf_signal_feed - the signal warp: for every band of this block, in order,
 * fetch the band above's bottom row tile by tile into the ring, as its
 * signals and the ring's space allow, and publish the compute warp's
 * progress. On a time-out it stops the compute warp and returns
 * (gs_signals_check reports it).
 * How: one loop over the block's tiles (seq). `fin` counts the tiles the
 *   compute warp has left (done[] acquired in order), and each new count is
 *   published as base + fin; `fill` counts the tiles whose top rows are in
 *   the ring. Tile `fill` (tile f of band i) may go in once its slot's last
 *   tile has been left (fill < fin + DEPTH) and the band above has finished
 *   tile f: block (i - 1) % G's counter reaches base + ((i - 1) / G) tc +
 *   f + 1 (`base` is past every value an earlier launch stored). Up to
 *   WF_FILL ready tiles are loaded at once; the counter's last acquired
 *   value is kept, so tiles it already covers cost no load of it. The next
 *   band's first rows go in while the compute warp finishes this band.
 * Why correct (PTX memory model):
 *   - the rows: the band above's h writes happen-before its gs_signal_store
 *     (below), which lane 0 acquires (ld.acquire.gpu in gs_signal_load or
 *     gs_signal_wait) before a __syncwarp and every lane's loads.
 *   - the slots: a lane's slot writes come before its arrive on full[s]
 *     (release), whose phase the compute warp waits for (acquire) before
 *     lane 0 reads the slot; lane 0's reads of a slot come before the
 *     warp's arrive on done[s] as it leaves that tile, and every lane of
 *     this warp has acquired that phase (wf_bar_test, __all_sync) before it
 *     writes the slot again. stop[s] is written and read under the same
 *     two barriers. The parity tests are exact: full[s] completes phase n
 *     + 1 only after done[s] completed phase n, which follows the compute
 *     warp's wait for phase n; done[s] completes phase n + 1 only after
 *     the compute warp entered tile (n + 1) DEPTH + s, filled after this
 *     warp saw phase n.
 *   - the publication: the compute warp's h and v writes happen-before its
 *     arrive on done[s] (release, CTA scope), which this warp acquires
 *     before its gs_signal_store (atom.release.gpu): by cumulativity that
 *     release covers them for the block below.
 * Progress: a block waits only on the band above, whose block is
 *   co-resident (gs_launch) and never waits on this one. This warp blocks
 *   in gs_signal_wait (bounded by the watchdog) only when the compute warp
 *   stands, or is about to stand, at the tile being filled (fin has
 *   reached fill - min(f, WF_LAG)): then it leaves no tile until that one
 *   comes, so nothing is held back from the band below. Otherwise it polls
 *   without blocking, and the compute warp, which has rows to work on,
 *   moves: every loop is bounded. The compute warp waits only for a slot
 *   this warp will fill (it always has room: DEPTH > WF_LAG) or stop.
 */
static __device__ void wf_signal_feed(const wf_problem &p, const gs_signal_set &sig,
                                      unsigned long long base, wf_ring *ring)
{
    const unsigned int full = 0xffffffffu, lane = threadIdx.x & 31u, nb = gridDim.x;
    const int b = (int)blockIdx.x, tc = p.tc;
    const int bands = b < p.tr ? (p.tr - 1 - b) / (int)nb + 1 : 0, total = bands * tc;
    const unsigned int above = (blockIdx.x + nb - 1u) % nb; /* every band's but band 0's */
    unsigned long long seen = 0ull; /* lane 0: the above counter's value, acquired */
    int fin = 0, pub = 0, fill = 0;
    while (fin < total) {
        while (fin < fill && __all_sync(full, wf_bar_test(&ring->done[fin % WF_DEPTH],
                                                          (unsigned int)(fin / WF_DEPTH) & 1u)))
            ++fin;
        if (fin > pub) {
            if (lane == 0u)
                gs_signal_store(&sig, blockIdx.x, base + (unsigned long long)fin);
            pub = fin;
        }
        const int k = fill / tc, f = fill - k * tc, i = b + k * (int)nb;
        int n = min(min(total, fin + WF_DEPTH) - fill, min(tc - f, (int)WF_FILL));
        if (n > 0 && i > 0) {
            int got = 0; /* top rows ready from tile f on, or -1: timed out */
            if (lane == 0u) {
                const unsigned long long above0 = base + (unsigned long long)((i - 1) / (int)nb) * tc;
                const unsigned long long want = above0 + (unsigned long long)f + 1ull;
                if (seen < want)
                    seen = gs_signal_load(&sig, above);
                if (seen < want && fin >= fill - min(f, (int)WF_LAG)) { /* the compute warp waits */
                    if (gs_signal_wait(&sig, above, want))
                        seen = want;
                    else
                        got = -1;
                }
                if (seen >= want)
                    got = (int)min(seen - want + 1ull, (unsigned long long)n);
            }
            n = __shfl_sync(full, got, 0);
            if (n < 0) { /* the slot is free (n was > 0): wake the compute warp there */
                if (lane == 0u)
                    ring->stop[fill % WF_DEPTH] = 1;
                wf_bar_arrive(&ring->full[fill % WF_DEPTH]);
                return;
            }
        }
        if (n <= 0) {
            __nanosleep(20); /* nothing to do yet: leave the issue slots to the compute warps */
            continue;
        }
        __syncwarp(); /* lane 0's acquires before every lane's loads */
        int row[WF_FILL], corner[WF_FILL];
#pragma unroll
        for (int x = 0; x < WF_FILL; ++x) {
            const long long at = (i - 1) * p.hs + (long long)(f + x) * WF_TW; /* when i > 0 */
            row[x] = i > 0 && x < n ? __ldcg(p.h + at + lane) : 0;
            corner[x] = i > 0 && x < n && lane == 0u && f + x > 0 ? __ldcg(p.h + at - 1) : 0;
        }
#pragma unroll
        for (int x = 0; x < WF_FILL; ++x)
            if (x < n) {
                const int s = (fill + x) % WF_DEPTH;
                ring->slot[s].row[lane] = row[x];
                if (lane == 0u)
                    ring->slot[s].corner = corner[x];
                wf_bar_arrive(&ring->full[s]);
            }
        fill += n;
    }
}

/*
 * wf_signal_kernel - the wavefront with signals between blocks.
 * How: G blocks of two warps; block b takes bands b, b + G, ... in order.
 *   Warp 0 computes a band's tiles left to right in one lane pipeline
 *   (wf_band with the ring's feed), warp 1 is wf_signal_feed.
 * Why correct: see wf_signal_feed (the hand-offs) and wf_band (the cells).
 *   The ring's barriers and stop flags are set up by thread 0 before a
 *   __syncthreads; after it the warps meet only through the ring.
 * When: a wavefront with more tile columns than bands: it synchronizes
 *   once per band hand-off and tile, off the compute warp's path, where a
 *   full barrier stops every block at each of the tr + tc - 1 diagonals.
 */
static __global__ void __launch_bounds__(64) wf_signal_kernel(wf_problem p, gs_signal_set sig,
                                                              unsigned long long base)
{
    __shared__ wf_ring ring;
    if (threadIdx.x == 0u)
        wf_ring_init(&ring);
    __syncthreads();
    if (threadIdx.x >= 32u) {
        wf_signal_feed(p, sig, base, &ring);
        return;
    }
    for (int i = (int)blockIdx.x, k = 0; i < p.tr; i += (int)gridDim.x, ++k) {
        int left[WF_R] = {0, 0, 0, 0};
        wf_ring_feed feed = {&ring, k * p.tc, &p};
        wf_band(p, i, 0, p.tc, left, feed);
    }
}

#endif
