/*
 * cg_tasks.cu - conjugate gradient on gridsync's task runtime (the method
 * "gridsync tasks" of `gridsync bench apps`; docs/apps.md): the iteration
 * of cg_gridsync.cu, with each grid-wide sum turned into a counter that
 * every block posts its partial sum to and waits on, instead of a grid
 * all-reduce. The port of an existing application onto the runtime that
 * issue 44 asks for: the same grid, slices, halo recurrence and
 * arithmetic, so that the two differ only in how blocks wait for each
 * other.
 *
 * The plan of one launch, for K iterations on C blocks (block b runs the
 * tasks of its slice, so the slice stays in its shared memory):
 *   START(b)              posts RR                (fresh: x0 = 0, r = b, p = 0, (b, b))
 *   DIRECTION(k, b)       waits RR >= C (k + 1), posts PQ
 *                         rr' = sum of the rr partials; beta = rr' / rr;
 *                         p = r + beta p (slice and halo rows); (p, A p) partial
 *   STEP(k, b)            waits PQ >= C (k + 1),  posts RR
 *                         alpha = rr / sum of the pq partials; x += alpha p;
 *                         r -= alpha A p; the slice's edge rows of r; (r, r) partial
 * A solve launches the plan until an iteration finds rr' <= tol^2 (b, b)
 * (or max_iters), carrying its state in device memory from one launch to
 * the next: x, r, p with its halo rows, the rr the last iteration used, the
 * iteration count, and the rr partials and edge rows the last STEP wrote
 * (the next launch's first DIRECTION reads them; the kernel boundary orders
 * them). The timed runs launch it once per timed_iters iterations, fresh
 * each time and carrying nothing, as cg_gridsync.cu starts from x0.
 */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>

#include <string.h>

#include "gridsync_internal.h"
#include "suites/apps/cg/cg.h"
#include "suites/apps/cg/cg_slice.cuh"
#include "suites/apps/cg/cg_block_sum.cuh"

enum { OP_START, OP_DIRECTION, OP_STEP };
enum { RR, PQ, COUNTERS }; /* the counters, and the rows of the partial sums */

/* What one launch leaves for the next (block 0 writes it at the end). */
typedef struct cg_state {
    double rr;  /* the (r, r) the last iteration done started from (its beta's
                 * numerator; the newest (r, r) is in the rr partials) */
    double rr0; /* (b, b) */
    int iterations;
} cg_state;

/*
 * cg_tasks - the plan's kernel; block b owns grid rows [b * rows, b * rows
 * + nrows), as in cg_persistent (cg_gridsync.cu).
 * How: RESIDENT: the slices of x, r and p (p with its two halo rows) live
 *   in the shared memory after the runtime's for the whole launch, loaded
 *   at START and stored at the end; else they are used in place (x, r, and
 *   the block's part of pbuf). The halo rows of p are the block's own
 *   copies of the neighbours' boundary rows, kept equal to them by the
 *   owner's recurrence p = r + beta p with the owner's r rows from `edges`
 *   (cg_gridsync.cu argues it). p starts at 0 and the first DIRECTION's
 *   beta is 0, so it makes p = r = b. With `carry` the launch leaves its
 *   state for the next (a solve); without, it stores only x (a timed run).
 * Why correct: everything that crosses blocks (the partials, the edge
 *   rows) is written before the writer's task ends (gs_task_end: a block
 *   barrier, then a release of the counter) and read after a task that
 *   waited for that counter (an acquire, then a block barrier). Each is
 *   overwritten only after every reader has posted: the pq partials are
 *   read by every STEP(k), the next DIRECTION(k + 1) of their writer waits
 *   for every STEP(k)'s post; the rr partials and edges are read by every
 *   DIRECTION(k + 1), the next STEP(k + 1) of their writer waits for every
 *   DIRECTION(k + 1)'s post. Every block computes the same sums (the same
 *   bits), so every block makes the same decisions (beta, alpha, whether
 *   an iteration runs). `state` is read at START, and block 0 writes it
 *   after its last STEP, which waited for every block's last DIRECTION,
 *   after every START (K >= 1).
 * When: this is what an application gets from the runtime when its tasks
 *   read nothing independent: the waits are counters, the bookkeeping is
 *   the plan's. For CG itself the all-reduce version (cg_gridsync.cu) is
 *   shorter, and faster where synchronization is much of an iteration (up
 *   to 2^20 unknowns on H200); this one measured faster where the vectors
 *   stream from memory, for a reason not isolated (docs/apps.md).
 */
