// scratch: flat/grouped barrier variants, no watchdog, per-barrier latency
#include <cstdio>
#include <gridsync/detail/core/memory_order.cuh>
__device__ __forceinline__ unsigned val(int it, unsigned b) { return it * 2654435761u + b + 1u; }
template <int V> __device__ __forceinline__ void bar_sync(unsigned *st, unsigned n, unsigned rank)
{
    unsigned tid = threadIdx.x;
    unsigned *ctr = st;
    if (V == 0) { // flip (CG)
        __syncthreads();
        if (tid == 0) { unsigned old = gs__atom_add_release_gpu(ctr, rank ? 1u : 0x80000000u - (n - 1));
            for (unsigned s_ = 0; (((gs__ld_acquire_gpu(ctr) ^ old) & 0x80000000u) == 0) && s_ < (1u << 24); ++s_) {} }
        __syncthreads();
    } else if (V == 1 || V == 2 || V == 3 || V == 4) { // red + early read
        unsigned old = 0;
        if (tid == 0) old = gs__ld_relaxed_gpu(ctr);
        __syncthreads();
        if (tid == 0) { gs__red_add_release_gpu(ctr, rank ? 1u : 0x80000000u - (n - 1));
            if (V == 3) __nanosleep(200);
            if (V == 4) { for (unsigned s_ = 0; (((gs__ld_relaxed_gpu(ctr) ^ old) & 0x80000000u) == 0) && s_ < (1u << 24); ++s_) {} (void)gs__ld_acquire_gpu(ctr); }
            else if (V == 2) { for (unsigned s_ = 0; (((gs__ld_relaxed_gpu(ctr) ^ old) & 0x80000000u) == 0) && s_ < (1u << 24); ++s_) {} gs__fence_acq_rel_gpu(); }
            else for (unsigned s_ = 0; (((gs__ld_acquire_gpu(ctr) ^ old) & 0x80000000u) == 0) && s_ < (1u << 24); ++s_) {} }
        __syncthreads();
    } else if (V == 5 || V == 6) { // grouped, G=8, block 0 watches, V6: relaxed release (model-incorrect probe)
        const unsigned G = 8; unsigned ng = (n + G - 1) / G;
        unsigned *groups = st + 64; unsigned *line = groups + (rank / G) * 32, *w = groups + tid * 32;
        unsigned seen = 0, base = 0; bool watcher = rank == 0 && tid < ng;
        if (tid == 0) seen = gs__ld_relaxed_gpu(line + 1);
        if (watcher) base = gs__ld_relaxed_gpu(w + 1);
        __syncthreads();
        if (tid == 0) gs__red_add_release_gpu(line, 1u);
        if (rank == 0) {
            unsigned size = tid == ng - 1 ? n - tid * G : G;
            if (watcher) for (unsigned s_ = 0; (gs__ld_acquire_gpu(w) - base != size) && s_ < (1u << 24); ++s_) {}
            __syncthreads();
            if (watcher) { if (V == 5) gs__st_release_gpu(w + 1, base + size); else gs__st_relaxed_gpu(w + 1, base + size); }
        } else {
            if (tid == 0) for (unsigned s_ = 0; (gs__ld_acquire_gpu(line + 1) == seen) && s_ < (1u << 24); ++s_) {}
            __syncthreads();
        }
    }
}
template <int V> __global__ void k(unsigned *st, unsigned *slots, unsigned *errors, int iters)
{
    unsigned n = gridDim.x, b = blockIdx.x, next = b + 1 == n ? 0 : b + 1, bad = 0;
    for (int it = 0; it < iters; ++it) {
        if (threadIdx.x == 0) slots[b] = val(it, b);
        bar_sync<V>(st, n, b);
        if (threadIdx.x == 0) bad += slots[next] != val(it, next);
        bar_sync<V>(st, n, b);
    }
    if (threadIdx.x == 0 && bad) atomicAdd(errors, bad);
}
template <int V> float run(unsigned n, unsigned *st, unsigned *slots, unsigned *err)
{
    int iters = 2000; cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b); float best = 1e9;
    for (int r = 0; r < 7; ++r) {
        void *args[] = {&st, &slots, &err, &iters};
        cudaEventRecord(a); cudaLaunchCooperativeKernel((void *)k<V>, n, 256, args, 0, 0); cudaEventRecord(b);
        cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); if (r && ms < best) best = ms;
    }
    return best * 1e3f / (2 * iters);
}
int main()
{
    unsigned *st, *slots, *err, h = 0; cudaMalloc(&st, 1 << 22); cudaMemset(st, 0, 1 << 22);
    cudaMalloc(&slots, 1 << 16); cudaMalloc(&err, 4); cudaMemset(err, 0, 4);
    const char *names[] = {"flip(cg)", "red+acq", "red+rlx+fence", "red+sleep200", "red+rlx+1acq", "grouped8", "grouped8-rlxrel"};
    unsigned ns[] = {2, 8, 66, 132, 264, 528, 1056};
    printf("%-16s", "us/barrier"); for (unsigned n : ns) printf("%8u", n); printf("\n");
    for (int v = 0; v < 7; ++v) {
        printf("%-16s", names[v]);
        for (unsigned n : ns) {
            float t = v == 0 ? run<0>(n, st, slots, err) : v == 1 ? run<1>(n, st, slots, err) : v == 2 ? run<2>(n, st, slots, err)
                    : v == 3 ? run<3>(n, st, slots, err) : v == 4 ? run<4>(n, st, slots, err) : v == 5 ? run<5>(n, st, slots, err) : run<6>(n, st, slots, err);
            cudaMemset(st, 0, 1 << 22);
            printf("%8.3f", t);
        }
        printf("\n");
    }
    cudaMemcpy(&h, err, 4, cudaMemcpyDeviceToHost);
    printf("errors %u, last error %s\n", h, cudaGetErrorName(cudaGetLastError()));
}
