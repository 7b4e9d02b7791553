/*
 * cg.h - conjugate gradient on the 2-D Poisson problem, the versions that
 * `gridsync bench apps` times (docs/apps.md): the problem, how the
 * persistent versions pick their grid, and the interface every version
 * offers (create, solve, enqueue timed iterations, destroy).
 *
 * Problem: A = the 5-point Laplacian (4 on the diagonal, -1 for each of the
 * four neighbours, zero Dirichlet boundary) on an nx x ny grid, row-major
 * (nx columns contiguous, nx a power of two), n = nx * ny unknowns; b
 * fixed, x0 = 0. Every version runs the same iteration in FP64:
 *
 *   q = A p; alpha = rr / (p, q); x += alpha p; r -= alpha q;
 *   rr' = (r, r); beta = rr' / rr; p = r + beta p
 *
 * with guarded divisions (alpha = 0 when (p, q) = 0, beta = 0 when rr = 0),
 * so that iterations past convergence stay finite (the timed runs go on
 * past it). A solve stops after the iteration that brings rr' <= tol^2 *
 * (b, b), or at max_iters; tol < 0: never early (exactly max_iters).
 */
#ifndef GS_BENCH_APPS_CG_H
#define GS_BENCH_APPS_CG_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The persistent versions' grid (gs_cg_pick_grid): each block owns `rows`
 * consecutive grid rows (the last block what is left); `resident`: its
 * slice of x, r and p (with a halo row on either side) lives in shared
 * memory for the whole solve. */
typedef struct gs_cg_grid {
    int blocks, threads, rows;
    int resident;
    size_t smem; /* dynamic shared memory per block (resident), else 0 */
} gs_cg_grid;

/* The grid rule's constants (first choices from the H200 figures of the
 * all-reduce and of shared-memory bandwidth, docs/apps.md; not tuned yet). */
enum {
    GS_CG_ONE_BLOCK_MAX = 2048,   /* unknowns a single block takes: its all-reduce is a
                                   * block reduction, no grid barrier at all */
    GS_CG_CELLS_PER_BLOCK = 1024, /* the smallest slice worth a block of its own */
    GS_CG_SMALL_SLICE = 2048,     /* slices up to this run on 256 threads, larger on 1024 */
    GS_CG_RESIDENT_MAX = 8192     /* the largest slice kept in shared memory (208 KiB
                                   * with nx = 1024) */
};

/* The grid for nx x ny on a GPU of `sms` SMs whose blocks may have
 * `smem_max` bytes of shared memory (docs/apps.md, "grid size"): one block
 * up to GS_CG_ONE_BLOCK_MAX unknowns; else rows = max(GS_CG_CELLS_PER_BLOCK
 * / nx, ny / sms) rounded up: slices of at least GS_CG_CELLS_PER_BLOCK
 * cells, at most one block per SM. Resident when a slice has at most
 * GS_CG_RESIDENT_MAX cells and fits `smem_max`. Threads: 256 for slices up
 * to GS_CG_SMALL_SLICE cells, else 1024. Pure: a host function. */
gs_cg_grid gs_cg_pick_grid(int nx, int ny, int sms, size_t smem_max);

/* One run of one version on one problem. */
typedef struct gs_cg_run {
    int nx, ny;
    long long n;
    const double *b; /* device, n: the right-hand side */
    double *x;       /* device, n: the answer of the last solve (or timed run) */
    double tol;      /* solve: relative residual target; < 0: run max_iters */
    int max_iters;   /* solve: the cap */
    int timed_iters; /* iterations per timed enqueue */
    gs_cg_grid grid; /* the persistent versions' grid (blocks 0: the library versions) */
    int iterations;  /* out (solve): iterations done */
    int kernel_blocks; /* out (create): blocks of each kernel of a version that picks its
                        * own grid (the PDL kernels); 0: none */
    void *impl;      /* the version's own state */
} gs_cg_run;

/* A version: create allocates (outside any timing), solve runs from x0 = 0
 * to tol or max_iters and sets run->iterations (run->x holds the answer),
 * enqueue puts run->timed_iters iterations on the stream (timed; no
 * convergence test) or, with `graph`, one iteration (the timer captures
 * timed_iters of them in one CUDA graph), destroy frees. */
