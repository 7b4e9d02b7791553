// scan_timeline.cu - scratch probe (issue 16): where a short scan's time
// goes. The library's register scan kernel (single_pass_scan.cuh) copied
// with %globaltimer stamps by thread 0 of every block at each step of a
// tile, for one call in the middle of a back-to-back run, next to a copy
// kernel of the same tile structure with the same stamps; plus probe-only
// variants of the kernel's ending. Float inclusive sum, 2^16 - 2^20.
// Build on the GPU machine (after `make build BUILD_DIR=build-gpu`):
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Ibuild-gpu/include docs/probes/scan_timeline.cu \
//        -Lbuild-gpu/lib -lgridsync -o /tmp/scan_timeline
//   LD_LIBRARY_PATH=build-gpu/lib /tmp/scan_timeline
// Prints, per n and kernel: us per call back to back (events, PDL launches
// as the library's), then the timeline of one call: each stamp's minimum,
// median and maximum over the blocks, in ns from the earliest block start.
#include <cub/device/device_scan.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <gridsync.h>
#include <gridsync/detail/reduce_ops.cuh>
#include <gridsync/detail/single_pass_scan.cuh>

#include "scan_probe.h"

enum { STAMPS = 9 };
static const char *const stamp_names[STAMPS] = {
    "entry", "after pdl wait", "ticket", "barrier A (loaded, scanned)", "aggregate published",
    "prefix known", "barrier B", "stores issued", "counted out"};

static __device__ __forceinline__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* End: how the block counts itself out (counters[2]) and whether tiles
 * past 0 publish their inclusive prefixes.
 * 0: red.release by thread 0 after a last block barrier (the library);
 * 1: red.relaxed there (wrong ordering: the cost of the release);
 * 2: no count-out at all;
 * 3: no inclusive prefixes past tile 0 (enough while every look-back's
 *    first window reaches tile 0: tiles <= 32 x lookback), red.release by
 *    thread 0 as soon as its look-back is done, before barrier B;
 * 4: no inclusive prefixes, red.release by thread 32 right after barrier B,
 *    before its stores;
 * 5: no inclusive prefixes, red.release by thread 0 right after barrier B,
 *    before its stores;
 * 6: inclusive prefixes, red.release by thread 32 right after barrier B,
 *    before its stores;
 * 7: inclusive prefixes, red.release by thread 0 right after barrier B,
 *    before its stores. */
