/* matmul.c - gs_sgemm's kernels (fast, split-k, stream-k and the tutorial's
 * tiled one) on an odd shape, and the wide tile (sm_80+) unsplit and split
 * on a shape whose edge tiles shift their windows: every element within
 * the FP32 bound of the FP64 product. */
#include <stdio.h>
#include <stdlib.h>

#include "gridsync_internal.h"

#include "testing/random.h"
#include "testing/reference.h"
#include "check/check.h"

static int run(const gs_check_env *env, char *figure, size_t len)
{
    const int m = 257, n = 263, k = 271;
    gs_rng rng = {0x2545f4914f6cdd1dull};
    float *ha = malloc((size_t)m * k * 4), *hb = malloc((size_t)k * n * 4),
          *hc = malloc((size_t)m * n * 4), *d = NULL;
    int ok = ha && hb && hc &&
             cudaMalloc((void **)&d, ((size_t)m * k + (size_t)k * n + (size_t)m * n) * 4) ==
                 cudaSuccess;
    (void)env;
    if (ok) {
        gs_rng_fill(&rng, ha, (size_t)m * k);
        gs_rng_fill(&rng, hb, (size_t)k * n);
    }
    float *da = d, *db = d + (size_t)m * k, *dc = db + (size_t)k * n;
    ok = ok && cudaMemcpy(da, ha, (size_t)m * k * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(db, hb, (size_t)k * n * 4, cudaMemcpyHostToDevice) == cudaSuccess;
    long wrong = 0;
    const gs_gemm_kernel kernels[] = {GS_GEMM_FAST, GS_GEMM_SPLITK, GS_GEMM_STREAMK,
                                      GS_GEMM_TILED16};
    for (int v = 0; ok && v < (int)(sizeof kernels / sizeof kernels[0]); ++v) {
        ok = gs_sgemm_with(kernels[v], m, n, k, 1.0f, da, k, db, n, 0.0f, dc, n, 0) == GS_SUCCESS &&
             cudaMemcpy(hc, dc, (size_t)m * n * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
        if (ok)
            wrong += gs_ref_sgemm_out_of_bound(ha, hb, hc, m, n, k);
    }
    /* the wide tile, where it runs (an sm_80+ GPU and this build's code for
     * it): 300 x 520 x 96 (n a multiple of 4 and k of 8 as it needs;
     * neither m nor n a multiple of its 128 x 256 tile), unsplit and in 3
     * slices, C poisoned before each */
    const int wm = 300, wn = 520, wk = 96; /* A and B: the first elements of ha, hb */
    const size_t wa = (size_t)wm * wk, wb = (size_t)wk * wn, wc = (size_t)wm * wn;
    int dev = 0, built = 0, wide = 0;
    float *dw = NULL, *hw = NULL;
    ok = ok && cudaGetDevice(&dev) == cudaSuccess &&
         gs__sgemm_wide_built_for(dev, &built) == GS_SUCCESS;
    if (ok && built) /* one allocation: A, B, C at multiples of 16 bytes */
        ok = (hw = malloc(wc * 4)) != NULL &&
             cudaMalloc((void **)&dw, (wa + wb + wc) * 4) == cudaSuccess &&
             cudaMemcpy(dw, ha, wa * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemcpy(dw + wa, hb, wb * 4, cudaMemcpyHostToDevice) == cudaSuccess;
    for (int slices = 1; ok && built && slices <= 3; slices += 2) {
        const gs__sgemm_args p = {wm, wn, wk, 1.0f, dw, wk, dw + wa, wn, 0.0f, dw + wa + wb, wn};
        ok = cudaMemset(dw + wa + wb, 0xff, wc * 4) == cudaSuccess && /* NaN: out of bound */
             gs__sgemm_wide(&p, slices, 0) == GS_SUCCESS &&
             cudaMemcpy(hw, dw + wa + wb, wc * 4, cudaMemcpyDeviceToHost) == cudaSuccess;
        if (ok) {
            wrong += gs_ref_sgemm_out_of_bound(ha, hb, hw, wm, wn, wk);
            ++wide;
        }
    }
    free(hw);
    cudaFree(dw);
    char wide_part[96] = "";
    if (wide)
        snprintf(wide_part, sizeof wide_part, "; %dx%dx%d, the wide tile unsplit%s", wm, wn, wk,
                 wide > 1 ? " and in 3 slices" : "");
    snprintf(figure, len,
             "%dx%dx%d, the fast, split-k and stream-k kernels and the tutorial's 16x16 one%s: "
             "%ld elements beyond the FP32 bound%s",
             m, n, k, wide_part, wrong, ok ? "" : " (a call failed)");
    free(ha);
    free(hb);
    free(hc);
    cudaFree(d);
    return ok && wrong == 0;
}

const gs_check gs_check_matmul = {
    "matmul",
    "the matrix multiply (the fast, split-k and stream-k kernels, the wide tile, and the "
    "tiled matrix-multiply tutorial's 16x16 one) against FP64",
    run};
