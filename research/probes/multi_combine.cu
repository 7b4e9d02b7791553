// multi_combine.cu - scratch probe (issue 8): where the combine step of
// gs_multi_reduce_sum spends its time on 2 GPUs at 2^28 floats per GPU, and
// what a combine over peer flags (no NCCL) costs instead.
// `make research` builds it: build/research/probes/multi_combine (2 GPUs)
#include <gridsync_multi.h>
#include <nccl.h>
#include <stdio.h>
#include <time.h>
#include <algorithm>
#include <vector>

static double now_us() { timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec * 1e-3; }
static double med(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

struct slot { float value; unsigned int epoch; };

// One thread: post my partial into every GPU's mailbox, wait for all, add in rank order.
static __global__ void p2p_combine(float *partial, slot **boxes, int rank, int size, unsigned int epoch)
{
    float v = *partial;
    for (int r = 0; r < size; ++r) {
        slot *s = boxes[r] + rank;
        s->value = v;
        asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(&s->epoch), "r"(epoch) : "memory");
    }
    float total = 0.0f;
    for (int r = 0; r < size; ++r) {
        slot *s = boxes[rank] + r;
        unsigned int e = 0;
        for (long long spin = 0; spin < 100000000ll; ++spin) {
            asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(e) : "l"(&s->epoch) : "memory");
            if (e == epoch) break;
        }
        total += s->value;
    }
    *partial = total;
}

int main()
{
    int devs[2] = {0, 1};
    gs_multi_t m;
    if (gs_multi_create(&m, 2, devs) != GS_SUCCESS) { printf("create: %s\n", gs_last_error_detail()); return 1; }
    int ver = 0; ncclGetVersion(&ver); printf("NCCL %d\n", ver);
    const long long n = 1ll << 28;
    float *in[2], *out[2];
    slot *box[2], **boxes[2];
    ncclComm_t comms[2];
    ncclCommInitAll(comms, 2, devs);
    cudaStream_t st[2];
    cudaEvent_t ev[2][3];
    for (int r = 0; r < 2; ++r) {
        cudaSetDevice(r);
        st[r] = gs_multi_stream(m, r);
        cudaMalloc(&in[r], n * 4);
        cudaMemset(in[r], 0x3c, n * 4);
        cudaMalloc(&out[r], 8);
        cudaMalloc(&box[r], 64 * sizeof(slot));
        cudaMemset(box[r], 0, 64 * sizeof(slot));
        cudaMalloc(&boxes[r], 2 * sizeof(slot *));
        for (int e = 0; e < 3; ++e) cudaEventCreate(&ev[r][e]);
    }
    for (int r = 0; r < 2; ++r) { cudaSetDevice(r); cudaMemcpy(boxes[r], box, sizeof box, cudaMemcpyHostToDevice); cudaDeviceSynchronize(); }
    float *pinned; cudaMallocHost(&pinned, 8);
    const void *ins[2] = {in[0], in[1]};
    auto sync_all = [&] { for (int r = 0; r < 2; ++r) { cudaSetDevice(r); cudaStreamSynchronize(st[r]); } };
    auto reduce_all = [&] { for (int r = 0; r < 2; ++r) { cudaSetDevice(r); gs_reduce_sum(GS_FLOAT32, in[r], n, out[r], st[r]); } };
    auto nccl = [&](ncclComm_t *c) { ncclGroupStart(); for (int r = 0; r < 2; ++r) ncclAllReduce(out[r], out[r], 1, ncclFloat32, ncclSum, c[r], st[r]); ncclGroupEnd(); };
    std::vector<double> t_one, t_both, t_idle_nccl, t_both_nccl, t_group_end, t_full, t_own_comm, t_p2p, t_p2p_pinned, g_red, g_nccl;
    unsigned int epoch = 0;
    float res = 0;
    for (int rep = 0; rep < 12; ++rep) {
        double t0 = now_us();
        cudaSetDevice(0); gs_reduce_sum(GS_FLOAT32, in[0], n, out[0], st[0]); cudaStreamSynchronize(st[0]);
        t_one.push_back(now_us() - t0);
        t0 = now_us(); reduce_all(); sync_all(); t_both.push_back(now_us() - t0);
        t0 = now_us(); nccl(comms); sync_all(); t_idle_nccl.push_back(now_us() - t0);
        t0 = now_us();
        for (int r = 0; r < 2; ++r) { cudaSetDevice(r); cudaEventRecord(ev[r][0], st[r]); gs_reduce_sum(GS_FLOAT32, in[r], n, out[r], st[r]); cudaEventRecord(ev[r][1], st[r]); }
        double tg = now_us(); nccl(comms); t_group_end.push_back(now_us() - tg);
        for (int r = 0; r < 2; ++r) { cudaSetDevice(r); cudaEventRecord(ev[r][2], st[r]); }
        sync_all(); t_both_nccl.push_back(now_us() - t0);
        float a, b; cudaEventElapsedTime(&a, ev[0][0], ev[0][1]); cudaEventElapsedTime(&b, ev[0][1], ev[0][2]);
        g_red.push_back(a * 1e3); g_nccl.push_back(b * 1e3);
        t0 = now_us(); gs_multi_reduce_sum(m, GS_FLOAT32, ins, n, &res); t_full.push_back(now_us() - t0);
        ++epoch;
        t0 = now_us(); reduce_all();
        for (int r = 0; r < 2; ++r) { cudaSetDevice(r); p2p_combine<<<1, 1, 0, st[r]>>>(out[r], boxes[r], r, 2, epoch); }
        cudaSetDevice(0); cudaMemcpyAsync(&res, out[0], 4, cudaMemcpyDeviceToHost, st[0]); sync_all(); t_p2p.push_back(now_us() - t0);
        ++epoch;
        t0 = now_us(); reduce_all();
        for (int r = 0; r < 2; ++r) { cudaSetDevice(r); p2p_combine<<<1, 1, 0, st[r]>>>(out[r], boxes[r], r, 2, epoch); }
        cudaSetDevice(0); cudaMemcpyAsync(pinned, out[0], 4, cudaMemcpyDeviceToHost, st[0]); sync_all(); t_p2p_pinned.push_back(now_us() - t0);
    }
    printf("one GPU reduce+sync            %8.1f us\n", med(t_one));
    printf("both GPUs reduce+sync          %8.1f us\n", med(t_both));
    printf("nccl 1 word on idle GPUs       %8.1f us\n", med(t_idle_nccl));
    printf("both reduce + nccl + sync      %8.1f us (host in ncclGroupEnd %.1f us; GPU0 events: reduce %.1f us, nccl %.1f us)\n",
           med(t_both_nccl), med(t_group_end), med(g_red), med(g_nccl));
    printf("gs_multi_reduce_sum            %8.1f us\n", med(t_full));
    printf("both reduce + p2p combine      %8.1f us (pageable copy)  %8.1f us (pinned)\n", med(t_p2p), med(t_p2p_pinned));
    printf("ratio one/multi: nccl path %.2fx, p2p path %.2fx; last result %g, last error %s\n",
           2 * med(t_one) / med(t_full), 2 * med(t_one) / med(t_p2p), res, cudaGetErrorName(cudaGetLastError()));
    return 0;
}