namespace gs { namespace detail {
template <class Policy, class Op, int End>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    timeline_kernel(const scan_args a, unsigned long long *stamps)
{
    typedef typename Op::value_type T;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile;
    unsigned long long st[STAMPS] = {};
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    if (tid == 0u)
        st[0] = now_ns();
    single_pass_begin();
    if (tid == 0u)
        st[1] = now_ns();
    Op op;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    const unsigned int last_draw = a.tiles - 1u; /* one block per tile only */
    if (tid == 0u) {
        s_tile = gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (s_tile == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
    }
    __syncthreads();
    if (tid == 0u)
        st[2] = now_ns();
    const unsigned int tile = s_tile;
    const long long base = (long long)tile * Policy::tile_items + (long long)warp * Policy::warp_items;
    scan_items<Policy, T> it;
    scan_load<Policy, Op>(it, in, base, a.n, true, true);
    T before[Policy::vectors];
    T warp_total = scan_warp_run<Policy>(it, before, op);
    if ((tid & 31u) == 0u)
        s_warp[warp] = warp_total;
    scan_run_prefixes(it, before, false, op);
    __syncthreads(); /* (A) */
    if (tid == 0u)
        st[3] = now_ns();
    if (End == 3 && tile == 0u && tid == 0u) /* tile 0 has no look-back */
        gs_red_add_release_gpu(a.counters + 2, 1u);
    T warp_prefix = Op::identity();
    if (warp > 0u)
        warp_prefix = scan_fold_shared(s_warp, warp, op);
    if (warp == 0u) {
        const T aggregate = scan_fold_shared(s_warp, nwarps, op);
        T prefix = Op::identity();
        if (tile == 0u) {
            if (tid == 0u)
                state.publish_inclusive(0, aggregate);
            if (tid == 0u)
                st[4] = st[5] = now_ns();
        } else {
            if (tid == 0u) {
                state.publish_aggregate((int)tile, aggregate);
                st[4] = now_ns();
            }
            const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, tile, a.tiles};
            scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(state, (int)tile, op, watch,
                                                                      prefix);
            if (tid == 0u) {
                st[5] = now_ns();
                if (End < 3 || End > 5)
                    state.publish_inclusive((int)tile, op(prefix, aggregate));
                else if (End == 3)
                    gs_red_add_release_gpu(a.counters + 2, 1u);
            }
        }
        if (tid == 0u)
            s_prefix = prefix;
    }
    __syncthreads(); /* (B) */
    if (tid == 0u)
        st[6] = now_ns();
    if ((End == 4 || End == 6) && tid == 32u)
        gs_red_add_release_gpu(a.counters + 2, 1u);
    if ((End == 5 || End == 7) && tid == 0u)
        gs_red_add_release_gpu(a.counters + 2, 1u);
    T base_prefix = s_prefix;
    if (warp > 0u)
        base_prefix = op(base_prefix, warp_prefix);
    scan_add_prefix(it, base_prefix, op);
    scan_store(it, out, base, a.n, true, true);
    if (tid == 0u)
        st[7] = now_ns();
    __syncthreads();
    if (tid == 0u) {
        if (End == 0)
            gs_red_add_release_gpu(a.counters + 2, 1u);
        else if (End == 1)
            asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(a.counters + 2) : "memory");
        st[8] = now_ns();
        for (int i = 0; i < STAMPS; ++i)
            stamps[(size_t)blockIdx.x * STAMPS + i] = st[i];
    }
}

/* The library's kernel (single_pass_scan_kernel) copied, with parts taken
 * out by the bits of Strip, to find what makes it slower than
 * timeline_kernel on one block per tile: 1 full tiles and aligned pointers
 * known at compile time; 2 inclusive known at compile time; 4 no give-up
 * bookkeeping; 8 no tile loop (one tile a block); 16 count-out by thread 0
 * right after barrier B (one block per tile only). */
template <class Policy, class Op, int Strip>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    bisect_kernel(const scan_args a, unsigned long long *stamps)
{
    typedef typename Op::value_type T;
    (void)stamps;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ T s_warp[nwarps];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ int s_gave_up;
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const bool in_aligned = (Strip & 1) || ((unsigned long long)in & 15ull) == 0ull;
    const bool out_aligned = (Strip & 1) || ((unsigned long long)out & 15ull) == 0ull;
    const bool exclusive = (Strip & 2) ? false : a.exclusive != 0;
    const bool one_each = gridDim.x == a.tiles;
    const unsigned int last_draw = one_each ? a.tiles - 1u : a.tiles + gridDim.x - 1u;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    if (tid == 0u) {
        s_tile = gridDim.x == 1u ? 0u : gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (gridDim.x > 1u && s_tile == last_draw)
            gs_st_relaxed_gpu(a.counters, 0u);
        s_gave_up = 0;
    }
    __syncthreads();
    unsigned int tile = s_tile;
    int gave_up = 0;
    while (tile < a.tiles) {
        const long long tile_base = (long long)tile * Policy::tile_items;
        const long long base = tile_base + (long long)warp * Policy::warp_items;
        const bool full = (Strip & 1) || scan_full_tile<Policy>(a, tile);
        scan_items<Policy, T> it;
        if ((Strip & 4) || !gave_up) {
            scan_load<Policy, Op>(it, in, base, a.n, full, in_aligned);
            T before[Policy::vectors];
            T warp_total = scan_warp_run<Policy>(it, before, op);
            if ((tid & 31u) == 0u)
                s_warp[warp] = warp_total;
            scan_run_prefixes(it, before, exclusive, op);
        }
        __syncthreads(); /* (A) */
        T warp_prefix = Op::identity();
        if (nwarps > 1u && warp > 0u && ((Strip & 4) || !gave_up))
            warp_prefix = scan_fold_shared(s_warp, warp, op);
        if (warp == 0u && ((Strip & 4) || !gave_up)) {
            T prefix;
            gave_up = scan_tile_look_back<Policy>(state, a, tile, s_warp, op, prefix);
            if (tid == 0u) {
                s_prefix = prefix;
                s_gave_up = gave_up;
            }
        }
        __syncthreads(); /* (B) */
        if ((Strip & 16) && tid == 0u)
            gs_red_add_release_gpu(a.counters + 2, 1u);
        if ((Strip & 4) || (!gave_up && s_gave_up == 0)) {
            T base_prefix = s_prefix;
            if (warp > 0u)
                base_prefix = op(base_prefix, warp_prefix);
            scan_add_prefix(it, base_prefix, op);
            scan_store(it, out, base, a.n, full, out_aligned);
        }
        if (!(Strip & 4))
            gave_up = s_gave_up;
        if ((Strip & 8) || one_each)
            break;
        if (tid == 0u) {
            const unsigned int next = gridDim.x == 1u ? tile + 1u
                                                      : gs_atom_add_relaxed_gpu(a.counters, 1u);
            s_tile = next;
            if (gridDim.x > 1u && next == last_draw)
                gs_st_relaxed_gpu(a.counters, 0u);
        }
        __syncthreads(); /* (C) */
        tile = s_tile;
    }
    if (!(Strip & 16)) {
        __syncthreads();
        if (tid == 0u)
            gs_red_add_release_gpu(a.counters + 2, 1u);
    }
}

/* A candidate for the library: one tile a block (grids of one block per
 * tile), the block counted out right after barrier B. Exclusive: 0 / 1 at
 * compile time, -1 from the arguments. SharedFold: the first window folded
 * through shared memory (as shipped: scan_fold_from_shared). */
template <class Policy, class Op, int Exclusive, bool SharedFold>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    one_tile_kernel(const scan_args a, unsigned long long *stamps)
{
    typedef typename Op::value_type T;
    (void)stamps;
    const T *const in = (const T *)a.in;
    T *const out = (T *)a.out;
    constexpr unsigned int nwarps = Policy::threads / 32;
    __shared__ T s_warp[nwarps];
    __shared__ T s_fold[32 * Policy::lookback];
    __shared__ T s_prefix;
    __shared__ unsigned int s_tile;
    __shared__ int s_gave_up;
    single_pass_begin();
    Op op;
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    const bool exclusive = Exclusive < 0 ? a.exclusive != 0 : Exclusive != 0;
    const scan_tile_state<T> state = {a.descriptors, a.seq};
    if (tid == 0u) {
        s_tile = gridDim.x == 1u ? 0u : gs_atom_add_relaxed_gpu(a.counters, 1u);
        if (gridDim.x > 1u && s_tile == a.tiles - 1u)
            gs_st_relaxed_gpu(a.counters, 0u);
    }
    __syncthreads();
    const unsigned int tile = s_tile;
    const long long base = (long long)tile * Policy::tile_items + (long long)warp * Policy::warp_items;
    const bool full = scan_full_tile<Policy>(a, tile);
    scan_items<Policy, T> it;
    scan_load<Policy, Op>(it, in, base, a.n, full, ((unsigned long long)in & 15ull) == 0ull);
    {
        T before[Policy::vectors];
        T warp_total = scan_warp_run<Policy>(it, before, op);
        if ((tid & 31u) == 0u)
            s_warp[warp] = warp_total;
        scan_run_prefixes(it, before, exclusive, op);
    }
    __syncthreads(); /* (A) */
    T warp_prefix = Op::identity();
    if (nwarps > 1u && warp > 0u)
        warp_prefix = scan_fold_shared(s_warp, warp, op);
    if (warp == 0u) {
        const T aggregate = scan_fold_shared(s_warp, nwarps, op);
        T prefix = Op::identity();
        int gave_up = 0;
        if (tile == 0u) {
            if (tid == 0u && a.tiles > 1u)
                state.publish_inclusive(0, aggregate);
        } else {
            if (tid == 0u)
                state.publish_aggregate((int)tile, aggregate);
            const scan_watch watch = {a.counters + 3, a.fault, a.timeout_ns, a.seq, tile, a.tiles};
            const bool ok = scan_look_back<T, Policy::lookback, Policy::poll_sleep_ns>(
                state, (int)tile, op, watch, prefix, SharedFold ? s_fold : nullptr);
            gave_up = !ok;
            if (tid == 0u && ok)
                state.publish_inclusive((int)tile, op(prefix, aggregate));
        }
        if (tid == 0u) {
            s_prefix = prefix;
            s_gave_up = gave_up;
        }
    }
    __syncthreads(); /* (B) */
    if (tid == 0u)
        gs_red_add_release_gpu(a.counters + 2, 1u);
    if (s_gave_up == 0) {
        T base_prefix = s_prefix;
        if (warp > 0u)
            base_prefix = op(base_prefix, warp_prefix);
        scan_add_prefix(it, base_prefix, op);
        scan_store(it, out, base, a.n, full, ((unsigned long long)out & 15ull) == 0ull);
    }
}

/* The same tile structure as a copy: load the tile, store it. */
template <class Policy>
static __global__ void __launch_bounds__(Policy::threads, Policy::min_blocks)
    copy_tile_kernel(const scan_args a, unsigned long long *stamps)
{
    typedef float T;
    unsigned long long st[STAMPS] = {};
    const unsigned int tid = threadIdx.x, warp = tid >> 5;
    if (tid == 0u)
        st[0] = now_ns();
    single_pass_begin();
    if (tid == 0u)
        st[1] = st[2] = now_ns();
    const long long base =
        (long long)blockIdx.x * Policy::tile_items + (long long)warp * Policy::warp_items;
    scan_items<Policy, T> it;
    scan_load<Policy, gs::sum<float>>(it, (const T *)a.in, base, a.n, true, true);
    scan_store(it, (T *)a.out, base, a.n, true, true);
    if (tid == 0u)
        st[3] = st[4] = st[5] = st[6] = st[7] = now_ns();
    __syncthreads();
    if (tid == 0u) {
        st[8] = now_ns();
        for (int i = 0; i < STAMPS; ++i)
            stamps[(size_t)blockIdx.x * STAMPS + i] = st[i];
    }
}
}} // namespace gs::detail

