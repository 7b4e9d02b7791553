// probe: why the library's 1-D neighbour barrier (gs_neighbour_sync_1d)
// took 0.25 us a step more than a hand-written one in the sync bench's
// workload. Same step everywhere: the last thread writes its slot (a
// 32-byte sector a block), the barrier, thread 0 loads the left
// neighbour's slot. By default that load is checked one step later, so it
// is still in flight when the next step's release fence runs (the bench's
// workload); "at once" variants check it in the same step. 256 threads,
// 20,000 steps, launched with gs_launch on a gs_barrier's view.
//   V0   hand-written: st.release, relaxed polls by threads 0 and 1, one
//        closing ld.acquire, __syncthreads
//   V1   the library; V2 the library, load checked at once
//   1xx  a copy of the library's function as it was before a3cd500
//        (st.release, the checks ahead of the block barrier) with parts
//        switched on by the bits of xx (nsync<F> below); 100 = none of them
//   51   the launch's first call (generation, capacity check) out of line
// Findings (H200): docs/scoped-sync.md, "What the library's step costs".
// Build against the library:
//   nvcc -O3 -arch=sm_90 -I include docs/probes/neighbour_library.cu -L build -lgridsync
#include <gridsync.h>
#include <gridsync/neighbour.cuh>
#include <cstdio>
#include "neighbour_probe.h"

enum { STRIDE = 8 };

// A hand-written wait: relaxed polls of a neighbour's epoch, one closing ld.acquire.
static __device__ __forceinline__ void hand_wait(const unsigned long long *p, unsigned long long e)
{
    for (unsigned s = 0; s < (1u << 26) && (long long)(gs_ld_relaxed_gpu_u64(p) - e) < 0; ++s) {}
    (void)gs_ld_acquire_gpu_u64(p);
}

// The launch's generation, as the library takes it (thread 0, first call).
static __device__ __forceinline__ unsigned long long take_generation(gs_grid_barrier *b, unsigned int n)
{
    unsigned long long *word = (unsigned long long *)(b->state + GS_W_NEIGHBOUR_GEN);
    unsigned long long old = gs_atom_add_relaxed_gpu_u64(word, 1ull);
    if ((unsigned int)old + 1u == n)
        (void)gs_atom_add_relaxed_gpu_u64(word, (1ull << 32) - n);
    return old & 0xffffffff00000000ull;
}

// The candidate: the launch's first call (generation, capacity check) out of
// line, the step's path with no instruction that waits for loads the caller
// left in flight.
static __device__ __noinline__ unsigned long long first_call(gs_grid_barrier *b, unsigned int n)
{
    __shared__ unsigned long long base;
    if (n > b->capacity)
        gs__leave_oversized(b->state, b->count, b->method);
    if (gs__thread_rank() == 0u)
        base = take_generation(b, n);
    __syncthreads();
    return base;
}

__device__ __forceinline__ void nsync_new(gs_grid_barrier *b)
{
    gs::detail::neighbours_1d nb = {false};
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    unsigned long long *epochs = (unsigned long long *)(b->state + GS_W_EPOCHS(b->capacity));
    int give_up = 0;
    if (!b->epoch_known) {
        b->epoch = first_call(b, n);
        b->epoch_known = 1u;
    }
    b->count += 1u;
    __syncthreads();
    const unsigned long long e = ++b->epoch;
    if (tid == 0u && n > 1u)
        gs_st_release_gpu_u64(epochs + rank * (GS_LINE_WORDS / 2u), e);
    for (unsigned int k = tid; k < nb.count() && !give_up; k += nt) {
        unsigned int r = nb.rank(k, rank, n);
        if (r != rank)
            give_up = gs__wait_on(b, rank, epochs + r * (GS_LINE_WORDS / 2u), GS__UNTIL_REACHED64, e, 0u, 0u, r);
    }
    if (__syncthreads_or(give_up))
        asm volatile("exit;");
}

