/*
 * cg_gridsync.cu - conjugate gradient as one persistent kernel on
 * gridsync: two grid all-reduces per iteration and nothing else that
 * waits for another block (the method "gridsync persistent" of
 * `gridsync bench apps`; docs/apps.md). Also the grid choice that both
 * persistent versions use (gs_cg_pick_grid).
 */
#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>

#include "gridsync_internal.h"
#include "suites/apps/cg/cg.h"
#include "suites/apps/cg/cg_slice.cuh"

gs_cg_grid gs_cg_pick_grid(int nx, int ny, int sms, size_t smem_max)
{
    gs_cg_grid g = {1, 256, ny, 0, 0};
    long long n = (long long)nx * ny;
    if (n > GS_CG_ONE_BLOCK_MAX) {
        int by_cells = (GS_CG_CELLS_PER_BLOCK + nx - 1) / nx, by_sms = (ny + sms - 1) / sms;
        g.rows = by_cells > by_sms ? by_cells : by_sms;
        g.rows = g.rows < ny ? g.rows : ny;
    }
    g.blocks = (ny + g.rows - 1) / g.rows;
    long long cells = (long long)g.rows * nx;
    g.threads = cells <= GS_CG_SMALL_SLICE ? 256 : 1024;
    size_t smem = (size_t)((g.rows + 2) * (long long)nx + 2 * cells) * sizeof(double);
    if (cells <= GS_CG_RESIDENT_MAX && smem <= smem_max) {
        g.resident = 1;
        g.smem = smem;
    }
    return g;
}

/*
 * cg_persistent - the whole solve in one launch; block b owns grid rows
 * [b * rows, b * rows + nrows).
 * How: RESIDENT: the block's slices of x, r and p (p with a halo row above
 *   and below) stay in shared memory for the whole solve, and only two rows
 *   of r per block (`edges`) travel through global memory each iteration.
 *   Else the slices are global (x, r in place, p in a buffer of the
 *   block's own, halo rows included). An iteration:
 *     q = A p over the slice (q is not stored: recomputed below)
 *     (p, q)      all-reduce #1 (gs_grid_allreduce_sum_f64)
 *     x += alpha p, r -= alpha q; the slice's first and last rows of r to `edges`
 *     (r, r)      all-reduce #2
 *     p = r + beta p over the slice, AND over the halo rows:
 *       halo = edges of the neighbour + beta * halo
 *     a block barrier
 *   The halo rows of p are never exchanged: each block keeps its own copy of
 *   its neighbours' boundary rows of p and updates it with the recurrence
 *   the owner uses (fma(beta, p, r), with the owner's r row from `edges` and
 *   the same beta: the all-reduce gives every thread the same bits), so the
 *   copy equals the owner's p bit for bit, by induction from p0 = b.
 * Why correct: the only data that crosses blocks are the partial sums (the
 *   all-reduce) and `edges`. Block b's stores to its edges in iteration k
 *   precede (block barrier, then thread 0's release) its arrival at
 *   all-reduce #2 of k; every block reads them after that all-reduce
 *   (thread 0's acquire, then a block barrier), so the reads see them. The
 *   next stores to b's edges come after all-reduce #1 of k + 1, which no
 *   block completes before every block has arrived, i.e. finished its
 *   reads of iteration k: one buffer suffices. Within the block, the
 *   barriers inside the all-reduces and the one at the end of the iteration
 *   order every read of P, X, R after the writes of other threads. The
 *   convergence test compares rr (the same bits in every block), so every
 *   block leaves the loop after the same iteration.
 * Synchronization per iteration: two grid all-reduces (each is a grid
 *   barrier), one block barrier; no other grid barrier and no atomics.
 * When: iterative solvers whose iteration is a few grid-wide sums and
 *   neighbour data: the all-reduce carries the dependency on the
 *   neighbours' data with it, so the barrier count per iteration is the
 *   number of global sums.
 */
