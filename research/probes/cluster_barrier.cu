// scratch: cost of a hardware cluster barrier, and whether cooperative + cluster launch is accepted
#include <cstdio>
__global__ void cl(unsigned long long *out, int iters)
{
    unsigned long long t0 = clock64();
    for (int i = 0; i < iters; ++i) {
        asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    unsigned long long t1 = clock64();
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (t1 - t0) / iters;
}
int main()
{
    setvbuf(stdout, NULL, _IONBF, 0);
    unsigned long long *out, h; cudaMalloc(&out, 8);
    int iters = 4000;
    for (int cs : {2, 4, 8}) for (int blocks : {132, 1056}) for (int coop : {0, 1}) {
        if (blocks % cs) continue;
        cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[2];
        cfg.gridDim = dim3(blocks); cfg.blockDim = dim3(256);
        at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = cs; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
        at[1].id = cudaLaunchAttributeCooperative; at[1].val.cooperative = 1;
        cfg.attrs = at; cfg.numAttrs = coop ? 2 : 1;
        int maxc = -1; cudaOccupancyMaxActiveClusters(&maxc, (void *)cl, &cfg);
        cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
        cudaEventRecord(a);
        cudaError_t e = cudaLaunchKernelEx(&cfg, cl, out, iters);
        cudaEventRecord(b); cudaError_t e2 = cudaEventSynchronize(b);
        float ms = 0; cudaEventElapsedTime(&ms, a, b); cudaMemcpy(&h, out, 8, cudaMemcpyDeviceToHost);
        printf("cluster %d blocks %4d coop %d: max clusters %4d, launch %s/%s, %.1f ns per cluster barrier (event), %llu cycles (clock)\n",
               cs, blocks, coop, maxc, cudaGetErrorName(e), cudaGetErrorName(e2), ms * 1e6 / iters, h);
        cudaGetLastError();
    }
}
