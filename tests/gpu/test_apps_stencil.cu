/*
 * test_apps_stencil.cu - the 2-D heat stencil of `gridsync bench apps` on
 * the GPU: every version (neighbour barrier, tagged halo, the halo API and
 * grid.sync, tile on chip and field in global memory, graph and stream
 * relaunch, with and without PDL) on odd fields and
 * grids of 1, 2, SMs, SMs + 1 and 2 x SMs blocks (those that can be
 * resident), 1, 2 and 51 steps, each solved twice on the same barrier (the
 * tagged halo three times: its tags near 2^32 - 1, then wrapping): the
 * same bits as the CPU's float replica and within gs_stencil_bound of the
 * FP64 reference, every buffer poisoned (NaN) first. Then the suite's run
 * function on two small sizes, which checks itself the same way
 * (GS_STENCIL_BENCH_SIZES: on those sizes, with the table printed).
 * Under a sanitizer (GS_TEST_SANITIZER=1) a subset, and no suite: versions().
 */
#include <math.h>
#include <string.h>
#include <vector>

#include "gpu_test.h"
#include "results/registry.h"
#include "suites/apps/apps.h"
#include "suites/apps/stencil/stencil.h"

static int checks = 0;

struct field_buffers {
    gs_stencil_field f;
    size_t n;
    std::vector<float> u0, got, fx, fy;
    std::vector<double> dx, dy;
    const float *replica; /* the CPU's float solve: the GPU's bits */
    const double *ref;    /* the FP64 solve */
    double bound;
};

static void field_init(field_buffers *z, int w, int h, int steps, unsigned long long seed)
{
    z->f = gs_stencil_field{};
    z->f.w = w;
    z->f.h = h;
    z->f.steps = steps;
    z->n = (size_t)w * h;
    z->u0.resize(z->n);
    z->got.resize(z->n);
    z->fx.resize(z->n);
    z->fy.resize(z->n);
    z->dx.resize(z->n);
    z->dy.resize(z->n);
    gs_rng rng = {seed};
    for (size_t i = 0; i < z->n; ++i) /* [-1, 1) to [0, 1), exactly */
        z->u0[i] = 0.5f * ((float)gs_rng_uniform(&rng) + 1.0f);
    z->replica = gs_stencil_cpu<float>(z->u0.data(), w, h, steps, z->fx.data(), z->fy.data());
    z->ref = gs_stencil_cpu<double>(z->u0.data(), w, h, steps, z->dx.data(), z->dy.data());
    z->bound = gs_stencil_bound(steps, z->u0.data(), z->ref, z->n);
    const size_t bytes = z->n * sizeof(float);
    CUDA_OK(cudaMalloc((void **)&z->f.u0, bytes));
    CUDA_OK(cudaMalloc((void **)&z->f.a, bytes));
    CUDA_OK(cudaMalloc((void **)&z->f.b, bytes));
    CUDA_OK(cudaMalloc((void **)&z->f.out, bytes));
    CUDA_OK(cudaMemcpy((void *)z->f.u0, z->u0.data(), bytes, cudaMemcpyHostToDevice));
}

static void field_free(field_buffers *z)
{
    CUDA_OK(cudaFree((void *)z->f.u0));
    CUDA_OK(cudaFree(z->f.a));
    CUDA_OK(cudaFree(z->f.b));
    CUDA_OK(cudaFree(z->f.out));
}

/* Solve twice with `method` on `blocks` (0: its own choice) in `mode`; the
 * grid cannot be resident: skipped. */
static void solve(field_buffers *z, gs_stencil_method method, int blocks, int mode,
                  cudaStream_t stream)
{
    gs_stencil_run run;
    gs_status st = gs_stencil_setup(&run, method, &z->f, blocks, mode);
    if (st == GS_ERR_NOT_CORESIDENT)
        return;
    GS_OK(st);
    const float *replica = z->replica;
    const int passes = method == GS_STENCIL_TAGGED ? 3 : 2;
    for (int pass = 0; pass < passes; ++pass) {
        /* tagged: the second solve's tags end at 2^32 - 1, so the third's
         * would wrap: the words go back to tag 0 first */
        if (method == GS_STENCIL_TAGGED && pass == 1)
            run.f.tag0 = 0xffffffffu - (unsigned int)z->f.steps;
        const size_t bytes = z->n * sizeof(float);
        CUDA_OK(cudaMemsetAsync(z->f.a, 0xff, bytes, stream));
        CUDA_OK(cudaMemsetAsync(z->f.b, 0xff, bytes, stream));
        CUDA_OK(cudaMemsetAsync(z->f.out, 0xff, bytes, stream));
        GS_OK(gs_stencil_enqueue(&run, stream));
        GS_OK(gs_stencil_check(&run, stream));
        CUDA_OK(cudaMemcpy(z->got.data(), z->f.out, bytes, cudaMemcpyDeviceToHost));
        size_t diff = 0, first = 0;
        for (size_t i = 0; i < z->n; ++i)
            if (memcmp(&z->got[i], &replica[i], sizeof(float)) != 0 && diff++ == 0)
                first = i;
        double err = gs_stencil_error(z->got.data(), z->ref, z->n);
        checks += 2;
        EXPECT(diff == 0, "%s, %s, %d x %d, %d steps, %u x %u blocks, pass %d: %zu cells differ "
               "from the float replica, first (%zu, %zu): %g, not %g",
               gs_stencil_method_names[method], run.onchip ? "on chip" : "global", z->f.w,
               z->f.h, z->f.steps, run.grid.x, run.grid.y, pass, diff, first % z->f.w,
               first / z->f.w, z->got[first], replica[first]);
        EXPECT(err <= z->bound, "%s, %d x %d, %d steps: error %.3g, bound %.3g",
               gs_stencil_method_names[method], z->f.w, z->f.h, z->f.steps, err, z->bound);
    }
    gs_stencil_release(&run);
}

