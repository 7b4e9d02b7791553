// probe: grid all-reduce designs (f64 sum), no watchdog (spins bounded by a
// count), per-call latency, against flip's barrier alone.
// `make research` builds it: build/research/probes/allreduce_variants
// (built with -DACQ_REREAD=0 by hand: V4/V5 with a fence a lane instead of the
// acquire re-reads)
#include <cstdio>
#include <gridsync/detail/core/memory_order.cuh>

__device__ __forceinline__ double warp_sum(double v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(~0u, v, o);
    return v;
}
__device__ __forceinline__ unsigned long long ld_acq64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_rlx64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned atom_acq_rel(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

__device__ __forceinline__ void ld_rlx_v2(const unsigned long long *p, unsigned long long &a,
                                          unsigned long long &c)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(c) : "l"(p) : "memory");
}
__device__ __forceinline__ void st_rlx_v2(unsigned long long *p, unsigned long long a, unsigned long long c)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(c) : "memory");
}
// {tag, low half}, {tag, high half} of a double
__device__ __forceinline__ void put_tagged(unsigned long long *slot, double v, unsigned tag)
{
    unsigned long long bits = __double_as_longlong(v);
    st_rlx_v2(slot, (bits << 32) | tag, (bits & 0xffffffff00000000ull) | tag);
}
// warp: lane l polls slots first + l, first + l + 32, ... < last (relaxed), folds them in order;
// one acquire fence a lane after its slots are all in; the warp's sum in every lane
#ifndef ACQ_REREAD
#define ACQ_REREAD 1 // 0: a fence a lane after its slots are in, instead of an ld.acquire of each
#endif
__device__ __forceinline__ double warp_poll_fold(const unsigned long long *slots, unsigned first,
                                                 unsigned last, unsigned tag)
{
    double x = 0.0;
    for (unsigned i = first + (threadIdx.x & 31u); i < last; i += 32u) {
        unsigned long long a = 0, c = 0;
        for (unsigned s = 0; s < (1u << 26); ++s) {
            ld_rlx_v2(slots + 2 * i, a, c);
            if ((unsigned)a == tag && (unsigned)c == tag) break;
        }
        if (ACQ_REREAD)
            (void)ld_acq64(slots + 2 * i); // synchronizes with the writer's release pattern
        x += __longlong_as_double((long long)((c & 0xffffffff00000000ull) | (a >> 32)));
    }
    if (!ACQ_REREAD)
        gs__fence_acq_rel_gpu();
    return warp_sum(x);
}

// block sum -> every thread
__device__ __forceinline__ double block_sum(double v, double *ws)
{
    unsigned tid = threadIdx.x, w = tid >> 5, nw = blockDim.x >> 5;
    v = warp_sum(v);
    if ((tid & 31) == 0) ws[w] = v;
    __syncthreads();
    double x = tid < nw ? ws[tid] : 0.0;
    if (w == 0) x = warp_sum(x);
    if (tid == 0) ws[32] = x;
    __syncthreads();
    return ws[32];
}

