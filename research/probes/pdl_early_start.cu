// pdl_early_start.cu - scratch probe (issue 16): does a kernel launched with
// programmatic dependent launch start before its predecessor ends on this
// device? A 4-block writer spins 50 us, triggering the dependents at once
// (griddepcontrol.launch_dependents or the runtime's intrinsic) or not at
// all, launched with or without the PDL attribute itself; an observer
// launched after it with the attribute stamps its start (globaltimer) and
// when its griddepcontrol.wait returns. Each case twice; the loop's first
// case also loads both kernels (lazy loading: a kernel's first launch
// waits for the work in flight, so the first row is never early).
// `make research` builds it: build/research/probes/pdl_early_start
// H200, CUDA 13.0, driver 580: no trigger 50.6-54.6 us after the writer's
// start (its end: 50.1); with a trigger 2.8-6.3 us, the wait returning at
// 50.5-50.7.
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e)); return 1; } } while (0)
__device__ unsigned long long now() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void writer(int mode, unsigned long long spin, unsigned long long *st)
{
    if (mode == 1) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    if (mode == 2) cudaTriggerProgrammaticLaunchCompletion();
    if (threadIdx.x == 0 && blockIdx.x == 0) st[0] = now();
    unsigned long long t0 = now();
    while (now() - t0 < spin) {}
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&st[1], now());
}
__global__ void observer(unsigned long long *st)
{
    if (threadIdx.x == 0) st[2] = now();
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (threadIdx.x == 0) st[3] = now();
}
int main()
{
    unsigned long long *d, h[4];
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaMalloc(&d, 32));
    for (int pdl_primary = 0; pdl_primary < 2; ++pdl_primary)
    for (int mode = 0; mode < 3; ++mode) for (int rep = 0; rep < 2; ++rep) {
        CK(cudaMemsetAsync(d, 0, 32, s));
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t c = {};
        c.gridDim = dim3(4); c.blockDim = dim3(256); c.stream = s;
        if (pdl_primary) { c.attrs = attr; c.numAttrs = 1; }
        CK(cudaLaunchKernelEx(&c, writer, mode, 50000ull, d));
        cudaLaunchConfig_t o = {};
        o.gridDim = dim3(1); o.blockDim = dim3(32); o.stream = s; o.attrs = attr; o.numAttrs = 1;
        CK(cudaLaunchKernelEx(&o, observer, d));
        CK(cudaMemcpyAsync(h, d, 32, cudaMemcpyDeviceToHost, s));
        CK(cudaStreamSynchronize(s));
        printf("primary pdl %d trigger %s: observer start %+.1f us after writer start, writer end at %+.1f, wait returned %+.1f\n",
               pdl_primary, mode == 0 ? "none" : mode == 1 ? "asm" : "intrinsic",
               ((long long)(h[2] - h[0])) * 1e-3, ((long long)(h[1] - h[0])) * 1e-3, ((long long)(h[3] - h[0])) * 1e-3);
    }
    return 0;
}
