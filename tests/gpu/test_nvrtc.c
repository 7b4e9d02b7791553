/*
 * test_nvrtc.c - the device headers compile under NVRTC, and a kernel
 * compiled at run time synchronizes with a gridsync barrier.
 *
 * Compile half (any machine, no GPU needed): NVRTC compiles kernels that
 * include <gridsync/barrier.cuh>, <gridsync/reduce.cuh> and
 * <gridsync/scan.cuh> (and two instantiations of the scan's internal agent)
 * for compute_75, with only -I to the source tree's include/ (NVRTC has no C
 * library headers: the device headers must include none; without
 * cuda_fp16.h the 16-bit floats are left out). Then, with -I to the CUDA
 * toolkit's include/ as well, the reductions and scans of u32, u64, f16
 * and bf16 (GS_HAS_16BIT_FLOATS on). A failure prints NVRTC's log and
 * exits 1.
 * Run half (a GPU present; else exit 77 after the compile): the PTX is
 * loaded with cuModuleLoadData into the CUDA runtime's context, the kernel
 * found with cuModuleGetFunction, and launched with gs_launch_func on as
 * many blocks as fit and on 256 (one a thread) with a barrier of each method
 * of the registry: every block sums its slice with
 * gs_block_reduce_sum_f32, a grid barrier, block 0 sums the partials. The
 * values are small integers, so the float sum is exact: it must equal the
 * CPU's. A second kernel scans blocks of 1000 threads with
 * gs_block_inclusive_sum_f32 and gs::block_exclusive_scan (with the
 * block's total), checked element by element against the CPU (small
 * integers again: exact). The driver functions are reached through the runtime
 * (cudaGetDriverEntryPointByVersion), as libgridsync reaches them, so the
 * program starts on machines without a driver.
 */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync.h"

#define SKIP 77