// V0: flip barrier only; V1: flip + every block reads all partials (library's);
// V2: last arriver folds with its whole block, publishes {tag,lo},{tag,hi}
// V3: tagged slots, every block's threads poll every slot with ld.acquire
// V4: tagged slots, warp 0 polls them relaxed (one fence a lane), folds in order
// V5: V4 in groups of 32 blocks: each group's first block folds its group and
//     publishes the group's sum; every block folds the groups' sums
template <int V>
__global__ void k(unsigned *st, double *partials, unsigned long long *result, double *out, int iters)
{
    __shared__ double ws[33];
    __shared__ unsigned s_last;
    const unsigned n = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    double acc = 0.0;
    unsigned *ctr = st;
    for (int it = 0; it < iters; ++it) {
        double mine = (double)((b * 7 + it) % 13) + 0.5 * tid;
        if (V == 0) {
            __syncthreads();
            if (tid == 0) {
                unsigned old = gs__atom_add_release_gpu(ctr, b == 0 ? 0x80000000u - (n - 1) : 1u);
                for (unsigned s = 0; s < (1u << 26) && !((gs__ld_acquire_gpu(ctr) ^ old) & 0x80000000u); ++s) {}
            }
            __syncthreads();
            acc += mine;
            continue;
        }
        double bs = block_sum(mine, ws);
        if (V == 3) { // every block writes {tag,lo},{tag,hi} with release; every block polls every slot
            const unsigned tag = (unsigned)it + 1u;
            unsigned long long *slots = (unsigned long long *)partials + (it & 1) * 8192;
            if (tid == 0) {
                unsigned long long bits = __double_as_longlong(bs);
                gs__fence_acq_rel_gpu();
                st_rlx64(slots + 2 * b, (bits << 32) | tag);
                st_rlx64(slots + 2 * b + 1, (bits & 0xffffffff00000000ull) | tag);
            }
            double x = 0.0;
            for (unsigned i = tid; i < n; i += blockDim.x) {
                unsigned long long a = 0, c = 0;
                for (unsigned s = 0; s < (1u << 26); ++s) {
                    a = ld_acq64(slots + 2 * i); c = ld_acq64(slots + 2 * i + 1);
                    if ((unsigned)a == tag && (unsigned)c == tag) break;
                }
                x += __longlong_as_double((long long)((c & 0xffffffff00000000ull) | (a >> 32)));
            }
            acc += block_sum(x, ws);
            continue;
        }
        if (V == 4 || V == 5) { // tagged slots, warp 0 polls (relaxed, one fence); V5: groups of 32
            const unsigned tag = (unsigned)it + 1u;
            unsigned long long *slots = (unsigned long long *)partials + (it & 1) * 4096;
            unsigned long long *groups = slots + 2 * 1024; // after the 1024 blocks' slots
            if (tid == 0) {
                gs__fence_acq_rel_gpu();
                put_tagged(slots + 2 * b, bs, tag);
            }
            if (tid < 32) {
                double x;
                if (V == 4 || n <= 32u) {
                    x = warp_poll_fold(slots, 0, n, tag);
                } else {
                    const unsigned g0 = b & ~31u, g1 = g0 + 32u < n ? g0 + 32u : n;
                    if ((b & 31u) == 0u) { // the group's first block publishes its sum
                        double gsum = warp_poll_fold(slots, g0, g1, tag);
                        if (tid == 0)
                            put_tagged(groups + 2 * (b >> 5), gsum, tag);
                    }
                    x = warp_poll_fold(groups, 0, (n + 31u) >> 5, tag);
                }
                if (tid == 0) ws[32] = x;
            }
            __syncthreads();
            acc += ws[32];
            __syncthreads();
            continue;
        }
        double *set = partials + (V == 1 ? (it & 1) * 4096 : 0);
        if (V == 1) {
            if (tid == 0) {
                set[b] = bs;
                unsigned old = gs__atom_add_release_gpu(ctr, b == 0 ? 0x80000000u - (n - 1) : 1u);
                for (unsigned s = 0; s < (1u << 26) && !((gs__ld_acquire_gpu(ctr) ^ old) & 0x80000000u); ++s) {}
            }
            __syncthreads();
            double x = 0.0;
            for (unsigned i = tid; i < n; i += blockDim.x) x += set[i];
            acc += block_sum(x, ws);
        } else {
            const unsigned tag = (unsigned)it + 1u;
            if (tid == 0) {
                set[b] = bs;
                unsigned add = b == 0 ? 0x80000000u - (n - 1) : 1u;
                unsigned old = atom_acq_rel(ctr, add);
                s_last = ((old + add) ^ old) >> 31;
            }
            __syncthreads();
            if (s_last) {
                double x = 0.0;
                for (unsigned i = tid; i < n; i += blockDim.x) x += set[i];
                x = block_sum(x, ws);
                if (tid == 0) {
                    unsigned long long bits = __double_as_longlong(x);
                    gs__fence_acq_rel_gpu();
                    st_rlx64(result, (bits << 32) | tag);
                    st_rlx64(result + 1, (bits & 0xffffffff00000000ull) | tag);
                }
                acc += x;
            } else {
                if (tid == 0) {
                    unsigned long long a = 0, c = 0;
                    for (unsigned s = 0; s < (1u << 26); ++s) {
                        a = ld_acq64(result); c = ld_acq64(result + 1);
                        if ((unsigned)a == tag && (unsigned)c == tag) break;
                    }
                    ws[32] = __longlong_as_double((long long)((c & 0xffffffff00000000ull) | (a >> 32)));
                }
                __syncthreads();
                acc += ws[32];
            }
            __syncthreads();
        }
    }
    if (tid == 0) out[b] = acc;
}

template <int V> float run(int blocks, int iters, unsigned *st, double *p, unsigned long long *r, double *out, double *check)
{
    cudaMemset(st, 0, 128); cudaMemset(r, 0, 16); cudaMemset(p, 0, 2 * 8192 * 8);
    cudaEvent_t a, z;
    cudaEventCreate(&a); cudaEventCreate(&z);
    void *args[] = {&st, &p, &r, &out, &iters};
    cudaLaunchCooperativeKernel((void *)k<V>, blocks, 256, args, 0, 0);
    cudaMemset(st, 0, 128); cudaMemset(r, 0, 16); cudaMemset(p, 0, 2 * 8192 * 8);
    cudaEventRecord(a);
    cudaLaunchCooperativeKernel((void *)k<V>, blocks, 256, args, 0, 0);
    cudaEventRecord(z);
    cudaError_t err = cudaEventSynchronize(z);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, z);
    if (err != cudaSuccess) { printf("error %s\n", cudaGetErrorName(err)); return -1; }
    cudaMemcpy(check, out, blocks * sizeof(double), cudaMemcpyDeviceToHost);
    return ms * 1000.f / iters;
}

int main()
{
    unsigned *st; double *p, *out; unsigned long long *r;
    cudaMalloc(&st, 128); cudaMalloc(&p, 2 * 8192 * 8); cudaMalloc(&r, 16); cudaMalloc(&out, 4096 * 8);
    static double c1[4096], c2[4096];
    int sms = 0, per = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k<2>, 256, 0);
    int sizes[] = {2, sms, 2 * sms, 4 * sms, per * sms};
    printf("blocks | flip barrier | all read partials | last arriver folds | tagged slots, all poll all | "
           "tagged, warp 0 polls relaxed | tagged, groups of 32  (us per call; rerun)\n");
    static double c3[4096], c4[4096], c5[4096];
    int bad = 0;
    for (int s : sizes) {
        int iters = 20000;
        printf("%d", s);
        for (int rep = 0; rep < 2; ++rep) {
            printf(rep ? "  rerun:" : "");
            printf(" %.3f", run<0>(s, iters, st, p, r, out, c1));
            printf(" %.3f", run<1>(s, iters, st, p, r, out, c1));
            printf(" %.3f", run<2>(s, iters, st, p, r, out, c2));
            printf(" %.3f", run<3>(s, iters, st, p, r, out, c3));
            printf(" %.3f", run<4>(s, iters, st, p, r, out, c4));
            printf(" %.3f", run<5>(s, iters, st, p, r, out, c5));
            for (int i = 0; i < s; ++i)
                bad += c1[i] != c2[i] || c1[i] != c1[0] || c3[i] != c1[i] || c4[i] != c1[i] ||
                       c5[i] != c5[0];
        }
        printf("\n");
    }
    printf("mismatches %d\n", bad);
}
