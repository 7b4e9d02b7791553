/*
 * cg_pdl.cu - the peers "kernels, stream + PDL" and "kernels, graph + PDL":
 * conjugate gradient as a careful CUDA programmer writes it for sm_90
 * without gridsync: hand-written kernels, fused where fusing saves a
 * kernel boundary, each launched with programmatic dependent launch (PDL:
 * cudaLaunchKernelEx with cudaLaunchAttributeProgrammaticStreamSerialization)
 * so that the next kernel is launched while this one drains. An iteration
 * is two kernels:
 *
 *   cg_spmv_dot    p' = r + beta p (computed, not stored), q = A p', (p', q)
 *                  -> the last block to finish: alpha = rr / (p', q)
 *   cg_update_dot  p = r + beta p, x += alpha p, r -= alpha q, (r, r)
 *                  -> the last block to finish: beta = rr' / rr, rr = rr'
 *
 * (a third kernel for p = r + beta p would cost one more boundary per
 * iteration: cg_spmv_dot computes the new p of a cell and of its four
 * neighbours from the old p and r instead, and cg_update_dot stores it).
 * The scalars stay in device memory; the host never waits inside an
 * iteration, so that the iterations can be captured into a CUDA graph:
 * "stream" launches the timed iterations kernel by kernel, "graph" replays
 * a graph of them (the timer's graph_batch), as the cuBLAS versions do
 * (cg_libs.cu). A solve reads rr back after every iteration (outside any
 * timing) to stop at the tolerance. No gridsync call runs here: this is
 * what users write without it.
 */
#include <limits.h>

#include "gridsync_internal.h"
#include "suites/apps/cg/cg.h"
#include "suites/apps/cg/cg_block_sum.cuh"
#include "suites/pdl_peer.cuh"

enum { THREADS = 256 };

/* The device scalars. */
enum { S_RR, S_ALPHA, S_BETA, S_COUNT };

/* What every kernel gets (by value). */
typedef struct cg_pdl_args {
    const double *b;
    double *x, *r, *p, *q;
    double *partial;        /* one per block: its share of the kernel's dot */
    unsigned int *arrived;  /* blocks done with their share; the last one resets it to 0 */
    double *s;              /* the scalars, S_* */
    long long n;
    int nx, ny, shift;      /* nx = 1 << shift */
} cg_pdl_args;

/* The top of every kernel: let the next kernel on the stream launch, then
 * wait until the kernel before this one has completed and its writes are
 * visible (griddepcontrol.launch_dependents, griddepcontrol.wait; the
 * barrier and sync suites' peer_pdl_trigger and peer_pdl_wait). Nothing
 * before this reads or writes memory. Compiled out before sm_90 (the host
 * then launches without the attribute: plain stream order). */
static __device__ __forceinline__ void pdl_start(void)
{
    peer_pdl_trigger();
    peer_pdl_wait();
}

/*
 * grid_dot - a dot product over the grid, the last-block-done pattern
 * (the CUDA sample threadFenceReduction's): every thread passes its share
 * v; returns 1 in thread 0 of the last block to finish, with the grid's
 * total in *total, 0 elsewhere.
 * How: each block's sum goes to partial[block]; thread 0 then counts the
 *   block in `arrived`; the block that counts last sums the partials (in
 *   a fixed order: the same bits every run) and resets `arrived` to 0.
 * Why correct: thread 0 stores its partial, then __threadfence, then the
 *   atomic add (fence.sc.gpu before a morally strong write); the last
 *   block's thread 0 reads the count G - 1 through the chain of atomic adds
 *   and then fences: every block's fence synchronizes with it, so every
 *   partial store happens before the last block's reads (after a block
 *   barrier; ld.global.cg reads L2, never a stale L1 line). Each block's
 *   reads of the scalars precede its count (its threads read them before
 *   the barrier in gs_cg_block_sum), so the last block may overwrite them.
 *   `arrived` is 0 again before the kernel ends, and the next kernel
 *   touches it only after its griddepcontrol.wait. The second block sum
 *   comes after the block barrier above, when warp 0 has read the first's.
 */
static __device__ int grid_dot(double v, const cg_pdl_args &a, double *total)
{
    __shared__ int last;
    v = gs_cg_block_sum(v);
    if (threadIdx.x == 0u) {
        a.partial[blockIdx.x] = v;
        __threadfence();
        const int l = atomicAdd(a.arrived, 1u) == gridDim.x - 1u;
        if (l)
            __threadfence();
        last = l;
    }
    __syncthreads();
    if (!last)
        return 0;
    double sum = 0.0;
    for (unsigned int i = threadIdx.x; i < gridDim.x; i += blockDim.x)
        sum += __ldcg(a.partial + i);
    sum = gs_cg_block_sum(sum);
    if (threadIdx.x != 0u)
        return 0;
    *a.arrived = 0u;
    *total = sum;
    return 1;
}

