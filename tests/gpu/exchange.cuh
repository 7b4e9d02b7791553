/*
 * exchange.cuh - the ordering check shared by the barrier tests.
 *
 * Each iteration the LAST thread of every block writes its slot (so the
 * write must reach the other blocks through the block barrier and thread 0's
 * release: cumulativity), after an optional random per-block delay that
 * shuffles arrival order; then a grid barrier; then thread 0 reads the next
 * block's slot and thread blockDim/2 a pseudo-random block's slot and both
 * check the values; then a second barrier so nobody overwrites a slot before
 * everyone has read it. Any ordering bug shows up as a wrong value.
 */
#ifndef GS_TEST_EXCHANGE_CUH
#define GS_TEST_EXCHANGE_CUH

#include <gridsync/barrier.cuh>

static __host__ __device__ __forceinline__ unsigned int ex_hash(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static __device__ __forceinline__ unsigned int ex_value(unsigned int seed, int it, unsigned int b)
{
    return ex_hash(seed + (unsigned int)it * 7919u) ^ (b * 2654435761u) ^ 1u;
}

/* After the barrier of iteration `it`: thread 0 checks the next block's
 * slot, thread nt/2 a block picked by the hash; the number of wrong values. */
static __device__ __forceinline__ unsigned int ex_check_slots(const unsigned int *slots,
                                                              unsigned int seed, int it,
                                                              unsigned int b, unsigned int n)
{
    const unsigned int t = threadIdx.x, nt = blockDim.x;
    unsigned int bad = 0u;
    if (t == 0u) {
        unsigned int o = b + 1u == n ? 0u : b + 1u;
        bad += slots[o] != ex_value(seed, it, o);
    }
    if (t == nt / 2u) {
        unsigned int o = ex_hash(seed + b * 31u + (unsigned int)it) % n;
        bad += slots[o] != ex_value(seed, it, o);
    }
    return bad;
}

static __global__ void exchange_kernel(gs_grid_barrier bar, unsigned int *slots,
                                       unsigned int *errors, int iters, unsigned int seed,
                                       unsigned int max_delay_ns)
{
    unsigned int n = gridDim.x, b = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (max_delay_ns && t == 0u)
            __nanosleep(ex_hash(seed ^ (unsigned int)it ^ (b << 12)) % max_delay_ns);
        __syncthreads();
        if (t == nt - 1u)
            slots[b] = ex_value(seed, it, b);
        gs_grid_sync(&bar);
        bad += ex_check_slots(slots, seed, it, b, n);
        gs_grid_sync(&bar);
    }
    if (bad)
        atomicAdd(errors, bad);
}

#endif
