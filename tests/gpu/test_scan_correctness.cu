/*
 * test_scan.cu - gs_scan against a CPU reference, and the device API's warp
 * and block scans.
 *
 * References: integer sums exact (wrapping, computed unsigned), min and max
 * exact (NaN propagates: from the first NaN on, every prefix is NaN).
 * Floating sums against a compensated long-double prefix with a rigorous
 * bound: element k of tile t is a sum tree in which no input takes part in
 * more than d = t + 32 additions (the tile chain: t; within a tile at most
 * 3 + 5 + 3 + 1 + 7 + 2 with 256 threads, docs/scan.md), so
 * |error| <= gamma(d) sum |x_j| with gamma(d) = d u / (1 - d u) (Higham,
 * Accuracy and Stability, 4.2). Floats holding small integers whose
 * prefixes stay below 2^24 (2^53) are summed exactly by any order: those
 * must match exactly, which catches any element landing in a wrong place.
 *
 * Also: every op (sum, min, max), kind and type; n from 0 to 2^27,
 * including lengths around tile and look-back window boundaries; inputs
 * and outputs misaligned by one or three elements, and in place; outputs
 * poisoned first: every element written, nothing past n touched; results
 * bitwise identical from run to run and between aligned and misaligned
 * copies of the same data (the order of operations is fixed by n alone);
 * NaN and infinities; in-place scans back to back, each reading what the
 * one before it is writing as it starts (its tiles prefetched into L2
 * before the programmatic-launch wait); a scan behind a kernel that writes
 * its input late, after letting the scan's blocks start and prefetch the
 * old bytes (apart and in place); input and output in managed
 * memory last written by the CPU, apart and in place; many back-to-back
 * calls on two streams and from two
 * host threads (own streams and one shared stream), with reductions mixed
 * in (they share the workspace); 300 streams created, used and destroyed
 * (workspaces recycled); gs_reduce_release_workspaces racing scans whose
 * lengths grow; a scan captured in a graph and replayed on fresh
 * data; bad input refused with nothing written; a look-back that can never
 * finish (tile 0 withheld) ends at its time-out with the fault recorded,
 * in both bandwidth kernels; both launched again and again with time-outs
 * from 200 ns, publications held back by a fault-injection hook, some
 * launches with their first tiles withheld: every launch ends, resets the
 * ticket, counts its blocks out, and is exact unless it recorded a fault;
 * the one-tile kernels (one block per tile) against their tile loops,
 * launched directly, and under the same stress; the resident kernel
 * (tiles in shared memory,
 * bulk copies, a look-back warp) against the register kernel, launched
 * directly: the same bits for inclusive and exclusive sums, min and max,
 * aligned, misaligned (input, output or both) and in place, partial last
 * tiles, grids of one block, one block per tile and fewer blocks than
 * tiles;
 * gs::warp_* and gs::block_* scans, C-style names and an argmin scan, at
 * block sizes 32 to 1024 including ones that are not multiples of 32.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <limits>

/* Fault injection (single_pass_scan.cuh's hook) for the give-up stress's
 * direct launches: defined below, after the headers. */
static __device__ void scan_test_delay(unsigned int seq, unsigned int tile, int point);
#define GS_SCAN_TEST_DELAY(args, tile, point) scan_test_delay((args).seq, (tile), (point))

#include <gridsync/detail/resident_scan.cuh>
#include <gridsync/detail/single_pass_scan.cuh>
#include <gridsync/detail/single_tile_scan.cuh>
#include <gridsync/scan.cuh>

/* Calls numbered from here on (the give-up stress's) are the only ones
 * held back; the other direct launches use small numbers. */
#define STRESS_SEQ_FROM 1000u

/* In a stress call, one publication in 8, chosen by hashing the call, the
 * tile and the point (0: the aggregate, 1: the inclusive prefix), waits 0
 * to 40 us first: longer than the stress's shorter time-outs, so that
 * look-backs and the resident kernel's aggregate wait give up at every
 * point of the tile loop. Bounded by the global timer. */
static __device__ void scan_test_delay(unsigned int seq, unsigned int tile, int point)
{
    if (seq < STRESS_SEQ_FROM)
        return;
    unsigned int h = seq * 0x9e3779b1u ^ tile * 0x85ebca77u ^ (unsigned int)point * 0xc2b2ae3du;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    if ((h & 7u) != 0u)
        return;
    const unsigned long long wait_ns = (h >> 8) % 40000u, start = gs_globaltimer_ns();
    while (gs_globaltimer_ns() - start < wait_ns) {
    }
}

#include "gpu_test.h"

/* ------------------------------------------------------------- helpers */

