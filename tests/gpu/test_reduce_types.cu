/*
 * test_reduce_types.cu - reductions and dot products of the element types
 * u32, u64, f16 and bf16 (argmin and argmax of every type are in
 * test_reduce.cu) against FP64 CPU references, on fresh random data.
 *
 * Tolerances (reduce_test.h): u32 and u64 exact (sums wrap modulo 2^32 /
 * 2^64, min and max compared as unsigned: the data holds values past the
 * signed types' largest); f16 and bf16 min and max exact (16-bit results);
 * their sums are floats, within (s + 21) 2^-24 sum |x_i| of the exact sum
 * (summed in float: FP32's bound, no 16-bit rounding anywhere), and exact
 * where every partial sum is an integer below 2^24 (a sum of 100,003 f16
 * ones is 100003, past f16's 65504); dots of 16-bit floats within the same
 * bound plus one rounding per product (products of f16 are exact in float),
 * integer dots exact (wrapping).
 * Also: lengths 0 to 2^26 + 3, odd ones, inputs misaligned by one element
 * (2 bytes for the 16-bit floats: the element-by-element path); bitwise
 * identical results run to run; results to host and to device memory, the
 * device result written in exactly its type's bytes (4 for a 16-bit sum, 2
 * for its min); NaN (propagates through sum, min and max; canonical NaN
 * out of min and max) and infinities (+inf plus -inf is NaN) for the
 * 16-bit floats; the device API's C-style names of the new types
 * (gs_block_reduce_sum_f16 returns the float sum) at odd block sizes.
 */
#include "reduce_test.h"

/* ------------------------------------------------------- 16-bit floats */

/* One 16-bit float type on the host: its bits to and from double, and the
 * spread of the test's values (small for f16: its range ends at 65504). */
struct f16_host {
    static constexpr gs_dtype type = GS_FLOAT16;
    static constexpr double spread = 8.0;
    static double get(uint16_t b) { return gs_f16_to_double(b); }
    static uint16_t put(double x) { return gs_f16_from_double(x); }
};
struct bf16_host {
    static constexpr gs_dtype type = GS_BFLOAT16;
    static constexpr double spread = 100.0;
    static double get(uint16_t b) { return gs_bf16_to_double(b); }
    static uint16_t put(double x) { return gs_bf16_from_double(x); }
};

/* Sum, min and max of n random 16-bit floats, `offset` elements into the
 * buffers, against the CPU; the sum again (bitwise the same) and into
 * device memory (4 bytes written, as 2 for the min). */
template <class H>
static int check_16bit(long long n, long long offset, int sms, void *d, void *h)
{
    uint16_t *x = (uint16_t *)h + offset, *dx = (uint16_t *)d + offset;
    exact e = {0.0L, 0.0L};
    double abs_sum = 0.0, mn = INFINITY, mx = -INFINITY;
    for (long long i = 0; i < n; ++i) {
        x[i] = H::put(urand() * H::spread);
        const double v = H::get(x[i]);
        exact_add(&e, v);
        abs_sum += fabs(v);
        mn = fmin(mn, v);
        mx = fmax(mx, v);
    }
    if (n)
        CUDA_OK(cudaMemcpy(dx, x, (size_t)n * 2, cudaMemcpyHostToDevice));
    const char *name = gs_dtype_name(H::type);
    float sum = -1.0f, again = -2.0f;
    uint16_t lo = 0, hi = 0;
    GS_OK(gs_reduce_sum(H::type, dx, n, &sum, 0));
    GS_OK(gs_reduce_sum(H::type, dx, n, &again, 0));
    GS_OK(gs_reduce_min(H::type, dx, n, &lo, 0));
    GS_OK(gs_reduce_max(H::type, dx, n, &hi, 0));
    const double want = exact_value(&e), bound = sum_bound(n, 0x1p-24, abs_sum, sms);
    EXPECT(fabs(sum - want) <= bound, "%s sum n=%lld +%lld: %.9g vs %.9g (bound %.3g)", name, n,
           offset, sum, want, bound);
    EXPECT(memcmp(&sum, &again, sizeof sum) == 0, "%s sum n=%lld not bitwise repeatable", name, n);
    EXPECT(n == 0 ? isinf(H::get(lo)) && H::get(lo) > 0 : H::get(lo) == mn,
           "%s min n=%lld +%lld: %g vs %g", name, n, offset, H::get(lo), mn);
    EXPECT(n == 0 ? isinf(H::get(hi)) && H::get(hi) < 0 : H::get(hi) == mx,
           "%s max n=%lld +%lld: %g vs %g", name, n, offset, H::get(hi), mx);

    /* to device memory: exactly the result's bytes written */
    unsigned char *d_out, out[2][8];
    CUDA_OK(cudaMalloc((void **)&d_out, 16));
    CUDA_OK(cudaMemset(d_out, 0xff, 16));
    GS_OK(gs_reduce_sum(H::type, dx, n, d_out, 0));
    GS_OK(gs_reduce_min(H::type, dx, n, d_out + 8, 0));
    CUDA_OK(cudaMemcpy(out, d_out, 16, cudaMemcpyDeviceToHost));
    cudaFree(d_out);
    int past = 0;
    for (int i = 4; i < 8; ++i)
        past += out[0][i] != 0xffu;
    for (int i = 2; i < 8; ++i)
        past += out[1][i] != 0xffu;
    EXPECT(memcmp(out[0], &sum, 4) == 0 && memcmp(out[1], &lo, 2) == 0 && past == 0,
           "%s n=%lld: device results differ from the host's, or %d bytes written past them",
           name, n, past);
    return 5;
}