/* The new p of cell i: r_i + beta p_i, as every version computes it. */
static __device__ __forceinline__ double p_new(const cg_pdl_args &a, double beta, long long i)
{
    return fma(beta, a.p[i], a.r[i]);
}

/* cg_init - x = 0, r = b, p = 0 (p' = r + 0 p is then b), beta = 0 and
 * rr = (b, b) (grid_dot). */
static __global__ void __launch_bounds__(THREADS) cg_init(cg_pdl_args a)
{
    pdl_start();
    const long long stride = (long long)gridDim.x * blockDim.x;
    double v = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.n; i += stride) {
        const double bi = a.b[i];
        a.x[i] = 0.0;
        a.r[i] = bi;
        a.p[i] = 0.0;
        v += bi * bi;
    }
    double rr = 0.0;
    if (grid_dot(v, a, &rr)) {
        a.s[S_RR] = rr;
        a.s[S_ALPHA] = 0.0;
        a.s[S_BETA] = 0.0;
    }
}

/*
 * cg_spmv_dot - the first kernel of an iteration: q = A p' and (p', q),
 * where p' = r + beta p is the iteration's search direction; the last
 * block sets alpha.
 * How: a grid-stride loop over the cells, the 5-point stencil matrix-free
 *   (as cg_sample.cu, the same order of terms); p' of a cell and of its
 *   neighbours computed from p and r, so that no kernel is needed between
 *   the update of r and the stencil. q is stored (cg_update_dot reads it).
 * Why correct: p, r and beta were written by the previous kernel (or
 *   cg_init), which has completed with its writes visible when pdl_start
 *   returns; this kernel writes only q (each cell by one thread), the
 *   partials and alpha, none of which it reads except through grid_dot.
 *   The next kernel touches memory only after its own wait, i.e. after this
 *   kernel has completed.
 * When: CG with a kernel boundary per global sum: two boundaries per
 *   iteration, the fewest a kernel-per-operation CG can have.
 */
static __global__ void __launch_bounds__(THREADS) cg_spmv_dot(cg_pdl_args a)
{
    pdl_start();
    const double beta = a.s[S_BETA];
    const long long stride = (long long)gridDim.x * blockDim.x;
    double v = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.n; i += stride) {
        const int col = (int)(i & (a.nx - 1)), row = (int)(i >> a.shift);
        const double pi = p_new(a, beta, i);
        double qi = 4.0 * pi;
        if (row > 0)
            qi -= p_new(a, beta, i - a.nx);
        if (row < a.ny - 1)
            qi -= p_new(a, beta, i + a.nx);
        if (col > 0)
            qi -= p_new(a, beta, i - 1);
        if (col < a.nx - 1)
            qi -= p_new(a, beta, i + 1);
        a.q[i] = qi;
        v += pi * qi;
    }
    double pq = 0.0;
    if (grid_dot(v, a, &pq))
        a.s[S_ALPHA] = pq != 0.0 ? a.s[S_RR] / pq : 0.0;
}

/*
 * cg_update_dot - the second kernel: p = p' (stored), x += alpha p,
 * r -= alpha q and (r, r); the last block sets beta and rr.
 * How: a grid-stride loop; each thread reads and writes only its own
 *   cells, so the in-place updates of p, x and r need no other order.
 * Why correct: alpha, q (cg_spmv_dot) and beta, p, r, x (before it) are
 *   complete and visible after pdl_start; cg_spmv_dot, which read p and r
 *   of the neighbours, has completed, so overwriting them is safe. Every
 *   block reads beta before it is counted in grid_dot, and only the last
 *   block writes the new beta and rr, after the count.
 * When: the second half of the iteration above.
 */
static __global__ void __launch_bounds__(THREADS) cg_update_dot(cg_pdl_args a)
{
    pdl_start();
    const double alpha = a.s[S_ALPHA], beta = a.s[S_BETA];
    const long long stride = (long long)gridDim.x * blockDim.x;
    double v = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < a.n; i += stride) {
        const double pi = p_new(a, beta, i), ri = fma(-alpha, a.q[i], a.r[i]);
        a.x[i] = fma(alpha, pi, a.x[i]);
        a.p[i] = pi;
        a.r[i] = ri;
        v += ri * ri;
    }
    double rr_new = 0.0;
    if (grid_dot(v, a, &rr_new)) {
        const double rr = a.s[S_RR];
        a.s[S_BETA] = rr != 0.0 ? rr_new / rr : 0.0;
        a.s[S_RR] = rr_new;
    }
}