static unsigned long long rng_state;
static unsigned long long next_u64(void) /* splitmix64 */
{
    unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double urand(void) { return (double)(next_u64() >> 11) * 0x1p-53; } /* [0, 1) */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

template <class T> struct dtype_of;
template <> struct dtype_of<float> { static const gs_dtype value = GS_FLOAT32; };
template <> struct dtype_of<double> { static const gs_dtype value = GS_FLOAT64; };
template <> struct dtype_of<int> { static const gs_dtype value = GS_INT32; };
template <> struct dtype_of<long long> { static const gs_dtype value = GS_INT64; };

template <class T> static bool is_floating() { return std::numeric_limits<T>::has_infinity; }

/* The identities of min and max. */
template <class T> static T highest_of()
{
    if constexpr (std::numeric_limits<T>::has_infinity)
        return std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::max();
}
template <class T> static T lowest_of()
{
    if constexpr (std::numeric_limits<T>::has_infinity)
        return -std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::min();
}

/* Elements per tile of the library's kernel for n elements of T (the
 * short, latency or bandwidth tile, by the length). */
template <class T> static long long tile_of(long long n)
{
    return gs::detail::scan_tile_items<T>(n);
}

/* The latency tiling's tile (lengths from GS_TUNE_SCAN_SHORT_TO_BYTES up
 * to GS_TUNE_SCAN_LARGE_FROM_BYTES). */
template <class T> static long long latency_tile(void)
{
    return gs::detail::scan_policy<T, gs::detail::scan_latency>::tile_items;
}

/* What the data looks like. */
enum fill_kind {
    FILL_REAL,      /* floats in [-1, 1) x 100; integers over their whole range */
    FILL_POSITIVE,  /* floats in [0, 1): no cancellation, the bound is relative */
    FILL_SMALL_INTS /* 0 .. 7: floating prefixes exact (n <= 2^21 for f32) */
};

template <class T> static void fill(T *h, long long n, fill_kind kind)
{
    for (long long i = 0; i < n; ++i) {
        unsigned long long r = next_u64();
        if (kind == FILL_SMALL_INTS)
            h[i] = (T)(r & 7u);
        else if (is_floating<T>())
            h[i] = kind == FILL_POSITIVE ? (T)urand() : (T)((urand() * 2.0 - 1.0) * 100.0);
        else
            h[i] = (T)r; /* wraps: every bit pattern */
    }
}

/* --------------------------------------------------------- the reference */

/* Neumaier-compensated long-double sum: error far below the bounds. */
struct exact {
    long double s, c;
    void add(long double x)
    {
        long double t = s + x;
        c += fabsl(s) >= fabsl(x) ? (s - t) + x : (x - t) + s;
        s = t;
    }
    long double value() const { return s + c; }
};

/* The running state of one prefix scan on the CPU. */
template <class T> struct running {
    gs_scan_op op;
    T v;             /* min, max, integer sum */
    exact e;         /* floating sum */
    double magnitude;
    void start(gs_scan_op o)
    {
        op = o;
        v = o == GS_SCAN_MIN ? highest_of<T>() : o == GS_SCAN_MAX ? lowest_of<T>() : (T)0;
        e = exact{0.0L, 0.0L};
        magnitude = 0.0;
    }
    void add(T x)
    {
        if (op == GS_SCAN_SUM) {
            if (is_floating<T>()) {
                e.add((long double)x);
                magnitude += fabs((double)x);
            } else if (sizeof(T) == 4) {
                v = (T)(int)((unsigned int)v + (unsigned int)x);
            } else {
                v = (T)(long long)((unsigned long long)v + (unsigned long long)x);
            }
        } else if (v == v) { /* NaN is sticky */
            if (x != x || (op == GS_SCAN_MIN ? x < v : x > v))
                v = x;
        }
    }
    /* Whether `got` is this prefix at element k (whose tile is t). */
    bool matches(T got, long long t, bool exact_sum) const
    {
        if (op != GS_SCAN_SUM || !is_floating<T>())
            return (v != v && got != got) || got == v;
        double want = (double)e.value();
        double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53, d = (double)(t + 32);
        double bound = exact_sum ? 0.0 : d * u / (1.0 - d * u) * magnitude;
        return fabs((double)got - want) <= bound; /* NaN fails */
    }
    double value() const
    {
        return op == GS_SCAN_SUM && is_floating<T>() ? (double)e.value() : (double)v;
    }
};

/* Elements of y that are not the scan of x (each reported up to 3). */
template <class T>
static long long wrong_elements(gs_scan_op op, gs_scan_kind kind, const T *x, const T *y,
                                long long n, bool exact_sum, const char *label)
{
    running<T> r;
    r.start(op);
    long long wrong = 0, tile = tile_of<T>(n);
    for (long long k = 0; k < n; ++k) {
        if (kind == GS_SCAN_INCLUSIVE)
            r.add(x[k]);
        if (!r.matches(y[k], k / tile, exact_sum) && ++wrong <= 3)
            fprintf(stderr, "  %s: element %lld of %lld: %.17g, expected %.17g\n", label, k, n,
                    (double)y[k], r.value());
        if (kind == GS_SCAN_EXCLUSIVE)
            r.add(x[k]);
    }
    return wrong;
}

/* ------------------------------------------------------- one scan, checked */

enum { GUARD = 64 }; /* poisoned elements after the output, never to be written */

/* Device buffers big enough for n + offsets + GUARD elements of 8 bytes. */
struct buffers {
    char *d_in, *d_out, *d_again;
    char *h_in, *h_out, *h_again;
    long long cap; /* elements of 8 bytes */
};

static void buffers_make(buffers *b, long long cap)
{
    size_t bytes = (size_t)(cap + 8 + GUARD) * 8;
    b->cap = cap;
    CUDA_OK(cudaMalloc((void **)&b->d_in, bytes));
    CUDA_OK(cudaMalloc((void **)&b->d_out, bytes));
    CUDA_OK(cudaMalloc((void **)&b->d_again, bytes));
    b->h_in = (char *)malloc(bytes);
    b->h_out = (char *)malloc(bytes);
    b->h_again = (char *)malloc(bytes);
    if (!b->h_in || !b->h_out || !b->h_again) {
        fprintf(stderr, "FATAL: out of host memory\n");
        exit(1);
    }
}

static void buffers_free(buffers *b)
{
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    cudaFree(b->d_again);
    free(b->h_in);
    free(b->h_out);
    free(b->h_again);
}

/* Where a case reads and writes. */
struct layout {
    int in_offset, out_offset; /* elements */
    bool in_place;             /* out = in (out_offset unused) */
};

/* One scan of n fresh elements with `op` and `kind` at `lay`: output
 * poisoned first (0xff bytes: NaN, -1), checked element by element, the
 * guard after it untouched; run again into a second poisoned buffer, which
 * must be bitwise the same. Returns the number of checks. */
template <class T>
static int check_case(buffers *b, gs_scan_op op, gs_scan_kind kind, long long n, layout lay,
                      fill_kind data, T *first_result)
{
    const size_t es = sizeof(T);
    T *h_in = (T *)b->h_in + lay.in_offset;
    T *d_in = (T *)b->d_in + lay.in_offset;
    T *d_out = lay.in_place ? d_in : (T *)b->d_out + lay.out_offset;
    T *d_again = lay.in_place ? d_in : (T *)b->d_again + lay.out_offset;
    char label[160];
    snprintf(label, sizeof label, "%s %s %s n=%lld in+%d %s%d", gs_scan_kind_name(kind),
             gs_scan_op_name(op), gs_dtype_name(dtype_of<T>::value), n, lay.in_offset,
             lay.in_place ? "in place" : "out+", lay.out_offset);
    if (data != FILL_REAL || first_result == NULL)
        fill(h_in, n, data);
    const bool exact_sum = data == FILL_SMALL_INTS;
    int checks = 0;
    for (int round = 0; round < 2; ++round) {
        T *dst = round == 0 ? d_out : d_again;
        T *h_dst = (T *)(round == 0 ? b->h_out : b->h_again);
        if (lay.in_place) {
            CUDA_OK(cudaMemset(d_in + n, 0xff, GUARD * es));
            if (n)
                CUDA_OK(cudaMemcpy(d_in, h_in, (size_t)n * es, cudaMemcpyHostToDevice));
        } else {
            CUDA_OK(cudaMemset(dst, 0xff, (size_t)(n + GUARD) * es));
            if (n && round == 0)
                CUDA_OK(cudaMemcpy(d_in, h_in, (size_t)n * es, cudaMemcpyHostToDevice));
        }
        GS_OK(gs_scan(op, kind, dtype_of<T>::value, d_in, dst, n, 0));
        CUDA_OK(cudaMemcpy(h_dst, dst, (size_t)(n + GUARD) * es, cudaMemcpyDeviceToHost));
        const unsigned char *guard = (const unsigned char *)(h_dst + n);
        int touched = 0;
        for (size_t i = 0; i < GUARD * es; ++i)
            touched += guard[i] != 0xffu;
        EXPECT(touched == 0, "%s: %d bytes past the end written", label, touched);
        checks += 1;
    }
    long long wrong = wrong_elements(op, kind, h_in, (const T *)b->h_out, n, exact_sum, label);
    EXPECT(wrong == 0, "%s: %lld of %lld elements wrong", label, wrong, n);
    EXPECT(memcmp(b->h_out, b->h_again, (size_t)n * es) == 0, "%s: not bitwise repeatable", label);
    if (first_result) { /* the same data at another alignment: the same bits */
        EXPECT(memcmp(first_result, b->h_out, (size_t)n * es) == 0,
               "%s: differs from the aligned run on the same data", label);
        checks += 1;
    }
    return checks + 2;
}

/* Every op and kind of T at the lengths given; the layouts at the lengths
 * marked for them, where the data of the aligned run is scanned again
 * misaligned and in place and must give the same bits. */
template <class T>
static int check_type(buffers *b, const long long *lengths, int nlen, int layouts_from)
{
    const layout aligned = {0, 0, false};
    const layout others[] = {{1, 1, false}, {1, 0, false}, {0, 3, false}, {0, 0, true},
                             {1, 0, true}};
    int checks = 0;
    long long longest = 0;
    for (int i = 0; i < nlen; ++i)
        longest = lengths[i] > longest ? lengths[i] : longest;
    T *first = (T *)malloc((size_t)(longest + 1) * sizeof(T));
    for (int op = 0; op < GS_SCAN_OP_COUNT; ++op)
        for (int kind = 0; kind < GS_SCAN_KIND_COUNT; ++kind)
            for (int i = 0; i < nlen; ++i) {
                long long n = lengths[i];
                if (n + 8 > b->cap)
                    continue;
                checks += check_case<T>(b, (gs_scan_op)op, (gs_scan_kind)kind, n, aligned,
                                        FILL_REAL, NULL);
                if (i < layouts_from)
                    continue;
                memcpy(first, b->h_out, (size_t)n * sizeof(T));
                for (const layout &l : others) {
                    /* the same data, moved to the new offset */
                    memmove((T *)b->h_in + l.in_offset, (T *)b->h_in, (size_t)n * sizeof(T));
                    checks += check_case<T>(b, (gs_scan_op)op, (gs_scan_kind)kind, n, l,
                                            FILL_REAL, first);
                    memmove((T *)b->h_in, (T *)b->h_in + l.in_offset, (size_t)n * sizeof(T));
                }
            }
    free(first);
    return checks;
}

/* Floating sums that must be exact (small integers), and positive data,
 * where the bound is relative, up to `big`. */
template <class T>
static int check_float_sums(buffers *b, long long big)
{
    const long long short_tile = tile_of<T>(1), tile = latency_tile<T>();
    const long long latency_from = GS_TUNE_SCAN_SHORT_TO_BYTES / (long long)sizeof(T);
    const long long lengths[] = {1, 7, short_tile - 1, short_tile + 1, latency_from + 1,
                                 65 * tile + 3, 300 * tile + 17, (1ll << 21) - 5, big};
    int checks = 0;
    for (int i = 0; i < (int)(sizeof lengths / sizeof lengths[0]); ++i) {
        long long n = lengths[i];
        if (n + 8 > b->cap)
            continue;
        bool exact_ok = sizeof(T) == 8 || n <= (1ll << 21); /* 7 n < 2^24 */
        for (int kind = 0; kind < 2; ++kind) {
            if (exact_ok)
                checks += check_case<T>(b, GS_SCAN_SUM, (gs_scan_kind)kind, n, layout{0, 0, false},
                                        FILL_SMALL_INTS, NULL);
            checks += check_case<T>(b, GS_SCAN_SUM, (gs_scan_kind)kind, n, layout{0, 0, false},
                                    FILL_POSITIVE, NULL);
        }
    }
    return checks;
}

/* NaN propagates through min and max prefixes; infinities are values. */
static int check_special(buffers *b)
{
    const long long n = 3 * latency_tile<float>() + 77;
    float *h = (float *)b->h_in, *d = (float *)b->d_in, *y = (float *)b->h_out;
    int checks = 0;
    for (int op = GS_SCAN_MIN; op <= GS_SCAN_MAX; ++op)
        for (long long nan_at = 5; nan_at < n; nan_at += 4099) {
            fill(h, n, FILL_REAL);
            h[1] = INFINITY;
            h[2] = -INFINITY;
            h[nan_at] = NAN;
            CUDA_OK(cudaMemcpy(d, h, (size_t)n * 4, cudaMemcpyHostToDevice));
            GS_OK(gs_scan((gs_scan_op)op, GS_SCAN_INCLUSIVE, GS_FLOAT32, d, b->d_out, n, 0));
            CUDA_OK(cudaMemcpy(y, b->d_out, (size_t)n * 4, cudaMemcpyDeviceToHost));
            long long wrong = 0;
            for (long long k = 0; k < n; ++k) {
                bool want_nan = k >= nan_at;
                float want = op == GS_SCAN_MIN ? -INFINITY : INFINITY;
                wrong += want_nan ? !isnan(y[k]) : (k >= (op == GS_SCAN_MIN ? 2 : 1) && y[k] != want);
            }
            EXPECT(wrong == 0, "%s with NaN at %lld: %lld prefixes wrong", gs_scan_op_name((gs_scan_op)op),
                   nan_at, wrong);
            ++checks;
        }
    /* exclusive: element 0 is the identity */
    GS_OK(gs_scan(GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, GS_FLOAT32, d, b->d_out, n, 0));
    CUDA_OK(cudaMemcpy(y, b->d_out, 4, cudaMemcpyDeviceToHost));
    EXPECT(isinf(y[0]) && y[0] > 0, "exclusive min: element 0 is %g, not +inf", y[0]);
    return checks + 1;
}

/* ------------------------------------------------- in-place chains */

/* In-place int32 scans back to back on one stream, each reading what the
 * one before it wrote: on sm_90 a call's blocks start, and prefetch their
 * tiles into L2, while the previous call is still writing those very
 * elements (single_pass_prefetch_l2, before the programmatic-launch wait).
 * Every call must still read the finished values. The kinds alternate at
 * random; the reference applies the same scans on the CPU (wrapping). One
 * length per kernel: one block per tile (aligned, and misaligned with a
 * partial tile), the tile loop (28 MB: more tiles than a wave, so blocks
 * loop) and, past 32 MiB, the resident kernel. Whether a call's blocks do
 * start before the previous call ends is the scheduler's choice;
 * check_prefetch_race makes sure of it. */
static int check_in_place_chain(int quick)
{
    enum { CALLS = 12 };
    const long long lengths[] = {1ll << 19, (1ll << 19) - 777, 7000001, 9000011};
    const int offsets[] = {0, 3, 1, 0};
    const int nlen = quick ? 2 : 4;
    int checks = 0;
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        int *d, *h_in = (int *)malloc((size_t)n * 4), *h_out = (int *)malloc((size_t)n * 4);
        unsigned int *want = (unsigned int *)malloc((size_t)n * 4);
        CUDA_OK(cudaMalloc((void **)&d, (size_t)(n + offsets[l]) * 4));
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        fill(h_in, n, FILL_REAL);
        for (long long i = 0; i < n; ++i)
            want[i] = (unsigned int)h_in[i];
        CUDA_OK(cudaMemcpy(d + offsets[l], h_in, (size_t)n * 4, cudaMemcpyHostToDevice));
        int kinds = 0;
        for (int c = 0; c < CALLS; ++c) {
            const int exclusive = (int)(next_u64() & 1u);
            kinds |= 1 << exclusive;
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                          GS_INT32, d + offsets[l], d + offsets[l], n, s));
            unsigned int run = 0u;
            for (long long i = 0; i < n; ++i) {
                const unsigned int x = want[i];
                want[i] = exclusive ? run : run + x;
                run += x;
            }
        }
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(h_out, d + offsets[l], (size_t)n * 4, cudaMemcpyDeviceToHost));
        long long wrong = 0;
        for (long long i = 0; i < n; ++i)
            wrong += (unsigned int)h_out[i] != want[i];
        EXPECT(wrong == 0, "%d in-place scans back to back, n %lld, offset %d: %lld elements wrong",
               CALLS, n, offsets[l], wrong);
        printf("  %d in-place scans back to back (kinds %s), n %lld, offset %d: %lld wrong\n",
               CALLS, kinds == 3 ? "mixed" : kinds == 2 ? "exclusive" : "inclusive", n, offsets[l],
               wrong);
        ++checks;
        CUDA_OK(cudaStreamDestroy(s));
        cudaFree(d);
        free(h_in);
        free(h_out);
        free(want);
    }
    return checks;
}