static const char *const source =
    "#include <gridsync/allreduce.cuh>\n"
    "#include <gridsync/barrier.cuh>\n"
    "#include <gridsync/grid_scan.cuh>\n"
    "#include <gridsync/neighbour.cuh>\n"
    "#include <gridsync/reduce.cuh>\n"
    "#include <gridsync/scan.cuh>\n"
    "#include <gridsync/detail/scan/single_pass_scan.cuh>\n"
    "/* the scan agent, instantiated: it compiles under NVRTC too */\n"
    "template __global__ void gs::detail::single_pass_scan_kernel<\n"
    "    gs::detail::scan_policy<float>, gs::sum<float>>(const gs::detail::scan_args);\n"
    "template __global__ void gs::detail::single_pass_scan_kernel<\n"
    "    gs::detail::scan_policy<long long>, gs::max<long long>>(const gs::detail::scan_args);\n"
    "#include <gridsync/detail/scan/single_tile_scan.cuh>\n"
    "template __global__ void gs::detail::single_tile_scan_kernel<\n"
    "    gs::detail::scan_policy<double, gs::detail::scan_short>, gs::sum<double>>(\n"
    "    const gs::detail::scan_args);\n"
    "#include <gridsync/detail/scan/resident_scan.cuh>\n"
    "template __global__ void gs::detail::single_pass_scan_resident_kernel<\n"
    "    gs::detail::scan_policy<float, gs::detail::scan_bandwidth>, gs::sum<float>>(\n"
    "    const gs::detail::scan_args);\n"
    "#include <gridsync/halo.cuh>\n"
    "#include <gridsync/pdl.cuh>\n"
    "/* compiled, not launched: the halo exchange builds under NVRTC */\n"
    "extern \"C\" __global__ void halo(gs_grid_barrier bar, gs_halo h, const double *in,\n"
    "                                   double *out, int steps)\n"
    "{\n"
    "    extern __shared__ double tile[];\n"
    "    gs_halo_tile t;\n"
    "    gs_halo_begin_f64(&t, &bar, &h, tile, steps);\n"
    "    gs_halo_load_f64(&t, in);\n"
    "    for (int s = 0; s < steps; ++s) {\n"
    "        const double *c = gs_halo_cur_f64(&t);\n"
    "        for (int e = t.thread; e < t.edges; e += t.threads) {\n"
    "            int x, y;\n"
    "            gs_halo_edge_cell(&t, e, &x, &y);\n"
    "            gs_halo_put_f64(&t, x, y, c[gs_halo_at(&t, x, y)]);\n"
    "        }\n"
    "        for (gs_halo_walk w = gs_halo_interior(&t); w.ly < w.end; gs_halo_next(&w))\n"
    "            gs_halo_nxt_f64(&t)[gs_halo_at(&t, w.lx, w.ly)] = c[gs_halo_at(&t, w.lx, w.ly)];\n"
    "        gs_halo_exchange_f64(&t);\n"
    "    }\n"
    "    gs_halo_store_f64(&t, out);\n"
    "    gs_halo_end(&t);\n"
    "}\n"
    "#include <gridsync/signal.cuh>\n"
    "#include <gridsync/tagged.cuh>\n"
    "#include <gridsync/tasks.cuh>\n"
    "/* compiled, not launched: a kernel of a PDL chain builds under NVRTC */\n"
    "extern \"C\" __global__ void pdl_step(const float *in, float *out)\n"
    "{\n"
    "    gs_pdl_launch_dependents();\n"
    "    gs_pdl_wait();\n"
    "    out[threadIdx.x] = in[threadIdx.x] + 1.0f;\n"
    "}\n"
    "/* compiled, not launched: the task runtime's device side builds under NVRTC */\n"
    "extern \"C\" __global__ void tasks(gs_task_view plan, float *out)\n"
    "{\n"
    "    extern __shared__ __align__(128) unsigned char smem[];\n"
    "    gs_task_runner r;\n"
    "    gs_task_t t;\n"
    "    gs_task_begin(&r, &plan, smem);\n"
    "    while (gs_task_next(&r, &t)) {\n"
    "        if (threadIdx.x == 0)\n"
    "            out[gs_task_id(&t)] = *(const float *)gs_task_input(&t, 0) + gs_task_arg(&t, 0);\n"
    "        gs_task_end(&r, &t);\n"
    "    }\n"
    "}\n"
    "/* compiled, not launched: every method's own barrier, from the registry */\n"
    "extern \"C\" __global__ void fixed_methods(gs_grid_barrier bar)\n"
    "{\n"
    "#define GS__FIXED(constant, name) gs::grid_sync<constant>(&bar);\n"
    "    GS_BARRIER_METHODS(GS__FIXED)\n"
    "    gs_grid_sync_flags(&bar);\n"
    "}\n"
    "/* compiled, not launched: the scoped primitives build under NVRTC */\n"
    "extern \"C\" __global__ void scoped(gs_grid_barrier bar, gs_signal_set sig, float *out,\n"
    "                                    const unsigned int *members, gs_tagged_word *words)\n"
    "{\n"
    "    float v = 0.0f;\n"
    "    gs_tagged_put_f32(words, 1.0f, 1u);\n"
    "    gs_block_leave_if(!gs_tagged_get_f32(&bar, words + 1, 1u, 1u, &v));\n"
    "    out[1] = v;\n"
    "    gs_neighbour_sync_1d(&bar, 0);\n"
    "    gs_neighbour_sync_2d(&bar, GS_NEIGHBOURS_DIAGONAL);\n"
    "    gs_subset_sync(&bar, 0, members, 2);\n"
    "    out[0] = gs_grid_allreduce_sum_f32(&bar, 1.0f) + (float)gs_grid_allreduce_max_f64(&bar, 2.0);\n"
    "    unsigned int all;\n"
    "    out[2] = (float)gs_grid_exclusive_sum_u32(&bar, 3u, &all) + (float)all +\n"
    "             gs_grid_exclusive_max_f32(&bar, v, 0) + (float)gs_grid_exclusive_sum_f64(&bar, 1.0, 0);\n"
    "    gs_grid_wait(&bar, gs_grid_arrive(&bar));\n"
    "    gs_block_signal_store(&sig, 0, 1);\n"
    "    gs_block_signal_wait(&sig, 0, 1);\n"
    "}\n"
    "extern \"C\" __global__ void grid_sum(gs_grid_barrier bar, const float *in,\n"
    "                                      float *partials, float *out, int n)\n"
    "{\n"
    "    __shared__ float smem[32];\n"
    "    float v = 0.0f;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
    "        v += in[i];\n"
    "    v = gs_block_reduce_sum_f32(v, smem);\n"
    "    if (threadIdx.x == 0)\n"
    "        partials[blockIdx.x] = v;\n"
    "    gs_grid_sync(&bar); /* every partial is visible to block 0 */\n"
    "    if (blockIdx.x != 0)\n"
    "        return;\n"
    "    float t = 0.0f;\n"
    "    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)\n"
    "        t += partials[b];\n"
    "    t = gs_block_reduce_sum_f32(t, smem);\n"
    "    if (threadIdx.x == 0)\n"
    "        *out = t;\n"
    "}\n"
    "extern \"C\" __global__ void block_scans(const float *in, float *incl, float *excl,\n"
    "                                         float *totals)\n"
    "{\n"
    "    __shared__ float smem[32];\n"
    "    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float total = -1.0f;\n"
    "    incl[i] = gs_block_inclusive_sum_f32(in[i], smem);\n"
    "    excl[i] = gs::block_exclusive_scan(in[i], smem, gs::sum<float>(), &total);\n"
    "    if (threadIdx.x == blockDim.x - 1)\n"
    "        totals[blockIdx.x] = total;\n"
    "}\n";