// A copy of gs::detail::neighbour_sync before a3cd500, its parts switched on by bits:
// 1 launch generation (atomic at the first call, shared base), 2 count and
// capacity checks, 4 gs__wait_on (else a hand loop), 8 __syncthreads_or +
// exit (else __syncthreads), 16 the for-k loop over nb.rank (else tid < 2),
// 512 a never-taken exit; 4096 (read by the kernel) the slot checked at once.
template <int F>
__device__ __forceinline__ void nsync(gs_grid_barrier *b)
{
    __shared__ unsigned long long launch_base;
    gs::detail::neighbours_1d nb = {false};
    const unsigned int n = gs__grid_blocks(), rank = gs__block_rank();
    const unsigned int tid = gs__thread_rank(), nt = gs__block_threads();
    unsigned long long *epochs = (unsigned long long *)(b->state + GS_W_EPOCHS(b->capacity));
    int give_up = 0;
    if (F & 512) { /* a never-taken exit */
        if (n > 100000u) asm volatile("exit;");
    }
    if (F & 2) {
        b->count += 1u;
        if (n > b->capacity)
            gs__leave_oversized(b->state, b->count, b->method);
        if (n == 1u) { __syncthreads(); return; }
    }
    if ((F & 1) && !b->epoch_known && tid == 0u)
        launch_base = take_generation(b, n);
    __syncthreads();
    if ((F & 1) && !b->epoch_known) {
        b->epoch = launch_base;
        b->epoch_known = 1u;
    }
    const unsigned long long e = ++b->epoch;
    if (tid == 0u && !give_up)
        gs_st_release_gpu_u64(epochs + rank * (GS_LINE_WORDS / 2u), e);
    if (F & 16) {
        for (unsigned int k = tid; k < nb.count() && !give_up; k += nt) {
            unsigned int r = nb.rank(k, rank, n);
            if (r != rank) {
                if (F & 4)
                    give_up = gs__wait_on(b, rank, epochs + r * (GS_LINE_WORDS / 2u), GS__UNTIL_REACHED64, e, 0u, 0u, r);
                else
                    hand_wait(epochs + r * 16, e);
            }
        }
    } else if (tid < 2) {
        unsigned r = tid == 0 ? (rank > 0 ? rank - 1 : rank) : (rank + 1 < n ? rank + 1 : rank);
        if (r != rank) {
            const unsigned long long *p = epochs + r * 16;
            if (F & 4)
                give_up = gs__wait_on(b, rank, p, GS__UNTIL_REACHED64, e, 0u, 0u, r);
            else
                hand_wait(p, e);
        }
    }
    if (F & 8) {
        if (__syncthreads_or(give_up)) asm volatile("exit;");
    } else {
        __syncthreads();
    }
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
        } else if (V == 51) {
            nsync_new(&bar);
        } else if (V >= 100) {
            nsync<V - 100>(&bar);
        } else {
            __syncthreads();
            unsigned long long e = it + 1ull;
            if (tid == 0)
                gs_st_release_gpu_u64(epochs + b * 16, e);
            if (tid < 2) {
                unsigned r = tid == 0 ? (b > 0 ? b - 1 : b) : (b + 1 < n ? b + 1 : b);
                if (r != b)
                    hand_wait(epochs + r * 16, e);
            }
            __syncthreads();
        }
        if (tid == 0) {
            if ((V >= 100 && ((V - 100) & 4096)) || V == 2) { /* the check at once: no load left in flight */
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
    gs_barrier_destroy(bar); /* a fresh state: the variants without a launch generation */
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
    const char *names[] = {"V0 hand", "V1 library", "copy, none (100)", "copy, generation (101)",
                           "copy, checks (102)", "copy, never-taken exit (612)", "first call out of line (51)",
                           "at once: library (2)", "at once: copy, none (4196)", "at once: never-taken exit (4708)"};
    const neighbour_run runs[] = {run<0>, run<1>, run<100>, run<101>, run<102>, run<612>, run<51>,
                                  run<2>, run<4196>, run<4708>};
    neighbour_table(names, runs, sizeof runs / sizeof runs[0], sms, per, epochs, slots, errors);
}
