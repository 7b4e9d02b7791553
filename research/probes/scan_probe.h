// scan_probe.h - what the scan probes share (scan_tiles.cu, scan_one_tile_variants.cu,
// scan_resident.cu, scan_pipelined.cu, scan_wide_types.cu): CK, the workspace of one call at a
// time (tile descriptors, counters, a fresh tag per call), one launch of a
// scan kernel on at most one wave of blocks, random floats and ints, and
// the median of 6 timed runs of `reps` calls (the first run discarded).
#ifndef GS_SCAN_PROBE_H
#define GS_SCAN_PROBE_H
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

#include <gridsync/detail/scan/single_pass_scan.cuh>

#include "probe_check.h"

static unsigned long long *g_desc;
static unsigned int *g_counters;
static unsigned int g_seq = 1;
static int g_sms;

/* The SM count and a zeroed workspace with `desc_bytes` of descriptors. */
static void scan_probe_init(long long desc_bytes)
{
    int dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaMalloc(&g_desc, desc_bytes));
    CK(cudaMemset(g_desc, 0, desc_bytes));
    CK(cudaMalloc(&g_counters, 64));
    CK(cudaMemset(g_counters, 0, 64));
}

/* Kernel k over n elements in tiles of `tile_items`, on min(tiles, one
 * wave of per_sm blocks an SM) blocks of `threads` threads with `smem`
 * bytes of dynamic shared memory; a fresh tag, a 2 s time-out, no fault
 * record. */
template <class K>
static void scan_probe_launch(K k, int per_sm, int threads, int smem, long long tile_items,
                              const void *in, void *out, long long n, int exclusive)
{
    const long long tiles = (n + tile_items - 1) / tile_items;
    const long long wave = (long long)g_sms * per_sm;
    gs::detail::scan_args a = {};
    a.in = in;
    a.out = out;
    a.n = n;
    a.descriptors = g_desc;
    a.counters = g_counters;
    a.fault = nullptr;
    a.timeout_ns = 2000000000ull;
    a.seq = g_seq++;
    a.tiles = (unsigned int)tiles;
    a.exclusive = exclusive;
    a.prefetch_input = 1; /* cudaMalloc'ed on this GPU, as gs_scan would prefetch */
    k<<<(unsigned)std::min(tiles, wave), threads, smem>>>(a);
}

/* x[0 .. n) random floats in [-1, 1), y[0 .. ny) random ints in
 * [-32768, 32768). */
__global__ void fill(float *x, int *y, long long n, long long ny, unsigned s)
{
    for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ s;
        h ^= h >> 15; h *= 0x2c1b3c6du; h ^= h >> 12;
        x[i] = (h & 0xffffff) * (2.0f / 16777216.0f) - 1.0f;
        if (i < ny)
            y[i] = (int)(h & 0xffff) - 32768;
    }
}

/* Microseconds per call: the median of `samples - 1` runs of `reps` calls
 * (the first run discarded), timed with events on `stream` (the calls'
 * own: events on the legacy stream do not bracket a non-blocking one). */
template <class F>
static double time_us(F f, int reps, int samples = 7, cudaStream_t stream = 0)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<float> v;
    for (int s = 0; s < samples; ++s) {
        CK(cudaEventRecord(a, stream));
        for (int r = 0; r < reps; ++r) f();
        CK(cudaEventRecord(b, stream)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        if (s) v.push_back(ms * 1000.0f / reps);
    }
    CK(cudaGetLastError());
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

#endif