static void versions(int sms, cudaStream_t stream, unsigned long long seed)
{
    static const int all_fields[][2] = {{1, 1}, {67, 45}, {130, 257}, {1031, 3}, {3, 700},
                                        {500, 333}};
    static const int quick_fields[][2] = {{67, 45}, {130, 257}, {3, 700}};
    static const int all_steps[] = {1, 2, 51}, quick_steps[] = {2, 51};
    const int all_grids[] = {0, 1, 2, sms, sms + 1, 2 * sms}, quick_grids[] = {0, 2, sms + 1};
    /* under a sanitizer (GS_TEST_SANITIZER=1): the odd fields that split
     * both ways and a thin one, 2 and 51 steps, grids of 2 and SMs + 1 and
     * the versions' own; every kernel and path still runs, in a time that
     * racecheck finishes (the whole list took over 520 s there on an H200) */
    const int quick = gs_test_sanitizer();
    const int(*fields)[2] = quick ? quick_fields : all_fields;
    const int *steps_list = quick ? quick_steps : all_steps;
    const int *grids = quick ? quick_grids : all_grids;
    const int nfields = quick ? GS_COUNT(quick_fields) : GS_COUNT(all_fields);
    const int nsteps = quick ? GS_COUNT(quick_steps) : GS_COUNT(all_steps);
    const int ngrids = quick ? GS_COUNT(quick_grids) : GS_COUNT(all_grids);
    for (int fi = 0; fi < nfields; ++fi)
        for (int si = 0; si < nsteps; ++si) {
            const int *fd = fields[fi], steps = steps_list[si];
            field_buffers z;
            field_init(&z, fd[0], fd[1], steps, seed++);
            for (int m = 0; m < GS_STENCIL_NMETHODS; ++m) {
                if (m == GS_STENCIL_GRAPH || m == GS_STENCIL_STREAM || m == GS_STENCIL_GRAPH_PDL ||
                    m == GS_STENCIL_STREAM_PDL) {
                    solve(&z, (gs_stencil_method)m, 0, GS_STENCIL_AUTO, stream);
                    continue;
                }
                for (int gi = 0; gi < ngrids; ++gi)
                    for (int mode : {GS_STENCIL_AUTO, GS_STENCIL_ONCHIP, GS_STENCIL_GLOBAL})
                        solve(&z, (gs_stencil_method)m, grids[gi], mode, stream);
            }
            field_free(&z);
        }
}

/* The run function as `gridsync bench apps` calls it: on 2^10 and 2^13
 * cells; or, with GS_STENCIL_BENCH_SIZES=12,16,20 (log2 of the cells), on
 * those, printing the table (timings before the suite's description is
 * merged). */
static void suite(void)
{
    static int sizes[32] = {10, 13};
    static const int threads[] = {256};
    int nsizes = 2, print = 0;
    const char *env = getenv("GS_STENCIL_BENCH_SIZES");
    if (env && *env) {
        nsizes = 0;
        print = 1;
        for (const char *q = env; *q && nsizes < 32;) {
            char *end = NULL;
            long v = strtol(q, &end, 10);
            if (end == q || v < 4 || v > 26 || (*end && *end != ',')) {
                fprintf(stderr, "gpu_apps_stencil: GS_STENCIL_BENCH_SIZES='%s': expected "
                        "log2 sizes 4 .. 26, comma-separated\n", env);
                exit(2);
            }
            sizes[nsizes++] = (int)v;
            q = *end ? end + 1 : end;
        }
    }
    gs_bench_params p = {};
    p.iterations = 1;
    p.samples = print ? 10 : 2;
    p.warmup = 1;
    p.threads = threads;
    p.nthreads = 1;
    p.sizes.log2 = sizes;
    p.sizes.count = nsizes;
    p.sizes_given = 1;
    p.quiet = !print;
    p.sampling = gs_sampling_fixed(p.samples);
    const gs_bench_suite *apps = gs_bench_suite_find("apps"); /* its columns */
    gs_table *t = gs_table_new_columns("apps: stencil 2-D", apps->ncolumns, apps->columns);
    EXPECT(t != NULL, "gs_table_new_columns");
    if (!t)
        return;
    gs_status st = gs_apps_stencil(&p, t);
    checks += 2;
    EXPECT(st == GS_SUCCESS, "gs_apps_stencil: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    /* every method at every size, but the two halos only where the tiles
     * fit on chip (all sizes up to 2^20 cells) */
    int least = 0, most = nsizes * GS_STENCIL_NMETHODS;
    for (int i = 0; i < nsizes; ++i)
        least += sizes[i] <= 20 ? GS_STENCIL_NMETHODS : GS_STENCIL_NMETHODS - 2;
    EXPECT(gs_table_rows(t) >= least && gs_table_rows(t) <= most, "%d rows, expected %d to %d",
           gs_table_rows(t), least, most);
    if (print)
        gs_table_print(t, stdout);
    gs_table_free(t);
}

int main(void)
{
    gs_test_require_gpu("gpu_apps_stencil");
    unsigned long long seed = gs_test_seed("gpu_apps_stencil");
    int dev = 0, sms = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    versions(sms, stream, seed);
    /* the suite solves 1000 steps a call with the same kernels: not under a
     * sanitizer, where versions() has covered them */
    if (!gs_test_sanitizer())
        suite();
    CUDA_OK(cudaStreamDestroy(stream));
    return gs_test_finish("gpu_apps_stencil", checks);
}