template <bool RESIDENT>
static __global__ void __launch_bounds__(1024)
    cg_persistent(gs_grid_barrier bar, const double *__restrict__ b, double *x, double *r,
                  double *pbuf, double *edges, int nx, int ny, int rows, double tol,
                  int max_iters, int *iters_out)
{
    extern __shared__ double smem[];
    const int blk = (int)blockIdx.x, t = (int)threadIdx.x, nt = (int)blockDim.x;
    const long long first = (long long)blk * rows * nx;
    double *P, *X, *R;
    if (RESIDENT) {
        P = smem;
        X = smem + (long long)(rows + 2) * nx;
        R = X + (long long)rows * nx;
    } else {
        P = pbuf + (long long)blk * (rows + 2) * nx;
        X = x + first;
        R = r + first;
    }
    const gs_cg_slice s = gs_cg_slice_of(P, X, R, edges, nx, ny, rows);
    const int cells = s.cells;

    double part = 0.0; /* x0 = 0, r0 = p0 = b; halos: the neighbours' rows of b */
    for (int j = t; j < cells; j += nt) {
        const double v = b[first + j];
        X[j] = 0.0;
        R[j] = v;
        P[nx + j] = v;
        part += v * v;
    }
    for (int c = t; c < nx; c += nt) {
        s.halo_up[c] = s.up ? b[first - nx + c] : 0.0;
        s.halo_down[c] = s.down ? b[first + cells + c] : 0.0;
    }
    const double rr0 = gs_grid_allreduce_sum_f64(&bar, part); /* and the block's P, X, R */
    const double goal = tol >= 0.0 ? tol * tol * rr0 : -1.0;
    double rr = rr0;
    int it = 0;
    while (it < max_iters && !(rr <= goal)) {
        const double pq = gs_grid_allreduce_sum_f64(&bar, gs_cg_slice_pq(s, t, nt));
        const double alpha = pq != 0.0 ? rr / pq : 0.0;
        const double rr_part = gs_cg_slice_step(s, alpha, t, nt);
        const double rr_new = gs_grid_allreduce_sum_f64(&bar, rr_part); /* edges visible */
        gs_cg_slice_direction(s, rr != 0.0 ? rr_new / rr : 0.0, t, nt);
        __syncthreads(); /* P complete before the next A p */
        rr = rr_new;
        ++it;
    }
    if (RESIDENT)
        for (int j = t; j < cells; j += nt)
            x[first + j] = X[j];
    if (blk == 0 && t == 0)
        *iters_out = it;
}

typedef struct impl {
    gs_cg_slices sl;
    int *iters;
    gs_barrier_t bar;
    gs_grid_barrier view;
    const void *kernel;
} impl;

static void destroy(gs_cg_run *run)
{
    impl *m = (impl *)run->impl;
    if (!m)
        return;
    if (m->bar)
        gs_barrier_destroy(m->bar);
    void *device[] = {m->sl.r, m->sl.pbuf, m->sl.edges, m->iters};
    gs_cg_impl_free(run, device, 4);
}

static gs_status create(gs_cg_run *run)
{
    GS_TRY(gs_cg_impl_new(run, sizeof(impl)));
    impl *m = (impl *)run->impl;
    const gs_cg_grid *g = &run->grid;
    m->kernel = g->resident ? (const void *)cg_persistent<true> : (const void *)cg_persistent<false>;
    GS_TRY(gs_cg_slices_alloc(run, !g->resident, &m->sl));
    GS_CUDA_TRY(cudaMalloc((void **)&m->iters, sizeof(int)));
    GS_CUDA_TRY(cudaFuncSetAttribute(m->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)g->smem));
    GS_TRY(gs_barrier_create(&m->bar, GS_BARRIER_AUTO));
    return gs_barrier_device(m->bar, (unsigned int)g->blocks, &m->view);
}

static gs_status launch(gs_cg_run *run, double tol, int iters, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    const double *b = run->b;
    int nx = run->nx, ny = run->ny, rows = run->grid.rows;
    void *args[] = {&m->view, &b, &run->x, &m->sl.r, &m->sl.pbuf, &m->sl.edges, &nx, &ny, &rows,
                    &tol, &iters, &m->iters};
    return gs_launch(m->kernel, dim3((unsigned int)run->grid.blocks),
                     dim3((unsigned int)run->grid.threads), run->grid.smem, stream, args,
                     m->bar);
}

static gs_status check(gs_cg_run *run, cudaStream_t stream)
{
    return gs_barrier_check(((impl *)run->impl)->bar, stream);
}

static gs_status solve(gs_cg_run *run, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    GS_TRY(gs_cg_slices_poison(run, &m->sl, stream));
    GS_TRY(launch(run, run->tol, run->max_iters, stream));
    GS_TRY(check(run, stream));
    return gs_cg_read_iterations(run, m->iters, stream);
}

static gs_status enqueue(void *p, cudaStream_t stream)
{
    gs_cg_run *run = (gs_cg_run *)p;
    return launch(run, -1.0, run->timed_iters, stream);
}

extern "C" const gs_cg_version gs_cg_gridsync = {"gridsync persistent", create, solve, enqueue,
                                                 check, destroy, 0};
