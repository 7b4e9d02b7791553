/*
 * multi_allreduce_kernel.cuh - the cross-GPU all-reduce's check, shared by
 * test_multi_allreduce.cu (GPUs of one process) and test_multiproc.cu (one
 * process per GPU, slots mapped through CUDA IPC). Every GPU runs the same
 * grid and block shape.
 *
 * Each step, after a random per-block delay:
 *  - an i64 sum of random terms that telescope: thread g of the group adds
 *    h(g) - h(g + 1 mod T) + 1 (h: 32 random bits of the step), so the
 *    group's sum is exactly T, the number of threads, and a partial missed,
 *    counted twice or left from another step shows; every thread checks its
 *    result at every step;
 *  - the all-reduce is a barrier across the GPUs: before it, each block
 *    writes a value of the step into its slot (two sets by the step's
 *    parity), after it thread 0 checks another block's slot on the next GPU;
 *  - an f64 sum of random values in [-1, 1); a trail of its bits over every
 *    step (thread nt-1 of the last block) makes a run's every result
 *    comparable with another run's and another GPU's;
 *  - on the first MAR_RECORDED steps, the f32/f64 sums, minima and maxima
 *    and the integer ones are recorded for the FP64 CPU reference
 *    (mar_check_record), and on those and every 256th step every thread's
 *    f64 and f32 results are checked to be the same bits on every GPU (the
 *    min and the max over the group of the bits agree).
 * A GPU can leave early (`leave_at`, the whole grid); the others then expect
 * the broken meetings' value from step `broken_from` on: their own GPU's
 * partial (gridsync/multi_allreduce.cuh).
 */
#ifndef GS_TEST_MULTI_ALLREDUCE_KERNEL_CUH
#define GS_TEST_MULTI_ALLREDUCE_KERNEL_CUH

#include <gridsync/multi_allreduce.cuh>

#include <math.h>

#include "gpu_test.h"

enum { MAR_RECORDED = 32 }; /* steps whose results are checked against the CPU */

/* What thread nt-1 of the last block of each GPU saw. */
typedef struct mar_record {
    double sum64[MAR_RECORDED], min64[MAR_RECORDED], max64[MAR_RECORDED];
    float sum32[MAR_RECORDED], min32[MAR_RECORDED], max32[MAR_RECORDED];
    int isum32[MAR_RECORDED], imin32[MAR_RECORDED], imax32[MAR_RECORDED];
    long long imin64[MAR_RECORDED], imax64[MAR_RECORDED];
    unsigned long long trail; /* the f64 sums' bits over every step */
} mar_record;

