// probe: does the L2 placement of a barrier counter change its speed?
// flip barrier (library code) with its state at 16 different 16 KiB-apart
// offsets of one allocation; exchange workload; microseconds per barrier.
#include <cstdio>
#include <gridsync/barrier.cuh>
__global__ void k(gs_grid_barrier bar, unsigned *slots, unsigned *errors, int iters)
{
    unsigned n = gridDim.x, b = blockIdx.x, next = b + 1 == n ? 0 : b + 1, bad = 0;
    for (int it = 0; it < iters; ++it) {
        if (threadIdx.x == 0) slots[b] = it * 7u + b;
        gs_grid_sync_flip(&bar);
        if (threadIdx.x == 0) bad += slots[next] != it * 7u + next;
        gs_grid_sync_flip(&bar);
    }
    if (threadIdx.x == 0 && bad) atomicAdd(errors, bad);
}
int main()
{
    setvbuf(stdout, NULL, _IONBF, 0);
    unsigned *base, *slots, *err, h = 0;
    const unsigned cap = 132 * 32, stride = 4096 * 4; // words between candidates (64 KiB)
    cudaMalloc(&base, (size_t)64 * stride * 4); cudaMemset(base, 0, (size_t)64 * stride * 4);
    cudaMalloc(&slots, 1 << 16); cudaMalloc(&err, 4); cudaMemset(err, 0, 4);
    cudaEvent_t a, e; cudaEventCreate(&a); cudaEventCreate(&e);
    int iters = 1000;
    for (unsigned n : {132u, 1056u}) {
        printf("%4u blocks:", n);
        for (int c = 0; c < 24; ++c) {
            gs_grid_barrier v = {};
            v.state = base + (size_t)c * stride; v.timeout_ns = 2000000000ull; v.method = GS_BARRIER_FLIP; v.capacity = cap; v.flat_max = 2048;
            void *args[] = {&v, &slots, &err, &iters};
            float best = 1e9;
            for (int r = 0; r < 4; ++r) {
                cudaEventRecord(a); cudaLaunchCooperativeKernel((void *)k, n, 256, args, 0, 0); cudaEventRecord(e);
                cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, a, e); if (r && ms < best) best = ms;
            }
            printf(" %.2f", best * 1e3f / (2 * iters));
        }
        printf("\n");
    }
    cudaMemcpy(&h, err, 4, cudaMemcpyDeviceToHost);
    printf("errors %u, %s\n", h, cudaGetErrorName(cudaGetLastError()));
}
