/*
 * test_grid_scan.cu - the grid scan of one value a block (gridsync/grid_scan.cuh).
 *
 * Every step each block draws values (a hash of the seed, the step and the
 * block) and passes them from thread 0, while its other threads pass decoys
 * (NaN, extremes, garbage) that must not count; a pseudo-random thread of
 * each block sleeps a pseudo-random time first, so blocks arrive in shuffled
 * orders. Per step: an i64 sum, a u32 max, a u64 sum (it wraps), an i32
 * min, an f64 and an f32 sum, interleaved with grid all-reduces and plain
 * gs_grid_sync on the same barrier (the scan and the all-reduce share the
 * state's slots and the view's count).
 *  - on the device, every step: each thread's results have thread 0's bits;
 *    the i64 prefixes chain (prefix(b + 1) = prefix(b) + v(b), prefix(0) = 0,
 *    the total = the last prefix + its value, checked by reading the next
 *    block's prefix) and the total equals the all-reduce of the same values;
 *    the f64 total has the same bits in every block (all-reduce min = max of
 *    its bits); the scan is a grid barrier (slot exchange, exchange.cuh);
 *  - on the CPU, the first RECORDED steps of every block: integer prefixes
 *    and totals exactly; f64 and f32 sums within the bound of a sum of m
 *    terms in any order against an FP64 reference (m u sum|x| for each
 *    side); block 0's prefixes are the identities exactly; every block's
 *    totals have block 0's bits;
 *  - a second run of the same grid shape, with other delays, gives the same
 *    bits (poisoned records first, so every record is written and checked).
 * Grid sizes: grid_sizes.h (1, 2, SMs, SMs + 1, the co-resident maximum and
 * one less); blocks of 97, 256, 33 x 31 and 32 threads (a block reads up to
 * n / threads slots a thread). Exit 77 without a GPU.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <gridsync/allreduce.cuh>
#include <gridsync/grid_scan.cuh>

enum { RECORDED = 48 }; /* steps whose results every block records for the CPU */

/* What thread 0 of a block records at a step: prefix and total of each scan. */
typedef struct scan_record {
    long long p64, t64;           /* i64 sum */
    unsigned long long pw, tw;    /* u64 sum (wraps) */
    double pd, td;                /* f64 sum */
    float pf, tf;                 /* f32 sum */
    unsigned int pm, tm;          /* u32 max */
    int pmin, tmin;               /* i32 min */
} scan_record;
static_assert(sizeof(scan_record) == 72, "scan_record: no padding (compared as 8-byte words)");

