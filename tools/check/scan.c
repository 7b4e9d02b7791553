/* scan.c - every prefix scan (inclusive and exclusive sum, min, max of f32,
 * f64, i32, i64, u32, u64, f16, bf16) on a million random elements against
 * the CPU, within gridsync.h's bound for floating sums (and the rounding to
 * 16 bits of f16 and bf16 outputs), exactly otherwise (min and max on
 * noisy slopes, so that the answer changes along the array); then each once
 * more past 32 MiB, where the library takes its bandwidth kernels (for
 * 4-byte types on sm_90, the one with its tiles in shared memory and a
 * look-back warp). The output starts 256 bytes aligned, so the kernels'
 * vector stores are checked, not only their element-wise ones. */
#include <stdio.h>
#include <stdlib.h>

#include "testing/float16.h"
#include "testing/random.h"
#include "testing/reference.h"
#include "check/check.h"

/* n random elements of `type` at h for a scan with `op`. Sums: uniform
 * values (integers up to 2^40 for int64 and uint64, so that sums leave 32
 * bits, and up to 1e6 for int32 and uint32: wrapping sums too; the 16-bit
 * floats rounded from [-1, 1)). Min and max: a noisy slope down (min) or
 * up (max), so that the running minimum or maximum keeps changing to the
 * end instead of settling in the first tile (the unsigned types' slopes
 * start high enough to stay positive). */
static void random_elements(gs_rng *rng, gs_scan_op op, gs_dtype type, long long n, void *h)
{
    const int slope = op == GS_SCAN_MIN ? -1 : op == GS_SCAN_MAX ? 1 : 0;
    for (long long i = 0; i < n; ++i) {
        const double x = gs_rng_uniform(rng);
        const long long step = slope * (i / 64); /* about one new extreme in 64 */
        switch (type) {
        case GS_FLOAT32: ((float *)h)[i] = (float)(x + (double)step); break;
        case GS_FLOAT64: ((double *)h)[i] = x + (double)step; break;
        case GS_FLOAT16: /* the slope flatter: f16 ends at 65504 */
            ((uint16_t *)h)[i] = gs_f16_from_double(x + (double)step / 8.0);
            break;
        case GS_BFLOAT16: ((uint16_t *)h)[i] = gs_bf16_from_double(x + (double)step); break;
        case GS_INT32: ((int *)h)[i] = slope ? (int)(x * 64.0) + (int)step * 16 : (int)(x * 1e6); break;
        case GS_UINT32:
            ((unsigned int *)h)[i] = slope ? (unsigned int)(0x40000000ll + (long long)(x * 64.0) +
                                                            step * 16)
                                           : (unsigned int)(long long)(x * 1e6);
            break;
        case GS_UINT64:
            ((unsigned long long *)h)[i] =
                slope ? (unsigned long long)(0x4000000000000000ll + (long long)(x * 64.0) +
                                             step * 16)
                      : (unsigned long long)(long long)(x * 1099511627776.0);
            break;
        default:
            ((long long *)h)[i] = slope ? (long long)(x * 64.0) + step * 16
                                        : (long long)(x * 1099511627776.0);
            break;
        }
    }
}

/* One scan against the CPU; 0 with the reason in `why` when it differs. */
static int scan_one(gs_rng *rng, gs_scan_op op, gs_scan_kind kind, gs_dtype type, long long n,
                    void *d, void *h, void *y, char *why, size_t len)
{
    size_t bytes = (size_t)n * gs_dtype_size(type);
    void *d_out = (char *)d + ((bytes + 255) & ~(size_t)255);
    long long first = -1, wrong = 0;
    random_elements(rng, op, type, n, h);
    gs_status st = cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess
                       ? gs_scan(op, kind, type, d, d_out, n, 0)
                       : GS_ERR_CUDA;
    if (st == GS_SUCCESS)
        st = gs_scan_check(0);
    if (st == GS_SUCCESS && cudaMemcpy(y, d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
        st = GS_ERR_CUDA;
    if (st != GS_SUCCESS) {
        snprintf(why, len, "%s %s %s: %s", gs_scan_kind_name(kind), gs_scan_op_name(op),
                 gs_dtype_name(type), gs_last_error_detail());
        return 0;
    }
    wrong = gs_ref_scan_wrong(op, kind, type, h, y, n, &first);
    if (wrong)
        snprintf(why, len, "%s %s %s: %lld of %lld elements wrong, the first at %lld",
                 gs_scan_kind_name(kind), gs_scan_op_name(op), gs_dtype_name(type), wrong, n,
                 first);
    return wrong == 0;
}

static int run(const gs_check_env *env, char *figure, size_t len)
{
    const long long n = 1000003;
    /* past 32 MiB: the bandwidth kernels, 7 elements into a partial tile */
    const long long large_bytes = 32ll << 20;
    const size_t host_bytes = (size_t)(n * 8 > large_bytes + 64 ? n * 8 : large_bytes + 64);
    gs_rng rng = {0x853c49e6748fea9bull};
    void *d = NULL, *h = malloc(host_bytes), *y = malloc(host_bytes);
    int ok = h && y && cudaMalloc(&d, 2 * host_bytes + 256) == cudaSuccess, count = 0, large = 0;
    (void)env;
    snprintf(figure, len, "could not allocate the inputs");
    for (int t = 0; ok && t < GS_DTYPE_COUNT; ++t)
        for (int op = 0; ok && op < GS_SCAN_OP_COUNT; ++op)
            for (int kind = 0; ok && kind < GS_SCAN_KIND_COUNT; ++kind, ++count)
                ok = scan_one(&rng, (gs_scan_op)op, (gs_scan_kind)kind, (gs_dtype)t, n, d, h, y,
                              figure, len);
    for (int t = 0; ok && t < GS_DTYPE_COUNT; ++t) {
        const long long n_large = large_bytes / (long long)gs_dtype_size((gs_dtype)t) + 7;
        for (int op = 0; ok && op < GS_SCAN_OP_COUNT; ++op)
            for (int kind = 0; ok && kind < GS_SCAN_KIND_COUNT; ++kind, ++large)
                ok = scan_one(&rng, (gs_scan_op)op, (gs_scan_kind)kind, (gs_dtype)t, n_large, d, h,
                              y, figure, len);
    }
    if (ok)
        snprintf(figure, len,
                 "%d kind/op/type scans of %lld random elements and %d of 32 MiB + 7 elements "
                 "match the CPU",
                 count, n, large);
    free(h);
    free(y);
    cudaFree(d);
    return ok;
}

const gs_check gs_check_scan = {
    "scan",
    "every prefix scan (inclusive, exclusive; sum, min, max of f32, f64, i32, i64, u32, u64, "
    "f16, bf16) against the CPU",
    run};
