/*
 * test_signals.cu - signals between blocks: a pipeline in which block b
 * consumes, item by item, what block b - 1 produced through a ring of
 * DEPTH slots (ready counters with gs_block_signal_store, consumed counters
 * with gs_block_signal_add, back-pressure with gs_block_signal_wait), plus
 * a fan-in counter every block adds to and block 0 waits on. Random
 * per-block delays; grid sizes 1, 2, SMs, SMs + 1 and the co-resident
 * maximum; over 10^6 signal waits. Launches go on from the values the
 * last one left (no reset), then once more after gs_signals_reset.
 */
#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <gridsync/signal.cuh>

enum { DEPTH = 4 };

/* Counters: ready[b] = 2b, consumed[b] = 2b + 1, the fan-in counter last. */
static __global__ void pipeline_kernel(gs_signal_set sig, unsigned int *ring,
                                       unsigned int *errors, int items, unsigned long long base,
                                       unsigned int seed, unsigned int max_delay_ns)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
    const unsigned int fan_in = 2u * n;
    unsigned int bad = 0u, carried = 0u;
    for (int i = 0; i < items; ++i) {
        unsigned long long item = base + (unsigned long long)i;
        unsigned int h = ex_hash(seed ^ (unsigned int)i * 40503u ^ (b << 11));
        if (max_delay_ns && t == 0u && (h & 7u) == 0u)
            __nanosleep((h >> 3) % max_delay_ns);
        if (b > 0u) { /* take item i from block b - 1 */
            gs_block_signal_wait(&sig, 2u * (b - 1u), item + 1ull);
            if (t == nt / 2u)
                carried = ring[(b - 1u) * DEPTH + (unsigned int)(item % DEPTH)];
            __syncthreads();
            gs_block_signal_add(&sig, 2u * (b - 1u) + 1u, 1ull); /* its slot is free again */
            bad += t == nt / 2u && carried != ex_value(seed, i, b - 1u) + b - 1u;
        }
        if (b + 1u < n && item >= DEPTH) /* the slot is free once b + 1 took item - DEPTH */
            gs_block_signal_wait(&sig, 2u * b + 1u, item - DEPTH + 1ull);
        if (t == nt - 1u)
            ring[b * DEPTH + (unsigned int)(item % DEPTH)] = ex_value(seed, i, b) + b;
        gs_block_signal_store(&sig, 2u * b, item + 1ull);
        gs_block_signal_add(&sig, fan_in, 1ull);
        if (b == 0u && (i & 63) == 63) { /* everyone has passed item i */
            gs_block_signal_wait(&sig, fan_in, (item + 1ull) * n);
            if (t == 0u && gs_signal_load(&sig, fan_in) < (item + 1ull) * n)
                ++bad;
        }
    }
    if (bad)
        atomicAdd(errors, bad);
}

int main(void)
{
    gs_test_require_gpu("signals");
    srand((unsigned int)gs_test_seed("signals"));
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int max_blocks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)pipeline_kernel, 128, 0, &max_blocks));
    unsigned int grids[6];
    int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)max_blocks, grids);
    unsigned int *ring, *errors;
    CUDA_OK(cudaMalloc(&ring, (size_t)max_blocks * DEPTH * sizeof *ring));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));
    gs_signals_t sig;
    GS_OK(gs_signals_create(&sig, 2u * (unsigned int)max_blocks + 1u));
    GS_OK(gs_signals_set_timeout(sig, quick ? 30.0 : 5.0));
    gs_signal_set view;
    GS_OK(gs_signals_device(sig, &view));

    int checks = 0;
    long long waits = 0;
    for (int g = 0; g <= ngrids; ++g) {
        unsigned int blocks = grids[g < ngrids ? g : ngrids - 1];
        /* pipelines: items + blocks steps; waits ~ 2 per block and item */
        int items = quick ? 8 : (int)(600000ll / ((long long)ngrids * blocks)) + 200;
        unsigned long long base = 0;
        for (int launch = 0; launch < 2; ++launch) {
            unsigned int seed = (unsigned int)rand(), bad = 0, delay = g % 2 ? 2000u : 0u;
            CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
            void *args[] = {&view, &ring, &errors, &items, &base, &seed, &delay};
            GS_OK(gs_launch((const void *)pipeline_kernel, dim3(blocks), dim3(128), 0, 0, args,
                            NULL));
            gs_status st = gs_signals_check(sig, 0);
            EXPECT(st == GS_SUCCESS, "%u blocks, launch %d: %s: %s", blocks, launch,
                   gs_status_string(st), gs_last_error_detail());
            CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
            EXPECT(bad == 0, "%u blocks, %d items from %llu: %u wrong values", blocks, items,
                   base, bad);
            waits += 2ll * items * blocks;
            base += (unsigned long long)items;
            ++checks;
        }
        /* the counters of blocks a smaller grid lacked lag behind: another
         * size starts from a reset (or from a base past every counter) */
        GS_OK(gs_signals_reset(sig, 0)); /* the last size runs once more, from the reset */
    }
    printf("signals: about %lld waits over %d grid sizes (1 .. %d blocks)\n", waits, ngrids,
           max_blocks);
    GS_OK(gs_signals_destroy(sig));
    cudaFree(ring);
    cudaFree(errors);
    return gs_test_finish("signals", checks);
}