/* The values of block b at step it: kind 0 .. 4 draw independent bits. */
static __host__ __device__ unsigned long long draw(unsigned int seed, int it, unsigned int b,
                                                   unsigned int kind)
{
    unsigned int h = ex_hash(seed + (unsigned int)it * 7919u + kind * 104729u) ^ b * 2654435761u;
    return (unsigned long long)ex_hash(h) << 32 | ex_hash(h ^ 0x9E3779B9u);
}
static __host__ __device__ long long v_i64(unsigned int s, int it, unsigned int b)
{
    return (long long)(draw(s, it, b, 0u) >> 24) - (1ll << 39); /* |sum| < 2^52: no wrap */
}
static __host__ __device__ unsigned long long v_u64(unsigned int s, int it, unsigned int b)
{
    return draw(s, it, b, 1u);
}
static __host__ __device__ unsigned int v_u32(unsigned int s, int it, unsigned int b)
{
    return (unsigned int)(draw(s, it, b, 2u) >> 33); /* < 2^31: the max moves along the grid */
}
static __host__ __device__ int v_i32(unsigned int s, int it, unsigned int b)
{
    return (int)(draw(s, it, b, 3u) >> 33) - (1 << 30);
}
static __host__ __device__ double v_f64(unsigned int s, int it, unsigned int b)
{
    return (double)(draw(s, it, b, 4u) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* Whether two records have the same bits (NaN included). */
static __device__ bool same_bits(const scan_record *a, const scan_record *b)
{
    const unsigned long long *x = (const unsigned long long *)a, *y = (const unsigned long long *)b;
    bool same = true;
    for (unsigned int i = 0; i < sizeof *a / 8u; ++i)
        same &= x[i] == y[i];
    return same;
}

static __global__ void grid_scan_kernel(gs_grid_barrier bar, unsigned int *slots, long long *pre,
                                        scan_record *rec, unsigned int *errors, int iters,
                                        unsigned int seed, unsigned int delay_seed,
                                        unsigned int max_delay_ns)
{
    __shared__ scan_record mine; /* thread 0's results, which every thread must have */
    const unsigned int n = gridDim.x, b = blockIdx.x;
    const unsigned int t = threadIdx.x + blockDim.x * threadIdx.y;
    const unsigned int nt = blockDim.x * blockDim.y;
    const bool first = t == 0u;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        const unsigned int par = (unsigned int)it & 1u;
        if (max_delay_ns && t == ex_hash(delay_seed ^ (unsigned int)it ^ (b << 12)) % nt)
            __nanosleep(ex_hash(delay_seed + (unsigned int)it * 31u + b) % max_delay_ns);
        if (t == nt - 1u)
            slots[par * n + b] = ex_value(seed, it, b);
        const long long v64 = v_i64(seed, it, b);
        scan_record r;
        r.p64 = gs_grid_exclusive_sum_i64(&bar, first ? v64 : (long long)ex_hash(t) << 20, &r.t64);
        if (first) { /* the scan was a grid barrier */
            unsigned int o = b + 1u == n ? 0u : b + 1u;
            bad += slots[par * n + o] != ex_value(seed, it, o);
            pre[par * n + b] = r.p64;
        }
        r.pm = gs_grid_exclusive_max_u32(&bar, first ? v_u32(seed, it, b) : 0xffffffffu, &r.tm);
        if (it % 3 == 0)
            gs_grid_sync(&bar);
        r.pw = gs_grid_exclusive_sum_u64(&bar, first ? v_u64(seed, it, b) : ~0ull, &r.tw);
        /* an all-reduce between scans: the i64 values again, from thread 0 */
        long long want_total = gs_grid_allreduce_sum_i64(&bar, first ? v64 : 0ll);
        bad += r.t64 != want_total;
        if (first) { /* every block's prefix is visible now: they chain */
            long long next = b + 1u < n ? pre[par * n + b + 1u] : r.t64;
            bad += next != r.p64 + v64;
            bad += b == 0u && r.p64 != 0ll;
        }
        const double vd = v_f64(seed, it, b);
        r.pd = gs_grid_exclusive_sum_f64(&bar, first ? vd : __longlong_as_double(-1ll), &r.td);
        r.pmin = gs_grid_exclusive_min_i32(&bar, first ? v_i32(seed, it, b) : INT_MIN, &r.tmin);
        r.pf = gs_grid_exclusive_sum_f32(&bar, first ? (float)vd : __int_as_float(-1), &r.tf);
        /* the f64 total has the same bits in every block */
        long long bits = __double_as_longlong(r.td);
        bad += gs_grid_allreduce_min_i64(&bar, bits) != gs_grid_allreduce_max_i64(&bar, bits);
        /* every thread has thread 0's results */
        if (first)
            mine = r;
        __syncthreads();
        bad += !same_bits(&mine, &r);
        __syncthreads();
        if (first && it < RECORDED)
            rec[(size_t)it * n + b] = r;
    }
    if (bad)
        atomicAdd(errors, bad);
}

/* One wrong value of the CPU check, printed for the first few. */
static int cpu_failures = 0;
#define CPU_EXPECT(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond) && cpu_failures++ < 12)                                                    \
            EXPECT(cond, __VA_ARGS__);                                                         \
        else if (!(cond))                                                                      \
            ++gs_test_failures;                                                                \
    } while (0)

/* Every recorded step of every block against the CPU. */
static void check_records(const scan_record *rec, unsigned int seed, unsigned int n, int steps,
                          unsigned int threads)
{
    const double u64 = 1.1102230246251565e-16, u32 = 5.9604644775390625e-8;
    for (int it = 0; it < steps; ++it) {
        long long s64 = 0;
        unsigned long long sw = 0ull;
        unsigned int mx = 0u;
        int mn = INT_MAX;
        double sd = 0.0, ad = 0.0, sf = 0.0, af = 0.0;
        for (unsigned int b = 0; b <= n; ++b) {
            /* the prefix over blocks 0 .. b - 1; at b = n, the total */
            double m = (double)b; /* terms: a sum of m terms in any order is within (m - 1) u sum|x| */
            double bd = 2.0 * m * u64 * ad, bf = m * u32 * af + 2.0 * m * u64 * af;
            for (unsigned int k = 0; k < (b < n ? 1u : n); ++k) {
                const scan_record *r = &rec[(size_t)it * n + (b < n ? b : k)];
                long long p64 = b < n ? r->p64 : r->t64;
                unsigned long long pw = b < n ? r->pw : r->tw;
                unsigned int pm = b < n ? r->pm : r->tm;
                int pmin = b < n ? r->pmin : r->tmin;
                double pd = b < n ? r->pd : r->td;
                double pf = b < n ? (double)r->pf : (double)r->tf;
                const char *what = b < n ? "prefix" : "total";
                unsigned int who = b < n ? b : k;
                CPU_EXPECT(p64 == s64 && pw == sw && pm == mx && pmin == mn,
                           "%u threads x %u blocks, step %d, block %u: integer %s: i64 %lld u64 "
                           "%llu u32 max %u i32 min %d; CPU %lld %llu %u %d", threads, n, it,
                           who, what, p64, pw, pm, pmin, s64, sw, mx, mn);
                CPU_EXPECT(fabs(pd - sd) <= bd && fabs(pf - sf) <= bf,
                           "%u threads x %u blocks, step %d, block %u: f64 %s %.17g (CPU %.17g, "
                           "bound %.3g), f32 %.9g (CPU %.17g, bound %.3g)", threads, n, it, who,
                           what, pd, sd, bd, pf, sf, bf);
                if (b == n) { /* every block's totals have block 0's bits */
                    const scan_record *r0 = &rec[(size_t)it * n];
                    CPU_EXPECT(memcmp(&r->td, &r0->td, sizeof r->td) == 0 &&
                                   memcmp(&r->tf, &r0->tf, sizeof r->tf) == 0,
                               "%u threads x %u blocks, step %d: block %u's float totals are "
                               "not block 0's bits", threads, n, it, k);
                }
            }
            if (b == n)
                break;
            s64 += v_i64(seed, it, b);
            sw += v_u64(seed, it, b);
            mx = v_u32(seed, it, b) > mx ? v_u32(seed, it, b) : mx;
            mn = v_i32(seed, it, b) < mn ? v_i32(seed, it, b) : mn;
            double x = v_f64(seed, it, b);
            sd += x;
            ad += fabs(x);
            sf += (double)(float)x;
            af += fabs((double)(float)x);
        }
    }
}