template <class T, int Threads, int MinBlocks, int Vectors>
struct policy {
    static constexpr int threads = Threads;
    static constexpr int min_blocks = MinBlocks;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = Vectors;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    static constexpr int lookback = 2;
    static constexpr int poll_sleep_ns = 0;
};

static unsigned long long *g_stamps;

/* The smallest nonzero step of %globaltimer over 100000 reads. */
static __global__ void timer_step(unsigned long long *out)
{
    unsigned long long best = ~0ull, last = now_ns();
    for (int i = 0; i < 100000; ++i) {
        const unsigned long long t = now_ns();
        if (t != last && t - last < best)
            best = t - last;
        last = t;
    }
    *out = best;
}

/* Launch k on one block per tile with PDL, as gs_scan does; `extra`: the
 * kernel's arguments after the scan's (the stamps, or none). */
template <class K, class... Extra>
static void launch_pdl(K k, int threads, long long tile_items, const float *in, float *out,
                       long long n, Extra... extra)
{
    const long long tiles = (n + tile_items - 1) / tile_items;
    gs::detail::scan_args a = {};
    a.in = in;
    a.out = out;
    a.n = n;
    a.descriptors = g_desc;
    a.counters = g_counters;
    a.timeout_ns = 2000000000ull;
    a.seq = g_seq++;
    a.tiles = (unsigned int)tiles;
    a.prefetch_input = 1; /* cudaMalloc'ed on this GPU, as gs_scan would prefetch */
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)tiles);
    config.blockDim = dim3((unsigned)threads);
    config.attrs = attr;
    config.numAttrs = 1;
    CK(cudaLaunchKernelEx(&config, k, a, extra...));
}

