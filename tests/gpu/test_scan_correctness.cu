/*
 * test_scan_correctness.cu - gs_scan's results against the CPU reference
 * (scan_test.h): every op (sum, min, max), kind and type (f32, f64, i32,
 * i64, u32, u64, f16, bf16: the 16-bit floats' sums within float's bound
 * and one rounding to 16 bits, exact on small integers); n from 0 to 2^27,
 * including lengths around tile and look-back window boundaries of each
 * tiling; inputs and outputs misaligned by one or three elements, and in
 * place; outputs poisoned first: every element written, nothing past n
 * touched; results bitwise identical from run to run and between aligned
 * and misaligned copies of the same data (the order of operations is fixed
 * by n alone); floating sums exact on small integers and within the bound
 * on real data; NaN and infinities; bad input refused with nothing written.
 */
#include "scan_test.h"

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

/* Every op and kind of T: lengths around the short tiles, the latency
 * tiling's start (`latency_from`, past 512 KiB; 16-bit elements count as 4
 * bytes there, scan_element_bytes), its tiles and look-back windows (64
 * tiles with the default tuning), then large ones; layouts from index 4
 * on. Then, unless quick, around the bandwidth tile's start (`from`,
 * 8 MiB), its tiles and windows; layouts for the last one. */
template <class T>
static int check_lengths(buffers *b, bool quick)
{
    const long long bytes = gs::detail::scan_element_bytes<T>();
    const long long short_tile = tile_of<T>(1);
    const long long latency_from = GS_TUNE_SCAN_SHORT_TO_BYTES / bytes;
    const long long tile = tile_of<T>(latency_from + 1);
    const long long from = GS_TUNE_SCAN_LARGE_FROM_BYTES / bytes;
    const long long big_tile = tile_of<T>(from + 1);
    const long long lengths[] = {0, 1, 2, 31, 33, 1000, short_tile - 1, short_tile,
                                 2 * short_tile + 3, latency_from, latency_from + 1,
                                 64 * tile - 1, 64 * tile + 1, 130 * tile + 7,
                                 (1ll << 20) + 7};
    const long long long_lengths[] = {from, from + 1, (from / big_tile + 1) * big_tile,
                                      from + 64 * big_tile + 1, from + 130 * big_tile + 7};
    const int nlen = quick ? 11 : (int)(sizeof lengths / sizeof lengths[0]);
    const int nlong = quick ? 0 : (int)(sizeof long_lengths / sizeof long_lengths[0]);
    return check_type<T>(b, lengths, nlen, 4) +
           (nlong ? check_type<T>(b, long_lengths, nlong, nlong - 1) : 0);
}

/* Floating sums that must be exact (small integers), and positive data,
 * where the bound is relative, up to `big`. */
