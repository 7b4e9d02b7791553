/*
 * wavefront_signal.cuh - the signal version of the wavefront
 * (wavefront.cuh, which includes this file): a block of two warps per band,
 * one computing, one synchronizing.
 */
#ifndef GS_BENCH_WAVEFRONT_SIGNAL_CUH
#define GS_BENCH_WAVEFRONT_SIGNAL_CUH

/* What a block's two warps share. The counters count tiles since the
 * launch began (the k-th band of the block starts at k * tc), so they
 * never go back and need no reset between bands. */
struct wf_ring {
    wf_top slot[WF_DEPTH]; /* the top rows of tiles ready - DEPTH .. ready - 1 */
    volatile int ready;    /* signal warp -> compute warp: tiles < ready have their top row */
    volatile int entered;  /* compute -> signal: lane 0 has entered tiles < entered */
    volatile int done;     /* compute -> signal: tiles < done are in h and v */
    volatile int abort;    /* the signal warp timed out: leave */
};

/* The compute warp's feed (wf_band): top rows from the ring. Each counter
 * is a volatile word in shared memory written by one lane; a
 * __threadfence_block before the write and one after the read make the
 * pair a release and an acquire at CTA scope (the PTX fence patterns). */
struct wf_ring_feed {
    wf_ring *ring;
    int seq0; /* the band's first tile, counted since the launch */
    const wf_problem *p;
    __device__ void enter(int t) const
    {
        const int seq = seq0 + t;
        wf_delay(*p, 2u * (unsigned int)seq);
        while (ring->ready <= seq) /* bounded: the signal warp fills it or aborts */
            if (ring->abort)
                asm volatile("exit;");
        /* acquire: the slot's contents; release: lane 0's reads of the last slot */
        __threadfence_block();
        if ((threadIdx.x & 31u) == 0u)
            ring->entered = seq + 1;
    }
    __device__ void leave(int t) const
    {
        __syncwarp(); /* every lane's h and v writes of the tile before lane 0's release */
        if ((threadIdx.x & 31u) == 0u) {
            __threadfence_block();
            ring->done = seq0 + t + 1;
        }
    }
    __device__ const wf_top &slot(int t) const { return ring->slot[(seq0 + t) % WF_DEPTH]; }
};

/*
 * wf_signal_band - the signal warp's part of band i (the k-th band of this
 * block): fetch the band above's bottom row tile by tile into the ring, as
 * its signals and the ring's space allow, and publish the compute warp's
 * progress. Returns 0 when a wait timed out (the compute warp is told to
 * leave; gs_signals_check reports it).
 * Counters: block b's counter is base + tiles it finished since the
 * launch, so band i - 1 (block (i - 1) % G, its band (i - 1) / G) has
 * finished tile f once that block's counter reaches base + ((i - 1) / G) *
 * tc + f + 1. `base` is past every value an earlier launch stored.
 * Why correct: the compute warp's h and v writes happen-before its `done`
 * (syncwarp, CTA-scope release), which the signal warp acquires before its
 * gs_signal_store (atom.release.gpu): by cumulativity the release covers
 * them, and the block below acquires them with gs_signal_load/wait
 * (ld.acquire.gpu) before its loads of that row. The ring: a slot is
 * rewritten only once lane 0 has entered the tile after the slot's last
 * tile (`entered`, acquired), and read only once `ready` says it is full.
 * Progress: a block waits only on a band above it, whose block is
 * co-resident (gs_launch); the band above never waits on this one. The
 * signal warp blocks in gs_signal_wait (bounded by the watchdog) only
 * when the compute warp has entered every tile it has a top row for: the
 * warp then stands still, so nothing new can come to publish. Until then it
 * polls without blocking (the compute warp is moving, so that is bounded
 * too), and publishing never waits on the band above.
 */