/* ------------------------------------------------- a writer the scan overtakes */

/* Lets the next kernel on the stream be scheduled at once (programmatic
 * launch completion, sm_90), waits spin_ns, then copies `fresh` over `dst`
 * and stamps when it is done (end_ns, the latest block's globaltimer). A
 * gs_scan of `dst` launched after it starts while it spins: its blocks
 * prefetch the old bytes into L2 before their launch wait, and must read
 * the new ones after it. The spin is bounded by the global timer. */
static __global__ void late_writer(int *dst, const int *fresh, long long n,
                                   unsigned long long spin_ns, unsigned long long *end_ns)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const unsigned long long t0 = gs_globaltimer_ns();
    while (gs_globaltimer_ns() - t0 < spin_ns) {
    }
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = fresh[i];
    __syncthreads();
    if (threadIdx.x == 0u)
        atomicMax(end_ns, gs_globaltimer_ns());
}

/* Launched with programmatic dependent launch after late_writer, as
 * gs_scan is: when it started (before its launch wait). */
static __global__ void early_observer(unsigned long long *start_ns)
{
    if (threadIdx.x == 0u)
        *start_ns = gs_globaltimer_ns();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* gs_scan behind a kernel that writes its input late (late_writer): the
 * scan's blocks are scheduled while the writer spins, prefetch the input's
 * old bytes into L2 (single_pass_prefetch_l2) and wait; the result must be
 * the scan of the new bytes. First a PDL-launched observer shows that this
 * device starts a dependent kernel before the writer ends (printed, not
 * asserted: the scheduler may decline, and the sanitizers serialize
 * kernels). int32 sums against the CPU (wrapping), output poisoned, apart
 * (output misaligned by one) and in place; one length per kernel: one block
 * per tile (input misaligned, a partial tile), the tile loop, the resident
 * kernel (input misaligned). */
static int check_prefetch_race(int quick)
{
    const long long lengths[] = {(1ll << 19) - 777, 7000001, 9000011};
    const int offsets[] = {1, 0, 3};
    const int nlen = quick ? 2 : 3;
    const unsigned long long spin_ns = 50000ull;
    int checks = 0;
    cudaStream_t s;
    unsigned long long *d_stamps, h_stamps[2];
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_stamps, 2 * sizeof(unsigned long long)));
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        const int off = offsets[l];
        int *d_in, *d_fresh, *d_out;
        int *h_old = (int *)malloc((size_t)n * 4), *h_fresh = (int *)malloc((size_t)n * 4);
        int *h_out = (int *)malloc((size_t)(n + 2) * 4);
        CUDA_OK(cudaMalloc((void **)&d_in, (size_t)(n + off) * 4));
        CUDA_OK(cudaMalloc((void **)&d_fresh, (size_t)n * 4));
        CUDA_OK(cudaMalloc((void **)&d_out, (size_t)(n + 2) * 4));
        fill(h_old, n, FILL_REAL);
        fill(h_fresh, n, FILL_REAL);
        CUDA_OK(cudaMemcpy(d_fresh, h_fresh, (size_t)n * 4, cudaMemcpyHostToDevice));
        if (l == 0) { /* does a dependent kernel start early here? */
            /* both kernels loaded first: the first launch of a kernel
             * (lazy loading) waits for the work in flight */
            late_writer<<<1, 32, 0, s>>>(d_in + off, d_fresh, 0, 0ull, d_stamps);
            early_observer<<<1, 32, 0, s>>>(d_stamps + 1);
            CUDA_OK(cudaGetLastError());
            CUDA_OK(cudaMemsetAsync(d_stamps, 0, 2 * sizeof(unsigned long long), s));
            late_writer<<<4, 256, 0, s>>>(d_in + off, d_fresh, n, spin_ns, d_stamps);
            cudaLaunchAttribute attr[1];
            attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr[0].val.programmaticStreamSerializationAllowed = 1;
            cudaLaunchConfig_t config = {};
            config.gridDim = dim3(1);
            config.blockDim = dim3(32);
            config.stream = s;
            config.attrs = attr;
            config.numAttrs = 1;
            CUDA_OK(cudaLaunchKernelEx(&config, early_observer, d_stamps + 1));
            CUDA_OK(cudaMemcpyAsync(h_stamps, d_stamps, sizeof h_stamps, cudaMemcpyDeviceToHost, s));
            CUDA_OK(cudaStreamSynchronize(s));
            if (h_stamps[1] < h_stamps[0])
                printf("  a kernel launched after the late writer started %.1f us before the "
                       "writer's last store (programmatic dependent launch)\n",
                       (double)(h_stamps[0] - h_stamps[1]) * 1e-3);
            else
                printf("  a kernel launched after the late writer started after its last store: "
                       "no early start here, the race below is not exercised\n");
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            const int exclusive = (int)(next_u64() & 1u);
            int *dst = in_place ? d_in + off : d_out + 1;
            CUDA_OK(cudaMemcpy(d_in + off, h_old, (size_t)n * 4, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(d_out, 0xab, (size_t)(n + 2) * 4));
            CUDA_OK(cudaMemset(d_stamps, 0, 2 * sizeof(unsigned long long)));
            late_writer<<<4, 256, 0, s>>>(d_in + off, d_fresh, n, spin_ns, d_stamps);
            CUDA_OK(cudaGetLastError());
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE, GS_INT32,
                          d_in + off, dst, n, s));
            CUDA_OK(cudaStreamSynchronize(s));
            int outside = 0;
            if (in_place) {
                CUDA_OK(cudaMemcpy(h_out + 1, d_in + off, (size_t)n * 4, cudaMemcpyDeviceToHost));
            } else {
                CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)(n + 2) * 4, cudaMemcpyDeviceToHost));
                outside = h_out[0] != (int)0xabababab || h_out[n + 1] != (int)0xabababab;
            }
            const long long wrong =
                wrong_elements<int>(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                                    h_fresh, h_out + 1, n, true, "scan behind a late writer");
            EXPECT(wrong == 0 && !outside,
                   "scan behind a late writer, n %lld, offset %d, %s, %s: %lld elements wrong%s",
                   n, off, exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart",
                   wrong, outside ? ", a neighbour of the output written" : "");
            printf("  scan behind a late writer, n %lld, offset %d, %s, %s: %lld wrong\n", n, off,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong);
            ++checks;
        }
        cudaFree(d_in);
        cudaFree(d_fresh);
        cudaFree(d_out);
        free(h_old);
        free(h_fresh);
        free(h_out);
    }
    cudaFree(d_stamps);
    CUDA_OK(cudaStreamDestroy(s));
    return checks;
}

