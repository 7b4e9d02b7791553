// multi_meeting.cu - probe: where a one-block cross-GPU meeting spends its time.
// Two GPUs, one block of 256 threads each, N meetings per launch:
//   raw  : thread 0: bar.sync; fence; st.relaxed.sys of the epoch into the peer's inbox;
//          ld.acquire.sys polls of its own inbox; bar.sync (NCCL LSA barrier's shape), epoch in a register
//   lib  : gs_multi_sync (the library)
// inboxes in cudaMalloc memory (peer access) or VMM memory (cuMemCreate, mapped for both GPUs).
// Also the host cost of gs_multi_launch and gs_multi_barrier_check per launch. Notes: research/notes/multi-gpu.md
// ("One block per GPU against NCCL's barrier").
// `make research` builds it: build/research/probes/multi_meeting [meetings a launch,
// default 20000] (2 GPUs)
#include <gridsync_multi.h>
#include <gridsync/multi.cuh>
#include <cuda.h>
#include <stdio.h>
#include <time.h>
#include <algorithm>
#include <vector>

static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)
#define CU(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s_; cuGetErrorName(e_, &s_); printf("%s: %s\n", #x, s_); exit(1); } } while (0)

struct clocks { long long total, fence, wait, n; unsigned bad; };

template <int FENCE> // 0 release.sys, 1 acq_rel.sys
__global__ void raw_meet(unsigned *inbox, unsigned *peer_slot, unsigned e, int iters, clocks *out)
{
    long long tf = 0, tw = 0, t0 = clock64();
    unsigned bad = 0;
    for (int i = 0; i < iters; ++i) {
        __syncthreads();
        if (threadIdx.x == 0) {
            ++e;
            long long a = clock64();
            if (FENCE == 0) asm volatile("fence.release.sys;" ::: "memory");
            else asm volatile("fence.acq_rel.sys;" ::: "memory");
            long long b = clock64();
            asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(peer_slot), "r"(e) : "memory");
            unsigned v = 0;
            for (long long s = 0; s < (1ll << 26); ++s) {
                asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(inbox) : "memory");
                if ((int)(v - e) >= 0) break;
            }
            bad |= (int)(v - e) < 0;
            long long c = clock64();
            tf += b - a; tw += c - b;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) { out->total = clock64() - t0; out->fence = tf; out->wait = tw; out->n = iters; out->bad = bad; }
}

__global__ void lib_meet(gs_multi_view v, int iters, clocks *out)
{
    long long t0 = clock64();
    for (int i = 0; i < iters; ++i)
        gs_multi_sync(&v);
    if (threadIdx.x == 0) { out->total = clock64() - t0; out->fence = out->wait = 0; out->n = iters; out->bad = 0; }
}