static __device__ int wf_signal_band(const wf_problem &p, const gs_signal_set &sig,
                                     unsigned long long base, wf_ring *ring, int i, int k)
{
    const unsigned int full = 0xffffffffu, lane = threadIdx.x & 31u, nb = gridDim.x;
    const int seq0 = k * p.tc;
    const unsigned int above = (unsigned int)(i - 1 + (int)nb) % nb; /* used when i > 0 */
    const unsigned long long above0 = base + (unsigned long long)((i - 1) / (int)nb) * p.tc;
    int f = 0, pub = 0;
    while (pub < p.tc) {
        int d = 0, e = 0;
        if (lane == 0u) {
            d = ring->done - seq0;
            e = ring->entered - seq0;
            __threadfence_block(); /* acquire both */
        }
        d = __shfl_sync(full, d, 0);
        e = __shfl_sync(full, e, 0);
        if (d > pub) {
            if (lane == 0u)
                gs_signal_store(&sig, blockIdx.x, base + (unsigned long long)(seq0 + d));
            pub = d;
        }
        if (f < p.tc && f <= e + WF_DEPTH - 2) { /* the slot's last tile has been left */
            int go = 1;
            if (i > 0 && lane == 0u) {
                const unsigned long long want = above0 + (unsigned long long)f + 1ull;
                /* block (bounded) only once the compute warp waits for this tile:
                 * before, it still finishes tiles that must be published */
                go = gs_signal_load(&sig, above) >= want ? 1
                     : e < f                             ? 0
                     : gs_signal_wait(&sig, above, want) ? 1
                                                         : -1;
            }
            go = __shfl_sync(full, go, 0);
            if (go < 0) {
                if (lane == 0u)
                    ring->abort = 1;
                return 0;
            }
            if (go > 0) {
                __syncwarp(); /* lane 0's acquires before every lane's loads and writes */
                wf_top &slot = ring->slot[(seq0 + f) % WF_DEPTH];
                const long long at = (i - 1) * p.hs + (long long)f * WF_TW; /* when i > 0 */
                slot.row[lane] = i > 0 ? __ldcg(p.h + at + lane) : 0;
                if (lane == 0u)
                    slot.corner = i > 0 && f > 0 ? __ldcg(p.h + at - 1) : 0;
                __syncwarp();
                if (lane == 0u) {
                    __threadfence_block(); /* release the slot */
                    ring->ready = seq0 + f + 1;
                }
                ++f;
                continue;
            }
        }
        __nanosleep(20); /* nothing to do yet: leave the issue slots to the compute warps */
    }
    return 1;
}

/*
 * wf_signal_kernel - the wavefront with signals between blocks.
 * How: G blocks of two warps; block b takes bands b, b + G, ... in order.
 *   Warp 0 computes a band's tiles left to right in one lane pipeline
 *   (wf_band with the ring's feed), warp 1 is wf_signal_band.
 * Why correct: see wf_signal_band (the hand-offs) and wf_band (the cells).
 * When: a wavefront with more tile columns than bands: it synchronizes
 *   once per band hand-off and tile, off the compute warp's path, where a
 *   full barrier stops every block at each of the tr + tc - 1 diagonals.
 */
static __global__ void __launch_bounds__(64) wf_signal_kernel(wf_problem p, gs_signal_set sig,
                                                              unsigned long long base)
{
    __shared__ wf_ring ring;
    if (threadIdx.x == 0u)
        ring.ready = ring.entered = ring.done = ring.abort = 0;
    __syncthreads();
    const bool compute = threadIdx.x < 32u;
    for (int i = (int)blockIdx.x, k = 0; i < p.tr; i += (int)gridDim.x, ++k) {
        if (compute) {
            int left[WF_R] = {0, 0, 0, 0};
            wf_ring_feed feed = {&ring, k * p.tc, &p};
            wf_band(p, i, 0, p.tc, left, feed);
        } else if (!wf_signal_band(p, sig, base, &ring, i, k)) {
            return;
        }
    }
}

#endif