static __host__ __device__ inline unsigned long long mar_mix(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* 64 random bits for thread g of the group at step `it` of stream `seed`. */
static __host__ __device__ inline unsigned long long mar_key(unsigned int seed, int it,
                                                             unsigned long long g)
{
    return mar_mix(mar_mix((unsigned long long)seed << 32 | (unsigned int)it) ^ g);
}

static __host__ __device__ inline long long mar_h(unsigned int seed, int it, unsigned long long g)
{
    return (long long)(mar_key(seed, it, g) >> 32);
}

/* Thread g's term of the telescoping i64 sum over T threads. */
static __host__ __device__ inline long long mar_term(unsigned int seed, int it,
                                                     unsigned long long g, unsigned long long t)
{
    return mar_h(seed, it, g) - mar_h(seed, it, g + 1ull == t ? 0ull : g + 1ull) + 1;
}

/* The sum of the terms of threads first .. first + count - 1 (of T). */
static __host__ __device__ inline long long mar_range_sum(unsigned int seed, int it,
                                                          unsigned long long first,
                                                          unsigned long long count,
                                                          unsigned long long t)
{
    unsigned long long end = first + count == t ? 0ull : first + count;
    return mar_h(seed, it, first) - mar_h(seed, it, end) + (long long)count;
}

/* Uniform in [-1, 1). */
static __host__ __device__ inline double mar_unit(unsigned int seed, int it, unsigned long long g)
{
    return (double)(mar_key(seed ^ 0x5bd1e995u, it, g) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static __host__ __device__ inline int mar_int(unsigned int seed, int it, unsigned long long g)
{
    return (int)(unsigned int)mar_key(seed ^ 0x27d4eb2du, it, g);
}

static __host__ __device__ inline long long mar_long(unsigned int seed, int it,
                                                     unsigned long long g)
{
    return (long long)mar_key(seed ^ 0x165667b1u, it, g);
}

static __host__ __device__ inline unsigned int mar_tag(unsigned int seed, int it, int rank,
                                                       unsigned int b)
{
    return (unsigned int)mar_key(seed ^ 0x3c6ef372u, it, (unsigned long long)rank << 32 | b) | 1u;
}

/* slots[r]: rank r's 2 x gridDim.x words, readable from every GPU. */
static __global__ void multi_allreduce_kernel(gs_multi_view v, unsigned int *const *slots,
                                              mar_record *rec, unsigned int *errors, int iters,
                                              unsigned int seed, unsigned int max_delay_ns,
                                              int leave_at, int broken_from)
{
    const unsigned int n = gridDim.x, b = blockIdx.x;
    const unsigned int nt = blockDim.x * blockDim.y, t = threadIdx.x + blockDim.x * threadIdx.y;
    const unsigned long long local = (unsigned long long)n * nt;
    const unsigned long long total = local * (unsigned int)v.size;
    const unsigned long long g = ((unsigned long long)v.rank * n + b) * nt + t;
    const int next = (v.rank + 1) % v.size;
    const int recorder = b == n - 1u && t == nt - 1u;
    unsigned int bad = 0u;
    unsigned long long trail = 0ull;
    for (int it = 0; it < iters; ++it) {
        if (leave_at && it == leave_at)
            break; /* the whole grid: this GPU stops meeting the others */
        const int broken = broken_from && it >= broken_from;
        if (max_delay_ns && t == 0u)
            __nanosleep((unsigned int)(mar_key(seed ^ 0xde1au, it, g) % max_delay_ns));
        if (t == nt - 1u)
            slots[v.rank][(it & 1) * n + b] = mar_tag(seed, it, v.rank, b);
        long long s = gs_multi_allreduce_sum_i64(&v, mar_term(seed, it, g, total));
        bad += s != (broken ? mar_range_sum(seed, it, v.rank * local, local, total)
                            : (long long)total);
        if (t == 0u && !broken) {
            unsigned int src = (b + (unsigned int)it) % n;
            bad += slots[next][(it & 1) * n + src] != mar_tag(seed, it, next, src);
        }
        const double x = mar_unit(seed, it, g);
        const double d = gs_multi_allreduce_sum_f64(&v, x);
        const long long bits = __double_as_longlong(d);
        trail = mar_mix(trail ^ (unsigned long long)bits);
        if (it < MAR_RECORDED || (it & 255) == 0) {
            const float f = gs_multi_allreduce_sum_f32(&v, (float)x);
            /* every thread of every GPU got the same bits */
            bad += gs_multi_allreduce_min_i64(&v, bits) != gs_multi_allreduce_max_i64(&v, bits);
            int fbits = __float_as_int(f);
            bad += gs_multi_allreduce_min_i32(&v, fbits) != gs_multi_allreduce_max_i32(&v, fbits);
            if (it < MAR_RECORDED) {
                const int k = mar_int(seed, it, g);
                const long long l = mar_long(seed, it, g);
                double lo64 = gs_multi_allreduce_min_f64(&v, x);
                double hi64 = gs_multi_allreduce_max_f64(&v, x);
                float lo32 = gs_multi_allreduce_min_f32(&v, (float)x);
                float hi32 = gs_multi_allreduce_max_f32(&v, (float)x);
                /* an integer sum wraps: the sum of the unsigned values, as int */
                int isum = gs_multi_allreduce_sum_i32(&v, (int)((unsigned int)k >> 8));
                int imin = gs_multi_allreduce_min_i32(&v, k);
                int imax = gs_multi_allreduce_max_i32(&v, k);
                long long lmin = gs_multi_allreduce_min_i64(&v, l);
                long long lmax = gs_multi_allreduce_max_i64(&v, l);
                if (recorder) {
                    rec->sum64[it] = d;
                    rec->min64[it] = lo64;
                    rec->max64[it] = hi64;
                    rec->sum32[it] = f;
                    rec->min32[it] = lo32;
                    rec->max32[it] = hi32;
                    rec->isum32[it] = isum;
                    rec->imin32[it] = imin;
                    rec->imax32[it] = imax;
                    rec->imin64[it] = lmin;
                    rec->imax64[it] = lmax;
                }
            }
        }
    }
    if (recorder)
        rec->trail = trail;
    if (bad)
        atomicAdd(errors, bad);
}

/* All-reduces per launch of `iters` steps: 2 per step, 14 more on the
 * recorded ones, 5 more on every 256th after them. */
static inline long long mar_allreduces(int iters)
{
    long long count = 0;
    for (int it = 0; it < iters; ++it)
        count += 2 + (it < MAR_RECORDED ? 14 : (it & 255) == 0 ? 5 : 0);
    return count;
}

/* The recorded steps against an FP64 CPU reference over all T = gpus x
 * blocks x threads values. Sums of T terms in any order: |error| <= (T - 1)
 * u sum|x| (u: the unit roundoff of the type summed; the CPU's own FP64
 * error adds at most that with u = 2^-53), so the bound is T 2^-52 sum|x|
 * for f64 and T (2^-24 + 2^-52) sum|x| for f32 (its inputs are the values
 * rounded to float, and so is the reference's). Minima, maxima and integer
 * sums are exact. Returns the number of failures. */
static int mar_check_record(const mar_record *r, unsigned int seed, int steps, int gpus,
                            unsigned int blocks, unsigned int threads, const char *what)
{
    const unsigned long long total = (unsigned long long)gpus * blocks * threads;
    const int before = gs_test_failures;
    for (int it = 0; it < steps && it < MAR_RECORDED; ++it) {
        double sum = 0.0, mag = 0.0, sum32 = 0.0, mag32 = 0.0;
        double lo = INFINITY, hi = -INFINITY;
        float lo32 = INFINITY, hi32 = -INFINITY;
        unsigned int isum = 0u;
        int imin = 0x7fffffff, imax = -0x7fffffff - 1;
        long long lmin = 0x7fffffffffffffffll, lmax = -0x7fffffffffffffffll - 1;
        for (unsigned long long g = 0; g < total; ++g) {
            double x = mar_unit(seed, it, g);
            float xf = (float)x;
            int k = mar_int(seed, it, g);
            long long l = mar_long(seed, it, g);
            sum += x;
            mag += fabs(x);
            sum32 += xf;
            mag32 += fabs((double)xf);
            lo = fmin(lo, x);
            hi = fmax(hi, x);
            lo32 = fminf(lo32, xf);
            hi32 = fmaxf(hi32, xf);
            isum += (unsigned int)k >> 8;
            imin = k < imin ? k : imin;
            imax = k > imax ? k : imax;
            lmin = l < lmin ? l : lmin;
            lmax = l > lmax ? l : lmax;
        }
        const double b64 = (double)total * ldexp(1.0, -52) * mag;
        const double b32 = (double)total * (ldexp(1.0, -24) + ldexp(1.0, -52)) * mag32;
        EXPECT(fabs(r->sum64[it] - sum) <= b64,
               "%s, step %d: f64 sum %.17g, CPU %.17g (bound %.3g)", what, it, r->sum64[it], sum,
               b64);
        EXPECT(fabs((double)r->sum32[it] - sum32) <= b32,
               "%s, step %d: f32 sum %.9g, CPU %.17g (bound %.3g)", what, it, (double)r->sum32[it],
               sum32, b32);
        EXPECT(r->min64[it] == lo && r->max64[it] == hi && r->min32[it] == lo32 &&
                   r->max32[it] == hi32,
               "%s, step %d: min/max f64 %.17g %.17g (CPU %.17g %.17g), f32 %.9g %.9g (CPU %.9g "
               "%.9g)",
               what, it, r->min64[it], r->max64[it], lo, hi, (double)r->min32[it],
               (double)r->max32[it], (double)lo32, (double)hi32);
        EXPECT((unsigned int)r->isum32[it] == isum && r->imin32[it] == imin &&
                   r->imax32[it] == imax && r->imin64[it] == lmin && r->imax64[it] == lmax,
               "%s, step %d: i32 sum/min/max %u %d %d (CPU %u %d %d), i64 min/max %lld %lld (CPU "
               "%lld %lld)",
               what, it, (unsigned int)r->isum32[it], r->imin32[it], r->imax32[it], isum, imin,
               imax, r->imin64[it], r->imax64[it], lmin, lmax);
    }
    return gs_test_failures - before;
}

#endif
