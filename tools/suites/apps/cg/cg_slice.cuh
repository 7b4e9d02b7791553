/*
 * cg_slice.cuh - a block's slice of the CG problem and what an iteration
 * does to it, shared by the two persistent versions (cg_gridsync.cu on
 * grid all-reduces, cg_tasks.cu on the task runtime), which differ only in
 * how the blocks wait for each other.
 *
 * Block b owns grid rows [b * rows, b * rows + nrows) (the last block what
 * is left). Its p sits in P after one halo row: cell j is P[nx + j], and P's
 * first and last rows are the block's own copies of the neighbours'
 * boundary rows of p (zero where the grid ends), kept equal to them by the
 * owner's recurrence p = r + beta p, with the owner's r rows from `edges`
 * (cg_gridsync.cu argues it). Each block publishes its first and last rows
 * of r in edges[2 b], edges[2 b + 1] (nx each). Loops: thread t takes cells
 * t, t + nt, ... of the slice.
 */
#ifndef GS_BENCH_APPS_CG_SLICE_CUH
#define GS_BENCH_APPS_CG_SLICE_CUH

struct gs_cg_slice {
    double *P, *X, *R;            /* p (with its halo rows), x and r of the slice */
    double *mine;                 /* this block's edge rows of r */
    const double *above, *below;  /* the neighbours' (this block's own where none) */
    double *halo_up, *halo_down;  /* P's first and last rows */
    int nx, cells, up, down;
};

/* Block blockIdx.x's slice of an nx x ny grid of `rows` rows a block, its
 * p, x and r at P, X, R (P with (rows + 2) x nx cells). */
static __device__ __forceinline__ gs_cg_slice gs_cg_slice_of(double *P, double *X, double *R,
                                                            double *edges, int nx, int ny,
                                                            int rows)
{
    const int blk = (int)blockIdx.x, nrows = min(rows, ny - blk * rows);
    gs_cg_slice s;
    s.P = P;
    s.X = X;
    s.R = R;
    s.nx = nx;
    s.cells = nrows * nx;
    s.up = blk > 0;
    s.down = blk + 1 < (int)gridDim.x;
    s.mine = edges + (long long)blk * 2 * nx;
    s.above = s.up ? s.mine - nx : s.mine;
    s.below = s.down ? s.mine + 2 * nx : s.mine;
    s.halo_up = P;
    s.halo_down = P + (long long)(nrows + 1) * nx;
    return s;
}

/* (A p)_j for cell j of the slice (column col = j mod nx): one function for
 * every use, so the q recomputed for the updates is the dot's q. */
static __device__ __forceinline__ double gs_cg_apply_a(const double *P, int nx, int j, int col)
{
    const double *c = P + nx + j;
    double left = col > 0 ? c[-1] : 0.0, right = col < nx - 1 ? c[1] : 0.0;
    return 4.0 * c[0] - c[-nx] - c[nx] - left - right;
}

/* v as cell j's r in the block's edge rows, if j is in its first or last row. */
static __device__ __forceinline__ void gs_cg_slice_edge(const gs_cg_slice &s, int j, double v)
{
    if (j < s.nx)
        s.mine[j] = v;
    if (j >= s.cells - s.nx)
        s.mine[j - s.cells + 2 * s.nx] = v;
}

/* This thread's part of (p, A p). */
static __device__ __forceinline__ double gs_cg_slice_pq(const gs_cg_slice &s, int t, int nt)
{
    double part = 0.0;
    for (int j = t; j < s.cells; j += nt)
        part += s.P[s.nx + j] * gs_cg_apply_a(s.P, s.nx, j, j & (s.nx - 1));
    return part;
}

/* x += alpha p, r -= alpha A p (A p recomputed), the edge rows of r; this
 * thread's part of (r, r). */
static __device__ __forceinline__ double gs_cg_slice_step(const gs_cg_slice &s, double alpha,
                                                          int t, int nt)
{
    double part = 0.0;
    for (int j = t; j < s.cells; j += nt) {
        const double p = s.P[s.nx + j], q = gs_cg_apply_a(s.P, s.nx, j, j & (s.nx - 1));
        s.X[j] = fma(alpha, p, s.X[j]);
        const double rj = fma(-alpha, q, s.R[j]);
        s.R[j] = rj;
        part += rj * rj;
        gs_cg_slice_edge(s, j, rj);
    }
    return part;
}

/* p = r + beta p over the slice, and over the halo rows from the
 * neighbours' edge rows of r. The caller's block barrier follows before
 * A p. */
static __device__ __forceinline__ void gs_cg_slice_direction(const gs_cg_slice &s, double beta,
                                                             int t, int nt)
{
    for (int j = t; j < s.cells; j += nt)
        s.P[s.nx + j] = fma(beta, s.P[s.nx + j], s.R[j]);
    for (int c = t; c < s.nx; c += nt) {
        if (s.up)
            s.halo_up[c] = fma(beta, s.halo_up[c], s.above[c]);
        if (s.down)
            s.halo_down[c] = fma(beta, s.halo_down[c], s.below[c]);
    }
}

#endif