/* The element types u32, u64, f16 and bf16 under NVRTC: the 16-bit floats
 * are there when cuda_fp16.h and cuda_bf16.h are on the include path
 * (compiled with -I to the CUDA toolkit's include/ too), the scan agent
 * and the single pass instantiated on them, their C-style names used. */
static const char *const source_types =
    "#include <gridsync/reduce.cuh>\n"
    "#include <gridsync/scan.cuh>\n"
    "#include <gridsync/detail/reduce/single_pass.cuh>\n"
    "#include <gridsync/detail/scan/single_pass_scan.cuh>\n"
    "#include <gridsync/detail/scan/single_tile_scan.cuh>\n"
    "#if !GS_HAS_16BIT_FLOATS\n"
    "#error cuda_fp16.h is on the include path, yet GS_HAS_16BIT_FLOATS is 0\n"
    "#endif\n"
    "template __global__ void gs::detail::single_pass_scan_kernel<\n"
    "    gs::detail::scan_policy<__half>, gs::sum<__half>>(const gs::detail::scan_args);\n"
    "template __global__ void gs::detail::single_tile_scan_kernel<\n"
    "    gs::detail::scan_policy<__nv_bfloat16, gs::detail::scan_short>,\n"
    "    gs::max<__nv_bfloat16>>(const gs::detail::scan_args);\n"
    "template __global__ void gs::detail::single_pass_scan_kernel<\n"
    "    gs::detail::scan_policy<unsigned long long, gs::detail::scan_bandwidth>,\n"
    "    gs::min<unsigned long long>>(const gs::detail::scan_args);\n"
    "template __global__ void gs::detail::single_pass_kernel<gs::detail::single_pass_policy<1>,\n"
    "    gs::sum<__half>, gs::detail::one_input<__half>, gs::detail::lift<gs::sum<__half>>>(\n"
    "    gs::detail::one_input<__half>, long long, float *, unsigned int *, unsigned int,\n"
    "    float *);\n"
    "template __global__ void gs::detail::single_pass_kernel<gs::detail::single_pass_policy<2>,\n"
    "    gs::sum<__nv_bfloat16>, gs::detail::two_inputs<__nv_bfloat16>,\n"
    "    gs::detail::product<__nv_bfloat16>>(gs::detail::two_inputs<__nv_bfloat16>, long long,\n"
    "    float *, unsigned int *, unsigned int, float *);\n"
    "extern \"C\" __global__ void types(const __half *h, const __nv_bfloat16 *b,\n"
    "                                   const unsigned int *u, float *f, __half *hm,\n"
    "                                   unsigned long long *w)\n"
    "{\n"
    "    __shared__ float fs[32];\n"
    "    __shared__ __half hs[32];\n"
    "    __shared__ unsigned long long ws[32];\n"
    "    f[threadIdx.x] = gs_block_reduce_sum_f16(h[threadIdx.x], fs)\n"
    "                     + gs_block_inclusive_sum_bf16(b[threadIdx.x], fs)\n"
    "                     + (float)gs_warp_exclusive_sum_u32(u[threadIdx.x], 32u);\n"
    "    hm[threadIdx.x] = gs_block_reduce_min_f16(h[threadIdx.x], hs);\n"
    "    w[threadIdx.x] = gs_block_exclusive_max_u64(u[threadIdx.x], ws);\n"
    "}\n";

