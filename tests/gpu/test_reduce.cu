/*
 * test_reduce.cu - reductions against an FP64 CPU reference on fresh random
 * data (never zeros).
 *
 * Tolerances (reduce_test.h): min, max and integer sums are exact; floating
 * sums within (s + 21) eps sum |x_i| of a compensated reference.
 *
 * Also: lengths 0, 1, 2, 31, 32, 33, 1000, 2^20+7, 2^27; NaN and infinities
 * for min/max (NaN propagates); int64 sums beyond int32; bitwise identical
 * results run to run; many calls in a row on one stream and on two streams;
 * results to host and to device memory; the device API's block reductions
 * at block sizes 32 to 1024 including sizes that are not powers of two.
 * argmin/argmax (every type, u32 u64 f16 bf16 too): exact value and index
 * against the CPU on data full of ties, the lowest index winning; the
 * first NaN winning, its bits returned as they were (16-bit NaNs with
 * payloads); n = 0
 * (index -1, the identity); odd lengths, 2^20+7; misaligned pointers;
 * results to host and device memory; bitwise repeatable; and the device
 * API's gs::block_reduce with gs::argmin / gs::argmax.
 */
#include "reduce_test.h"

typedef struct ref {
    double sum, abs_sum, min, max;
} ref;

static ref reference_f32(const float *x, long long n)
{
    ref r = {0.0, 0.0, INFINITY, -INFINITY};
    exact e = {0.0L, 0.0L};
    for (long long i = 0; i < n; ++i) {
        exact_add(&e, x[i]);
        r.abs_sum += fabs(x[i]);
        r.min = fmin(r.min, x[i]);
        r.max = fmax(r.max, x[i]);
    }
    r.sum = exact_value(&e);
    return r;
}

static int check_f32(long long n, int sms, float *d, float *h)
{
    for (long long i = 0; i < n; ++i)
        h[i] = (float)(urand() * 100.0);
    if (n)
        CUDA_OK(cudaMemcpy(d, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice));
    ref r = reference_f32(h, n);
    float sum = -1.0f, mn = 0.0f, mx = 0.0f, again = 0.0f;
    GS_OK(gs_reduce_sum(GS_FLOAT32, d, n, &sum, 0));
    GS_OK(gs_reduce_min(GS_FLOAT32, d, n, &mn, 0));
    GS_OK(gs_reduce_max(GS_FLOAT32, d, n, &mx, 0));
    GS_OK(gs_reduce_sum(GS_FLOAT32, d, n, &again, 0));
    double bound = sum_bound(n, 0x1p-24, r.abs_sum, sms);
    EXPECT(fabs(sum - r.sum) <= bound, "f32 sum n=%lld: %.9g vs %.9g (bound %.3g)", n, sum, r.sum,
           bound);
    EXPECT(memcmp(&sum, &again, sizeof sum) == 0, "f32 sum n=%lld not bitwise repeatable", n);
    EXPECT(n == 0 ? isinf(mn) && mn > 0 : mn == (float)r.min, "f32 min n=%lld: %g vs %g", n, mn, r.min);
    EXPECT(n == 0 ? isinf(mx) && mx < 0 : mx == (float)r.max, "f32 max n=%lld: %g vs %g", n, mx, r.max);
    return 4;
}