/* ------------------------------------------------- managed memory */

/* gs_scan takes managed memory: input and output of cudaMallocManaged,
 * written last by the CPU (their pages on the host when the call starts;
 * the kernels skip their L2 prefetch for such an input: scan_args'
 * prefetch_input). int32 sums against the CPU (wrapping), the output
 * poisoned first, in and out apart (the output misaligned by one
 * element) and in place; one length per kernel: one block per tile (a
 * partial last tile), the tile loop and, past 32 MiB, the resident kernel. */
static int check_managed(int quick)
{
    const long long lengths[] = {(1ll << 19) - 777, 7000001, 9000011};
    const int nlen = quick ? 2 : 3;
    int checks = 0, dev = 0, managed = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
    if (!managed) {
        printf("  managed memory: not supported by this device, not checked\n");
        return 0;
    }
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        int *in, *out;
        CUDA_OK(cudaMallocManaged((void **)&in, (size_t)n * 4));
        CUDA_OK(cudaMallocManaged((void **)&out, (size_t)(n + 2) * 4));
        int *h_in = (int *)malloc((size_t)n * 4); /* the input, kept for the reference */
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        for (int in_place = 0; in_place < 2; ++in_place) {
            const int exclusive = (int)(next_u64() & 1u);
            int *dst = in_place ? in : out + 1;
            fill(in, n, FILL_REAL); /* on the host: the pages move there */
            for (long long i = 0; i < n + 2; ++i)
                out[i] = (int)0xdeadbeef;
            memcpy(h_in, in, (size_t)n * 4);
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE, GS_INT32,
                          in, dst, n, s));
            CUDA_OK(cudaStreamSynchronize(s));
            const long long wrong =
                wrong_elements<int>(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                                    h_in, dst, n, true, "managed memory");
            const int outside = !in_place && (out[0] != (int)0xdeadbeef ||
                                              out[n + 1] != (int)0xdeadbeef);
            EXPECT(wrong == 0 && !outside,
                   "managed memory, n %lld, %s, %s: %lld elements wrong%s", n,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong,
                   outside ? ", a neighbour of the output written" : "");
            printf("  managed memory, n %lld, %s, %s: %lld wrong\n", n,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong);
            ++checks;
        }
        CUDA_OK(cudaStreamDestroy(s));
        cudaFree(in);
        cudaFree(out);
        free(h_in);
    }
    return checks;
}

/* ------------------------------------------------- streams and threads */

/* Calls of different lengths and types back to back on two streams,
 * reductions in between (the same workspace); every output its own buffer,
 * checked at the end. */
static int check_two_streams(int quick)
{
    enum { CALLS = 48 };
    const int calls = quick ? 6 : CALLS;
    const long long most = 200000;
    cudaStream_t s[2];
    int *d_in, *d_out, *h_in, *h_out;
    long long *d_sum, h_sum[2 * CALLS];
    CUDA_OK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, most * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)2 * calls * most * 4));
    CUDA_OK(cudaMalloc((void **)&d_sum, sizeof h_sum));
    h_in = (int *)malloc(most * 4);
    h_out = (int *)malloc((size_t)2 * calls * most * 4);
    fill(h_in, most, FILL_REAL);
    CUDA_OK(cudaMemcpy(d_in, h_in, most * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_out, 0xff, (size_t)2 * calls * most * 4));
    long long lengths[2 * CALLS];
    for (int i = 0; i < calls; ++i)
        for (int k = 0; k < 2; ++k) {
            int j = 2 * i + k;
            lengths[j] = 1 + (long long)(next_u64() % (unsigned long long)most);
            gs_scan_kind kind = (gs_scan_kind)(j % 2);
            GS_OK(gs_scan(GS_SCAN_SUM, kind, GS_INT32, d_in, d_out + (size_t)j * most, lengths[j],
                          s[k]));
            /* the reduction folds the input in a different shape: a busy workspace */
            GS_OK(gs_reduce_sum(GS_INT64, (const long long *)d_in, lengths[j] / 2, d_sum + j, s[k]));
        }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)2 * calls * most * 4, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(h_sum, d_sum, (size_t)2 * calls * 8, cudaMemcpyDeviceToHost));
    long long wrong = 0, wrong_sums = 0;
    for (int j = 0; j < 2 * calls; ++j) {
        wrong += wrong_elements(GS_SCAN_SUM, (gs_scan_kind)(j % 2), h_in, h_out + (size_t)j * most,
                                lengths[j], false, "two streams");
        unsigned long long want = 0;
        for (long long i = 0; i < lengths[j] / 2; ++i)
            want += (unsigned long long)((const long long *)h_in)[i];
        wrong_sums += (long long)want != h_sum[j];
    }
    EXPECT(wrong == 0 && wrong_sums == 0, "two streams, %d calls each: %lld elements and %lld "
           "reductions wrong", calls, wrong, wrong_sums);
    printf("  2 streams x %d scans (and reductions) back to back: %lld wrong elements\n", calls,
           wrong);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sum);
    free(h_in);
    free(h_out);
    cudaStreamDestroy(s[0]);
    cudaStreamDestroy(s[1]);
    return 1;
}

/* Host threads scanning their own data, each many times: on their own
 * streams, or all on one shared stream. */
struct worker {
    cudaStream_t stream; /* 0: the thread makes its own */
    int index, rounds, wrong, failed;
};

static void *scan_worker(void *arg)
{
    worker *w = (worker *)arg;
    const long long n = 70001 + 4096 * w->index;
    long long *h = (long long *)malloc((size_t)n * 8), *y = (long long *)malloc((size_t)n * 8);
    long long *d_in, *d_out;
    cudaStream_t s = w->stream;
    if (!s)
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, (size_t)n * 8));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)n * 8));
    unsigned long long state = 0x1234567ull * (unsigned long long)(w->index + 1);
    for (int r = 0; r < w->rounds; ++r) {
        for (long long i = 0; i < n; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            h[i] = (long long)(state >> 1);
        }
        CUDA_OK(cudaMemcpyAsync(d_in, h, (size_t)n * 8, cudaMemcpyHostToDevice, s));
        gs_scan_kind kind = (gs_scan_kind)(r % 2);
        w->failed += gs_scan(GS_SCAN_SUM, kind, GS_INT64, d_in, d_out, n, s) != GS_SUCCESS;
        CUDA_OK(cudaMemcpyAsync(y, d_out, (size_t)n * 8, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        w->wrong += wrong_elements(GS_SCAN_SUM, kind, h, y, n, false, "thread") != 0;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    if (!w->stream)
        cudaStreamDestroy(s);
    free(h);
    free(y);
    return NULL;
}

static int check_threads(int quick)
{
    cudaStream_t shared;
    CUDA_OK(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking));
    int checks = 0;
    for (int mode = 0; mode < 2; ++mode) {
        pthread_t tid[2];
        worker w[2];
        for (int t = 0; t < 2; ++t) {
            w[t] = worker{mode ? shared : (cudaStream_t)0, t, quick ? 3 : 60, 0, 0};
            pthread_create(&tid[t], NULL, scan_worker, &w[t]);
        }
        for (int t = 0; t < 2; ++t)
            pthread_join(tid[t], NULL);
        EXPECT(w[0].wrong + w[1].wrong + w[0].failed + w[1].failed == 0,
               "2 threads (%s): %d and %d scans wrong, %d and %d failed",
               mode ? "one stream" : "own streams", w[0].wrong, w[1].wrong, w[0].failed,
               w[1].failed);
        printf("  2 threads x %d scans, %s: %d wrong\n", w[0].rounds,
               mode ? "one shared stream" : "own streams", w[0].wrong + w[1].wrong);
        ++checks;
    }
    cudaStreamDestroy(shared);
    return checks;
}

/* gs_reduce_release_workspaces racing scans in two threads, whose lengths
 * grow (descriptor areas replaced while old ones may still be in use). */
struct racer {
    volatile int *stop;
    int calls, wrong;
};

static void *racing_scanner(void *arg)
{
    racer *r = (racer *)arg;
    const long long most = 40 * latency_tile<int>();
    int *h = (int *)malloc(most * 4), *y = (int *)malloc(most * 4), *d_in, *d_out;
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, most * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, most * 4));
    for (long long i = 0; i < most; ++i)
        h[i] = (int)(i * 2654435761u);
    CUDA_OK(cudaMemcpy(d_in, h, most * 4, cudaMemcpyHostToDevice));
    for (long long n = latency_tile<int>() + 1; !*r->stop; n = n * 3 / 2 > most ? 1 : n * 3 / 2 + 1) {
        bool ok = gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_INT32, d_in, d_out, n, s) == GS_SUCCESS;
        CUDA_OK(cudaMemcpyAsync(y, d_out, (size_t)n * 4, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        r->wrong += !ok || wrong_elements(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, h, y, n, false, "race");
        ++r->calls;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaStreamDestroy(s);
    free(h);
    free(y);
    return NULL;
}

static int check_release_race(int quick)
{
    volatile int stop = 0;
    racer r[2] = {{&stop, 0, 0}, {&stop, 0, 0}};
    pthread_t tid[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&tid[i], NULL, racing_scanner, &r[i]);
    for (int i = 0; i < (quick ? 20 : 1000); ++i)
        gs_reduce_release_workspaces();
    stop = 1;
    for (int i = 0; i < 2; ++i)
        pthread_join(tid[i], NULL);
    EXPECT(r[0].wrong + r[1].wrong == 0, "release racing %d scans: %d wrong",
           r[0].calls + r[1].calls, r[0].wrong + r[1].wrong);
    printf("  gs_reduce_release_workspaces racing %d scans in 2 threads: %d wrong\n",
           r[0].calls + r[1].calls, r[0].wrong + r[1].wrong);
    return 1;
}

/* More streams than the workspace cache holds: workspaces are recycled
 * between streams with their descriptors and counters as they are. */
static int check_stream_churn(int quick)
{
    const int streams = quick ? 80 : 300;
    const long long n = 3 * latency_tile<int>() + 5;
    int *d_in, *d_out, *h_in, *h_out;
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)streams * n * 4));
    h_in = (int *)malloc(n * 4);
    h_out = (int *)malloc((size_t)streams * n * 4);
    fill(h_in, n, FILL_REAL);
    CUDA_OK(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice));
    int failed = 0;
    for (int i = 0; i < streams; ++i) {
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        failed += gs_scan(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, GS_INT32, d_in, d_out + (size_t)i * n, n,
                          s) != GS_SUCCESS;
        CUDA_OK(cudaStreamDestroy(s)); /* its kernel may still run */
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)streams * n * 4, cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (int i = 0; i < streams; ++i)
        wrong += wrong_elements(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, h_in, h_out + (size_t)i * n, n,
                                false, "stream churn");
    EXPECT(failed == 0 && wrong == 0, "%d streams: %d calls failed, %lld elements wrong", streams,
           failed, wrong);
    printf("  %d streams created, scanned once, destroyed: %lld wrong\n", streams, wrong);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 1;
}

