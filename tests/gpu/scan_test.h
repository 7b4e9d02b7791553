/*
 * scan_test.h - what the gs_scan tests share (tests/gpu/test_scan_*.cu): the
 * test's random numbers (splitmix64 from the printed seed), data of three
 * kinds, the CPU reference and its bound, and one scan checked end to end.
 *
 * The reference: integer sums exact (wrapping, computed unsigned), min and
 * max exact (NaN propagates: from the first NaN on, every prefix is NaN).
 * Every element type: the 16-bit floats are summed in float (u = 2^-24)
 * and each output is that prefix rounded to 16 bits, so their bound adds
 * half a unit in the last place of the 16-bit result (f16 2^-11, bf16 2^-8
 * relative) and an f16 output may be inf only where the prefix rounds past
 * 65504; on small integers, where the float prefix is exact, the output
 * must be exactly its rounding.
 * Floating sums against a compensated long-double prefix with a rigorous
 * bound: element k of tile t is a sum tree in which no input takes part in
 * more than d = t + 32 additions (the tile chain: t; within a tile at most
 * 3 + 5 + 3 + 1 + 7 + 2 with 256 threads, docs/scan.md), so
 * |error| <= gamma(d) sum |x_j| with gamma(d) = d u / (1 - d u) (Higham,
 * Accuracy and Stability, 4.2). Floats holding small integers whose
 * prefixes stay below 2^24 (2^53) are summed exactly by any order: those
 * must match exactly, which catches any element landing in a wrong place.
 *
 * A test that injects faults (test_scan_faults.cu) defines
 * GS_SCAN_TEST_DELAY before including this header.
 */
#ifndef GS_SCAN_TEST_H
#define GS_SCAN_TEST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <limits>

#include <gridsync/detail/scan/single_pass_scan.cuh>
#include <gridsync/scan.cuh>

#include "gpu_test.h"
#include "testing/float16.h" /* the 16-bit floats on the host */

/* ------------------------------------------------------------- helpers */