struct variant {
    const char *name;
    void (*f)(const float *, float *, long long);
    long long tile;
};

template <class P, int End>
static void scan_v(const float *in, float *out, long long n)
{
    launch_pdl(gs::detail::timeline_kernel<P, gs::sum<float>, End>, P::threads, P::tile_items, in,
               out, n, g_stamps);
}
/* The library's own kernel, launched as gs_scan launches it (one block per
 * tile: the probe's lengths are all within one wave). */
template <int Tiling>
static void lib_v(const float *in, float *out, long long n)
{
    typedef gs::detail::scan_policy<float, Tiling> P;
    launch_pdl(gs::detail::single_pass_scan_kernel<P, gs::sum<float>>, P::threads, P::tile_items,
               in, out, n);
}

template <int Strip>
static void bisect_v(const float *in, float *out, long long n)
{
    typedef gs::detail::scan_policy<float, gs::detail::scan_latency> P;
    launch_pdl(gs::detail::bisect_kernel<P, gs::sum<float>, Strip>, P::threads, P::tile_items, in,
               out, n, g_stamps);
}

template <int Tiling, int Exclusive, bool SharedFold>
static void one_v(const float *in, float *out, long long n)
{
    typedef gs::detail::scan_policy<float, Tiling> P;
    launch_pdl(gs::detail::one_tile_kernel<P, gs::sum<float>, Exclusive, SharedFold>, P::threads,
               P::tile_items, in, out, n, g_stamps);
}