/* The PTX of `text`, or NULL after printing NVRTC's log; `cuda_include`:
 * also -I to the CUDA toolkit's include/ (cuda_fp16.h, cuda_bf16.h). */
static char *compile(const char *text, int cuda_include)
{
    nvrtcProgram prog;
    const char *options[] = {"-I" GS_SOURCE_DIR "/include", "--gpu-architecture=compute_75",
                             "-std=c++17", "-I" GS_CUDA_INCLUDE_DIR};
    if (nvrtcCreateProgram(&prog, text, "grid_sum.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
        return NULL;
    nvrtcResult r = nvrtcCompileProgram(prog, cuda_include ? 4 : 3, options);
    size_t log_size = 0, ptx_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    if (r != NVRTC_SUCCESS) {
        char *log = malloc(log_size + 1);
        if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
            fprintf(stderr, "nvrtc: %s\n%s\n", nvrtcGetErrorString(r), log);
        free(log);
        nvrtcDestroyProgram(&prog);
        return NULL;
    }
    char *ptx = NULL;
    if (nvrtcGetPTXSize(prog, &ptx_size) == NVRTC_SUCCESS && (ptx = malloc(ptx_size)) != NULL &&
        nvrtcGetPTX(prog, ptx) != NVRTC_SUCCESS) {
        free(ptx);
        ptx = NULL;
    }
    nvrtcDestroyProgram(&prog);
    return ptx;
}

typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*get_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*unload_fn)(CUmodule);

static void *driver_entry(const char *name)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
        return NULL;
    return fn;
}

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "test_nvrtc: " __VA_ARGS__);                                   \
            fputc('\n', stderr);                                                           \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)
