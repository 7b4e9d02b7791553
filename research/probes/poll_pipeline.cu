// poll_pipeline.cu - scratch probe (issues 15, 17): does a poll with several
// loads in flight see a word sooner than a poll with one?
//
// A poll that waits for each load before issuing the next sees a store that
// lands in L2 on average one round trip after it lands (half a round trip
// until the next load reaches L2, half back). With K loads in flight, spaced
// evenly over a round trip, the next load reaches L2 within RT / K: about
// half a round trip saved when K is large. The check of load i waits only
// for load i, so once started the loads stay spaced by themselves.
//
// Rows: the dependent-load round trip (clocks); then, us per step (20,000
// steps, cooperative launch, 256 threads a block, 1 / 2 / SMs .. 8 x SMs
// blocks), for
//   tagged exchange on a 1-D ring (put the block's {tag, value} word, get
//     both neighbours', block barrier): poll one load at a time (the
//     library's gs__tagged_get) against K = 2, 4, 8 in flight;
//   flip barrier (the library's counter: atom.add.release, poll until the
//     top bit flips; a slot written before, the next block's slot read
//     after): ld.acquire polls one at a time against K relaxed loads in
//     flight and one closing fence.
// `make research` builds it: build/research/probes/poll_pipeline [steps]
#include <cstdio>
#include <cstdlib>
#include <gridsync/detail/core/memory_order.cuh>

#include "probe_check.h"

static __device__ __forceinline__ void spin_clocks(unsigned int c)
{
    const long long t0 = clock64();
    while (clock64() - t0 < (long long)c) {
    }
}

/* Poll `w` until its tag is `tag` with K relaxed loads in flight, the first
 * K spaced by `spacing` clocks; bounded (returns the last word seen). */
template <int K>
static __device__ __forceinline__ unsigned long long poll_tag(const unsigned long long *w,
                                                              unsigned int tag,
                                                              unsigned int spacing)
{
    unsigned long long r[K];
#pragma unroll
    for (int i = 0; i < K; ++i) {
        r[i] = gs__ld_relaxed_gpu_u64(w);
        if (i + 1 < K && spacing)
            spin_clocks(spacing);
    }
    for (unsigned int it = 0; it < (1u << 22); ++it) {
#pragma unroll
        for (int i = 0; i < K; ++i) {
            if ((unsigned int)(r[i] >> 32) == tag)
                return r[i];
            r[i] = gs__ld_relaxed_gpu_u64(w);
        }
    }
    return r[0];
}

/* Poll the flip counter until its top bit differs from `old`'s. */
template <int K>
static __device__ __forceinline__ void poll_flip(const unsigned int *c, unsigned int old,
                                                 unsigned int spacing)
{
    if constexpr (K == 0) { /* the library's: acquire loads, one at a time */
        (void)spacing;
        for (unsigned int it = 0; ((gs__ld_acquire_gpu(c) ^ old) & 0x80000000u) == 0u && it < (1u << 24);
             ++it) {
        }
    } else {
        unsigned int r[K];
#pragma unroll
        for (int i = 0; i < K; ++i) {
            r[i] = gs__ld_relaxed_gpu(c);
            if (i + 1 < K && spacing)
                spin_clocks(spacing);
        }
        for (unsigned int it = 0; it < (1u << 22); ++it) {
#pragma unroll
            for (int i = 0; i < K; ++i) {
                if (((r[i] ^ old) & 0x80000000u) != 0u) {
                    gs__fence_acq_rel_gpu(); /* the closing acquire */
                    return;
                }
                r[i] = gs__ld_relaxed_gpu(c);
            }
        }
    }
}

__global__ void round_trip(unsigned int *chain, long long *out)
{
    /* chain[i] = i + 1 (mod 64), in L2 (written by the host, read once here
     * first); time 256 dependent relaxed loads */
    unsigned int i = 0;
    for (int k = 0; k < 64; ++k)
        i = gs__ld_relaxed_gpu(chain + i * 32);
    const long long t0 = clock64();
    for (int k = 0; k < 256; ++k)
        i = gs__ld_relaxed_gpu(chain + i * 32);
    const long long t1 = clock64();
    out[0] = (t1 - t0) / 256;
    out[1] = i;
}

/* Tagged exchange on a ring: words[parity][block]. */
template <int K>
__global__ void tagged_ring(unsigned long long *words, unsigned int *errors, int steps,
                            unsigned int tag0, unsigned int spacing)
{
    const unsigned int n = gridDim.x, b = blockIdx.x;
    const unsigned int left = b == 0u ? n - 1u : b - 1u, right = b + 1u == n ? 0u : b + 1u;
    __shared__ unsigned int got[2];
    unsigned int bad = 0;
    for (int s = 0; s < steps; ++s) {
        const unsigned int tag = tag0 + (unsigned int)s;
        unsigned long long *set = words + (size_t)(s & 1) * n;
        if (threadIdx.x == 0)
            gs__st_relaxed_gpu_u64(set + b, (unsigned long long)tag << 32 | (tag * 7u + b));
        if (threadIdx.x < 2u && n > 1u) { /* lane 0: left, lane 1: right, together */
            const unsigned int from = threadIdx.x == 0u ? left : right;
            unsigned long long v;
            if (K == 1) {
                unsigned int it = 0;
                do
                    v = gs__ld_relaxed_gpu_u64(set + from);
                while ((unsigned int)(v >> 32) != tag && ++it < (1u << 24));
            } else {
                v = poll_tag<K>(set + from, tag, spacing);
            }
            got[threadIdx.x] = (unsigned int)v;
            bad += (unsigned int)v != tag * 7u + from;
        }
        __syncthreads();
    }
    if (bad)
        atomicAdd(errors, bad);
}