template <class P>
static void copy_v(const float *in, float *out, long long n)
{
    launch_pdl(gs::detail::copy_tile_kernel<P>, P::threads, P::tile_items, in, out, n, g_stamps);
}

typedef policy<float, 256, 4, 4> p16k; /* the short tiling */
typedef policy<float, 256, 2, 8> p32k; /* the latency tiling */

static void timeline(const variant &v, const float *x, float *y, long long n)
{
    const long long tiles = (n + v.tile - 1) / v.tile;
    for (int i = 0; i < 20; ++i)
        v.f(x, y, n);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned long long> s((size_t)tiles * STAMPS);
    CK(cudaMemcpy(s.data(), g_stamps, s.size() * 8, cudaMemcpyDeviceToHost));
    unsigned long long t0 = ~0ull;
    for (long long b = 0; b < tiles; ++b)
        t0 = std::min(t0, s[(size_t)b * STAMPS]);
    for (int i = 0; i < STAMPS; ++i) {
        std::vector<long long> d;
        for (long long b = 0; b < tiles; ++b)
            d.push_back((long long)(s[(size_t)b * STAMPS + i] - t0));
        std::sort(d.begin(), d.end());
        printf("    %-30s min %6lld  median %6lld  max %6lld ns\n", stamp_names[i], d.front(),
               d[d.size() / 2], d.back());
    }
}

/* `scan_timeline lib`: gs_scan_inclusive_sum (whichever library is loaded)
 * against CUB and a copy on a stream of its own, 20 and 200 calls a sample
 * (the bench takes 20), to compare two builds of the library on one GPU. */
static int lib_only(float *x, float *y, void *tmp, size_t tmp_bytes)
{
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    for (long long n : {1ll << 16, 1ll << 17, 1ll << 18, 1ll << 19, (1ll << 19) - 777, 1ll << 20}) {
        for (int reps : {20, 200}) {
            double tl = time_us([&] { (void)gs_scan_inclusive_sum(GS_FLOAT32, x, y, n, st); },
                                reps, 15, st);
            double tl2 = time_us([&] { (void)gs_scan_inclusive_sum(GS_FLOAT32, x, y, n, st); },
                                 reps, 15, st);
            double tc = time_us(
                [&] { cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n, st); }, reps, 15, st);
            double tm = time_us(
                [&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice, st)); }, reps, 15, st);
            printf("lib n %8lld reps %3d: gs_scan %6.2f / %6.2f us, CUB %6.2f us (%.2fx), copy "
                   "%6.2f us\n",
                   n, reps, tl, tl2, tc, tc / std::min(tl, tl2), tm);
        }
    }
    CK(cudaStreamSynchronize(st));
    return gs_scan_check(st) == GS_SUCCESS ? 0 : 1;
}