template <bool RESIDENT>
static __global__ void __launch_bounds__(1024)
    cg_tasks(gs_task_view plan, unsigned int own_smem, const double *__restrict__ b, double *x,
             double *r, double *pbuf, double *edges, double *partials, cg_state *state, int nx,
             int ny, int rows, double tol, int max_iters, int fresh, int carry)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ double sums[COUNTERS];
    const int nb = (int)gridDim.x, blk = (int)blockIdx.x, t = (int)threadIdx.x;
    const int nt = (int)blockDim.x;
    const long long first = (long long)blk * rows * nx;
    double *const pglobal = pbuf + (long long)blk * (rows + 2) * nx;
    double *P = pglobal, *X = x + first, *R = r + first;
    if (RESIDENT) {
        P = (double *)(smem + own_smem);
        X = P + (long long)(rows + 2) * nx;
        R = X + (long long)rows * nx;
    }
    const gs_cg_slice s = gs_cg_slice_of(P, X, R, edges, nx, ny, rows);
    const int cells = s.cells, halo = cells + 2 * nx; /* P's cells, halo rows included */

    double rr = 0.0, rr0 = 0.0; /* the first iteration has no beta: p = r exactly */
    int it = 0, active = 0;
    gs_task_runner run;
    gs_task_t task;
    gs_task_begin(&run, &plan, smem);
    while (gs_task_next(&run, &task)) {
        const unsigned int op = gs_task_op(&task);
        if (op == OP_START && fresh) {
            double part = 0.0;
            for (int j = t; j < cells; j += nt) {
                const double v = b[first + j];
                X[j] = 0.0;
                R[j] = v;
                part += v * v;
                gs_cg_slice_edge(s, j, v);
            }
            for (int j = t; j < halo; j += nt)
                P[j] = 0.0;
            part = gs_cg_block_sum(part);
            if (t == 0)
                partials[RR * nb + blk] = part;
        } else if (op == OP_START) {
            rr = state->rr;
            rr0 = state->rr0;
            it = state->iterations;
            if (RESIDENT) {
                for (int j = t; j < cells; j += nt) {
                    X[j] = x[first + j];
                    R[j] = r[first + j];
                }
                for (int j = t; j < halo; j += nt)
                    P[j] = pglobal[j];
            }
        } else if (op == OP_DIRECTION) {
            const double rr_new = gs_cg_sum_partials(partials + RR * nb, nb, &sums[RR]);
            if (it == 0)
                rr0 = rr_new;
            const double goal = tol >= 0.0 ? tol * tol * rr0 : -1.0;
            active = it < max_iters && !(rr_new <= goal);
            if (active) {
                gs_cg_slice_direction(s, it > 0 && rr != 0.0 ? rr_new / rr : 0.0, t, nt);
                rr = rr_new;
                ++it;
                __syncthreads(); /* P complete before A p */
                const double part = gs_cg_block_sum(gs_cg_slice_pq(s, t, nt));
                if (t == 0)
                    partials[PQ * nb + blk] = part;
            }
        } else if (active) { /* OP_STEP */
            const double pq = gs_cg_sum_partials(partials + PQ * nb, nb, &sums[PQ]);
            const double alpha = pq != 0.0 ? rr / pq : 0.0;
            const double part = gs_cg_block_sum(gs_cg_slice_step(s, alpha, t, nt));
            if (t == 0)
                partials[RR * nb + blk] = part;
        }
        gs_task_end(&run, &task);
    }
    if (RESIDENT) {
        for (int j = t; j < cells; j += nt)
            x[first + j] = X[j];
        if (carry) {
            for (int j = t; j < cells; j += nt)
                r[first + j] = R[j];
            for (int j = t; j < halo; j += nt)
                pglobal[j] = P[j];
        }
    }
    if (carry && blk == 0 && t == 0) {
        state->rr = rr;
        state->rr0 = rr0;
        state->iterations = it;
    }
}

typedef struct impl {
    gs_cg_slices sl;   /* r, edges, and p between launches (pbuf) */
    double *partials;  /* COUNTERS rows of a partial sum a block */
    cg_state *state;
    gs_task_plan_t plan;
    gs_task_view view;
    const void *kernel;
    unsigned int own_smem;
    size_t smem;
    int per_launch;
} impl;

static void destroy(gs_cg_run *run)
{
    impl *m = (impl *)run->impl;
    if (!m)
        return;
    if (m->plan)
        gs_task_plan_destroy(m->plan);
    void *device[] = {m->sl.r, m->sl.pbuf, m->sl.edges, m->partials, m->state};
    gs_cg_impl_free(run, device, 5);
}

/* Block `blk`'s task `op`, waiting for counter `wait` >= `value` (none:
 * value 0), posting 1 to `post`. */
static gs_status add(impl *m, int op, unsigned int blk, unsigned int wait, unsigned int value,
                     unsigned int post)
{
    gs_task_desc d;
    memset(&d, 0, sizeof d);
    d.op = (unsigned int)op;
    d.block = (int)blk + 1;
    d.nwaits = value > 0 ? 1 : 0;
    d.waits[0].counter = wait;
    d.waits[0].value = value;
    d.nposts = 1;
    d.posts[0].counter = post;
    d.posts[0].delta = 1;
    return gs_task_plan_add(m->plan, &d, NULL);
}

/* The plan of one launch: START, then per iteration a DIRECTION and a STEP
 * on every block (added in that order, which is runnable). */
