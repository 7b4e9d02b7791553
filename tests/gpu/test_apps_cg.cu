/*
 * test_apps_cg.cu - the persistent CG versions of `gridsync bench apps` on
 * the GPU (tools/suites/apps/cg/): the hand-written one on grid all-reduces
 * (cg_gridsync.cu) and its port onto the task runtime (cg_tasks.cu), on a
 * random right-hand side in [1, 2), grids of 1, 2, the SMs and 2 x SMs - 1
 * blocks (those that can be resident; 64 columns, 2 x SMs - 1 rows, 1 to
 * 263 rows a block), slices in shared memory and in global memory, then
 * the bench's own grid rule on its shapes. Each solve starts from x
 * poisoned (NaN), each version's own buffers too (by its solve, in stream
 * order), and is checked against the CPU's FP64 CG:
 *   - to the tolerance 1e-6: the iterations within 2 + 1% of the CPU's, the
 *     relative residual ||b - A x|| / ||b|| <= 2e-6;
 *   - a fixed number of iterations (the timed path, tol < 0):
 *     ||x - x_cpu|| / ||x_cpu|| <= 1e-8 (FP64 sums in another order; after
 *     more iterations than the bench's 20, what the residuals allow if
 *     more: agree_bound);
 * and the two versions against each other: iteration counts within one, x
 * within agree_bound (1e-8, or what the two residuals allow where more).
 * The task version runs 7 iterations a launch, so a solve takes many
 * launches of one plan (its state crosses launches, the plan's counters
 * carry on with no reset); on one grid also 1 a launch, and as many a
 * launch as its solve took (the tolerance met on a launch's last
 * iteration).
 * Under a sanitizer (GS_TEST_SANITIZER=1): the 64-column problem at 20
 * iterations a solve, and the 32 x 32 one to the tolerance.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "gpu_test.h"
#include "suites/apps/cg/cg.h"

static int checks = 0;
static const double tol = 1e-6;

struct problem {
    int nx, ny;
    long long n;
    std::vector<double> b, x_cpu, x;
    double *b_dev, *x_dev;
};

static void problem_init(problem *p, int nx, int ny, gs_rng *rng)
{
    p->nx = nx;
    p->ny = ny;
    p->n = (long long)nx * ny;
    p->b.resize((size_t)p->n);
    p->x_cpu.resize((size_t)p->n);
    p->x.resize((size_t)p->n);
    for (double &v : p->b)
        v = 1.5 + 0.5 * gs_rng_uniform(rng); /* [1, 2) */
    const size_t bytes = (size_t)p->n * sizeof(double);
    CUDA_OK(cudaMalloc((void **)&p->b_dev, bytes));
    CUDA_OK(cudaMalloc((void **)&p->x_dev, bytes));
    CUDA_OK(cudaMemcpy(p->b_dev, p->b.data(), bytes, cudaMemcpyHostToDevice));
}

static void problem_free(problem *p)
{
    CUDA_OK(cudaFree(p->b_dev));
    CUDA_OK(cudaFree(p->x_dev));
}

/* x from the device, once the stream's work is done. */
static void fetch(problem *p, cudaStream_t stream)
{
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaMemcpy(p->x.data(), p->x_dev, (size_t)p->n * sizeof(double),
                       cudaMemcpyDeviceToHost));
}

/* 1 if x is the CPU's answer: to the tolerance (fixed < 0; p->x_cpu from a
 * solve of cpu_iters iterations), or after exactly `fixed` iterations
 * (p->x_cpu from as many). */
static int right(const problem *p, int fixed, int iterations, int cpu_iters, double *err)
{
    if (fixed >= 0) {
        *err = gs_cg_rel_diff(p->x.data(), p->x_cpu.data(), p->n);
        return iterations == fixed && *err <= 1e-8;
    }
    *err = gs_cg_residual(p->nx, p->ny, p->b.data(), p->x.data());
    return abs(iterations - cpu_iters) <= 2 + cpu_iters / 100 && *err <= 2.0 * tol;
}

/* How far apart two answers x, y of the problem may be, relative to ||y||:
 * 1e-8 (FP64 sums in other orders over a few iterations), or, where more,
 * what their residuals allow: ||x - y|| <= (||b - A x|| + ||b - A y||) /
 * lambda_min (A is symmetric positive definite; docs/apps.md). Never fails
 * two right answers after many iterations; catches anything that is not
 * one. */