static unsigned long long rng_state;
static inline unsigned long long next_u64(void) /* splitmix64 */
{
    unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline double urand(void) { return (double)(next_u64() >> 11) * 0x1p-53; } /* [0, 1) */

static inline double now_seconds(void)
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
template <> struct dtype_of<unsigned int> { static const gs_dtype value = GS_UINT32; };
template <> struct dtype_of<unsigned long long> { static const gs_dtype value = GS_UINT64; };
template <> struct dtype_of<__half> { static const gs_dtype value = GS_FLOAT16; };
template <> struct dtype_of<__nv_bfloat16> { static const gs_dtype value = GS_BFLOAT16; };

/* An element type on the host: whether it is floating, its values to and
 * from double (exactly; rounded to the nearest), what its floating sums
 * add up in (unit roundoff `unit`) and how a scan's output is rounded from
 * that (`rounding`: none but for the 16-bit floats, where the float prefix
 * is rounded to 16 bits, to infinity from `overflow` on), the spread of
 * FILL_REAL data. */
template <class T> struct elem {
    static constexpr bool floating = std::numeric_limits<T>::has_infinity;
    static constexpr bool sixteen = false;
    static constexpr double unit = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
    static constexpr double spread = 100.0;
    static double to_double(T v) { return (double)v; }
    static T from_double(double x) { return (T)x; }
    static T highest()
    {
        if constexpr (floating)
            return std::numeric_limits<T>::infinity();
        else
            return std::numeric_limits<T>::max();
    }
    static T lowest()
    {
        if constexpr (floating)
            return -std::numeric_limits<T>::infinity();
        else
            return std::numeric_limits<T>::min();
    }
    static double rounding(double) { return 0.0; }
    static constexpr double overflow = INFINITY;
};

/* The 16-bit floats, through their bits (tools/testing/float16.h): summed
 * in float, each output rounded from the float prefix (half a unit in the
 * last place: 2^-11 relative for f16, 2^-8 for bf16, and half the smallest
 * subnormal). F16: binary16, else bfloat16. */
template <class T, bool F16> struct elem16 {
    static constexpr bool floating = true;
    static constexpr bool sixteen = true;
    static constexpr double unit = 0x1p-24;
    static constexpr double spread = F16 ? 1.0 : 100.0; /* f16 ends at 65504 */
    static double to_double(T v)
    {
        uint16_t b;
        memcpy(&b, &v, 2);
        return F16 ? gs_f16_to_double(b) : gs_bf16_to_double(b);
    }
    static T from_double(double x)
    {
        const uint16_t b = F16 ? gs_f16_from_double(x) : gs_bf16_from_double(x);
        T v;
        memcpy((void *)&v, &b, 2); /* through void: g++ -Wclass-memaccess */
        return v;
    }
    static T highest() { return from_double(INFINITY); }
    static T lowest() { return from_double(-INFINITY); }
    static double rounding(double p) { return F16 ? p * 0x1p-11 + 0x1p-25 : p * 0x1p-8 + 0x1p-134; }
    static constexpr double overflow = F16 ? 65520.0 : 0x1.ffp127; /* rounds to infinity */
};
template <> struct elem<__half> : elem16<__half, true> {};
template <> struct elem<__nv_bfloat16> : elem16<__nv_bfloat16, false> {};

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
    typedef elem<T> E;
    for (long long i = 0; i < n; ++i) {
        unsigned long long r = next_u64();
        if (kind == FILL_SMALL_INTS)
            h[i] = E::from_double((double)(r & 7u));
        else if (E::floating)
            h[i] = E::from_double(kind == FILL_POSITIVE ? urand()
                                                        : (urand() * 2.0 - 1.0) * E::spread);
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
    typedef elem<T> E;
    gs_scan_op op;
    T v;             /* min, max, integer sum */
    exact e;         /* floating sum */
    double magnitude;
    void start(gs_scan_op o)
    {
        op = o;
        v = o == GS_SCAN_MIN ? E::highest() : o == GS_SCAN_MAX ? E::lowest() : E::from_double(0.0);
        e = exact{0.0L, 0.0L};
        magnitude = 0.0;
    }
    void add(T x)
    {
        if (op == GS_SCAN_SUM) {
            if constexpr (E::floating) {
                e.add((long double)E::to_double(x));
                magnitude += fabs(E::to_double(x));
            } else if constexpr (sizeof(T) == 4) {
                v = (T)(int)((unsigned int)v + (unsigned int)x);
            } else {
                v = (T)(long long)((unsigned long long)v + (unsigned long long)x);
            }
        } else if constexpr (E::floating) {
            const double dv = E::to_double(v), dx = E::to_double(x);
            if (dv == dv && (dx != dx || (op == GS_SCAN_MIN ? dx < dv : dx > dv)))
                v = x; /* NaN is sticky */
        } else if (op == GS_SCAN_MIN ? x < v : x > v) {
            v = x;
        }
    }
    /* Whether `got` is this prefix at element k (whose tile is t). */
    bool matches(T got, long long t, bool exact_sum) const
    {
        if constexpr (!E::floating) {
            return got == v;
        } else {
            const double g = E::to_double(got);
            if (op != GS_SCAN_SUM)
                return (g != g && E::to_double(v) != E::to_double(v)) || g == E::to_double(v);
            const double want = (double)e.value(), u = E::unit, d = (double)(t + 32);
            double bound = exact_sum ? 0.0 : d * u / (1.0 - d * u) * magnitude;
            if (E::sixteen) { /* the float prefix, rounded once to 16 bits */
                if (exact_sum) /* the float prefix is exact: the rounding of it */
                    return g == E::to_double(E::from_double(want));
                bound += E::rounding(fabs(want) + bound);
                if (isinf(g)) /* rounded past the largest finite value, on want's side */
                    return fabs(want) + bound >= E::overflow && (g > 0) == (want > 0);
            }
            return fabs(g - want) <= bound; /* NaN fails */
        }
    }
    double value() const
    {
        return op == GS_SCAN_SUM && E::floating ? (double)e.value() : E::to_double(v);
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
                    elem<T>::to_double(y[k]), r.value());
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

static inline void buffers_make(buffers *b, long long cap)
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

static inline void buffers_free(buffers *b)
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

/* ---------------------------------------------------- a test's start and end */

/* Skip without a GPU, take the seed (printed) into the test's generator;
 * whether to scale down (under compute-sanitizer). */
static inline int scan_test_begin(const char *name)
{
    gs_test_require_gpu(name);
    rng_state = gs_test_seed(name);
    return gs_test_sanitizer();
}

/* No scan of the process gave up (one more check), workspaces released,
 * the summary line; the exit status. */
static inline int scan_test_end(const char *name, int checks)
{
    EXPECT(gs_scan_check(0) == GS_SUCCESS, "gs_scan_check at the end: %s", gs_last_error_detail());
    gs_reduce_release_workspaces();
    return gs_test_finish(name, checks + 1);
}

#endif