static gs_status build_plan(impl *m, unsigned int blocks, unsigned int iterations)
{
    GS_TRY(gs_task_plan_create(&m->plan, COUNTERS));
    for (unsigned int blk = 0; blk < blocks; ++blk)
        GS_TRY(add(m, OP_START, blk, RR, 0, RR));
    for (unsigned int k = 1; k <= iterations; ++k) { /* iteration k - 1 */
        for (unsigned int blk = 0; blk < blocks; ++blk)
            GS_TRY(add(m, OP_DIRECTION, blk, RR, blocks * k, PQ));
        for (unsigned int blk = 0; blk < blocks; ++blk)
            GS_TRY(add(m, OP_STEP, blk, PQ, blocks * k, RR));
    }
    return gs_task_plan_build(m->plan, blocks);
}

static gs_status create(gs_cg_run *run)
{
    GS_TRY(gs_cg_impl_new(run, sizeof(impl)));
    impl *m = (impl *)run->impl;
    const gs_cg_grid *g = &run->grid;
    const size_t blocks = (size_t)g->blocks;
    m->per_launch = run->timed_iters > 0 ? run->timed_iters : 1;
    GS_TRY(build_plan(m, (unsigned int)blocks, (unsigned int)m->per_launch));
    GS_TRY(gs_task_plan_device(m->plan, &m->view));
    int dev = 0, optin = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    /* on chip as the hand-written version is, if the runtime's shared memory
     * fits beside the slice (every H200 bench shape); else in global memory */
    const size_t runtime = gs_task_plan_smem_bytes(m->plan);
    cudaFuncAttributes fa;
    GS_CUDA_TRY(cudaFuncGetAttributes(&fa, (const void *)cg_tasks<true>));
    m->own_smem = (unsigned int)runtime;
    const int resident = g->resident && fa.sharedSizeBytes + runtime + g->smem <= (size_t)optin;
    m->smem = runtime + (resident ? g->smem : 0);
    m->kernel = resident ? (const void *)cg_tasks<true> : (const void *)cg_tasks<false>;
    GS_CUDA_TRY(cudaFuncSetAttribute(m->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)m->smem));
    GS_TRY(gs_cg_slices_alloc(run, 1, &m->sl));
    GS_CUDA_TRY(cudaMalloc((void **)&m->partials, COUNTERS * blocks * sizeof(double)));
    GS_CUDA_TRY(cudaMalloc((void **)&m->state, sizeof(cg_state)));
    return GS_SUCCESS;
}

static gs_status launch(gs_cg_run *run, double tol, int max_iters, int fresh, int carry,
                        cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    const double *b = run->b;
    int nx = run->nx, ny = run->ny, rows = run->grid.rows;
    void *args[] = {&m->view,  &m->own_smem, &b,   &run->x, &m->sl.r, &m->sl.pbuf, &m->sl.edges,
                    &m->partials, &m->state, &nx, &ny,     &rows, &tol,     &max_iters,
                    &fresh,       &carry};
    return gs_task_plan_launch(m->plan, m->kernel, dim3((unsigned int)run->grid.threads),
                               m->smem, stream, args);
}

static gs_status check(gs_cg_run *run, cudaStream_t stream)
{
    return gs_task_plan_check(((impl *)run->impl)->plan, stream);
}

/* Launch after launch until one ends with an iteration left undone (the
 * tolerance was met) or max_iters are done. */
static gs_status solve(gs_cg_run *run, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    /* the kernel's own buffers poisoned (NaN) in stream order first */
    GS_TRY(gs_cg_slices_poison(run, &m->sl, stream));
    GS_CUDA_TRY(cudaMemsetAsync(m->partials, 0xff,
                                COUNTERS * (size_t)run->grid.blocks * sizeof(double), stream));
    GS_CUDA_TRY(cudaMemsetAsync(m->state, 0xff, sizeof(cg_state), stream));
    cg_state s = {0.0, 0.0, 0};
    for (int fresh = 1;; fresh = 0) {
        const int before = s.iterations;
        GS_TRY(launch(run, run->tol, run->max_iters, fresh, 1, stream));
        GS_CUDA_TRY(cudaMemcpyAsync(&s, m->state, sizeof s, cudaMemcpyDeviceToHost, stream));
        GS_TRY(check(run, stream)); /* waits for the stream: s is in */
        if (s.iterations - before < m->per_launch || s.iterations >= run->max_iters)
            break;
    }
    run->iterations = s.iterations;
    return GS_SUCCESS;
}

static gs_status enqueue(void *p, cudaStream_t stream)
{
    gs_cg_run *run = (gs_cg_run *)p;
    if (run->timed_iters != ((impl *)run->impl)->per_launch) /* the plan holds as many */
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps cg, gridsync tasks: %d timed "
                        "iterations, but the plan was built for %d", run->timed_iters,
                        ((impl *)run->impl)->per_launch);
    return launch(run, -1.0, run->timed_iters, 1, 0, stream);
}

extern "C" const gs_cg_version gs_cg_tasks = {"gridsync tasks", create, solve, enqueue, check,
                                              destroy, 0};