typedef struct impl {
    cg_pdl_args args;
    int pdl; /* the device and this build have PDL: launch with the attribute */
} impl;

static void destroy(gs_cg_run *run)
{
    impl *m = (impl *)run->impl;
    if (!m)
        return;
    void *device[] = {m->args.r, m->args.p, m->args.q, m->args.partial, m->args.arrived,
                      m->args.s};
    gs_cg_impl_free(run, device, 6);
}

/* The grid: a block per THREADS cells, at most as many as are resident at
 * once (the reduction's last block then sums at most that many partials,
 * and the grid-stride loops take the rest). */
static gs_status pick_blocks(long long n, int *blocks)
{
    const void *kernels[] = {(const void *)cg_init, (const void *)cg_spmv_dot,
                             (const void *)cg_update_dot};
    int dev = 0, sms = 0, fewest = INT_MAX;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    for (int k = 0; k < 3; ++k) {
        int per_sm = 0;
        GS_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels[k], THREADS,
                                                                  0));
        fewest = per_sm < fewest ? per_sm : fewest;
    }
    const long long want = (n + THREADS - 1) / THREADS, most = (long long)sms * fewest;
    *blocks = (int)(want < most ? want : most);
    if (*blocks < 1)
        return gs__fail(GS_ERR_INTERNAL, "bench apps cg: no block of the PDL kernels fits");
    return GS_SUCCESS;
}

static gs_status create(gs_cg_run *run)
{
    GS_TRY(gs_cg_impl_new(run, sizeof(impl)));
    impl *m = (impl *)run->impl;
    cg_pdl_args *a = &m->args;
    int blocks = 0;
    GS_TRY(pick_blocks(run->n, &blocks));
    run->kernel_blocks = blocks;
    /* a build without sm_90 code runs older PTX on sm_90: no griddepcontrol */
    GS_TRY(gs_pdl_overlaps((const void *)cg_spmv_dot, &m->pdl));
    const size_t bytes = (size_t)run->n * sizeof(double);
    a->b = run->b;
    a->x = run->x;
    a->n = run->n;
    a->nx = run->nx;
    a->ny = run->ny;
    while ((1 << a->shift) < a->nx)
        ++a->shift;
    GS_CUDA_TRY(cudaMalloc((void **)&a->r, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&a->p, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&a->q, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&a->partial, (size_t)blocks * sizeof(double)));
    GS_CUDA_TRY(cudaMalloc((void **)&a->arrived, sizeof(unsigned int)));
    GS_CUDA_TRY(cudaMalloc((void **)&a->s, S_COUNT * sizeof(double)));
    GS_CUDA_TRY(cudaMemset(a->arrived, 0, sizeof(unsigned int)));
    GS_CUDA_TRY(cudaDeviceSynchronize()); /* the count is 0 before any kernel reads it */
    return GS_SUCCESS;
}

/* One kernel on `stream`, with the PDL attribute where the device has it. */
static gs_status launch(const gs_cg_run *run, void (*kernel)(cg_pdl_args), cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    void *args[] = {&m->args};
    return peer_pdl_launch((const void *)kernel, dim3((unsigned int)run->kernel_blocks),
                           dim3(THREADS), stream, args, m->pdl);
}

/* One iteration on `stream`. */
static gs_status iteration(gs_cg_run *run, cudaStream_t stream)
{
    GS_TRY(launch(run, cg_spmv_dot, stream));
    return launch(run, cg_update_dot, stream);
}

static gs_status solve(gs_cg_run *run, cudaStream_t stream)
{
    GS_TRY(launch(run, cg_init, stream));
    return gs_cg_iterate_to_tol(run, iteration, ((impl *)run->impl)->args.s + S_RR, stream);
}

static gs_status enqueue_stream(void *p, cudaStream_t stream)
{
    return gs_cg_iterate_timed((gs_cg_run *)p, iteration, stream);
}

static gs_status enqueue_one(void *p, cudaStream_t stream)
{
    return iteration((gs_cg_run *)p, stream);
}

extern "C" const gs_cg_version gs_cg_pdl_stream = {"kernels, stream + PDL", create, solve,
                                                   enqueue_stream, NULL, destroy, 0};
extern "C" const gs_cg_version gs_cg_pdl_graph = {"kernels, graph + PDL", create, solve,
                                                  enqueue_one, NULL, destroy, 1};