/* A scan captured in a graph (its workspace the graph's own, zeroed by a
 * node at every replay) and replayed on fresh data. */
static int check_capture(void)
{
    const long long n = 50 * latency_tile<float>() + 3;
    float *d_in, *d_out, *h_in = (float *)malloc(n * 4), *h_out = (float *)malloc(n * 4);
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, n * 4));
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    gs_status st = gs_scan(GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, GS_FLOAT32, d_in, d_out, n, s);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    EXPECT(st == GS_SUCCESS, "a scan inside a capture: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    long long wrong = 0;
    for (int rep = 0; rep < 3; ++rep) {
        fill(h_in, n, FILL_SMALL_INTS);
        CUDA_OK(cudaMemcpyAsync(d_in, h_in, n * 4, cudaMemcpyHostToDevice, s));
        CUDA_OK(cudaGraphLaunch(exec, s));
        CUDA_OK(cudaMemcpyAsync(h_out, d_out, n * 4, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        wrong += wrong_elements(GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, h_in, h_out, n, true, "graph");
    }
    EXPECT(wrong == 0, "graph replays on fresh data: %lld elements wrong", wrong);
    printf("  a captured scan replayed 3 times on fresh data: %lld wrong\n", wrong);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 1;
}

/* ---------------------------------------------------------- bad input */

/* Refused with GS_ERR_INVALID_ARGUMENT, and the output still poisoned. */
static int check_bad_input(buffers *b)
{
    const long long n = 5000;
    float *d_in = (float *)b->d_in, *d_out = (float *)b->d_out, *y = (float *)b->h_out;
    float *host = (float *)malloc(n * 4);
    struct {
        const char *what;
        const void *in;
        void *out;
        long long n;
    } cases[] = {
        {"NULL input", NULL, d_out, n},
        {"NULL output", d_in, NULL, n},
        {"negative length", d_in, d_out, -3},
        {"host input", host, d_out, n},
        {"host output", d_in, host, n},
        {"output one element after the input", d_out + 1, d_out, n},
        {"output one element before the input", d_out, d_out + 1, n},
    };
    int checks = 0;
    for (const auto &c : cases) {
        CUDA_OK(cudaMemset(d_out, 0xff, (n + 1) * 4));
        CUDA_OK(cudaDeviceSynchronize());
        gs_status st = gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT32, c.in, c.out, c.n, 0);
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(y, d_out, (n + 1) * 4, cudaMemcpyDeviceToHost));
        int touched = 0;
        for (long long i = 0; i <= n; ++i)
            touched += !isnan(y[i]);
        EXPECT(st == GS_ERR_INVALID_ARGUMENT && touched == 0, "%s: %s (%s), %d elements written",
               c.what, gs_status_string(st), gs_last_error_detail(), touched);
        ++checks;
    }
    EXPECT(gs_scan((gs_scan_op)3, GS_SCAN_INCLUSIVE, GS_FLOAT32, d_in, d_out, n, 0) ==
               GS_ERR_INVALID_ARGUMENT, "unknown op accepted");
    EXPECT(gs_scan(GS_SCAN_SUM, (gs_scan_kind)2, GS_FLOAT32, d_in, d_out, n, 0) ==
               GS_ERR_INVALID_ARGUMENT, "unknown kind accepted");
    EXPECT(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, (gs_dtype)4, d_in, d_out, n, 0) ==
               GS_ERR_INVALID_ARGUMENT, "unknown type accepted");
    EXPECT(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT32, NULL, NULL, 0, 0) == GS_SUCCESS,
           "n = 0 with NULL pointers refused");
    EXPECT(gs_scan_check(0) == GS_SUCCESS, "gs_scan_check after good runs: %s",
           gs_last_error_detail());
    free(host);
    return checks + 5;
}

/* ------------------------------------------------------------ time-out */

/*
 * The kernel (this test's own instance) on a state where tile 0 is never
 * taken: the ticket starts at 1, so tile 1's look-back can never finish.
 * Three blocks for two tiles (a grid of one block per tile would draw one
 * ticket each, and the reset would come before the third draw here). With
 * a 20 ms time-out it must end, record the fault (tile 1 of 2, the call's
 * number), set the abort word, still reset the ticket and count the three
 * blocks out, and leave tile 1's output unwritten.
 */
typedef gs::detail::scan_policy<float, gs::detail::scan_bandwidth> bandwidth_f32;
typedef gs::detail::scan_policy<int, gs::detail::scan_bandwidth> bandwidth_i32;

/* Launch the bandwidth tiling's register or resident kernel of Op on
 * `blocks` blocks (the resident one with its shared memory allowed). */
