// fence_cost.cu - probe: does a local-memory load after an acquire (CCTL.IVALL
// on sm_90) miss L1, and what does fence.release.sys cost with nothing, a local
// store or a global store pending? clock64 stamps in one thread, one GPU.
// Notes: research/notes/multi-gpu.md ("One block per GPU against NCCL's barrier").
// `make research` builds it: build/research/probes/fence_cost
#include <cstdio>
#include <cuda_runtime.h>
// The clock is read after an instruction that consumes v (issue is in order,
// and the consumer waits for v's scoreboard), a store to shared memory.
__device__ __forceinline__ long long stamp_after(unsigned v) {
    __shared__ volatile unsigned sink; sink = v;
    long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__device__ __forceinline__ long long stamp() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__device__ __forceinline__ unsigned ld_acq(const unsigned *p) { unsigned v; asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ unsigned ld_acq_sys(const unsigned *p) { unsigned v; asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__device__ __forceinline__ unsigned ld_rlx(const unsigned *p) { unsigned v; asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }

__global__ void probe(unsigned *g, long long *out, int idx, int reps)
{
    volatile unsigned loc[64];
    for (int i = 0; i < 64; ++i) loc[i] = i * 3u + g[1];
    long long acc[8] = {0};
    for (int r = 0; r < reps; ++r) {
        unsigned v, a;
        long long t0, t1;
        // 0: LDL, L1 hit (warm)
        v = loc[idx]; t0 = stamp_after(v); v = loc[(idx + v) & 63]; t1 = stamp_after(v); acc[0] += t1 - t0;
        // 1: LDL right after an ld.acquire.gpu (IVALL)
        a = ld_acq(g); t0 = stamp_after(a); v = loc[(idx + a) & 63]; t1 = stamp_after(v); acc[1] += t1 - t0;
        // 2: LDL right after ld.acquire.sys
        a = ld_acq_sys(g); t0 = stamp_after(a); v = loc[(idx + a) & 63]; t1 = stamp_after(v); acc[2] += t1 - t0;
        // 3: LDL right after fence.acq_rel.gpu
        asm volatile("fence.acq_rel.gpu;" ::: "memory"); t0 = stamp(); v = loc[(idx + r) & 63]; t1 = stamp_after(v); acc[3] += t1 - t0;
        // 4: LDL right after a relaxed load (no IVALL)
        a = ld_rlx(g); t0 = stamp_after(a); v = loc[(idx + a) & 63]; t1 = stamp_after(v); acc[4] += t1 - t0;
        // 5: fence.release.sys with nothing pending
        t0 = stamp(); asm volatile("fence.release.sys;" ::: "memory"); t1 = stamp(); acc[5] += t1 - t0;
        // 6: fence.release.sys after a local store
        loc[(idx + r) & 63] = r; t0 = stamp(); asm volatile("fence.release.sys;" ::: "memory"); t1 = stamp(); acc[6] += t1 - t0;
        // 7: fence.release.sys after a relaxed global store
        asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(g + 32), "r"(r) : "memory");
        t0 = stamp(); asm volatile("fence.release.sys;" ::: "memory"); t1 = stamp(); acc[7] += t1 - t0;
    }
    for (int i = 0; i < 8; ++i) out[i] = acc[i] / reps;
}
int main()
{
    unsigned *g; long long *o, h[8];
    cudaMalloc(&g, 4096); cudaMemset(g, 0, 4096); cudaMalloc(&o, 64);
    probe<<<1, 1>>>(g, o, 5, 1000);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorName(e)); return 1; }
    for (int k = 0; k < 2; ++k) {
        probe<<<1, 1>>>(g, o, 5, 1000); cudaMemcpy(h, o, 64, cudaMemcpyDeviceToHost);
        const char *n[8] = {"LDL hit", "LDL after ld.acquire.gpu", "LDL after ld.acquire.sys", "LDL after fence.acq_rel.gpu",
                            "LDL after ld.relaxed", "fence.release.sys, nothing pending", "fence.release.sys after STL", "fence.release.sys after STG"};
        for (int i = 0; i < 8; ++i) printf("%-40s %6lld clocks\n", n[i], h[i]);
    }
    return 0;
}