static int check_f64_i32_i64(long long n, int sms, void *d, void *h)
{
    double *hd = (double *)h, abs_sum = 0.0, mnd = INFINITY, mxd = -INFINITY;
    exact e = {0.0L, 0.0L};
    for (long long i = 0; i < n; ++i) {
        hd[i] = urand() * 1e6;
        exact_add(&e, hd[i]);
        abs_sum += fabs(hd[i]);
        mnd = fmin(mnd, hd[i]);
        mxd = fmax(mxd, hd[i]);
    }
    double sd = exact_value(&e);
    if (n)
        CUDA_OK(cudaMemcpy(d, h, (size_t)n * 8, cudaMemcpyHostToDevice));
    double s = 0, mn = 0, mx = 0;
    GS_OK(gs_reduce_sum(GS_FLOAT64, d, n, &s, 0));
    GS_OK(gs_reduce_min(GS_FLOAT64, d, n, &mn, 0));
    GS_OK(gs_reduce_max(GS_FLOAT64, d, n, &mx, 0));
    EXPECT(fabs(s - sd) <= sum_bound(n, 0x1p-53, abs_sum, sms),
           "f64 sum n=%lld: %.17g vs %.17g", n, s, sd);
    EXPECT(n == 0 || (mn == mnd && mx == mxd), "f64 min/max n=%lld", n);

    /* int64 values near 2^40: their sum leaves int32 far behind */
    long long *hl = (long long *)h, sl = 0, mnl = 0x7fffffffffffffffll, mxl = -mnl - 1;
    for (long long i = 0; i < n; ++i) {
        hl[i] = (long long)(urand() * 1099511627776.0);
        sl += hl[i];
        mnl = hl[i] < mnl ? hl[i] : mnl;
        mxl = hl[i] > mxl ? hl[i] : mxl;
    }
    if (n)
        CUDA_OK(cudaMemcpy(d, h, (size_t)n * 8, cudaMemcpyHostToDevice));
    long long gl = 0, gmn = 0, gmx = 0;
    GS_OK(gs_reduce_sum(GS_INT64, d, n, &gl, 0));
    GS_OK(gs_reduce_min(GS_INT64, d, n, &gmn, 0));
    GS_OK(gs_reduce_max(GS_INT64, d, n, &gmx, 0));
    EXPECT(gl == sl, "i64 sum n=%lld: %lld vs %lld", n, gl, sl);
    EXPECT(gmn == mnl && gmx == mxl, "i64 min/max n=%lld", n);

    int *hi = (int *)h, mni = 0x7fffffff, mxi = -0x7fffffff - 1;
    long long si = 0;
    for (long long i = 0; i < n; ++i) {
        hi[i] = (int)(urand() * 1000.0);
        si += hi[i];
        mni = hi[i] < mni ? hi[i] : mni;
        mxi = hi[i] > mxi ? hi[i] : mxi;
    }
    if (n)
        CUDA_OK(cudaMemcpy(d, h, (size_t)n * 4, cudaMemcpyHostToDevice));
    int gi = 0, gmni = 0, gmxi = 0;
    GS_OK(gs_reduce_sum(GS_INT32, d, n, &gi, 0));
    GS_OK(gs_reduce_min(GS_INT32, d, n, &gmni, 0));
    GS_OK(gs_reduce_max(GS_INT32, d, n, &gmxi, 0));
    EXPECT(gi == (int)(unsigned int)(unsigned long long)si, "i32 sum n=%lld: %d vs %lld", n, gi, si);
    EXPECT(gmni == mni && gmxi == mxi, "i32 min/max n=%lld", n);
    return 6;
}

/* NaN propagates through min and max; infinities are ordinary values. */
static int check_special(float *d)
{
    float h[1000], r = 0.0f;
    for (int i = 0; i < 1000; ++i)
        h[i] = (float)urand();
    h[500] = INFINITY;
    h[10] = -INFINITY;
    CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_max(GS_FLOAT32, d, 1000, &r, 0));
    EXPECT(isinf(r) && r > 0, "max with +inf: %g", r);
    GS_OK(gs_reduce_min(GS_FLOAT32, d, 1000, &r, 0));
    EXPECT(isinf(r) && r < 0, "min with -inf: %g", r);
    for (int pos = 0; pos < 1000; pos += 333) {
        h[pos] = NAN;
        CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
        GS_OK(gs_reduce_min(GS_FLOAT32, d, 1000, &r, 0));
        EXPECT(isnan(r), "min with NaN at %d: %g", pos, r);
        GS_OK(gs_reduce_max(GS_FLOAT32, d, 1000, &r, 0));
        EXPECT(isnan(r), "max with NaN at %d: %g", pos, r);
        h[pos] = 0.5f;
    }
    return 2 + 2 * 4;
}