template <class Op>
static void launch_bandwidth(bool resident, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<typename Op::value_type, gs::detail::scan_bandwidth> policy;
    if (!resident) {
        gs::detail::single_pass_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
        return;
    }
    const int smem = gs::detail::scan_resident_bytes<policy, typename Op::value_type>();
    CUDA_OK(cudaFuncSetAttribute(gs::detail::single_pass_scan_resident_kernel<policy, Op>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    gs::detail::single_pass_scan_resident_kernel<policy, Op>
        <<<blocks, gs::detail::scan_resident_threads<policy>(), smem>>>(a);
}

/* Whether this GPU runs the resident kernel (sm_90 and later, with code
 * built for it: src/scan/scan.cu's kernel_shape asks the same); where it
 * does not, the library never selects it and its direct cases are skipped. */
static bool resident_runs(void)
{
    int device = 0, major = 0;
    cudaFuncAttributes attr;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_OK(cudaFuncGetAttributes(
        &attr, gs::detail::single_pass_scan_resident_kernel<bandwidth_f32, gs::sum<float>>));
    return major >= 9 && attr.ptxVersion >= 90;
}

/* What a direct launch of the bandwidth kernels needs beside its data (the
 * library's workspace holds the same, src/scan/scan.cu): descriptors for
 * `tiles` tiles and the look-back window past them, zeroed; the four
 * counter words (ticket, abort, blocks out, abort's call), the ticket set
 * to `ticket`; and a fault record the host reads while the kernel runs. */
struct direct_workspace {
    unsigned long long *desc;
    unsigned int *counters;
    unsigned int *fault;   /* host view of the record */
    unsigned int *d_fault; /* the device's view of it */
};

static direct_workspace direct_workspace_make(long long tiles, unsigned int ticket)
{
    direct_workspace w;
    const size_t desc_bytes = (size_t)(tiles + 64) * 64;
    const unsigned int start[4] = {ticket, 0u, 0u, 0u};
    CUDA_OK(cudaMalloc((void **)&w.desc, desc_bytes));
    CUDA_OK(cudaMalloc((void **)&w.counters, sizeof start));
    CUDA_OK(cudaHostAlloc((void **)&w.fault, 16, cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer((void **)&w.d_fault, w.fault, 0));
    memset(w.fault, 0, 16);
    CUDA_OK(cudaMemset(w.desc, 0, desc_bytes));
    CUDA_OK(cudaMemcpy(w.counters, start, sizeof start, cudaMemcpyHostToDevice));
    return w;
}

static void direct_workspace_free(direct_workspace *w)
{
    CUDA_OK(cudaFree(w->desc));
    CUDA_OK(cudaFree(w->counters));
    CUDA_OK(cudaFreeHost(w->fault));
}

static int check_timeout_of(bool resident)
{
    typedef bandwidth_f32 policy;
    const char *which = resident ? "resident" : "register";
    const long long n = 2 * policy::tile_items;
    float *d_in, *d_out, *h_out = (float *)malloc(n * 4);
    unsigned int words[4], record[4];
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, n * 4));
    CUDA_OK(cudaMemset(d_in, 0, n * 4));
    CUDA_OK(cudaMemset(d_out, 0xff, n * 4));
    direct_workspace w = direct_workspace_make(2, 1u); /* tile 0's ticket taken */
    gs::detail::scan_args a = {d_in, d_out, n, w.desc, w.counters, w.d_fault, 20000000ull,
                               7u, 2u, 0, 1};
    double t0 = now_seconds();
    launch_bandwidth<gs::sum<float>>(resident, 3, a);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    double seconds = now_seconds() - t0;
    CUDA_OK(cudaMemcpy(words, w.counters, 16, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
    memcpy(record, (const void *)w.fault, 16);
    int written = 0;
    for (long long i = policy::tile_items; i < n; ++i)
        written += !isnan(h_out[i]);
    EXPECT(record[0] == 1u && record[1] == 7u && record[2] == 1u && record[3] == 2u,
           "%s kernel: fault record %u %u %u %u, expected 1 7 1 2", which, record[0], record[1],
           record[2], record[3]);
    EXPECT(words[0] == 0u && words[2] == 3u && words[3] == 7u,
           "%s kernel, after the time-out: ticket %u (want 0), blocks out %u (want 3), abort %u "
           "(want 7)",
           which, words[0], words[2], words[3]);
    EXPECT(written == 0, "%s kernel: the tile that gave up wrote %d elements", which, written);
    EXPECT(seconds < 5.0, "%s kernel: the look-back took %.1f s to give up (time-out 20 ms)",
           which, seconds);
    printf("  %s kernel: a look-back that cannot finish gave up after %.3f s (time-out 0.02 s)\n",
           which, seconds);
    cudaFree(d_in);
    cudaFree(d_out);
    direct_workspace_free(&w);
    free(h_out);
    return 4;
}

static int check_timeout(void)
{
    return check_timeout_of(false) + (resident_runs() ? check_timeout_of(true) : 0);
}

/* Two kernels of one tiling launched directly (`launch`: kernel 0, the
 * reference, or 1, on `blocks[k]` blocks) must give the same bits: n
 * elements of Op's type from `h_in` at `in_offset` (in place when
 * `in_place`), outputs poisoned first; kernel 1 must write every element
 * and nothing past n, and no look-back may give up (time-out 2 s). */
struct kernel_pair {
    const char *names[2];
    void (*launch)(int k, unsigned int blocks, const gs::detail::scan_args &a);
    unsigned int blocks[2];
};

template <class Policy, class Op>
static int same_bits_case(const kernel_pair &pair, const typename Op::value_type *h_in,
                          long long n, int in_offset, bool in_place, int exclusive,
                          const char *what, int out_offset = -1)
{
    if (out_offset < 0 || in_place)
        out_offset = in_offset;
    typedef typename Op::value_type T;
    const long long tiles = (n + Policy::tile_items - 1) / Policy::tile_items;
    const size_t bytes = (size_t)(n + (in_offset > out_offset ? in_offset : out_offset) + GUARD) *
                         sizeof(T);
    char *d_in, *d_out[2], *h_out[2];
    CUDA_OK(cudaMalloc((void **)&d_in, bytes));
    direct_workspace w = direct_workspace_make(tiles, 0u);
    for (int k = 0; k < 2; ++k) {
        CUDA_OK(cudaMalloc((void **)&d_out[k], bytes));
        h_out[k] = (char *)malloc(bytes);
        T *src = (T *)d_in + in_offset;
        T *dst = in_place ? src : (T *)d_out[k] + out_offset;
        CUDA_OK(cudaMemset(d_in, 0xff, bytes));
        CUDA_OK(cudaMemset(d_out[k], 0xff, bytes));
        CUDA_OK(cudaMemcpy(src, h_in, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
        gs::detail::scan_args a = {src, dst, n, w.desc, w.counters, w.d_fault, 2000000000ull,
                                   1u + k, (unsigned int)tiles, exclusive, 1};
        pair.launch(k, pair.blocks[k], a);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(h_out[k], in_place ? d_in : d_out[k], bytes, cudaMemcpyDeviceToHost));
    }
    const size_t at = (size_t)out_offset * sizeof(T), used = (size_t)n * sizeof(T);
    long long poisoned = 0;
    for (long long i = 0; i < n; ++i) /* a scan of these inputs never gives all-ones bits */
        poisoned += ((const unsigned int *)(h_out[1] + at))[i * sizeof(T) / 4] == 0xffffffffu;
    int touched = 0;
    for (size_t i = at + used; i < bytes; ++i)
        touched += (unsigned char)h_out[1][i] != 0xffu;
    EXPECT(memcmp(h_out[0] + at, h_out[1] + at, used) == 0,
           "%s, %s (n=%lld, in+%d, out+%d%s, %s, %u blocks): not the bits of the %s on %u",
           pair.names[1], what, n, in_offset, out_offset, in_place ? ", in place" : "",
           exclusive ? "exclusive" : "inclusive", pair.blocks[1], pair.names[0], pair.blocks[0]);
    EXPECT(w.fault[0] == 0u, "%s, %s: a look-back gave up (time-out 2 s), tile %u",
           pair.names[1], what, w.fault[2]);
    EXPECT(poisoned == 0, "%s, %s: %lld elements left unwritten", pair.names[1], what, poisoned);
    EXPECT(touched == 0, "%s, %s: %d bytes past the end written", pair.names[1], what, touched);
    for (int k = 0; k < 2; ++k) {
        cudaFree(d_out[k]);
        free(h_out[k]);
    }
    cudaFree(d_in);
    direct_workspace_free(&w);
    return 3;
}

/* The bandwidth tiling's register kernel (0) and resident kernel (1). */
template <class Op>
static void launch_register_resident(int k, unsigned int blocks, const gs::detail::scan_args &a)
{
    launch_bandwidth<Op>(k == 1, blocks, a);
}

/* One case of check_resident: the resident kernel's bits must be the
 * register kernel's, both on `blocks` blocks. */
template <class Op>
static int resident_case(const typename Op::value_type *h_in, long long n, int in_offset,
                         bool in_place, int exclusive, unsigned int blocks, const char *what,
                         int out_offset = -1)
{
    typedef gs::detail::scan_policy<typename Op::value_type, gs::detail::scan_bandwidth> policy;
    const kernel_pair pair = {{"register kernel", "resident kernel"},
                              launch_register_resident<Op>,
                              {blocks, blocks}};
    return same_bits_case<policy, Op>(pair, h_in, n, in_offset, in_place, exclusive, what,
                                      out_offset);
}

/* The bandwidth tiling's resident kernel against its register kernel (the
 * library runs the first on sm_90 and later, the second elsewhere, and
 * promises the same bits): float sums and int max and min, inclusive and
 * exclusive, on random data; a partial last tile; input 16-byte aligned
 * (bulk copies), misaligned (the threads load), output misaligned, and in
 * place; one block, one
 * block per tile, and fewer blocks than tiles (tickets). Small enough for
 * the sanitizers. */
static int check_resident(void)
{
    const long long tile = bandwidth_f32::tile_items;
    const long long n = 5 * tile + 77;
    float *hf = (float *)malloc((size_t)n * sizeof(float));
    int *hi = (int *)malloc((size_t)n * sizeof(int));
    for (long long i = 0; i < n; ++i) {
        hf[i] = (float)(urand() * 2.0 - 1.0) * 100.0f;
        hi[i] = (int)(next_u64() & 0xffffffu); /* never -1: the poison */
    }
    int checks = 0;
    const unsigned int grids[] = {1u, 6u, 2u, 3u}; /* one, one per tile, fewer */
    for (unsigned int blocks : grids)
        for (int exclusive = 0; exclusive < 2; ++exclusive) {
            checks += resident_case<gs::sum<float>>(hf, n, 0, false, exclusive, blocks, "f32 sum");
            checks += resident_case<gs::sum<float>>(hf, n, 1, false, exclusive, blocks, "f32 sum");
            /* copied in, stored element by element */
            checks +=
                resident_case<gs::sum<float>>(hf, n, 0, false, exclusive, blocks, "f32 sum", 2);
            checks += resident_case<gs::max<int>>(hi, n, 0, true, exclusive, blocks, "i32 max");
        }
    checks += resident_case<gs::min<int>>(hi, 2 * tile, 3, true, 0, 2u, "i32 min");
    checks += resident_case<gs::sum<float>>(hf, tile - 5, 0, false, 1, 1u, "f32 sum");
    free(hf);
    free(hi);
    printf("  the resident kernel gives the register kernel's bits: %d checks\n", checks);
    return checks;
}

/* ------------------------------------------------- the one-tile kernel */

/* A tiling's tile loop (0) and its one-tile kernel (1). */
template <class Op, int Tiling>
static void launch_loop_or_one_tile(int k, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<typename Op::value_type, Tiling> policy;
    if (k == 0)
        gs::detail::single_pass_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
    else
        gs::detail::single_tile_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
}

/* One case of check_one_tile: the one-tile kernel on one block per tile
 * must give the bits of the tile loop on `loop_blocks` blocks. */
template <class Op, int Tiling>
static int one_tile_case(const typename Op::value_type *h_in, long long n, int in_offset,
                         bool in_place, int exclusive, unsigned int loop_blocks, const char *what,
                         int out_offset = -1)
{
    typedef gs::detail::scan_policy<typename Op::value_type, Tiling> policy;
    const unsigned int tiles = (unsigned int)((n + policy::tile_items - 1) / policy::tile_items);
    const kernel_pair pair = {{"tile loop", "one-tile kernel"},
                              launch_loop_or_one_tile<Op, Tiling>,
                              {loop_blocks, tiles}};
    return same_bits_case<policy, Op>(pair, h_in, n, in_offset, in_place, exclusive, what,
                                      out_offset);
}

/* The one-tile kernels of the short and latency tilings (gs_scan runs them
 * where the grid has one block per tile) against their tile loops on one
 * block per tile, three blocks (tickets) and one: float sums of real values
 * and int max, inclusive and exclusive, aligned, input misaligned, output
 * misaligned (stored element by element) and in place, partial last tiles;
 * and float sums over 70 tiles, whose last look-backs start past tile 0's
 * 64-tile window. */
template <int Tiling>
static int check_one_tile_of(const float *hf, const int *hi, int quick)
{
    typedef gs::detail::scan_policy<float, Tiling> policy;
    const long long n = 5 * policy::tile_items + 77, tiles = 6;
    const unsigned int grids[] = {(unsigned int)tiles, 3u, 1u};
    int checks = 0;
    for (unsigned int blocks : grids)
        for (int exclusive = 0; exclusive < 2; ++exclusive) {
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 0, false, exclusive, blocks,
                                                            "f32 sum");
            checks += one_tile_case<gs::max<int>, Tiling>(hi, n, 0, true, exclusive, blocks,
                                                          "i32 max");
            if (quick)
                continue;
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 1, false, exclusive, blocks,
                                                            "f32 sum");
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 0, false, exclusive, blocks,
                                                            "f32 sum", 3);
        }
    checks += one_tile_case<gs::sum<float>, Tiling>(hf, policy::tile_items - 5, 0, false, 1, 1u,
                                                    "f32 sum");
    if (!quick)
        checks += one_tile_case<gs::sum<float>, Tiling>(hf, 70 * policy::tile_items + 3, 0, false,
                                                        0, 7u, "f32 sum, 71 tiles");
    return checks;
}

static int check_one_tile(int quick)
{
    typedef gs::detail::scan_policy<float, gs::detail::scan_latency> latency;
    const long long n = 70 * latency::tile_items + 3; /* the largest case */
    float *hf = (float *)malloc((size_t)n * sizeof(float));
    int *hi = (int *)malloc((size_t)n * sizeof(int));
    if (!hf || !hi) {
        fprintf(stderr, "FATAL: out of host memory for %lld elements\n", n);
        exit(1);
    }
    for (long long i = 0; i < n; ++i) {
        hf[i] = (float)(urand() * 2.0 - 1.0) * 100.0f;
        hi[i] = (int)(next_u64() & 0xffffffu); /* never -1: the poison */
    }
    int checks = check_one_tile_of<gs::detail::scan_short>(hf, hi, quick);
    checks += check_one_tile_of<gs::detail::scan_latency>(hf, hi, quick);
    free(hf);
    free(hi);
    printf("  the one-tile kernels give their tile loops' bits: %d checks\n", checks);
    return checks;
}

/* ------------------------------------------------------ give-up stress */

/*
 * Both bandwidth kernels launched again and again with time-outs from
 * 200 ns to 100 us, on fresh random int32 data (sums exact, wrapping), on
 * a grid of more blocks than fit at once, one block per tile, a few
 * blocks, and one; the latency tiling's one-tile kernel the same, on one
 * block per tile. At full speed no wait outlasts 128 polls, so one
 * publication in 8 is held back 0-40 us (scan_test_delay): look-backs and
 * the resident kernel's aggregate wait then give up, or stop on another
 * tile's give-up, at any point of a block's tile loop. Every third launch
 * (not on one block per tile, whose tickets are not drawn past the tiles)
 * also withholds the tiles below s (the ticket starts at s > 0, as if
 * their blocks never ran), so that every tile from s on must give up.
 * Whatever happens, each launch must end without a CUDA error, reset the
 * ticket and count every block out; a launch that recorded no fault must
 * give the exact scan; one that withheld tiles must record the fault and
 * write nothing; and the state must stay usable: a last launch with a
 * generous time-out is exact.
 */
static void scan_i32_reference(const int *x, unsigned int *y, long long n, int exclusive)
{
    unsigned int acc = 0u;
    for (long long i = 0; i < n; ++i) {
        const unsigned int v = (unsigned int)x[i];
        y[i] = exclusive ? acc : acc + v;
        acc += v;
    }
}

/* The kernels the stress runs: the bandwidth tiling's two, and the
 * latency tiling's one-tile kernel (on one block per tile only). */
enum stress_kernel { stress_register, stress_resident, stress_one_tile };

static void launch_stress(stress_kernel kind, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<int, gs::detail::scan_latency> latency_i32;
    if (kind == stress_one_tile)
        gs::detail::single_tile_scan_kernel<latency_i32, gs::sum<int>>
            <<<blocks, latency_i32::threads>>>(a);
    else
        launch_bandwidth<gs::sum<int>>(kind == stress_resident, blocks, a);
}

static int give_up_stress_of(stress_kernel kind, long long tiles, unsigned int blocks,
                             int launches, unsigned int *seq)
{
    const char *which = kind == stress_resident   ? "resident"
                        : kind == stress_one_tile ? "one-tile"
                                                  : "register";
    const long long tile_items =
        kind == stress_one_tile ? gs::detail::scan_policy<int, gs::detail::scan_latency>::tile_items
                                : bandwidth_i32::tile_items;
    const long long n = tiles * tile_items - 37; /* a partial last tile */
    const size_t bytes = (size_t)n * sizeof(int);
    int *h_in = (int *)malloc(bytes), *d_in, *d_out;
    unsigned int *h_out = (unsigned int *)malloc(bytes), *want = (unsigned int *)malloc(bytes);
    if (!h_in || !h_out || !want) {
        fprintf(stderr, "FATAL: out of host memory for %lld elements\n", n);
        exit(1);
    }
    CUDA_OK(cudaMalloc((void **)&d_in, bytes));
    CUDA_OK(cudaMalloc((void **)&d_out, bytes));
    direct_workspace w = direct_workspace_make(tiles, 0u);
    static const unsigned long long timeouts[] = {200ull, 1000ull, 3000ull, 10000ull, 30000ull,
                                                  100000ull};
    int faulted = 0, withheld = 0, exact = 0;
    for (int l = 0; l <= launches; ++l) {
        const bool last = l == launches; /* the state still usable */
        const bool withhold = !last && blocks > 1u && blocks != (unsigned int)tiles && l % 3 == 2;
        const unsigned int start = withhold ? 1u + (unsigned int)(next_u64() % (tiles / 2)) : 0u;
        const int exclusive = (int)(next_u64() & 1u);
        for (long long i = 0; i < n; ++i)
            h_in[i] = (int)(unsigned int)next_u64();
        CUDA_OK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_out, 0xff, bytes));
        CUDA_OK(cudaMemcpy(w.counters, &start, 4, cudaMemcpyHostToDevice));
        unsigned int before[4];
        CUDA_OK(cudaMemcpy(before, w.counters, 16, cudaMemcpyDeviceToHost));
        memset(w.fault, 0, 16);
        ++*seq;
        const unsigned long long timeout = last ? 2000000000ull : timeouts[(l / 3 + l) % 6];
        gs::detail::scan_args a = {d_in, d_out, n, w.desc, w.counters, w.d_fault, timeout,
                                   *seq, (unsigned int)tiles, exclusive, 1};
        launch_stress(kind, blocks, a);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        unsigned int words[4], record[4];
        CUDA_OK(cudaMemcpy(words, w.counters, 16, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
        memcpy(record, (const void *)w.fault, 16);
        EXPECT(words[0] == 0u && words[2] == before[2] + blocks,
               "%s kernel, %u blocks, launch %d (time-out %llu ns, first ticket %u): ticket %u "
               "(want 0), blocks out %u (want %u)",
               which, blocks, l, timeout, start, words[0], words[2] - before[2], blocks);
        if (withhold) {
            long long written = 0;
            for (long long i = 0; i < n; ++i)
                written += h_out[i] != 0xffffffffu;
            /* the tile named is one a wait was for: from s on, or (a late bulk
             * copy, whose ticket is unknown until it lands) the tile before,
             * or tile 0 for a block's first copy */
            EXPECT(record[0] == 1u && record[1] == *seq && record[2] < (unsigned int)tiles &&
                       record[3] == (unsigned int)tiles,
                   "%s kernel, %u blocks, tiles below %u withheld: fault record %u %u %u %u",
                   which, blocks, start, record[0], record[1], record[2], record[3]);
            EXPECT(written == 0, "%s kernel, %u blocks, tiles below %u withheld: %lld written",
                   which, blocks, start, written);
            ++withheld;
        } else if (record[0] == 0u) {
            scan_i32_reference(h_in, want, n, exclusive);
            long long wrong = 0, first = -1;
            for (long long i = 0; i < n; ++i)
                if (h_out[i] != want[i] && wrong++ == 0)
                    first = i;
            EXPECT(wrong == 0,
                   "%s kernel, %u blocks, launch %d (time-out %llu ns, no fault): %lld wrong, "
                   "first at %lld",
                   which, blocks, l, timeout, wrong, first);
            ++exact;
        } else {
            EXPECT(!last, "%s kernel, %u blocks: a launch with a 2 s time-out gave up", which,
                   blocks);
            ++faulted;
        }
    }
    printf("  %s kernel, %u blocks, %lld tiles: %d launches exact, %d gave up (time-outs "
           "of 200 ns to 100 us, delays up to 40 us), %d with tiles withheld\n",
           which, blocks, tiles, exact, faulted, withheld);
    cudaFree(d_in);
    cudaFree(d_out);
    direct_workspace_free(&w);
    free(h_in);
    free(h_out);
    free(want);
    return launches + 1;
}

static int check_give_up_stress(int quick)
{
    int device = 0, sms = 0, checks = 0;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const long long tiles = quick ? 24 : 160;
    const int launches = quick ? 6 : 60;
    /* more blocks than fit at once (tickets keep that safe), one per tile,
     * a few, one */
    const unsigned int grids[] = {quick ? 7u : 3u * (unsigned int)sms + 1u, (unsigned int)tiles,
                                  5u, 1u};
    unsigned int seq = STRESS_SEQ_FROM;
    for (int k = resident_runs() ? 1 : 0; k >= 0; --k)
        for (unsigned int blocks : grids)
            checks += give_up_stress_of(k == 1 ? stress_resident : stress_register, tiles, blocks,
                                        launches, &seq);
    checks += give_up_stress_of(stress_one_tile, tiles, (unsigned int)tiles, launches, &seq);
    return checks;
}

/* ------------------------------------------------------- the device API */

static __global__ void device_api(const int *in, int *out)
{
    __shared__ int smem[32];
    __shared__ double dsmem[32];
    unsigned int n = blockDim.x, t = threadIdx.x, i = blockIdx.x * n + t;
    int v = in[i], total = -1;
    int *o = out + 6 * (size_t)i;
    o[0] = gs_block_inclusive_sum_i32(v, smem);
    o[1] = gs::block_exclusive_scan(v, smem, gs::sum<int>(), &total);
    o[2] = gs_block_exclusive_max_i32(v, smem);
    o[3] = (int)gs_block_inclusive_min_f64((double)v, dsmem);
    unsigned int lanes = n - (t & ~31u) < 32u ? n - (t & ~31u) : 32u;
    o[4] = gs_warp_exclusive_sum_i32(v, lanes);
    o[5] = total;
}

static __global__ void argmin_api(const int *in, gs::arg<int> *out)
{
    __shared__ gs::arg<int> smem[32];
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    gs::arg<int> mine = {(long long)threadIdx.x, in[i]};
    out[i] = gs::block_inclusive_scan(mine, smem, gs::argmin<int>());
}

static int check_device_api(void)
{
    const int sizes[] = {32, 33, 64, 100, 255, 256, 257, 512, 999, 1024};
    const int blocks = 5;
    int *d_in, *d_out, *h_in = (int *)malloc(blocks * 1024 * 4);
    int *h_out = (int *)malloc((size_t)blocks * 1024 * 6 * 4);
    gs::arg<int> *d_arg, *h_arg = (gs::arg<int> *)malloc(blocks * 1024 * sizeof(gs::arg<int>));
    CUDA_OK(cudaMalloc((void **)&d_in, blocks * 1024 * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)blocks * 1024 * 6 * 4));
    CUDA_OK(cudaMalloc((void **)&d_arg, blocks * 1024 * sizeof(gs::arg<int>)));
    int checks = 0;
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) {
        int n = sizes[s];
        for (int i = 0; i < blocks * n; ++i)
            h_in[i] = (int)(next_u64() % 41) - 20;
        CUDA_OK(cudaMemcpy(d_in, h_in, (size_t)blocks * n * 4, cudaMemcpyHostToDevice));
        device_api<<<blocks, n>>>(d_in, d_out);
        argmin_api<<<blocks, n>>>(d_in, d_arg);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)blocks * n * 6 * 4, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_arg, d_arg, (size_t)blocks * n * sizeof(gs::arg<int>),
                           cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < blocks; ++b) {
            const int *x = h_in + b * n;
            int sum = 0, mx = -0x7fffffff - 1, mn = 0x7fffffff, warp_sum = 0, total = 0, best = 0;
            for (int t = 0; t < n; ++t)
                total += x[t];
            for (int t = 0; t < n; ++t) {
                const int *o = h_out + 6 * (size_t)(b * n + t);
                if (t % 32 == 0)
                    warp_sum = 0;
                wrong += o[1] != sum || o[2] != mx || o[4] != warp_sum || o[5] != total;
                sum += x[t];
                mx = x[t] > mx ? x[t] : mx;
                mn = x[t] < mn ? x[t] : mn;
                warp_sum += x[t];
                best = x[t] < x[best] ? t : best; /* the first minimum */
                wrong += o[0] != sum || o[3] != mn;
                const gs::arg<int> &a = h_arg[b * n + t];
                wrong += a.index != best || a.value != x[best];
            }
        }
        EXPECT(wrong == 0, "device API, blocks of %d threads: %d wrong values", n, wrong);
        ++checks;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_arg);
    free(h_in);
    free(h_out);
    free(h_arg);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    gs_test_require_gpu("scan");
    rng_state = gs_test_seed("scan");
    const int quick = gs_test_sanitizer();
    /* quick: past the latency tiling's start for 4-byte types too */
    const long long big = quick ? GS_TUNE_SCAN_SHORT_TO_BYTES / 4 + 8192 : 1ll << 27;
    buffers b;
    buffers_make(&b, big + 16);
    int checks = 0;

    /* lengths around the short tiles, the latency tiling's start
     * (`latency_from`, past 512 KiB), its tiles and look-back windows (64
     * tiles with the default tuning), then large ones; layouts from index 4
     * on. Then, unless quick, around the bandwidth tile's start (`from`,
     * 8 MiB), its tiles and windows; layouts for the last one. */
    for (int t = 0; t < GS_DTYPE_COUNT; ++t) {
        const bool four = t == GS_FLOAT32 || t == GS_INT32;
        const long long short_tile = four ? tile_of<float>(1) : tile_of<double>(1);
        const long long latency_from = GS_TUNE_SCAN_SHORT_TO_BYTES / (four ? 4 : 8);
        const long long tile =
            four ? tile_of<float>(latency_from + 1) : tile_of<double>(latency_from + 1);
        const long long from = GS_TUNE_SCAN_LARGE_FROM_BYTES / (four ? 4 : 8);
        const long long big_tile = four ? tile_of<float>(from + 1) : tile_of<double>(from + 1);
        const long long lengths[] = {0, 1, 2, 31, 33, 1000, short_tile - 1, short_tile,
                                     2 * short_tile + 3, latency_from, latency_from + 1,
                                     64 * tile - 1, 64 * tile + 1, 130 * tile + 7,
                                     (1ll << 20) + 7};
        const long long long_lengths[] = {from, from + 1, (from / big_tile + 1) * big_tile,
                                          from + 64 * big_tile + 1, from + 130 * big_tile + 7};
        const int nlen = quick ? 11 : (int)(sizeof lengths / sizeof lengths[0]);
        const int nlong = quick ? 0 : (int)(sizeof long_lengths / sizeof long_lengths[0]);
        switch (t) {
        case GS_FLOAT32:
            checks += check_type<float>(&b, lengths, nlen, 4);
            checks += nlong ? check_type<float>(&b, long_lengths, nlong, nlong - 1) : 0;
            break;
        case GS_FLOAT64:
            checks += check_type<double>(&b, lengths, nlen, 4);
            checks += nlong ? check_type<double>(&b, long_lengths, nlong, nlong - 1) : 0;
            break;
        case GS_INT32:
            checks += check_type<int>(&b, lengths, nlen, 4);
            checks += nlong ? check_type<int>(&b, long_lengths, nlong, nlong - 1) : 0;
            break;
        default:
            checks += check_type<long long>(&b, lengths, nlen, 4);
            checks += nlong ? check_type<long long>(&b, long_lengths, nlong, nlong - 1) : 0;
            break;
        }
    }
    printf("  every op, kind, type, length and layout: %d checks so far\n", checks);
    checks += check_float_sums<float>(&b, big);
    checks += check_float_sums<double>(&b, quick ? big : big / 2);
    /* the largest lengths for the integer types and min/max */
    if (!quick) {
        checks += check_case<int>(&b, GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, big - 3, layout{0, 0, false},
                                  FILL_REAL, NULL);
        checks += check_case<long long>(&b, GS_SCAN_SUM, GS_SCAN_INCLUSIVE, big / 2 + 1,
                                        layout{1, 1, false}, FILL_REAL, NULL);
        checks += check_case<float>(&b, GS_SCAN_MAX, GS_SCAN_INCLUSIVE, big, layout{0, 0, true},
                                    FILL_REAL, NULL);
        checks += check_case<double>(&b, GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, big / 2 - 1,
                                     layout{0, 0, false}, FILL_REAL, NULL);
    }
    printf("  floating sums exact and bounded, up to 2^%d: %d checks so far\n", quick ? 17 : 27,
           checks);
    checks += check_special(&b);
    checks += check_bad_input(&b);
    checks += check_two_streams(quick);
    checks += check_in_place_chain(quick);
    checks += check_prefetch_race(quick);
    checks += check_managed(quick);
    checks += check_threads(quick);
    checks += check_stream_churn(quick);
    checks += check_release_race(quick);
    checks += check_capture();
    checks += check_device_api();
    if (resident_runs()) {
        checks += check_resident();
    } else {
        printf("  the resident kernel: skipped (it needs sm_90 and code built for it)\n");
    }
    checks += check_one_tile(quick);
    checks += check_timeout();
    checks += check_give_up_stress(quick);
    EXPECT(gs_scan_check(0) == GS_SUCCESS, "gs_scan_check at the end: %s", gs_last_error_detail());
    buffers_free(&b);
    gs_reduce_release_workspaces();
    return gs_test_finish("scan", checks + 1);
}
