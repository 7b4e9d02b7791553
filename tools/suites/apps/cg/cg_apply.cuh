/*
 * cg_apply.cuh - the 5-point Laplacian applied to one cell of a block's
 * slice, as the persistent CG versions (cg_gridsync.cu, cg_tasks.cu) hold
 * it: the slice's rows sit in P after one halo row, so cell j is P[nx + j]
 * and the rows above and below the slice are P's first and last (zero where
 * the grid ends). One function for every use: the q recomputed for the
 * updates is the dot's q, the same arithmetic.
 */
#ifndef GS_BENCH_APPS_CG_APPLY_CUH
#define GS_BENCH_APPS_CG_APPLY_CUH

static __device__ __forceinline__ double gs_cg_apply_a(const double *P, int nx, int j, int col)
{
    const double *c = P + nx + j;
    double left = col > 0 ? c[-1] : 0.0, right = col < nx - 1 ? c[1] : 0.0;
    return 4.0 * c[0] - c[-nx] - c[nx] - left - right;
}

#endif