/* Results to device memory, many calls back to back on two streams. */
static int check_streams(float *d, long long n)
{
    enum { CALLS = 64 };
    cudaStream_t s[2];
    float *out, host[2 * CALLS], ref = 0.0f;
    CUDA_OK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc(&out, sizeof host));
    CUDA_OK(cudaMemset(out, 0xff, sizeof host)); /* poison: NaN */
    GS_OK(gs_reduce_sum(GS_FLOAT32, d, n, &ref, 0));
    for (int i = 0; i < CALLS; ++i)
        for (int k = 0; k < 2; ++k)
            GS_OK(gs_reduce_sum(GS_FLOAT32, d, n, out + 2 * i + k, s[k]));
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 2 * CALLS; ++i)
        bad += memcmp(&host[i], &ref, sizeof ref) != 0;
    EXPECT(bad == 0, "%d of %d stream results differ from the host-path result", bad, 2 * CALLS);
    cudaFree(out);
    cudaStreamDestroy(s[0]);
    cudaStreamDestroy(s[1]);
    return 1;
}

/* gs_dot against the compensated reference: one rounding per product plus
 * the summation bound. */
static int check_dot(long long n, int sms, void *d, void *h)
{
    float *x = (float *)h, *y = x + n;
    exact e = {0.0L, 0.0L};
    double abs_sum = 0.0;
    for (long long i = 0; i < n; ++i) {
        x[i] = (float)urand();
        y[i] = (float)urand();
        exact_add(&e, (double)x[i] * y[i]);
        abs_sum += fabs((double)x[i] * y[i]);
    }
    float *dx = (float *)d, *dy = dx + n, r = 0.0f;
    if (n)
        CUDA_OK(cudaMemcpy(d, h, 2 * (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    GS_OK(gs_dot(GS_FLOAT32, dx, dy, n, &r, 0));
    double want = exact_value(&e), bound = sum_bound(n, 0x1p-24, abs_sum, sms) + 0x1p-24 * abs_sum;
    EXPECT(fabs(r - want) <= bound, "f32 dot n=%lld: %.9g vs %.9g (bound %.3g)", n, r, want, bound);

    double *xd = (double *)h, *yd = xd + n, rd = 0.0;
    exact ed = {0.0L, 0.0L};
    abs_sum = 0.0;
    for (long long i = 0; i < n; ++i) {
        xd[i] = urand();
        yd[i] = urand();
        exact_add(&ed, xd[i] * yd[i]);
        abs_sum += fabs(xd[i] * yd[i]);
    }
    if (n)
        CUDA_OK(cudaMemcpy(d, h, 2 * (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    GS_OK(gs_dot(GS_FLOAT64, d, (double *)d + n, n, &rd, 0));
    want = exact_value(&ed);
    bound = sum_bound(n, 0x1p-53, abs_sum, sms) + 0x1p-53 * abs_sum;
    EXPECT(fabs(rd - want) <= bound, "f64 dot n=%lld: %.17g vs %.17g", n, rd, want);
    return 2;
}

/* ------------------------------------------------------------ argmin/argmax */

/* Element i as a long double: exact for every type (64-bit mantissas). */
static long double value_at(const void *h, gs_dtype t, long long i)
{
    switch (t) {
    case GS_FLOAT32: return ((const float *)h)[i];
    case GS_FLOAT64: return ((const double *)h)[i];
    case GS_FLOAT16: return gs_f16_to_double(((const uint16_t *)h)[i]);
    case GS_BFLOAT16: return gs_bf16_to_double(((const uint16_t *)h)[i]);
    case GS_INT32: return ((const int *)h)[i];
    case GS_UINT32: return ((const unsigned int *)h)[i];
    case GS_UINT64: return ((const unsigned long long *)h)[i];
    default: return ((const long long *)h)[i];
    }
}

/* The CPU's answer: the first NaN, else the first extreme; -1 for n == 0. */
static long long cpu_arg(const void *h, gs_dtype t, long long n, int want_max)
{
    long long best = -1;
    long double bv = 0.0L;
    for (long long i = 0; i < n; ++i) {
        long double v = value_at(h, t, i);
        if (best >= 0 && isnan(bv))
            break;
        if (best < 0 || isnan(v) || (want_max ? v > bv : v < bv)) {
            best = i;
            bv = v;
        }
    }
    return best;
}

/* The result's value is the element at its index, bit for bit; n == 0 gives
 * index -1 and the identity. */
static int arg_matches(const gs_reduce_arg *r, const void *h, gs_dtype t, long long want,
                       int want_max)
{
    size_t es = gs_dtype_size(t);
    if (r->index != want)
        return 0;
    if (want >= 0)
        return memcmp(&r->value, (const char *)h + want * es, es) == 0;
    switch (t) {
    case GS_FLOAT32: return isinf(r->value.f32) && (r->value.f32 > 0) == !want_max;
    case GS_FLOAT64: return isinf(r->value.f64) && (r->value.f64 > 0) == !want_max;
    case GS_FLOAT16: return r->value.f16 == (want_max ? 0xfc00 : 0x7c00); /* -inf, +inf */
    case GS_BFLOAT16: return r->value.bf16 == (want_max ? 0xff80 : 0x7f80);
    case GS_INT32: return r->value.i32 == (want_max ? INT32_MIN : INT32_MAX);
    case GS_UINT32: return r->value.u32 == (want_max ? 0u : UINT32_MAX);
    case GS_UINT64: return r->value.u64 == (want_max ? 0ull : UINT64_MAX);
    default: return r->value.i64 == (want_max ? INT64_MIN : INT64_MAX);
    }
}

/* Few distinct values (many ties), of either sign (the unsigned types:
 * small ones and, from the negative ones, ones past the signed types'
 * largest); with `nans` NaNs at random places for floating types. */
static void fill_ties(void *h, gs_dtype t, long long n, int nans)
{
    for (long long i = 0; i < n; ++i) {
        long long v = (long long)(urand() * 20.0);
        switch (t) {
        case GS_FLOAT32: ((float *)h)[i] = (float)v * 0.25f; break;
        case GS_FLOAT64: ((double *)h)[i] = (double)v * 0.125; break;
        case GS_FLOAT16: ((uint16_t *)h)[i] = gs_f16_from_double((double)v * 0.25); break;
        case GS_BFLOAT16: ((uint16_t *)h)[i] = gs_bf16_from_double((double)v * 0.5); break;
        case GS_INT32: ((int *)h)[i] = (int)v * 1000; break;
        case GS_UINT32: ((unsigned int *)h)[i] = (unsigned int)(v * 1000); break;
        case GS_UINT64:
            ((unsigned long long *)h)[i] = (unsigned long long)(v * 1000000000000ll);
            break;
        default: ((long long *)h)[i] = v * 1000000000000ll; break;
        }
    }
    for (int k = 0; k < nans && n > 0 && gs_ref_is_floating(t); ++k) {
        long long i = (long long)((urand() + 1.0) * 0.5 * (double)n) % n;
        switch (t) {
        case GS_FLOAT32: ((float *)h)[i] = NAN; break;
        case GS_FLOAT64: ((double *)h)[i] = NAN; break;
        case GS_FLOAT16: ((uint16_t *)h)[i] = (uint16_t)(0x7e01 + k); break; /* NaNs of */
        default: ((uint16_t *)h)[i] = (uint16_t)(0xffc1 + k); break;          /* their own */
        }
    }
}

/* One length of one type: both operators, to host and device memory,
 * twice (bitwise repeatable), from `offset` elements into the buffer (an
 * odd offset misaligns the 16-byte vectors). */
static int check_arg_case(gs_dtype t, long long n, long long offset, int nans, void *d, void *h,
                          gs_reduce_arg *d_out)
{
    size_t es = gs_dtype_size(t);
    char *hd = (char *)h + offset * es, *dd = (char *)d + offset * es;
    fill_ties(hd, t, n, nans);
    if (n)
        CUDA_OK(cudaMemcpy(dd, hd, (size_t)n * es, cudaMemcpyHostToDevice));
    for (int want_max = 0; want_max < 2; ++want_max) {
        gs_reduce_op op = want_max ? GS_REDUCE_ARGMAX : GS_REDUCE_ARGMIN;
        gs_reduce_arg r, again, dev;
        memset(&r, 0x5a, sizeof r);
        GS_OK(want_max ? gs_reduce_argmax(t, dd, n, &r, 0) : gs_reduce_argmin(t, dd, n, &r, 0));
        GS_OK(gs_reduce(op, t, dd, n, &again, 0));
        GS_OK(gs_reduce(op, t, dd, n, d_out, 0));
        CUDA_OK(cudaMemcpy(&dev, d_out, sizeof dev, cudaMemcpyDeviceToHost));
        long long want = cpu_arg(hd, t, n, want_max);
        EXPECT(arg_matches(&r, hd, t, want, want_max),
               "%s %s n=%lld offset=%lld nans=%d: index %lld, expected %lld", gs_reduce_op_name(op),
               gs_dtype_name(t), n, offset, nans, r.index, want);
        EXPECT(again.index == r.index && memcmp(&again.value, &r.value, es) == 0 &&
                   dev.index == r.index && memcmp(&dev.value, &r.value, es) == 0,
               "%s %s n=%lld: not bitwise repeatable (host %lld, again %lld, device %lld)",
               gs_reduce_op_name(op), gs_dtype_name(t), n, r.index, again.index, dev.index);
    }
    return 4;
}

/* `cap`: elements of 8 bytes the buffers d and h hold. */
static int check_arg(long long cap, void *d, void *h)
{
    const long long lengths[] = {0, 1, 2, 3, 31, 33, 999, 4097, (1ll << 20) + 7};
    const int nlen = 9;
    gs_reduce_arg *d_out;
    int checks = 0;
    CUDA_OK(cudaMalloc((void **)&d_out, sizeof *d_out));
    for (int t = 0; t < GS_DTYPE_COUNT; ++t)
        for (int i = 0; i < nlen && lengths[i] + 1 <= cap; ++i) {
            checks += check_arg_case((gs_dtype)t, lengths[i], 0, 0, d, h, d_out);
            checks += check_arg_case((gs_dtype)t, lengths[i], 1, 0, d, h, d_out); /* misaligned */
            if (gs_ref_is_floating((gs_dtype)t) && lengths[i] > 0)
                checks += check_arg_case((gs_dtype)t, lengths[i], 0, 2, d, h, d_out);
        }
    /* all equal: index 0; the extreme only at the end: the last index */
    float hf[1001];
    gs_reduce_arg r;
    for (int i = 0; i < 1001; ++i)
        hf[i] = 3.0f;
    CUDA_OK(cudaMemcpy(d, hf, sizeof hf, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_argmin(GS_FLOAT32, d, 1001, &r, 0));
    EXPECT(r.index == 0 && r.value.f32 == 3.0f, "argmin of equal values: index %lld", r.index);
    hf[1000] = -INFINITY;
    CUDA_OK(cudaMemcpy(d, hf, sizeof hf, cudaMemcpyHostToDevice));
    GS_OK(gs_reduce_argmin(GS_FLOAT32, d, 1001, &r, 0));
    EXPECT(r.index == 1000 && isinf(r.value.f32), "argmin -inf last: index %lld", r.index);
    GS_OK(gs_reduce_argmax(GS_FLOAT32, d, 1001, &r, 0));
    EXPECT(r.index == 0, "argmax with -inf last: index %lld", r.index);
    cudaFree(d_out);
    return checks + 3;
}

/* The device API: gs::block_reduce with gs::argmin / gs::argmax. */
static __global__ void block_arg_api(const int *in, gs::arg<int> *out)
{
    __shared__ gs::arg<int> smem[32];
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    gs::arg<int> mine = {i, in[i]};
    gs::arg<int> lo = gs::block_reduce(mine, smem, gs::argmin<int>());
    gs::arg<int> hi = gs::block_reduce(mine, smem, gs::argmax<int>());
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = lo;
        out[2 * blockIdx.x + 1] = hi;
    }
}

static int check_block_arg_api(void)
{
    const int blocks = 5, n = 333;
    int h_in[5 * 333];
    gs::arg<int> h_out[10], *d_out;
    int *d_in;
    for (int i = 0; i < blocks * n; ++i)
        h_in[i] = (int)(urand() * 10.0);
    CUDA_OK(cudaMalloc((void **)&d_in, sizeof h_in));
    CUDA_OK(cudaMalloc((void **)&d_out, sizeof h_out));
    CUDA_OK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    block_arg_api<<<blocks, n>>>(d_in, d_out);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
        long long lo = b * n + cpu_arg(h_in + b * n, GS_INT32, n, 0);
        long long hi = b * n + cpu_arg(h_in + b * n, GS_INT32, n, 1);
        EXPECT(h_out[2 * b].index == lo && h_out[2 * b].value == h_in[lo],
               "block %d argmin: %lld vs %lld", b, h_out[2 * b].index, lo);
        EXPECT(h_out[2 * b + 1].index == hi && h_out[2 * b + 1].value == h_in[hi],
               "block %d argmax: %lld vs %lld", b, h_out[2 * b + 1].index, hi);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    return 2 * blocks;
}

/* The device API: both block reductions, sum/min/max, any block size. */
static __global__ void block_api(const double *in, double *out)
{
    __shared__ double smem[1024];
    __shared__ double small[32];
    unsigned int t = threadIdx.x;
    double v = in[blockIdx.x * blockDim.x + t];
    double a = gs_block_reduce_sum_f64(v, small);
    double b = gs_block_reduce_tree_sum_f64(v, smem);
    double c = gs_block_reduce_min_f64(v, small);
    double e = gs_block_reduce_tree_max_f64(v, smem);
    if (t == 0) {
        out[4 * blockIdx.x + 0] = a;
        out[4 * blockIdx.x + 1] = c;
    }
    if (t == blockDim.x - 1) { /* the tree variant's result is in every thread */
        out[4 * blockIdx.x + 2] = b;
        out[4 * blockIdx.x + 3] = e;
    }
}

static int check_block_api(void)
{
    const int sizes[] = {32, 33, 64, 96, 100, 128, 255, 256, 512, 1000, 1023, 1024};
    const int blocks = 7, checks = (int)(sizeof sizes / sizeof sizes[0]);
    double *d_in, *d_out, h_in[7 * 1024], h_out[7 * 4];
    CUDA_OK(cudaMalloc(&d_in, sizeof h_in));
    CUDA_OK(cudaMalloc(&d_out, sizeof h_out));
    for (int s = 0; s < checks; ++s) {
        int n = sizes[s];
        for (int i = 0; i < blocks * n; ++i)
            h_in[i] = urand();
        CUDA_OK(cudaMemcpy(d_in, h_in, sizeof(double) * blocks * n, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_out, 0xff, sizeof h_out));
        block_api<<<blocks, n>>>(d_in, d_out);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; ++b) {
            double abs_sum = 0.0, mn = INFINITY, mx = -INFINITY;
            exact e = {0.0L, 0.0L};
            for (int i = 0; i < n; ++i) {
                double x = h_in[b * n + i];
                exact_add(&e, x);
                abs_sum += fabs(x);
                mn = fmin(mn, x);
                mx = fmax(mx, x);
            }
            double sum = exact_value(&e);
            double tol = 16.0 * 0x1p-53 * abs_sum; /* trees of depth <= 10 */
            EXPECT(fabs(h_out[4 * b] - sum) <= tol && fabs(h_out[4 * b + 2] - sum) <= tol,
                   "block of %d: sums %.17g / %.17g vs %.17g", n, h_out[4 * b], h_out[4 * b + 2], sum);
            EXPECT(h_out[4 * b + 1] == mn && h_out[4 * b + 3] == mx,
                   "block of %d: min %g vs %g, max %g vs %g", n, h_out[4 * b + 1], mn,
                   h_out[4 * b + 3], mx);
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    return 2 * checks * blocks;
}

int main(void)
{
    int sms = 0;
    const int quick = reduce_test_begin("reduce", &sms);
    const long long lengths[] = {0, 1, 2, 31, 32, 33, 1000, (1ll << 20) + 7, 1ll << 27};
    const int nlen = quick ? 7 : 9;
    const long long big = quick ? 1000 : 1ll << 27;
    void *d = NULL, *h = malloc((size_t)big * 8);
    CUDA_OK(cudaMalloc(&d, (size_t)big * 8));
    int checks = 0;
    for (int i = 0; i < nlen; ++i)
        checks += check_f32(lengths[i], sms, (float *)d, (float *)h);
    for (int i = 0; i < (quick ? 6 : 8); ++i)
        checks += check_f64_i32_i64(lengths[i], sms, d, h);
    for (int i = 0; i < (quick ? 6 : 8); ++i)
        checks += check_dot(lengths[i], sms, d, h);
    checks += check_special((float *)d);
    checks += check_f32(quick ? 1000 : (1ll << 20) + 7, sms, (float *)d, (float *)h);
    checks += check_streams((float *)d, quick ? 1000 : (1ll << 20) + 7);
    checks += check_block_api();
    checks += check_arg(big, d, h);
    checks += check_block_arg_api();
    cudaFree(d);
    free(h);
    gs_reduce_release_workspaces();
    return gs_test_finish("reduce", checks);
}