/* Flip barrier step: slot write, barrier, read of the next block's slot. */
template <int K>
__global__ void flip_ring(unsigned int *ctr, unsigned int *slots, unsigned int *errors, int steps,
                          unsigned int spacing)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, next = b + 1u == n ? 0u : b + 1u;
    unsigned int bad = 0;
    for (int s = 0; s < steps; ++s) {
        if (threadIdx.x == blockDim.x - 1u)
            slots[(s & 1) * n + b] = (unsigned int)s * 2654435761u + b;
        __syncthreads();
        if (threadIdx.x == 0u) {
            const unsigned int old = gs__atom_add_release_gpu(ctr, b ? 1u : 0x80000000u - (n - 1u));
            poll_flip<K>(ctr, old, spacing);
        }
        __syncthreads();
        if (threadIdx.x == 0u)
            bad += *(volatile unsigned int *)&slots[(s & 1) * n + next] !=
                   (unsigned int)s * 2654435761u + next;
    }
    if (threadIdx.x == 0u && bad)
        atomicAdd(errors, bad);
}

static unsigned long long *g_words;
static unsigned int *g_ctr, *g_slots, *g_err;
static unsigned int g_tag = 1;

template <class F>
static double time_steps(F launch, int steps)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float best = 1e30f;
    for (int r = 0; r < 5; ++r) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r && ms < best)
            best = ms;
    }
    CK(cudaGetLastError());
    return best * 1000.0 / steps;
}

template <int K>
static double tagged(unsigned int n, unsigned int spacing, int steps)
{
    void *k = (void *)tagged_ring<K>;
    return time_steps(
        [&] {
            unsigned int tag0 = g_tag;
            g_tag += (unsigned int)steps;
            void *args[] = {&g_words, &g_err, &steps, &tag0, &spacing};
            CK(cudaLaunchCooperativeKernel(k, n, 256, args, 0, 0));
        },
        steps);
}

template <int K>
static double flip(unsigned int n, unsigned int spacing, int steps)
{
    void *k = (void *)flip_ring<K>;
    return time_steps(
        [&] {
            void *args[] = {&g_ctr, &g_slots, &g_err, &steps, &spacing};
            CK(cudaLaunchCooperativeKernel(k, n, 256, args, 0, 0));
        },
        steps);
}

int main(int argc, char **argv)
{
    int sms = 0, per_sm = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tagged_ring<4>, 256, 0));
    const int steps = argc > 1 ? atoi(argv[1]) : 20000;
    CK(cudaMalloc(&g_words, 2 * 4096 * 8));
    CK(cudaMemset(g_words, 0, 2 * 4096 * 8));
    CK(cudaMalloc(&g_ctr, 128));
    CK(cudaMemset(g_ctr, 0, 128));
    CK(cudaMalloc(&g_slots, 2 * 4096 * 4));
    CK(cudaMalloc(&g_err, 4));
    CK(cudaMemset(g_err, 0, 4));
    unsigned int *chain;
    long long *rt, h[2];
    unsigned int hc[64 * 32] = {};
    for (int i = 0; i < 64; ++i)
        hc[i * 32] = (unsigned)((i + 1) % 64);
    CK(cudaMalloc(&chain, sizeof hc));
    CK(cudaMemcpy(chain, hc, sizeof hc, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&rt, 16));
    round_trip<<<1, 1>>>(chain, rt);
    CK(cudaMemcpy(h, rt, 16, cudaMemcpyDeviceToHost));
    int clock_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    printf("%d SMs, %d blocks of 256 a SM; relaxed load round trip (L2 hit, one SM): %lld clocks "
           "(%.0f ns at %d MHz)\n",
           sms, per_sm, h[0], h[0] * 1e6 / clock_khz, clock_khz / 1000);
    const unsigned int sizes[] = {2u, (unsigned)sms, 2u * sms, 4u * sms, (unsigned)(per_sm * sms)};
    const unsigned int sp = (unsigned int)h[0];
    printf("%-34s", "us per step, blocks:");
    for (unsigned int n : sizes)
        printf(" %8u", n);
    printf("\n");
#define ROW(label, expr)                                                                           \
    do {                                                                                           \
        printf("%-34s", label);                                                                    \
        for (unsigned int n : sizes)                                                               \
            printf(" %8.3f", (expr));                                                              \
        printf("\n");                                                                              \
        fflush(stdout);                                                                            \
    } while (0)
    for (int rep = 0; rep < 2; ++rep) {
        ROW("tagged, 1 in flight", tagged<1>(n, 0, steps));
        ROW("tagged, 2 in flight, RT/2 apart", tagged<2>(n, sp / 2, steps));
        ROW("tagged, 4 in flight, RT/4 apart", tagged<4>(n, sp / 4, steps));
        ROW("tagged, 4 in flight, no spacing", tagged<4>(n, 0, steps));
        ROW("tagged, 8 in flight, RT/8 apart", tagged<8>(n, sp / 8, steps));
        ROW("flip, acquire polls (library)", flip<0>(n, 0, steps));
        ROW("flip, 1 relaxed + fence", flip<1>(n, 0, steps));
        ROW("flip, 2 in flight, RT/2 apart", flip<2>(n, sp / 2, steps));
        ROW("flip, 4 in flight, RT/4 apart", flip<4>(n, sp / 4, steps));
        ROW("flip, 8 in flight, RT/8 apart", flip<8>(n, sp / 8, steps));
    }
    unsigned int err = 0;
    CK(cudaMemcpy(&err, g_err, 4, cudaMemcpyDeviceToHost));
    printf("exchange errors: %u\n", err);
    return err != 0;
}
