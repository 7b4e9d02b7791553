// scratch probe: latency of memory-order primitives on this GPU (cycles, one thread)
#include <cstdio>
#include <gridsync/detail/core/memory_order.cuh>
#define REPS 2000
__global__ void probe(unsigned int *buf, unsigned long long *out)
{
    if (threadIdx.x != 0) { __syncthreads(); return; }
    unsigned int *p = buf + 64 * blockIdx.x; unsigned int v = 0; unsigned long long t0, t1;
#define TIME(idx, body) t0 = clock64(); for (int i = 0; i < REPS; ++i) { body; } t1 = clock64(); out[idx] = (t1 - t0) / REPS;
    TIME(0, v += gs__ld_relaxed_gpu(p + (v & 1)))
    TIME(1, v += gs__ld_acquire_gpu(p + (v & 1)))
    TIME(2, v += gs__atom_add_release_gpu(p + 32 + (v & 1), 1))
    TIME(3, gs__fence_acq_rel_gpu())
    TIME(4, asm volatile("fence.sc.gpu;" ::: "memory"))
    TIME(5, gs__st_relaxed_gpu(p + 40, i); gs__fence_acq_rel_gpu())
    TIME(6, gs__red_add_release_gpu(p + 48, 1); v += gs__ld_relaxed_gpu(p + 48 + (v & 0)))
    TIME(7, gs__st_release_gpu(p + 44, i))
    TIME(8, gs__st_relaxed_gpu(p + 40, i); gs__st_release_gpu(p + 44, i))
    TIME(9, v += (unsigned int)gs__globaltimer_ns())
    TIME(10, gs__red_add_release_gpu(p + 48, 1))
    TIME(11, v += gs__ld_relaxed_gpu(p + (v & 1)); gs__fence_acq_rel_gpu())
    out[15] = v;
    __syncthreads();
}
__global__ void barsync(unsigned long long *out)
{
    unsigned long long t0 = clock64();
    for (int i = 0; i < REPS; ++i) __syncthreads();
    unsigned long long t1 = clock64();
    if (threadIdx.x == 0) out[12] = (t1 - t0) / REPS;
}
int main()
{
    unsigned int *buf; unsigned long long *out, h[16];
    cudaMalloc(&buf, 1 << 20); cudaMemset(buf, 0, 1 << 20); cudaMalloc(&out, 16 * 8);
    const char *names[] = {"ld.relaxed.gpu (dep)", "ld.acquire.gpu (dep)", "atom.add.release (dep)", "fence.acq_rel.gpu alone",
        "fence.sc.gpu alone", "st.relaxed + fence.acq_rel", "red.release + ld same addr", "st.release alone",
        "st.relaxed + st.release", "globaltimer read", "red.release alone", "ld.relaxed + fence.acq_rel", "bar.sync 256 thr"};
    for (int run = 0; run < 2; ++run) {
        probe<<<1, 256>>>(buf, out); barsync<<<1, 256>>>(out);
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        printf("run %d (%s)\n", run, cudaGetErrorName(cudaGetLastError()));
        for (int i = 0; i < 13; ++i) printf("  %-30s %6llu cycles  %7.1f ns\n", names[i], h[i], h[i] / 1.98);
    }
    return 0;
}