/* NaN and infinities: a NaN anywhere makes sum, min and max NaN; +inf and
 * -inf sum to NaN; infinities are values to min and max. Sums of 16-bit
 * ones past 65504 are exact (they are floats). */
template <class H>
static int check_16bit_special(void *d, void *h)
{
    enum { N = 1003 };
    uint16_t *x = (uint16_t *)h;
    const char *name = gs_dtype_name(H::type);
    float sum = 0.0f;
    uint16_t r = 0;
    int checks = 0;
    for (int pos = 0; pos < N; pos += 334) {
        for (int i = 0; i < N; ++i)
            x[i] = H::put(urand());
        x[pos] = H::put(NAN);
        CUDA_OK(cudaMemcpy(d, x, N * 2, cudaMemcpyHostToDevice));
        GS_OK(gs_reduce_sum(H::type, d, N, &sum, 0));
        EXPECT(isnan(sum), "%s sum with NaN at %d: %g", name, pos, sum);
        GS_OK(gs_reduce_min(H::type, d, N, &r, 0));
        EXPECT(isnan(H::get(r)), "%s min with NaN at %d: %g", name, pos, H::get(r));
        GS_OK(gs_reduce_max(H::type, d, N, &r, 0));
        EXPECT(isnan(H::get(r)), "%s max with NaN at %d: %g", name, pos, H::get(r));
        checks += 3;
    }
    for (int i = 0; i < N; ++i)
        x[i] = H::put(urand());
    x[17] = H::put(-INFINITY);
    CUDA_OK(cudaMemcpy(d, x, N * 2, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_min(H::type, d, N, &r, 0));
    EXPECT(isinf(H::get(r)) && H::get(r) < 0, "%s min with -inf: %g", name, H::get(r));
    GS_OK(gs_reduce_sum(H::type, d, N, &sum, 0));
    EXPECT(isinf(sum) && sum < 0, "%s sum with -inf: %g", name, sum);
    x[900] = H::put(INFINITY);
    CUDA_OK(cudaMemcpy(d, x, N * 2, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_sum(H::type, d, N, &sum, 0));
    EXPECT(isnan(sum), "%s sum of +inf and -inf: %g", name, sum);
    GS_OK(gs_reduce_max(H::type, d, N, &r, 0));
    EXPECT(isinf(H::get(r)) && H::get(r) > 0, "%s max with +inf: %g", name, H::get(r));

    /* ones: every partial sum an integer below 2^24, so exact in float */
    const long long ones = 100003;
    for (long long i = 0; i < ones; ++i)
        x[i] = H::put(1.0);
    CUDA_OK(cudaMemcpy(d, x, (size_t)ones * 2, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_sum(H::type, d, ones, &sum, 0));
    EXPECT(sum == (float)ones, "%s sum of %lld ones: %.9g", name, ones, sum);
    return checks + 5;
}

/* ----------------------------------------------------- unsigned integers */

template <class U> struct unsigned_type;
template <> struct unsigned_type<unsigned int> {
    static constexpr gs_dtype type = GS_UINT32;
};
template <> struct unsigned_type<unsigned long long> {
    static constexpr gs_dtype type = GS_UINT64;
};

/* Over U's whole range: the top bit set in about half the values. */
template <class U> static U random_unsigned(void)
{
    const U hi = (U)((urand() + 1.0) * 32768.0);
    return (U)((hi << (8 * sizeof(U) - 16)) ^ (U)((urand() + 1.0) * 2147483648.0));
}

/* Sum (wrapping), min and max of n random U, exactly. */
template <class U>
static int check_unsigned(long long n, long long offset, void *d, void *h)
{
    const gs_dtype type = unsigned_type<U>::type;
    U *x = (U *)h + offset, *dx = (U *)d + offset, sum = 0, mn = (U)~(U)0, mx = 0;
    for (long long i = 0; i < n; ++i) {
        x[i] = random_unsigned<U>();
        sum = (U)(sum + x[i]);
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
    }
    if (n)
        CUDA_OK(cudaMemcpy(dx, x, (size_t)n * sizeof(U), cudaMemcpyHostToDevice));
    U gs = 1, gmn = 0, gmx = 1;
    GS_OK(gs_reduce_sum(type, dx, n, &gs, 0));
    GS_OK(gs_reduce_min(type, dx, n, &gmn, 0));
    GS_OK(gs_reduce_max(type, dx, n, &gmx, 0));
    EXPECT(gs == sum, "%s sum n=%lld +%lld: %llu vs %llu", gs_dtype_name(type), n, offset,
           (unsigned long long)gs, (unsigned long long)sum);
    EXPECT(gmn == mn && gmx == mx, "%s min/max n=%lld +%lld: %llu/%llu vs %llu/%llu",
           gs_dtype_name(type), n, offset, (unsigned long long)gmn, (unsigned long long)gmx,
           (unsigned long long)mn, (unsigned long long)mx);
    return 2;
}

/* ---------------------------------------------------------------- dots */

/* Integer dots wrap: products and sums modulo 2^32 or 2^64 (U: the
 * unsigned type of T's width, where the CPU computes them). */
template <class T, class U>
static int check_integer_dot(gs_dtype type, long long n, void *d, void *h)
{
    T *x = (T *)h, *y = x + n;
    U want = 0;
    for (long long i = 0; i < n; ++i) {
        x[i] = (T)random_unsigned<U>();
        y[i] = (T)random_unsigned<U>();
        want = (U)(want + (U)((U)x[i] * (U)y[i]));
    }
    if (n)
        CUDA_OK(cudaMemcpy(d, h, 2 * (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
    T got = 0;
    GS_OK(gs_dot(type, d, (T *)d + n, n, &got, 0));
    EXPECT((U)got == want, "%s dot n=%lld: %llu vs %llu", gs_dtype_name(type), n,
           (unsigned long long)(U)got, (unsigned long long)want);
    return 1;
}

/* A dot of 16-bit floats: a float, within the sum's bound and one
 * rounding per product. */
template <class H>
static int check_16bit_dot(long long n, int sms, void *d, void *h)
{
    uint16_t *x = (uint16_t *)h, *y = x + n;
    exact e = {0.0L, 0.0L};
    double abs_sum = 0.0;
    for (long long i = 0; i < n; ++i) {
        x[i] = H::put(urand() * H::spread);
        y[i] = H::put(urand());
        const double p = H::get(x[i]) * H::get(y[i]);
        exact_add(&e, p);
        abs_sum += fabs(p);
    }
    if (n)
        CUDA_OK(cudaMemcpy(d, h, 2 * (size_t)n * 2, cudaMemcpyHostToDevice));
    float got = -1.0f;
    GS_OK(gs_dot(H::type, d, (uint16_t *)d + n, n, &got, 0));
    const double want = exact_value(&e);
    const double bound = sum_bound(n, 0x1p-24, abs_sum, sms) + 0x1p-24 * abs_sum;
    EXPECT(fabs(got - want) <= bound, "%s dot n=%lld: %.9g vs %.9g (bound %.3g)",
           gs_dtype_name(H::type), n, got, want, bound);
    return 1;
}

/* ------------------------------------------------------- the device API */

/* Per block: the f16 sum (a float) and min, the bf16 tree max, the u64
 * warp min of warp 0, the u32 sum. */
static __global__ void device_api(const __half *h, const __nv_bfloat16 *b,
                                  const unsigned long long *w, const unsigned int *u, float *sums,
                                  __half *mins, __nv_bfloat16 *maxes, unsigned long long *wmins,
                                  unsigned int *usums)
{
    __shared__ float fs[32];
    __shared__ __half hs[32];
    __shared__ __nv_bfloat16 tree[1024];
    __shared__ unsigned int us[32];
    const unsigned int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    const float s = gs_block_reduce_sum_f16(h[i], fs);
    const __half lo = gs_block_reduce_min_f16(h[i], hs);
    const __nv_bfloat16 hi = gs_block_reduce_tree_max_bf16(b[i], tree);
    const unsigned int warp_lanes = blockDim.x < 32u ? blockDim.x : 32u;
    unsigned long long wl = 0;
    if (t < 32u)
        wl = gs_warp_reduce_min_u64(w[i], warp_lanes);
    const unsigned int us_sum = gs_block_reduce_sum_u32(u[i], us);
    if (t == 0) {
        sums[blockIdx.x] = s;
        mins[blockIdx.x] = lo;
        wmins[blockIdx.x] = wl;
        usums[blockIdx.x] = us_sum;
    }
    if (t == blockDim.x - 1) /* the tree's result is in every thread */
        maxes[blockIdx.x] = hi;
}

static int check_device_api(void)
{
    const int sizes[] = {1, 31, 33, 100, 255, 256, 1000, 1024};
    enum { BLOCKS = 3, MOST = BLOCKS * 1024 };
    uint16_t hh[MOST], hb[MOST], out_min[BLOCKS], out_max[BLOCKS];
    unsigned long long hw[MOST], out_w[BLOCKS];
    unsigned int hu[MOST], out_u[BLOCKS];
    float out_sum[BLOCKS];
    char *d;
    const size_t at_b = 2 * MOST, at_w = 4 * MOST, at_u = 12 * MOST, at_out = 16 * MOST;
    CUDA_OK(cudaMalloc((void **)&d, at_out + 64 * BLOCKS));
    int checks = 0;
    for (int size : sizes) {
        for (int i = 0; i < BLOCKS * size; ++i) {
            hh[i] = gs_f16_from_double(urand() * 4.0);
            hb[i] = gs_bf16_from_double(urand() * 1000.0);
            hw[i] = random_unsigned<unsigned long long>();
            hu[i] = random_unsigned<unsigned int>();
        }
        CUDA_OK(cudaMemcpy(d, hh, sizeof hh, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d + at_b, hb, sizeof hb, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d + at_w, hw, sizeof hw, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d + at_u, hu, sizeof hu, cudaMemcpyHostToDevice));
        char *o = d + at_out;
        device_api<<<BLOCKS, size>>>((const __half *)d, (const __nv_bfloat16 *)(d + at_b),
                                     (const unsigned long long *)(d + at_w),
                                     (const unsigned int *)(d + at_u), (float *)o,
                                     (__half *)(o + 4 * BLOCKS), (__nv_bfloat16 *)(o + 8 * BLOCKS),
                                     (unsigned long long *)(o + 16 * BLOCKS),
                                     (unsigned int *)(o + 32 * BLOCKS));
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(out_sum, o, sizeof out_sum, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(out_min, o + 4 * BLOCKS, sizeof out_min, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(out_max, o + 8 * BLOCKS, sizeof out_max, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(out_w, o + 16 * BLOCKS, sizeof out_w, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(out_u, o + 32 * BLOCKS, sizeof out_u, cudaMemcpyDeviceToHost));
        for (int blk = 0; blk < BLOCKS; ++blk) {
            exact e = {0.0L, 0.0L};
            double abs_sum = 0.0, mn = INFINITY, mx = -INFINITY;
            unsigned long long wmin = ~0ull;
            unsigned int usum = 0;
            for (int k = 0; k < size; ++k) {
                const int i = blk * size + k;
                const double v = gs_f16_to_double(hh[i]);
                exact_add(&e, v);
                abs_sum += fabs(v);
                mn = fmin(mn, v);
                mx = fmax(mx, gs_bf16_to_double(hb[i]));
                if (k < 32)
                    wmin = hw[i] < wmin ? hw[i] : wmin;
                usum += hu[i];
            }
            const double tol = 16.0 * 0x1p-24 * abs_sum; /* trees of depth <= 10, in float */
            EXPECT(fabs(out_sum[blk] - exact_value(&e)) <= tol,
                   "block of %d: f16 sum %.9g vs %.9g", size, out_sum[blk], exact_value(&e));
            EXPECT(gs_f16_to_double(out_min[blk]) == mn && gs_bf16_to_double(out_max[blk]) == mx,
                   "block of %d: f16 min %g vs %g, bf16 max %g vs %g", size,
                   gs_f16_to_double(out_min[blk]), mn, gs_bf16_to_double(out_max[blk]), mx);
            EXPECT(out_w[blk] == wmin && out_u[blk] == usum,
                   "block of %d: u64 warp min %llu vs %llu, u32 sum %u vs %u", size, out_w[blk],
                   wmin, out_u[blk], usum);
            checks += 3;
        }
    }
    cudaFree(d);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    int sms = 0;
    const int quick = reduce_test_begin("reduce_types", &sms);
    const long long lengths[] = {0,    1,    2,    7,    8,          9,
                                 31,   33,   1000, 4097, (1ll << 20) + 7, (1ll << 26) + 3};
    const int nlen = quick ? 10 : (int)(sizeof lengths / sizeof lengths[0]);
    /* elements of 16 bytes the buffers hold: the longest length, and the
     * 100,003 ones of check_16bit_special */
    const long long big = quick ? 1ll << 17 : (1ll << 26) + 16;
    void *d = NULL, *h = malloc((size_t)big * 8 * 2);
    CUDA_OK(cudaMalloc(&d, (size_t)big * 8 * 2));
    int checks = 0;
    for (int i = 0; i < nlen; ++i)
        for (long long offset = 0; offset < 2; ++offset) { /* offset 1: misaligned */
            checks += check_16bit<f16_host>(lengths[i], offset, sms, d, h);
            checks += check_16bit<bf16_host>(lengths[i], offset, sms, d, h);
            checks += check_unsigned<unsigned int>(lengths[i], offset, d, h);
            checks += check_unsigned<unsigned long long>(lengths[i], offset, d, h);
        }
    printf("  sum, min, max of u32, u64, f16, bf16: %d checks so far\n", checks);
    checks += check_16bit_special<f16_host>(d, h);
    checks += check_16bit_special<bf16_host>(d, h);
    for (int i = 0; i < nlen - 1; ++i) {
        checks += check_16bit_dot<f16_host>(lengths[i], sms, d, h);
        checks += check_16bit_dot<bf16_host>(lengths[i], sms, d, h);
        checks += check_integer_dot<int, unsigned int>(GS_INT32, lengths[i], d, h);
        checks += check_integer_dot<unsigned int, unsigned int>(GS_UINT32, lengths[i], d, h);
        checks += check_integer_dot<long long, unsigned long long>(GS_INT64, lengths[i], d, h);
        checks += check_integer_dot<unsigned long long, unsigned long long>(GS_UINT64, lengths[i],
                                                                            d, h);
    }
    checks += check_device_api();
    cudaFree(d);
    free(h);
    gs_reduce_release_workspaces();
    return gs_test_finish("reduce_types", checks);
}