template <class T>
static int check_float_sums(buffers *b, long long big)
{
    const long long short_tile = tile_of<T>(1), tile = latency_tile<T>();
    const long long latency_from =
        GS_TUNE_SCAN_SHORT_TO_BYTES / gs::detail::scan_element_bytes<T>();
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

/* NaN propagates through min and max prefixes; infinities are values. For
 * the floating types (f32 and the 16-bit floats). */
template <class T>
static int check_special(buffers *b)
{
    typedef elem<T> E;
    const long long n = 3 * latency_tile<T>() + 77;
    const gs_dtype type = dtype_of<T>::value;
    T *h = (T *)b->h_in, *d = (T *)b->d_in, *y = (T *)b->h_out;
    int checks = 0;
    for (int op = GS_SCAN_MIN; op <= GS_SCAN_MAX; ++op)
        for (long long nan_at = 5; nan_at < n; nan_at += 4099) {
            fill(h, n, FILL_REAL);
            h[1] = E::from_double(INFINITY);
            h[2] = E::from_double(-INFINITY);
            h[nan_at] = E::from_double(NAN);
            CUDA_OK(cudaMemcpy(d, h, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
            GS_OK(gs_scan((gs_scan_op)op, GS_SCAN_INCLUSIVE, type, d, b->d_out, n, 0));
            CUDA_OK(cudaMemcpy(y, b->d_out, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
            long long wrong = 0;
            for (long long k = 0; k < n; ++k) {
                bool want_nan = k >= nan_at;
                double want = op == GS_SCAN_MIN ? -INFINITY : INFINITY, got = E::to_double(y[k]);
                wrong += want_nan ? !isnan(got) : (k >= (op == GS_SCAN_MIN ? 2 : 1) && got != want);
            }
            EXPECT(wrong == 0, "%s %s with NaN at %lld: %lld prefixes wrong",
                   gs_scan_op_name((gs_scan_op)op), gs_dtype_name(type), nan_at, wrong);
            ++checks;
        }
    /* a sum: NaN from the first NaN on; +inf and -inf make NaN */
    fill(h, n, FILL_REAL);
    h[10] = E::from_double(INFINITY);
    h[n - 50] = E::from_double(-INFINITY);
    CUDA_OK(cudaMemcpy(d, h, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
    GS_OK(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, type, d, b->d_out, n, 0));
    CUDA_OK(cudaMemcpy(y, b->d_out, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (long long k = 10; k < n; ++k) {
        const double got = E::to_double(y[k]);
        wrong += k < n - 50 ? !(isinf(got) && got > 0) : !isnan(got);
    }
    EXPECT(wrong == 0, "sum %s with +inf then -inf: %lld prefixes wrong", gs_dtype_name(type),
           wrong);
    /* exclusive: element 0 is the identity */
    GS_OK(gs_scan(GS_SCAN_MIN, GS_SCAN_EXCLUSIVE, type, d, b->d_out, n, 0));
    CUDA_OK(cudaMemcpy(y, b->d_out, sizeof(T), cudaMemcpyDeviceToHost));
    EXPECT(isinf(E::to_double(y[0])) && E::to_double(y[0]) > 0,
           "exclusive min %s: element 0 is %g, not +inf", gs_dtype_name(type), E::to_double(y[0]));
    return checks + 2;
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
    EXPECT(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, (gs_dtype)GS_DTYPE_COUNT, d_in, d_out, n, 0) ==
               GS_ERR_INVALID_ARGUMENT, "unknown type accepted");
    EXPECT(gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_FLOAT32, NULL, NULL, 0, 0) == GS_SUCCESS,
           "n = 0 with NULL pointers refused");
    EXPECT(gs_scan_check(0) == GS_SUCCESS, "gs_scan_check after good runs: %s",
           gs_last_error_detail());
    free(host);
    return checks + 5;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    const int quick = scan_test_begin("scan_correctness");
    /* quick: past the latency tiling's start for 4-byte types too */
    const long long big = quick ? GS_TUNE_SCAN_SHORT_TO_BYTES / 4 + 8192 : 1ll << 27;
    buffers b;
    buffers_make(&b, big + 16);
    int checks = 0;

    checks += check_lengths<float>(&b, quick);
    checks += check_lengths<double>(&b, quick);
    checks += check_lengths<int>(&b, quick);
    checks += check_lengths<long long>(&b, quick);
    checks += check_lengths<unsigned int>(&b, quick);
    checks += check_lengths<unsigned long long>(&b, quick);
    checks += check_lengths<__half>(&b, quick);
    checks += check_lengths<__nv_bfloat16>(&b, quick);
    printf("  every op, kind, type, length and layout: %d checks so far\n", checks);
    checks += check_float_sums<float>(&b, big);
    checks += check_float_sums<double>(&b, quick ? big : big / 2);
    checks += check_float_sums<__half>(&b, big);
    checks += check_float_sums<__nv_bfloat16>(&b, big);
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
        checks += check_case<__half>(&b, GS_SCAN_SUM, GS_SCAN_INCLUSIVE, big - 1,
                                     layout{1, 1, false}, FILL_REAL, NULL);
        checks += check_case<__nv_bfloat16>(&b, GS_SCAN_MAX, GS_SCAN_EXCLUSIVE, big,
                                            layout{0, 0, true}, FILL_REAL, NULL);
        checks += check_case<unsigned long long>(&b, GS_SCAN_MIN, GS_SCAN_INCLUSIVE, big / 2 + 3,
                                                 layout{0, 3, false}, FILL_REAL, NULL);
    }
    printf("  floating sums exact and bounded, up to 2^%d: %d checks so far\n", quick ? 17 : 27,
           checks);
    checks += check_special<float>(&b);
    checks += check_special<__half>(&b);
    checks += check_special<__nv_bfloat16>(&b);
    checks += check_bad_input(&b);
    buffers_free(&b);
    return scan_test_end("scan_correctness", checks);
}