typedef struct gs_cg_version {
    const char *method;
    gs_status (*create)(gs_cg_run *run);
    gs_status (*solve)(gs_cg_run *run, cudaStream_t stream);
    gs_status (*enqueue)(void *run, cudaStream_t stream);
    gs_status (*check)(gs_cg_run *run, cudaStream_t stream); /* after timing: the
                                                               * watchdog's verdict; NULL: none */
    void (*destroy)(gs_cg_run *run);
    int graph;
} gs_cg_version;

extern const gs_cg_version gs_cg_gridsync;     /* "gridsync persistent" (cg_gridsync.cu) */
extern const gs_cg_version gs_cg_tasks;        /* "gridsync tasks" (cg_tasks.cu) */
extern const gs_cg_version gs_cg_sample;       /* "cg grid.sync sample" (cg_sample.cu) */
extern const gs_cg_version gs_cg_libs_stream;  /* "cuBLAS+cuSPARSE stream" (cg_libs.cu) */
extern const gs_cg_version gs_cg_libs_graph;   /* "cuBLAS+cuSPARSE graph" (cg_libs.cu) */
extern const gs_cg_version gs_cg_pdl_stream;   /* "kernels, stream + PDL" (cg_pdl.cu) */
extern const gs_cg_version gs_cg_pdl_graph;    /* "kernels, graph + PDL" (cg_pdl.cu) */

/* What the versions share (cg_host.c): run->impl = `size` zeroed bytes; its
 * release with the `count` device buffers of `device` (cudaFree each);
 * the solve's iteration count from the device, after the stream's work. */
gs_status gs_cg_impl_new(gs_cg_run *run, size_t size);
void gs_cg_impl_free(gs_cg_run *run, void *const *device, int count);
gs_status gs_cg_read_iterations(gs_cg_run *run, const int *iterations, cudaStream_t stream);

/* The device buffers both persistent versions keep beside x: r (n), each
 * block's first and last rows of r (`edges`, 2 x nx a block) and p with its
 * two halo rows (`pbuf`, (rows + 2) x nx a block; NULL for a version that
 * keeps p in shared memory). Freed with gs_cg_impl_free. */
typedef struct gs_cg_slices {
    double *r, *edges, *pbuf;
} gs_cg_slices;
gs_status gs_cg_slices_alloc(const gs_cg_run *run, int with_pbuf, gs_cg_slices *s);

/* NaN in every byte of them, in `stream`'s order (before a solve: whatever
 * a kernel reads before writing shows in its answer). */
gs_status gs_cg_slices_poison(const gs_cg_run *run, const gs_cg_slices *s, cudaStream_t stream);

/* The versions with a kernel per operation (cg_libs.cu, cg_pdl.cu): their
 * iteration, enqueued on a stream with the scalars in device memory. */
typedef gs_status (*gs_cg_iteration_fn)(gs_cg_run *run, cudaStream_t stream);

/* Their solve, from x0 = 0 already set up with rr = (b, b) at `rr` (device):
 * one iteration at a time, rr read back after each (the host waits), until
 * rr <= tol^2 (b, b) or max_iters; sets run->iterations. */
gs_status gs_cg_iterate_to_tol(gs_cg_run *run, gs_cg_iteration_fn iteration, const double *rr,
                               cudaStream_t stream);

/* Their timed enqueue: run->timed_iters iterations, no test. */
gs_status gs_cg_iterate_timed(gs_cg_run *run, gs_cg_iteration_fn iteration, cudaStream_t stream);

/* ------------------------------------------------ the host side (cg_reference.c) */

/* b_i in [1, 2), a fixed hash of i (the same on every run). */
void gs_cg_rhs(double *b, long long n);

/* The same iteration on the CPU in FP64 (x0 = 0; tol and max_iters as a
 * solve's); returns the iterations done, -1 if out of memory. */
int gs_cg_reference(int nx, int ny, const double *b, double tol, int max_iters, double *x);

/* ||b - A x||_2 / ||b||_2, in FP64. */
double gs_cg_residual(int nx, int ny, const double *b, const double *x);

/* ||x - y||_2 / ||y||_2. */
double gs_cg_rel_diff(const double *x, const double *y, long long n);

/* The smallest eigenvalue of A: 4 sin^2(pi / (2 (nx + 1))) + 4 sin^2(pi / (2 (ny + 1))).
 * For two approximations x, y with relative residuals rx, ry:
 * ||x - y|| <= (rx + ry) ||b|| / lambda_min (A is symmetric positive definite). */
double gs_cg_lambda_min(int nx, int ny);

#ifdef __cplusplus
}
#endif

#endif
