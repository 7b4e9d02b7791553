// probe: what the library's 1-D neighbour barrier (gs_neighbour_sync_1d)
// costs a step against a hand-written one in the sync bench's workload.
// Same step everywhere: the last thread writes its slot (a 32-byte sector a
// block), the barrier, thread 0 loads the left neighbour's slot. By default
// that load is checked one step later, so it is still in flight when the
// next step's release fence runs (the bench's workload); the "at once"
// variants check it in the same step. 256 threads, 20,000 steps, launched
// with gs_launch on a gs_barrier's view.
//   V0   hand-written: st.release, relaxed polls by threads 0 and 1, one
//        closing ld.acquire, __syncthreads
//   V1   the library;  V2 the library, the load checked at once
//   V3   hand-written, the load checked at once
// Findings (H200): research/notes/scoped-sync.md, "What the library's step
// costs". The bisection there used a copy of the library's function as it
// was before a3cd500, its parts switched on one at a time; the fix it led to
// ships (a3cd500), so the copy is gone (it is at aa2af18,
// docs/probes/neighbour_library.cu) and this probe runs the library itself.
// `make research` builds it: build/research/probes/neighbour_library
#include <gridsync.h>
#include <gridsync/neighbour.cuh>
#include <cstdio>
#include "neighbour_probe.h"

enum { STRIDE = 8 };

// A hand-written wait: relaxed polls of a neighbour's epoch, one closing ld.acquire.
static __device__ __forceinline__ void hand_wait(const unsigned long long *p, unsigned long long e)
{
    for (unsigned s = 0; s < (1u << 26) && (long long)(gs__ld_relaxed_gpu_u64(p) - e) < 0; ++s) {}
    (void)gs__ld_acquire_gpu_u64(p);
}

__device__ __forceinline__ unsigned val(int it, unsigned b) { return it * 2654435761u + b + 1u; }

template <int V>
__global__ void k(gs_grid_barrier bar, unsigned long long *epochs_arg, unsigned *slots,
                  unsigned *errors, int iters)
{
    const unsigned n = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const unsigned partner = b > 0 ? b - 1 : (n > 1 ? 1 : 0);
    unsigned long long *epochs = epochs_arg;
    unsigned bad = 0, prev = 0;
    for (int it = 0; it < iters; ++it) {
        unsigned *buf = slots + (it & 1) * n * STRIDE;
        if (tid == blockDim.x - 1)
            buf[b * STRIDE] = val(it, b);
        if (V == 1 || V == 2) {
            gs_neighbour_sync_1d(&bar, 0u);
        } else {
            __syncthreads();
            unsigned long long e = it + 1ull;
            if (tid == 0)
                gs__st_release_gpu_u64(epochs + b * 16, e);
            if (tid < 2) {
                unsigned r = tid == 0 ? (b > 0 ? b - 1 : b) : (b + 1 < n ? b + 1 : b);
                if (r != b)
                    hand_wait(epochs + r * 16, e);
            }
            __syncthreads();
        }
        if (tid == 0) {
            if (V == 2 || V == 3) { /* the check at once: no load left in flight */
                bad += *(volatile unsigned *)&buf[partner * STRIDE] != val(it, partner);
            } else {
                if (it > 0) bad += prev != val(it - 1, partner);
                prev = buf[partner * STRIDE];
            }
        }
    }
    if (tid == 0 && bad) atomicAdd(errors, bad);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)
#define GK(x) do { gs_status s_ = (x); if (s_ != GS_SUCCESS) { printf("%s: %d\n", #x, (int)s_); exit(1); } } while (0)

template <int V> float run(int blocks, int iters, unsigned long long *epochs, unsigned *slots, unsigned *errors)
{
    gs_barrier_t bar;
    GK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    gs_grid_barrier view;
    GK(gs_barrier_device(bar, blocks, &view));
    CK(cudaMemset(epochs, 0, 2048 * 16 * 8));
    cudaEvent_t a, z;
    cudaEventCreate(&a); cudaEventCreate(&z);
    void *args[] = {&view, &epochs, &slots, &errors, &iters};
    GK(gs_launch((const void *)k<V>, dim3(blocks), dim3(256), 0, 0, args, bar));
    GK(gs_barrier_check(bar, 0));
    gs_barrier_destroy(bar); /* a fresh state: the hand-written variants start from epoch 0 */
    GK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GK(gs_barrier_device(bar, blocks, &view));
    CK(cudaMemset(epochs, 0, 2048 * 16 * 8));
    CK(cudaDeviceSynchronize());
    cudaEventRecord(a);
    GK(gs_launch((const void *)k<V>, dim3(blocks), dim3(256), 0, 0, args, bar));
    cudaEventRecord(z);
    CK(cudaEventSynchronize(z));
    GK(gs_barrier_check(bar, 0));
    float ms = 0;
    cudaEventElapsedTime(&ms, a, z);
    gs_barrier_destroy(bar);
    return ms * 1000.f / iters;
}

int main()
{
    unsigned long long *epochs; unsigned *slots, *errors;
    CK(cudaMalloc(&epochs, 2048 * 16 * 8)); CK(cudaMalloc(&slots, 2 * 2048 * 4 * STRIDE)); CK(cudaMalloc(&errors, 4));
    CK(cudaMemset(errors, 0, 4));
    int sms = 0, per = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k<1>, 256, 0);
    if (per > 8) per = 8;
    const char *names[] = {"V0 hand", "V1 library", "at once: library (V2)", "at once: hand (V3)"};
    const neighbour_run runs[] = {run<0>, run<1>, run<2>, run<3>};
    neighbour_table(names, runs, sizeof runs / sizeof runs[0], sms, per, epochs, slots, errors);
}