int main(void)
{
    gs_test_require_gpu("grid_scan");
    gs_rng rng = {gs_test_seed("grid_scan")};
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    /* odd sizes, a partial warp, a 2-D block; one warp: long runs of slots a thread */
    const dim3 block_shapes[4] = {dim3(97), dim3(256), dim3(33, 31), dim3(32)};
    const size_t most = (size_t)info.sm_count * (size_t)info.max_blocks_per_sm;
    unsigned int *slots, *errors;
    long long *pre;
    scan_record *rec;
    CUDA_OK(cudaMalloc(&slots, 2u * most * sizeof *slots));
    CUDA_OK(cudaMalloc(&pre, 2u * most * sizeof *pre));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));
    CUDA_OK(cudaMalloc(&rec, RECORDED * most * sizeof *rec));
    scan_record *first = (scan_record *)malloc(RECORDED * most * sizeof *first);
    scan_record *again = (scan_record *)malloc(RECORDED * most * sizeof *again);
    if (!first || !again) {
        fprintf(stderr, "FATAL: out of host memory\n");
        return 1;
    }
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, quick ? 30.0 : 5.0));
    int checks = 0;
    long long scans = 0;
    for (int s = 0; s < 4; ++s) {
        const unsigned int threads = block_shapes[s].x * block_shapes[s].y;
        int max_blocks = 0;
        GS_OK(gs_max_coresident_blocks((const void *)grid_scan_kernel, (int)threads, 0,
                                       &max_blocks));
        unsigned int grids[6];
        int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)max_blocks,
                                        grids);
        const int iters = quick ? 4 : 8000;
        const int steps = iters < RECORDED ? iters : RECORDED;
        for (int g = 0; g < ngrids; ++g) {
            unsigned int blocks = grids[g], bad = 0;
            unsigned int seed = (unsigned int)((gs_rng_uniform(&rng) + 1.0) * 2147483648.0);
            size_t bytes = (size_t)steps * blocks * sizeof *rec;
            int its = iters;
            gs_grid_barrier view;
            GS_OK(gs_barrier_device(bar, blocks, &view));
            for (int run = 0; run < 2; ++run) {
                unsigned int delay_seed = seed ^ (run ? 0x5bd1e995u : 0u), max_delay = 2000u;
                CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
                CUDA_OK(cudaMemset(rec, 0xff, bytes)); /* poison */
                void *args[] = {&view, &slots, &pre, &rec, &errors, &its, &seed, &delay_seed,
                                &max_delay};
                GS_OK(gs_launch((const void *)grid_scan_kernel, dim3(blocks), block_shapes[s], 0,
                                0, args, bar));
                gs_status st = gs_barrier_check(bar, 0);
                EXPECT(st == GS_SUCCESS, "%u threads x %u blocks: %s: %s", threads, blocks,
                       gs_status_string(st), gs_last_error_detail());
                CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
                EXPECT(bad == 0, "%u threads x %u blocks: %u wrong results in %d steps", threads,
                       blocks, bad, its);
                CUDA_OK(cudaMemcpy(run ? again : first, rec, bytes, cudaMemcpyDeviceToHost));
                scans += 6ll * its;
            }
            check_records(first, seed, blocks, steps, threads);
            EXPECT(memcmp(first, again, bytes) == 0,
                   "%u threads x %u blocks: a second run gave other bits", threads, blocks);
            checks += 3;
        }
        printf("grid_scan: %u threads per block done (grids up to %d blocks)\n", threads,
               max_blocks);
    }
    printf("grid_scan: %lld grid scans, interleaved with all-reduces and grid barriers\n", scans);
    GS_OK(gs_barrier_destroy(bar));
    free(first);
    free(again);
    cudaFree(slots);
    cudaFree(pre);
    cudaFree(errors);
    cudaFree(rec);
    return gs_test_finish("grid_scan", checks);
}
