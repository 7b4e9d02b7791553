/*
 * cg_sample.cu - the peer "cg grid.sync sample": the design of NVIDIA's
 * conjugateGradientMultiBlockCG CUDA sample, written here from its
 * published description (one cooperative kernel for the whole solve,
 * cooperative groups grid.sync() between the phases, each dot product a
 * block reduction and one double atomicAdd per block into a global result
 * that thread 0 of block 0 zeroes beforehand). Differences from the
 * sample, so that it solves the same problem as the other versions: FP64
 * vectors, the matrix-free 5-point stencil instead of its CSR SpMV, the
 * common guarded alpha and beta (suites/apps/cg/cg.h), and the grid of
 * gridsync's version (gs_cg_pick_grid), so that the comparison is the
 * synchronization.
 */
#include <cooperative_groups.h>

#include "gridsync_internal.h"
#include "suites/apps/cg/cg.h"
#include "suites/apps/cg/cg_block_sum.cuh"

namespace cg = cooperative_groups;

/* (A p)_i, reading p from global memory (the neighbours anywhere). */
static __device__ __forceinline__ double stencil(const double *p, long long i, int nx, int ny,
                                                 int shift)
{
    const int col = (int)(i & (nx - 1)), row = (int)(i >> shift);
    double v = 4.0 * p[i];
    if (row > 0)
        v -= p[i - nx];
    if (row < ny - 1)
        v -= p[i + nx];
    if (col > 0)
        v -= p[i - 1];
    if (col < nx - 1)
        v -= p[i + 1];
    return v;
}

/* (a, b) over the grid-stride share of the thread, summed over the block
 * (gs_cg_block_sum: warp shuffles, then warp 0 over the warps' sums) and
 * added to *result with one atomicAdd by thread 0. */
static __device__ void dot_atomic(const double *a, const double *b, long long n, long long start,
                                  long long stride, double *result)
{
    double v = 0.0;
    for (long long i = start; i < n; i += stride)
        v += a[i] * b[i];
    v = gs_cg_block_sum(v);
    if (threadIdx.x == 0u)
        atomicAdd(result, v);
}

/*
 * cg_sample_kernel - the sample's loop.
 * How: grid-stride loops over all n unknowns (every vector in global
 *   memory), and six grid.sync() per iteration: after p = r + beta p,
 *   after q = A p (with *dot zeroed), after the dot (p, q), after the
 *   updates of x and r (the old rr saved), after zeroing *dot again, after
 *   the dot (r, r).
 * Why correct: each grid.sync orders every block's writes of a phase
 *   before every block's reads in the next: p before A p reads the
 *   neighbours' p, the atomics into *dot after its zeroing and before its
 *   reading, the reading of *dot by every thread before the next zeroing
 *   (hence the extra syncs around each zeroing).
 * When: the reference design for a persistent CG with cooperative groups;
 *   blockDim.x must be a multiple of 32.
 */
static __global__ void __launch_bounds__(1024)
    cg_sample_kernel(const double *b, double *x, double *r, double *p, double *q, double *dot,
                     int nx, int ny, int shift, double tol, int max_iters, int *iters_out)
{
    cg::grid_group grid = cg::this_grid();
    const long long n = (long long)nx * ny, start = (long long)grid.thread_rank(),
                    stride = (long long)grid.size();
    const bool leader = grid.thread_rank() == 0;
    for (long long i = start; i < n; i += stride) {
        r[i] = b[i];
        x[i] = 0.0;
    }
    if (leader)
        *dot = 0.0;
    grid.sync();
    dot_atomic(r, r, n, start, stride, dot);
    grid.sync();
    double r1 = *dot, r0 = 0.0;
    const double goal = tol >= 0.0 ? tol * tol * r1 : -1.0;
    int k = 0;
    while (k < max_iters && !(r1 <= goal)) {
        const double beta = k == 0 ? 0.0 : r0 != 0.0 ? r1 / r0 : 0.0;
        for (long long i = start; i < n; i += stride)
            p[i] = k == 0 ? r[i] : fma(beta, p[i], r[i]);
        grid.sync();
        for (long long i = start; i < n; i += stride)
            q[i] = stencil(p, i, nx, ny, shift);
        if (leader)
            *dot = 0.0;
        grid.sync();
        dot_atomic(p, q, n, start, stride, dot);
        grid.sync();
        const double pq = *dot, alpha = pq != 0.0 ? r1 / pq : 0.0;
        for (long long i = start; i < n; i += stride) {
            x[i] = fma(alpha, p[i], x[i]);
            r[i] = fma(-alpha, q[i], r[i]);
        }
        r0 = r1;
        grid.sync();
        if (leader)
            *dot = 0.0;
        grid.sync();
        dot_atomic(r, r, n, start, stride, dot);
        grid.sync();
        r1 = *dot;
        ++k;
    }
    if (leader)
        *iters_out = k;
}

typedef struct impl {
    double *r, *p, *q, *dot;
    int *iters;
} impl;

static void destroy(gs_cg_run *run)
{
    impl *m = (impl *)run->impl;
    if (!m)
        return;
    void *device[] = {m->r, m->p, m->q, m->dot, m->iters};
    gs_cg_impl_free(run, device, 5);
}

static gs_status create(gs_cg_run *run)
{
    GS_TRY(gs_cg_impl_new(run, sizeof(impl)));
    impl *m = (impl *)run->impl;
    size_t bytes = (size_t)run->n * sizeof(double);
    GS_CUDA_TRY(cudaMalloc((void **)&m->r, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->p, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->q, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->dot, sizeof(double)));
    GS_CUDA_TRY(cudaMalloc((void **)&m->iters, sizeof(int)));
    int fit = 0;
    GS_TRY(gs_max_coresident_blocks((const void *)cg_sample_kernel, run->grid.threads, 0, &fit));
    if (fit < run->grid.blocks)
        return gs__fail(GS_ERR_NOT_CORESIDENT,
                        "bench apps cg: the grid.sync sample's %d blocks of %d threads do not "
                        "fit (at most %d)", run->grid.blocks, run->grid.threads, fit);
    return GS_SUCCESS;
}

static gs_status launch(gs_cg_run *run, double tol, int iters, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    const double *b = run->b;
    int nx = run->nx, ny = run->ny, shift = 0;
    while ((1 << shift) < nx)
        ++shift;
    void *args[] = {&b, &run->x, &m->r, &m->p, &m->q, &m->dot, &nx, &ny, &shift, &tol, &iters,
                    &m->iters};
    GS_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)cg_sample_kernel,
                                            dim3((unsigned int)run->grid.blocks),
                                            dim3((unsigned int)run->grid.threads), args, 0,
                                            stream));
    return GS_SUCCESS;
}

static gs_status solve(gs_cg_run *run, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    GS_TRY(launch(run, run->tol, run->max_iters, stream));
    return gs_cg_read_iterations(run, m->iters, stream);
}

static gs_status enqueue(void *p, cudaStream_t stream)
{
    gs_cg_run *run = (gs_cg_run *)p;
    return launch(run, -1.0, run->timed_iters, stream);
}

extern "C" const gs_cg_version gs_cg_sample = {"cg grid.sync sample", create, solve, enqueue,
                                               NULL, destroy, 0};