static double agree_bound(const problem *p, const double *x, const double *y)
{
    double bb = 0.0, yy = 0.0;
    for (long long i = 0; i < p->n; ++i) {
        bb += p->b[i] * p->b[i];
        yy += y[i] * y[i];
    }
    const double rx = gs_cg_residual(p->nx, p->ny, p->b.data(), x);
    const double ry = gs_cg_residual(p->nx, p->ny, p->b.data(), y);
    const double by_residuals = (rx + ry) * sqrt(bb) / (gs_cg_lambda_min(p->nx, p->ny) * sqrt(yy));
    return by_residuals > 1e-8 ? by_residuals : 1e-8;
}

/* What one version's first solve gave (ran: 0 if the grid cannot be
 * resident on this GPU). */
struct outcome {
    int ran, iterations;
    std::vector<double> x;
};

/* One version on one grid: two solves (the second on the same state: a
 * plan launched again), to the tolerance or of `fixed` iterations (>= 0),
 * then one timed enqueue of timed_iters iterations from x0. `per_launch`:
 * timed_iters, which is also the iterations a launch of the task plan
 * holds. */
static outcome run_version(const gs_cg_version *v, problem *p, const gs_cg_grid *grid, int fixed,
                           int cpu_iters, int per_launch, cudaStream_t stream)
{
    outcome out = {0, 0, {}};
    const size_t bytes = (size_t)p->n * sizeof(double);
    gs_cg_run run;
    memset(&run, 0, sizeof run);
    run.nx = p->nx;
    run.ny = p->ny;
    run.n = p->n;
    run.b = p->b_dev;
    run.x = p->x_dev;
    run.tol = fixed >= 0 ? -1.0 : tol;
    run.max_iters = fixed >= 0 ? fixed : 10 * (p->nx + p->ny) + 100;
    run.timed_iters = per_launch;
    run.grid = *grid;
    const char *what = v->method;
    gs_status st = v->create(&run);
    if (st == GS_ERR_NOT_CORESIDENT) {
        v->destroy(&run);
        return out;
    }
    GS_OK(st);
    for (int pass = 0; pass < 2; ++pass) {
        CUDA_OK(cudaMemsetAsync(p->x_dev, 0xff, bytes, stream));
        st = v->solve(&run, stream);
        if (st == GS_ERR_NOT_CORESIDENT)
            break;
        GS_OK(st);
        fetch(p, stream);
        double err = 0.0;
        EXPECT(right(p, fixed, run.iterations, cpu_iters, &err),
               "%s, %dx%d, %d blocks (%s), %d a launch, solve %d: %d iterations (CPU %d), "
               "%s %.3g", what, p->nx, p->ny, grid->blocks,
               grid->resident ? "resident" : "global", per_launch, pass, run.iterations,
               fixed >= 0 ? fixed : cpu_iters,
               fixed >= 0 ? "difference to the CPU's" : "relative residual", err);
        ++checks;
        if (pass == 0) {
            out.ran = 1;
            out.iterations = run.iterations;
            out.x = p->x;
        }
    }
    if (st == GS_SUCCESS) {
        CUDA_OK(cudaMemsetAsync(p->x_dev, 0xff, bytes, stream));
        GS_OK(v->enqueue(&run, stream));
        if (v->check)
            GS_OK(v->check(&run, stream));
        fetch(p, stream);
        std::vector<double> ref((size_t)p->n);
        gs_cg_reference(p->nx, p->ny, p->b.data(), -1.0, run.timed_iters, ref.data());
        const double diff = gs_cg_rel_diff(p->x.data(), ref.data(), p->n);
        const double bound = agree_bound(p, p->x.data(), ref.data());
        EXPECT(diff <= bound,
               "%s, %dx%d, %d blocks (%s), %d fixed iterations: difference %.3g (bound %.3g)",
               what, p->nx, p->ny, grid->blocks, grid->resident ? "resident" : "global",
               run.timed_iters, diff, bound);
        ++checks;
    }
    v->destroy(&run);
    return out;
}

/* Both persistent versions on one grid, and each against the other: the
 * same iteration count within one (their grid sums add in other orders)
 * and, where equal, the same x within 1e-8. A grid that cannot be resident
 * is skipped, and said so; grids of 1 and 2 blocks always can. The task
 * version also with a launch per iteration, and with as many iterations a
 * launch as its solve took (the tolerance met on a launch's last one). */
