/*
 * test_allreduce.cu - the grid all-reduce: exact integer sums with a closed
 * form every thread checks at every step; f64 / f32 sums and f32 min / max
 * recorded at the first steps and checked against an FP64 CPU reference
 * (sums within a bound, min / max exactly); every thread of the grid gets
 * the same bits (checked by a min and a max over the results' bits); a
 * second run gives the same bits; and it orders memory as the grid barrier
 * it is (slot exchange). Grid sizes 1, 2, SMs, SMs + 1 and the co-resident
 * maximum, 2-D blocks included, over 10^6 all-reduces.
 */
#include <math.h>
#include <string.h>

#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <gridsync/allreduce.cuh>

enum { RECORDED = 64 }; /* steps whose floating-point results are recorded */

/* The value of global thread g at step it: uniform in [-1, 1). */
static __host__ __device__ double value_of(unsigned int seed, int it, unsigned long long g)
{
    unsigned long long x = (g + 1ull) * 0x9E3779B97F4A7C15ull ^ (unsigned long long)seed << 20 ^
                           (unsigned long long)it * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return (double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

typedef struct recorded {
    double sum64[RECORDED];
    float sum32[RECORDED], min32[RECORDED], max32[RECORDED];
} recorded;

static __global__ void allreduce_kernel(gs_grid_barrier bar, unsigned int *slots,
                                        recorded *rec, unsigned int *errors, int iters,
                                        unsigned int seed)
{
    const unsigned int n = gridDim.x, b = blockIdx.x;
    const unsigned int t = threadIdx.x + blockDim.x * threadIdx.y;
    const unsigned int nt = blockDim.x * blockDim.y;
    const unsigned long long g = (unsigned long long)b * nt + t, total = (unsigned long long)n * nt;
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        if (t == nt - 1u)
            slots[(it & 1) * n + b] = ex_value(seed, it, b);
        long long s = gs_grid_allreduce_sum_i64(&bar, (long long)g + it);
        bad += (unsigned long long)s != total * (total - 1ull) / 2ull + total * (unsigned long long)it;
        if (t == 0u) { /* the all-reduce was a grid barrier */
            unsigned int o = (b + 1u) % n;
            bad += slots[(it & 1) * n + o] != ex_value(seed, it, o);
        }
        int imax = gs_grid_allreduce_max_i32(&bar, (int)(g % 1000003ull) - it);
        bad += imax != (int)((total - 1ull < 1000002ull ? total - 1ull : 1000002ull)) - it;
        if (it < RECORDED || (it & 255) == 0) {
            double x = value_of(seed, it, g);
            double d = gs_grid_allreduce_sum_f64(&bar, x);
            float f = gs_grid_allreduce_sum_f32(&bar, (float)x);
            float lo = gs_grid_allreduce_min_f32(&bar, (float)x);
            float hi = gs_grid_allreduce_max_f32(&bar, (float)x);
            /* every thread got the same bits */
            long long bits = __double_as_longlong(d);
            bad += gs_grid_allreduce_min_i64(&bar, bits) != gs_grid_allreduce_max_i64(&bar, bits);
            int fbits = __float_as_int(f);
            bad += gs_grid_allreduce_min_i32(&bar, fbits) != gs_grid_allreduce_max_i32(&bar, fbits);
            if (it < RECORDED && b == n - 1u && t == nt - 1u) {
                rec->sum64[it] = d;
                rec->sum32[it] = f;
                rec->min32[it] = lo;
                rec->max32[it] = hi;
            }
        }
    }
    if (bad)
        atomicAdd(errors, bad);
}

static void check_recorded(const recorded *r, unsigned int seed, unsigned long long total,
                           int steps, unsigned int blocks)
{
    for (int it = 0; it < steps && it < RECORDED; ++it) {
        double sum = 0.0, abs_sum = 0.0;
        float lo = INFINITY, hi = -INFINITY;
        for (unsigned long long g = 0; g < total; ++g) {
            double x = value_of(seed, it, g);
            sum += x;
            abs_sum += fabs(x);
            lo = fminf(lo, (float)x);
            hi = fmaxf(hi, (float)x);
        }
        /* a sum of N terms in any order: |error| <= (N - 1) u sum|x| (u: unit roundoff);
         * the f32 inputs are themselves rounded: + u32 sum|x| */
        double n1 = (double)total;
        double bound64 = n1 * 1.12e-16 * abs_sum + 1e-300;
        double bound32 = (n1 + 1.0) * 5.97e-8 * abs_sum;
        EXPECT(fabs(r->sum64[it] - sum) <= bound64, "%u blocks, step %d: f64 sum %.17g, CPU %.17g "
               "(bound %.3g)", blocks, it, r->sum64[it], sum, bound64);
        EXPECT(fabs((double)r->sum32[it] - sum) <= bound32, "%u blocks, step %d: f32 sum %.9g, "
               "CPU %.17g (bound %.3g)", blocks, it, (double)r->sum32[it], sum, bound32);
        EXPECT(r->min32[it] == lo && r->max32[it] == hi, "%u blocks, step %d: min/max %.9g %.9g, "
               "CPU %.9g %.9g", blocks, it, (double)r->min32[it], (double)r->max32[it],
               (double)lo, (double)hi);
    }
}

int main(void)
{
    gs_test_require_gpu("allreduce");
    unsigned long long test_seed = gs_test_seed("allreduce");
    srand((unsigned int)test_seed);
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const dim3 block_shapes[2] = {dim3(256), dim3(24, 5)}; /* 120 threads: a partial warp */
    unsigned int *slots, *errors;
    recorded *rec;
    CUDA_OK(cudaMalloc(&slots, 2u * (unsigned int)info.sm_count * info.max_blocks_per_sm *
                                   sizeof *slots));
    CUDA_OK(cudaMalloc(&errors, sizeof *errors));
    CUDA_OK(cudaMalloc(&rec, sizeof *rec));
    recorded *first = (recorded *)malloc(sizeof *first), *again = (recorded *)malloc(sizeof *again);
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, quick ? 30.0 : 5.0));
    int checks = 0;
    long long reduces = 0;
    for (int s = 0; s < 2; ++s) {
        const unsigned int threads = block_shapes[s].x * block_shapes[s].y;
        int max_blocks = 0;
        GS_OK(gs_max_coresident_blocks((const void *)allreduce_kernel, (int)threads, 0,
                                       &max_blocks));
        unsigned int grids[6];
        int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)max_blocks,
                                        grids);
        const int iters = quick ? 4 : 400000 / (2 * ngrids) + RECORDED;
        for (int g = 0; g < ngrids; ++g) {
            unsigned int blocks = grids[g], seed = (unsigned int)rand(), bad = 0;
            int its = iters;
            gs_grid_barrier view;
            GS_OK(gs_barrier_device(bar, blocks, &view));
            for (int run = 0; run < 2; ++run) {
                CUDA_OK(cudaMemset(errors, 0, sizeof *errors));
                CUDA_OK(cudaMemset(rec, 0xff, sizeof *rec)); /* poison */
                void *args[] = {&view, &slots, &rec, &errors, &its, &seed};
                GS_OK(gs_launch((const void *)allreduce_kernel, dim3(blocks), block_shapes[s], 0,
                                0, args, bar));
                gs_status st = gs_barrier_check(bar, 0);
                EXPECT(st == GS_SUCCESS, "%u threads x %u blocks: %s: %s", threads, blocks,
                       gs_status_string(st), gs_last_error_detail());
                CUDA_OK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
                EXPECT(bad == 0, "%u threads x %u blocks: %u wrong results in %d steps", threads,
                       blocks, bad, its);
                CUDA_OK(cudaMemcpy(run ? again : first, rec, sizeof *rec, cudaMemcpyDeviceToHost));
                reduces += 2ll * its + 8ll * (its < RECORDED ? its : RECORDED + its / 256);
            }
            check_recorded(first, seed, (unsigned long long)blocks * threads, its, blocks);
            EXPECT(memcmp(first, again, sizeof *first) == 0,
                   "%u threads x %u blocks: a second run gave other bits", threads, blocks);
            checks += 3;
        }
        printf("allreduce: %u threads per block done (grids up to %d blocks)\n", threads,
               max_blocks);
    }
    printf("allreduce: %lld all-reduces\n", reduces);
    GS_OK(gs_barrier_destroy(bar));
    free(first);
    free(again);
    cudaFree(slots);
    cudaFree(errors);
    cudaFree(rec);
    return gs_test_finish("allreduce", checks);
}