int main(int argc, char **argv)
{
    const long long nmax = 1ll << 20;
    scan_probe_init((nmax / 256 + 64) * 2 * 8 * 2);
    CK(cudaMalloc(&g_stamps, 4096 * STAMPS * 8));
    float *x, *y;
    int *xi;
    CK(cudaMalloc(&x, nmax * 4));
    CK(cudaMalloc(&y, nmax * 4));
    CK(cudaMalloc(&xi, nmax * 4));
    fill<<<2048, 256>>>(x, xi, nmax, nmax, 7u);
    CK(cudaDeviceSynchronize());
    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)nmax));
    CK(cudaMalloc(&tmp, tmp_bytes));
    if (argc > 1 && strcmp(argv[1], "lib") == 0)
        return lib_only(x, y, tmp, tmp_bytes);

    /* %globaltimer's step, seen by one thread */
    {
        unsigned long long *d, step = 0;
        CK(cudaMalloc(&d, 8));
        timer_step<<<1, 1>>>(d);
        CK(cudaMemcpy(&step, d, 8, cudaMemcpyDeviceToHost));
        printf("%%globaltimer: smallest step seen %llu ns\n", step);
        CK(cudaFree(d));
    }

    using gs::detail::scan_latency;
    using gs::detail::scan_short;
    const long long t32 = gs::detail::scan_policy<float, scan_latency>::tile_items;
    const long long t16 = gs::detail::scan_policy<float, scan_short>::tile_items;
    const variant variants[] = {
        {"library kernel 32K (direct, PDL)", lib_v<scan_latency>, t32},
        {"bisect 31 (all five)", bisect_v<31>, t32},
        {"one tile 32K, runtime excl", one_v<scan_latency, -1, false>, t32},
        {"one tile 32K, inclusive", one_v<scan_latency, 0, false>, t32},
        {"one tile 32K, runtime excl, shared fold", one_v<scan_latency, -1, true>, t32},
        {"one tile 32K, inclusive, shared fold", one_v<scan_latency, 0, true>, t32},
        {"library kernel 16K (direct, PDL)", lib_v<scan_short>, t16},
        {"one tile 16K, runtime excl", one_v<scan_short, -1, false>, t16},
        {"one tile 16K, runtime excl, shared fold", one_v<scan_short, -1, true>, t16},
        {"copy 32K tiles", copy_v<p32k>, p32k::tile_items},
    };
    const int nchecked = 9;
    /* a setup check: every scan variant against CUB at 2^19 (floats holding
     * small integers: exact) */
    for (long long n : {1ll << 19, (1ll << 19) - 777}) {
        std::vector<float> h(n), a(n), b(n);
        for (long long i = 0; i < n; ++i)
            h[i] = (float)((i * 7919) % 13) - 6.0f;
        float *xs, *ys;
        CK(cudaMalloc(&xs, n * 4));
        CK(cudaMalloc(&ys, n * 4));
        CK(cudaMemcpy(xs, h.data(), n * 4, cudaMemcpyHostToDevice));
        CK(cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, xs, ys, (int)n));
        CK(cudaMemcpy(b.data(), ys, n * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < nchecked; ++i) {
            if (strstr(variants[i].name, "no incl") && (n + variants[i].tile - 1) / variants[i].tile > 64)
                continue;
            CK(cudaMemset(ys, 0xff, n * 4));
            variants[i].f(xs, ys, n);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(a.data(), ys, n * 4, cudaMemcpyDeviceToHost));
            long long bad = 0;
            for (long long j = 0; j < n; ++j)
                bad += a[j] != b[j];
            printf("check n %lld %-36s: %s (%lld wrong)\n", n, variants[i].name, bad ? "WRONG" : "ok", bad);
        }
        CK(cudaFree(xs));
        CK(cudaFree(ys));
    }
    for (long long n : {1ll << 16, 1ll << 17, (1ll << 17) + 999, 1ll << 18, 1ll << 19, (1ll << 19) - 777}) {
        const int reps = 200;
        const int lg = 63 - __builtin_clzll((unsigned long long)n);
        double tcopy =
            time_us([&] { CK(cudaMemcpyAsync(y, x, n * 4, cudaMemcpyDeviceToDevice)); }, reps);
        double tcub =
            time_us([&] { cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n); }, reps);
        double tlib = time_us(
            [&] { (void)gs_scan_inclusive_sum(GS_FLOAT32, x, y, n, 0); }, reps);
        /* host time to enqueue 100 calls (no wait): whether a call is host-bound */
        CK(cudaDeviceSynchronize());
        auto h0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 100; ++i)
            (void)gs_scan_inclusive_sum(GS_FLOAT32, x, y, n, 0);
        auto h1 = std::chrono::steady_clock::now();
        CK(cudaDeviceSynchronize());
        for (int i = 0; i < 100; ++i)
            cub::DeviceScan::InclusiveSum(tmp, tmp_bytes, x, y, (int)n);
        auto h2 = std::chrono::steady_clock::now();
        CK(cudaDeviceSynchronize());
        printf("n %lld (2^%d%s): cudaMemcpy D2D %.2f us, CUB %.2f us, gs_scan_inclusive_sum %.2f us; host "
               "enqueue per call: gs_scan %.2f us, CUB %.2f us\n",
               n, lg, (n & (n - 1)) ? "+" : "", tcopy, tcub, tlib,
               std::chrono::duration<double, std::micro>(h1 - h0).count() / 100,
               std::chrono::duration<double, std::micro>(h2 - h1).count() / 100);
        for (const variant &v : variants) {
            if ((n + v.tile - 1) / v.tile > 132 ||
                strstr(v.name, "no incl") && (n + v.tile - 1) / v.tile > 64)
                continue;
            double t = time_us([&] { v.f(x, y, n); }, reps);
            double t2 = time_us([&] { v.f(x, y, n); }, reps);
            printf("  %-36s %6.2f / %6.2f us per call (%lld tiles)\n", v.name, t, t2,
                   (n + v.tile - 1) / v.tile);
            if (false)
                timeline(v, x, y, n);
        }
        fflush(stdout);
    }
    return 0;
}