static void run_both(problem *p, const gs_cg_grid *g, int fixed, int cpu_iters, int boundaries,
                     cudaStream_t stream)
{
    const outcome a = run_version(&gs_cg_gridsync, p, g, fixed, cpu_iters, 7, stream);
    const outcome b = run_version(&gs_cg_tasks, p, g, fixed, cpu_iters, 7, stream);
    if (!a.ran || !b.ran) {
        printf("gpu_apps_cg: %dx%d on %d blocks (%s) cannot be resident here: skipped\n", p->nx,
               p->ny, g->blocks, g->resident ? "shared memory" : "global memory");
        EXPECT(g->blocks > 2, "a grid of %d blocks did not run", g->blocks);
        return;
    }
    const double diff = gs_cg_rel_diff(b.x.data(), a.x.data(), p->n);
    const double bound = agree_bound(p, b.x.data(), a.x.data());
    EXPECT(abs(a.iterations - b.iterations) <= 1 && diff <= bound,
           "%dx%d, %d blocks: tasks %d iterations, persistent %d; x differs by %.3g (bound %.3g)",
           p->nx, p->ny, g->blocks, b.iterations, a.iterations, diff, bound);
    ++checks;
    if (boundaries) {
        run_version(&gs_cg_tasks, p, g, fixed, cpu_iters, 1, stream);
        run_version(&gs_cg_tasks, p, g, fixed, cpu_iters, b.iterations, stream);
    }
}

/* The grid of `rows` rows per block, resident if asked and it fits. */
static gs_cg_grid grid_of(int nx, int ny, int rows, int resident, size_t smem_max)
{
    gs_cg_grid g = gs_cg_pick_grid(nx, ny, 1, smem_max);
    g.rows = rows;
    g.blocks = (ny + rows - 1) / rows;
    const long long cells = (long long)rows * nx;
    g.threads = cells <= GS_CG_SMALL_SLICE ? 256 : 1024;
    g.smem = (size_t)((rows + 2) * (long long)nx + 2 * cells) * sizeof(double);
    g.resident = resident && g.smem <= smem_max;
    if (!g.resident)
        g.smem = 0;
    return g;
}

int main(void)
{
    gs_test_require_gpu("gpu_apps_cg");
    unsigned long long seed = gs_test_seed("gpu_apps_cg");
    gs_rng rng = {seed};
    int dev = 0, sms = 0, optin = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    /* 64 columns and an odd row count: grids of 1, 2, SMs and 2 x SMs blocks */
    const int ny = 2 * sms - 1;
    const int rows_list[] = {ny, (ny + 1) / 2, 2, 1};
    problem p;
    problem_init(&p, 64, ny, &rng);
    const int fixed = gs_test_sanitizer() ? 20 : -1; /* under a sanitizer: 20 iterations */
    const int cpu_iters = gs_cg_reference(p.nx, p.ny, p.b.data(), fixed >= 0 ? -1.0 : tol,
                                          fixed >= 0 ? fixed : 10 * (64 + ny) + 100,
                                          p.x_cpu.data());
    for (int rows : rows_list)
        for (int resident = 0; resident < 2; ++resident) {
            const gs_cg_grid g = grid_of(p.nx, p.ny, rows, resident, (size_t)optin);
            run_both(&p, &g, fixed, cpu_iters, rows == 2 && resident, stream);
        }
    problem_free(&p);

    /* the bench's own grid rule on the bench's shapes (not under a
     * sanitizer): to the tolerance up to 2^16, 20 iterations above (the
     * slices in shared memory at 2^20, in global memory at 2^21) */
    const int shapes[][3] = {{32, 32, -1}, {256, 256, -1}, {1024, 1024, 20}, {2048, 1024, 20}};
    for (const auto &s : shapes) {
        if (gs_test_sanitizer() && s[0] * s[1] > 4096)
            continue;
        problem_init(&p, s[0], s[1], &rng);
        const int iters = gs_cg_reference(p.nx, p.ny, p.b.data(), s[2] >= 0 ? -1.0 : tol,
                                          s[2] >= 0 ? s[2] : 10 * (p.nx + p.ny) + 100,
                                          p.x_cpu.data());
        const gs_cg_grid g = gs_cg_pick_grid(p.nx, p.ny, sms, (size_t)optin);
        run_both(&p, &g, s[2], iters, 0, stream);
        problem_free(&p);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return gs_test_finish("gpu_apps_cg", checks);
}