#define GS_CHECK(call)                                                                     \
    CHECK((call) == GS_SUCCESS, "%s: %s", #call, gs_last_error_detail())

/* The block scans of the second kernel: 7 blocks of 1000 threads (not a
 * multiple of 32) over the first 7000 values of d_in (h on the host). */
static int run_block_scans(get_fn get, CUmodule module, const float *d_in, const float *h)
{
    enum { BLOCKS = 7, THREADS = 1000, N = BLOCKS * THREADS };
    CUfunction func;
    float *d_incl = NULL, *d_excl = NULL, *d_totals = NULL;
    static float incl[N], excl[N];
    float totals[BLOCKS];
    CHECK(get(&func, module, "block_scans") == CUDA_SUCCESS, "cuModuleGetFunction(block_scans)");
    CHECK(cudaMalloc((void **)&d_incl, sizeof incl) == cudaSuccess &&
              cudaMalloc((void **)&d_excl, sizeof excl) == cudaSuccess &&
              cudaMalloc((void **)&d_totals, sizeof totals) == cudaSuccess,
          "device buffers (scans)");
    void *args[] = {&d_in, &d_incl, &d_excl, &d_totals};
    dim3 grid = {BLOCKS, 1, 1}, block = {THREADS, 1, 1};
    GS_CHECK(gs_launch_func((cudaFunction_t)func, grid, block, 0, 0, args, NULL));
    CHECK(cudaMemcpy(incl, d_incl, sizeof incl, cudaMemcpyDeviceToHost) == cudaSuccess &&
              cudaMemcpy(excl, d_excl, sizeof excl, cudaMemcpyDeviceToHost) == cudaSuccess &&
              cudaMemcpy(totals, d_totals, sizeof totals, cudaMemcpyDeviceToHost) == cudaSuccess,
          "copy (scans)");
    int wrong = 0;
    for (int b = 0; b < BLOCKS; ++b) {
        double run = 0.0;
        for (int t = 0; t < THREADS; ++t) {
            int i = b * THREADS + t;
            wrong += (double)excl[i] != run;
            run += h[i];
            wrong += (double)incl[i] != run;
        }
        wrong += (double)totals[b] != run;
    }
    printf("test_nvrtc: block scans of %d x %d threads: %d wrong values\n", BLOCKS, THREADS,
           wrong);
    cudaFree(d_incl);
    cudaFree(d_excl);
    cudaFree(d_totals);
    return wrong == 0 ? 0 : 1;
}

/* Load, launch with a barrier, compare with the CPU. */
static int run(const char *ptx)
{
    load_fn load = (load_fn)driver_entry("cuModuleLoadData");
    get_fn get = (get_fn)driver_entry("cuModuleGetFunction");
    unload_fn unload = (unload_fn)driver_entry("cuModuleUnload");
    CHECK(load && get && unload, "driver entry points not found");
    CHECK(cudaFree(NULL) == cudaSuccess, "no CUDA context"); /* the runtime's context, current */
    CUmodule module;
    CUfunction func;
    CHECK(load(&module, ptx) == CUDA_SUCCESS, "cuModuleLoadData failed");
    CHECK(get(&func, module, "grid_sum") == CUDA_SUCCESS, "cuModuleGetFunction failed");

    int n = 1000003, blocks = 0;
    float *h = malloc((size_t)n * sizeof *h), *d_in = NULL, *d_partials = NULL, *d_out = NULL;
    float got = -1.0f;
    double want = 0.0;
    CHECK(h != NULL, "out of host memory");
    for (int i = 0; i < n; ++i) {
        h[i] = (float)(i % 7);
        want += h[i];
    }
    GS_CHECK(gs_max_coresident_blocks_func(func, 256, 0, &blocks));
    CHECK(cudaMalloc((void **)&d_in, (size_t)n * sizeof *h) == cudaSuccess &&
              cudaMalloc((void **)&d_partials, (size_t)blocks * sizeof(float)) == cudaSuccess &&
              cudaMalloc((void **)&d_out, sizeof(float)) == cudaSuccess &&
              cudaMemcpy(d_in, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess,
          "device buffers");
    /* every method of the registry, on as many blocks as fit and on as many
     * as a block has threads (where flags polls its words) */
    const int grids[2] = {blocks, blocks < 256 ? blocks : 256};
    for (int m = 0; m < GS_BARRIER_METHOD_COUNT; ++m)
        for (int g = 0; g < 2; ++g) {
            gs_barrier_t bar;
            gs_grid_barrier view;
            GS_CHECK(gs_barrier_create(&bar, (gs_barrier_method)m));
            GS_CHECK(gs_barrier_device(bar, (unsigned int)grids[g], &view));
            CHECK(cudaMemset(d_out, 0xff, sizeof(float)) == cudaSuccess, "poison");
            void *args[] = {&view, &d_in, &d_partials, &d_out, &n};
            dim3 grid = {(unsigned int)grids[g], 1, 1}, block = {256, 1, 1};
            GS_CHECK(gs_launch_func((cudaFunction_t)func, grid, block, 0, 0, args, bar));
            GS_CHECK(gs_barrier_check(bar, 0));
            GS_CHECK(gs_barrier_destroy(bar));
            CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess,
                  "copy");
            printf("test_nvrtc: %s, %d blocks: sum %.1f, expected %.1f\n",
                   gs_barrier_method_name((gs_barrier_method)m), grids[g], got, want);
            CHECK((double)got == want, "wrong sum");
        }
    CHECK(run_block_scans(get, module, d_in, h) == 0, "block scans");
    cudaFree(d_in);
    cudaFree(d_partials);
    cudaFree(d_out);
    free(h);
    unload(module);
    return 0;
}

int main(void)
{
    char *ptx = compile(source_types, 1);
    if (!ptx) {
        fprintf(stderr, "test_nvrtc: FAIL: reductions and scans of u32, u64, f16 and bf16 do not "
                        "compile under NVRTC with -I%s\n",
                GS_CUDA_INCLUDE_DIR);
        return 1;
    }
    printf("test_nvrtc: reductions and scans of u32, u64, f16 and bf16 compile under NVRTC with "
           "cuda_fp16.h and cuda_bf16.h (%zu bytes of PTX)\n",
           strlen(ptx));
    free(ptx);
    ptx = compile(source, 0);
    if (!ptx) {
        fprintf(stderr, "test_nvrtc: FAIL: the device headers do not compile under NVRTC\n");
        return 1;
    }
    printf("test_nvrtc: barrier.cuh, reduce.cuh and scan.cuh compile under NVRTC (%zu bytes of "
           "PTX)\n",
           strlen(ptx));
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("test_nvrtc: SKIP the launch: no usable GPU\n");
        free(ptx);
        return SKIP;
    }
    int rc = run(ptx);
    free(ptx);
    printf("test_nvrtc: %s\n", rc == 0 ? "PASS" : "FAIL");
    return rc;
}