static unsigned *vmm_alloc(int owner, size_t bytes)
{
    CUmemAllocationProp p = {};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = owner;
    size_t g = 0;
    CU(cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    bytes = (bytes + g - 1) / g * g;
    CUmemGenericAllocationHandle h;
    CU(cuMemCreate(&h, bytes, &p, 0));
    CUdeviceptr d;
    CU(cuMemAddressReserve(&d, bytes, g, 0, 0));
    CU(cuMemMap(d, bytes, 0, h, 0));
    CUmemAccessDesc a[2] = {};
    for (int i = 0; i < 2; ++i) { a[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE; a[i].location.id = i; a[i].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE; }
    CU(cuMemSetAccess(d, bytes, a, 2));
    CK(cudaSetDevice(owner));
    CK(cudaMemset((void *)d, 0, bytes));
    return (unsigned *)d;
}

int main(int argc, char **argv)
{
    const int iters = argc > 1 ? atoi(argv[1]) : 20000, samples = 7;
    double t_launch = 0, t_check = 0; int n_lc = 0;
    int devs[2] = {0, 1};
    gs_multi_t m;
    if (gs_multi_create(&m, 2, devs) != GS_SUCCESS) { printf("create: %s\n", gs_last_error_detail()); return 1; }
    CU(cuInit(0));
    cudaStream_t st[2] = {gs_multi_stream(m, 0), gs_multi_stream(m, 1)};
    clocks *out[2];
    unsigned *plain[2], *vmm[2];
    for (int r = 0; r < 2; ++r) {
        CK(cudaSetDevice(r));
        CK(cudaMalloc(&out[r], sizeof(clocks)));
        CK(cudaMalloc(&plain[r], 4096));
        CK(cudaMemset(plain[r], 0, 4096));
    }
    for (int r = 0; r < 2; ++r) vmm[r] = vmm_alloc(r, 4096);
    gs_multi_barrier_t bar;
    if (gs_multi_barrier_create(m, &bar) != GS_SUCCESS) { printf("barrier: %s\n", gs_last_error_detail()); return 1; }
    gs_multi_view views[2];
    for (int r = 0; r < 2; ++r) gs_multi_barrier_device(bar, r, 1, &views[r]);

    unsigned epoch[2][2] = {{0, 0}, {0, 0}}; // [memory][fence]
    const char *names[] = {"raw, release.sys, cudaMalloc", "raw, acq_rel.sys, cudaMalloc", "raw, release.sys, VMM",
                           "raw, acq_rel.sys, VMM", "gs_multi_sync (library)"};
    const int nvariants = (int)(sizeof names / sizeof names[0]);
    for (int round = 0; round < 2; ++round)
    for (int variant = 0; variant < nvariants; ++variant) {
        std::vector<double> us;
        clocks h[2];
        for (int s = 0; s < samples + 1; ++s) {
            double t0 = now_us();
            for (int r = 0; r < 2; ++r) {
                CK(cudaSetDevice(r));
                if (variant < 4) {
                    int mem = variant / 2, fence = variant % 2;
                    unsigned **box = mem ? vmm : plain;
                    unsigned *inbox = box[r] + 32 * (2 * mem + fence), *peer = box[1 - r] + 32 * (2 * mem + fence);
                    if (fence == 0) raw_meet<0><<<1, 256, 0, st[r]>>>(inbox, peer, epoch[mem][fence], iters, out[r]);
                    else raw_meet<1><<<1, 256, 0, st[r]>>>(inbox, peer, epoch[mem][fence], iters, out[r]);
                    CK(cudaGetLastError());
                }
            }
            if (variant >= 4) {
                int it = iters;
                void *a0[] = {&views[0], &it, &out[0]}, *a1[] = {&views[1], &it, &out[1]};
                void **args[2] = {a0, a1};
                const void *k = (const void *)lib_meet;
                double a = now_us();
                if (gs_multi_launch(bar, k, dim3(1), dim3(256), 0, args) != GS_SUCCESS) { printf("launch: %s\n", gs_last_error_detail()); return 1; }
                double b = now_us();
                if (gs_multi_barrier_check(bar) != GS_SUCCESS) { printf("check: %s\n", gs_last_error_detail()); return 1; }
                double c = now_us();
                if (s) { t_launch += b - a; t_check += c - b; ++n_lc; }
            }
            for (int r = 0; r < 2; ++r) { CK(cudaSetDevice(r)); CK(cudaStreamSynchronize(st[r])); }
            double t1 = now_us();
            if (variant < 4) epoch[variant / 2][variant % 2] += iters;
            if (s) us.push_back((t1 - t0) / iters);
        }
        if (variant >= 4 && gs_multi_barrier_check(bar) != GS_SUCCESS) { printf("check: %s\n", gs_last_error_detail()); return 1; }
        CK(cudaMemcpy(&h[0], out[0], sizeof(clocks), cudaMemcpyDeviceToHost));
        std::sort(us.begin(), us.end());
        printf("%-32s %.3f us/meeting (host)  GPU0: %5lld clk/meeting, fence %4lld, wait %5lld%s\n", names[variant], us[us.size() / 2],
               h[0].total / h[0].n, h[0].fence / h[0].n, h[0].wait / h[0].n, h[0].bad ? "  TIMED OUT" : "");
    }
    printf("iters %d: gs_multi_launch %.1f us, gs_multi_barrier_check %.1f us per call (host)\n", iters, t_launch / n_lc, t_check / n_lc);
    gs_multi_barrier_destroy(bar);
    gs_multi_destroy(m);
    return 0;
}
