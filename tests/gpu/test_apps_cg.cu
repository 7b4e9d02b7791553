/*
 * test_apps_cg.cu - the persistent CG versions of `gridsync bench apps` on
 * the GPU (tools/suites/apps/cg/): the hand-written one on grid all-reduces
 * (cg_gridsync.cu) and its port onto the task runtime (cg_tasks.cu), on a
 * random right-hand side in [1, 2), grids of 1, 2, the SMs and twice the
 * SMs blocks (those that can be resident), slices in shared memory and in
 * global memory, odd row counts. Each solve starts from x poisoned (NaN)
 * and is checked against the CPU's FP64 CG:
 *   - to the tolerance 1e-6: the iterations within 2 + 1% of the CPU's, the
 *     relative residual ||b - A x|| / ||b|| <= 2e-6;
 *   - a fixed number of iterations (the timed path, tol < 0):
 *     ||x - x_cpu|| / ||x_cpu|| <= 1e-8 (FP64 sums in another order).
 * The task version runs a few iterations per launch (timed_iters = 7), so a
 * solve takes many launches of one plan: its state crosses launches, and
 * the plan's counters carry on from launch to launch with no reset.
 * Under a sanitizer (GS_TEST_SANITIZER=1): the 64-column problem only, 20
 * iterations a solve.
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

/* One version on one grid: two solves (the second on the same state: a
 * plan launched again), to the tolerance or of `fixed` iterations (>= 0),
 * then one timed enqueue of timed_iters iterations from x0. */
static void run_version(const gs_cg_version *v, problem *p, const gs_cg_grid *grid, int fixed,
                        int cpu_iters, cudaStream_t stream)
{
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
    run.timed_iters = 7;
    run.grid = *grid;
    const char *what = v->method;
    gs_status st = v->create(&run);
    if (st == GS_ERR_NOT_CORESIDENT) {
        v->destroy(&run);
        return;
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
               "%s, %dx%d, %d blocks (%s), solve %d: %d iterations (CPU %d), %s %.3g", what,
               p->nx, p->ny, grid->blocks, grid->resident ? "resident" : "global", pass,
               run.iterations, fixed >= 0 ? fixed : cpu_iters,
               fixed >= 0 ? "difference to the CPU's" : "relative residual", err);
        ++checks;
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
        EXPECT(diff <= 1e-8, "%s, %dx%d, %d blocks (%s), %d fixed iterations: difference %.3g",
               what, p->nx, p->ny, grid->blocks, grid->resident ? "resident" : "global",
               run.timed_iters, diff);
        ++checks;
    }
    v->destroy(&run);
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
    const gs_cg_version *versions[] = {&gs_cg_gridsync, &gs_cg_tasks};

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
            for (const gs_cg_version *v : versions)
                run_version(v, &p, &g, fixed, cpu_iters, stream);
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
        for (const gs_cg_version *v : versions)
            run_version(v, &p, &g, s[2], iters, stream);
        problem_free(&p);
    }
    CUDA_OK(cudaStreamDestroy(stream));
    return gs_test_finish("gpu_apps_cg", checks);
}
