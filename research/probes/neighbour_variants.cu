// probe: 1-D neighbour barrier variants, no watchdog (spins bounded by a
// count), per-step latency with the sync suite's exchange workload. PAD is
// the slot stride in 4-byte words: 1 packs 8 blocks' slots in one 32-byte
// sector (the bench's layout before 2026-11-22), 8 gives each block its own
// sector, 32 its own line.
// `make research` builds it: build/research/probes/neighbour_variants
#include <cstdio>
#include "neighbour_probe.h"
#include <gridsync/detail/core/memory_order.cuh>

__device__ __forceinline__ unsigned val(int it, unsigned b) { return it * 2654435761u + b + 1u; }
__device__ __forceinline__ unsigned long long ld_relaxed64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned long long ld_acquire64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// V0 library's scheme: acquire on every poll, threads 0/1 one neighbour each
// V1 relaxed polls, one closing ld.acquire
// V2 V0 without the data store (floor)
// V3 V0 with __nanosleep(64) between polls
// V4 thread 0 polls both neighbours (two loads in flight)
template <int V, int PAD>
__global__ void k(unsigned long long *epochs, unsigned *slots, unsigned *errors, int iters)
{
    const unsigned n = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const unsigned partner = b > 0 ? b - 1 : (n > 1 ? 1 : 0);
    unsigned bad = 0, prev = 0;
    for (int it = 0; it < iters; ++it) {
        unsigned *buf = slots + (it & 1) * n * PAD;
        if (V != 2 && tid == blockDim.x - 1)
            buf[b * PAD] = val(it, b);
        __syncthreads();
        const unsigned long long e = it + 1ull;
        if (tid == 0)
            st_release64(epochs + b * 16, e);
        if (V == 4) {
            if (tid == 0) {
                const unsigned long long *l = epochs + (b > 0 ? b - 1 : b) * 16;
                const unsigned long long *r = epochs + (b + 1 < n ? b + 1 : b) * 16;
                for (unsigned s = 0; s < (1u << 26); ++s) {
                    unsigned long long a = ld_acquire64(l), c = ld_acquire64(r);
                    if (a >= e && c >= e) break;
                }
            }
        } else if (tid < 2) {
            unsigned r = tid == 0 ? (b > 0 ? b - 1 : b) : (b + 1 < n ? b + 1 : b);
            if (r != b) {
                const unsigned long long *p = epochs + r * 16;
                if (V == 1) {
                    for (unsigned s = 0; s < (1u << 26) && ld_relaxed64(p) < e; ++s) {}
                    (void)ld_acquire64(p);
                } else {
                    for (unsigned s = 0; s < (1u << 26) && ld_acquire64(p) < e; ++s)
                        if (V == 3) __nanosleep(64);
                }
            }
        }
        __syncthreads();
        if (V != 2 && tid == 0) {
            if (it > 0) bad += prev != val(it - 1, partner);
            prev = buf[partner * PAD];
        }
    }
    if (tid == 0 && bad) atomicAdd(errors, bad);
}

template <int V, int PAD = 1> float run(int blocks, int iters, unsigned long long *epochs, unsigned *slots, unsigned *errors)
{
    cudaMemset(epochs, 0, 2048 * 16 * 8);
    cudaEvent_t a, z;
    cudaEventCreate(&a); cudaEventCreate(&z);
    void *args[] = {&epochs, &slots, &errors, &iters};
    cudaLaunchCooperativeKernel((void *)k<V, PAD>, blocks, 256, args, 0, 0);
    cudaMemset(epochs, 0, 2048 * 16 * 8);
    cudaEventRecord(a);
    cudaLaunchCooperativeKernel((void *)k<V, PAD>, blocks, 256, args, 0, 0);
    cudaEventRecord(z);
    cudaError_t err = cudaEventSynchronize(z);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, z);
    if (err != cudaSuccess) { printf("error %s\n", cudaGetErrorName(err)); return -1; }
    return ms * 1000.f / iters;
}

int main()
{
    unsigned long long *epochs; unsigned *slots, *errors;
    cudaMalloc(&epochs, 2048 * 16 * 8); cudaMalloc(&slots, 2 * 2048 * 4 * 32); cudaMalloc(&errors, 4);
    cudaMemset(errors, 0, 4);
    int sms = 0, per = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k<0,1>, 256, 0);
    const char *names[] = {"acquire each", "relaxed+final acq", "no data (floor)", "nanosleep64", "one thread both", "acq each, slot per line", "relaxed+final, slot per line", "acq each, slot per 32B"};
    const neighbour_run runs[] = {run<0>, run<1>, run<2>, run<3>, run<4>, run<0, 32>, run<1, 32>, run<0, 8>};
    neighbour_table(names, runs, sizeof runs / sizeof runs[0], sms, per, epochs, slots, errors);
}
