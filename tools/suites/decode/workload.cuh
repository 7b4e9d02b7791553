/*
 * workload.cuh - measuring a decode workload: every version of
 * kernels.cuh and cuBLAS on the same weights, each timed as CUDA-graph
 * replays (one replay: the whole workload) and checked against an FP64
 * reference.
 *
 * Weights: the hash of (seed, index) in data.cuh, uniform in
 * [-a, a), a = sqrt(3 / K) for a matrix of K columns (outputs keep the size
 * of their inputs); the CPU rebuilds any row. Check: every output written
 * (poisoned with NaN first; the tagged version's words must carry its last
 * launch's tags) and, for 128 random rows of every step, the error against
 * the FP64 value computed from that version's own input to the step:
 *   gemv, down (with the residual x): |y - ref| <= u |ref| + g (sum |w x| + |x_r|);
 *   gate-up: |h - ref| <= u |ref| + 1.1 |u_ref| (g + v) G + |silu(g_ref)| (g + v) U
 * with u the output type's unit roundoff (2^-11 fp16, 2^-8 bf16), g = 1.01 K
 * 2^-24 (any order of K fp32 sums), G and U the sums of |w x| of the gate and
 * up rows, and v = u for cuBLAS (which rounds gate and up to 16 bits before
 * the SiLU; 0 for the others). The figure is the largest ratio of error to
 * bound (<= 1).
 */
#ifndef GS_SUITES_DECODE_WORKLOAD_CUH
#define GS_SUITES_DECODE_WORKLOAD_CUH

#include "data.cuh"

namespace decode {

enum version { V_TASKS, V_TASKS_TAGGED, V_BARRIER, V_GRAPH, V_GRAPH_PDL, V_CUBLAS, V_COUNT };

struct outcome {
    gs_stats t;     /* per replay (the whole workload) */
    double worst;   /* largest error / bound over the rows checked */
    long long bad;  /* outputs not written, or beyond the bound */
    int first_bad;  /* the first step with such an output (-1: none) */
};

struct options {
    int layers, stages, per_sm;
    unsigned long long seed;
    gs_timing_plan timing; /* how each version's graph is timed (harness/timer.h) */
};

/* gs_time_work's enqueue: one replay of a graph, counted (the tagged
 * version's tags count the launches). */
struct replay {
    cudaGraphExec_t exec;
    unsigned int launches;
};

static gs_status launch_replay(void *p, cudaStream_t s)
{
    replay *r = (replay *)p;
    ++r->launches;
    GS_CUDA_TRY(cudaGraphLaunch(r->exec, s));
    return GS_SUCCESS;
}

/* One workload of shape S on the device. */
template <class S> struct workload {
    typedef typename S::T T;
    typedef geometry<S> G;
    options o;
    model<T> md = {};
    T *w = nullptr, *x0 = nullptr, *out = nullptr, *gbuf = nullptr, *ubuf = nullptr;
    unsigned long long *tout = nullptr;
    unsigned int *failed = nullptr;
    cudaStream_t s = nullptr;
    int sms = 0, steps = 0;

    size_t weights() const { return (size_t)o.layers * (S::MLP ? 3 * (size_t)S::F * S::D : (size_t)S::D * S::D); }
    size_t out_elems() const { return (size_t)steps * S::B * G::MAXLEN; }
    /* where matrix `which` (0 gemv or gate, 1 up, 2 down) of layer l starts, and its K */
    size_t matrix(int l, int which, int *k) const
    {
        if (!S::MLP) {
            *k = S::D;
            return (size_t)l * S::D * S::D;
        }
        *k = which == 2 ? S::F : S::D;
        return (size_t)l * 3 * S::F * S::D + (size_t)which * S::F * S::D;
    }
    /* Weights uniform in [-a, a): a = sqrt(3 / K) keeps a product's size;
     * the MLP's down matrix a quarter of that, so that the residual stream
     * x + W_d h stays near its input's size through the layers (h grows as
     * x squared: with full-size down weights fp16 overflows by layer 15). */
    static float scale(int k, int which = 0)
    {
        return sqrtf(3.0f / (float)k) * (S::MLP && which == 2 ? 0.25f : 1.0f);
    }

    gs_status setup()
    {
        int dev;
        steps = G::steps(o.layers);
        GS_CUDA_TRY(cudaGetDevice(&dev));
        GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        GS_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        GS_CUDA_TRY(cudaMalloc(&w, weights() * sizeof(T)));
        GS_CUDA_TRY(cudaMalloc(&x0, (size_t)S::B * S::D * sizeof(T)));
        GS_CUDA_TRY(cudaMalloc(&out, out_elems() * sizeof(T)));
        GS_CUDA_TRY(cudaMalloc(&tout, out_elems() / 2 * sizeof *tout));
        GS_CUDA_TRY(cudaMalloc(&failed, sizeof *failed));
        if (S::MLP) {
            GS_CUDA_TRY(cudaMalloc(&gbuf, (size_t)S::B * S::F * sizeof(T)));
            GS_CUDA_TRY(cudaMalloc(&ubuf, (size_t)S::B * S::F * sizeof(T)));
        }
        for (int l = 0; l < o.layers; ++l)
            for (int which = 0; which < (S::MLP ? 3 : 1); ++which) {
                int k;
                size_t at = matrix(l, which, &k), n = (size_t)(S::MLP && which < 2 ? S::F : S::D) * k;
                fill_uniform<T><<<1024, 256, 0, s>>>(w + at, n, o.seed, at, scale(k, which));
            }
        fill_uniform<T><<<64, 256, 0, s>>>(x0, (size_t)S::B * S::D, o.seed ^ 0x5bd1e995ull, 0,
                                           1.0f);
        GS_CUDA_TRY(cudaGetLastError());
        GS_CUDA_TRY(cudaStreamSynchronize(s));
        md = {w, x0, out, tout, failed, o.layers};
        return GS_SUCCESS;
    }

    void teardown()
    {
        cudaFree(w);
        cudaFree(x0);
        cudaFree(out);
        cudaFree(tout);
        cudaFree(failed);
        cudaFree(gbuf);
        cudaFree(ubuf);
        cudaStreamDestroy(s);
    }

    /* The task plan of the tasks versions: a task per slab, in step order. */
    gs_status make_plan(int tagged, gs_task_plan_t *plan)
    {
        GS_TRY(gs_task_plan_create(plan, (unsigned int)steps));
        for (int st = 0; st < steps; ++st) {
            const int op = G::op(st), slabs = G::slabs(op);
            for (int j = 0; j < slabs; ++j) {
                gs_task_desc d;
                memset(&d, 0, sizeof d);
                d.op = (unsigned int)op;
                d.arg[0] = (unsigned long long)st;
                d.arg[1] = (unsigned long long)j;
                if (st > 0 && !tagged)
                    d.waits[d.nwaits++] = {(unsigned int)st - 1, (unsigned int)G::slabs(G::op(st - 1))};
                if (!tagged)
                    d.posts[d.nposts++] = {(unsigned int)st, 1};
                const T *w2;
                const T *w1 = G::weights(md, st, j, &w2);
                if (w2) {
                    d.inputs[d.ninputs++] = {w1, S::SLAB / 2};
                    d.inputs[d.ninputs++] = {w2, S::SLAB / 2};
                } else {
                    d.inputs[d.ninputs++] = {w1, S::SLAB};
                }
                GS_TRY(gs_task_plan_add(*plan, &d, NULL));
            }
        }
        GS_TRY(gs_task_plan_set_stages(*plan, (unsigned int)o.stages, 0));
        return gs_task_plan_build(*plan, grid_for(tagged ? (const void *)tagged_kernel<S>
                                                         : (const void *)tasks_kernel<S>,
                                                  GS_TASK_SMEM_HEADER +
                                                      (size_t)o.stages *
                                                          ((S::SLAB + GS_TASK_RECORD_BYTES + 127) /
                                                           128 * 128)));
    }

    /* per_sm blocks per SM, or as many as the kernel can hold co-resident
     * with `smem` bytes of dynamic shared memory (registers may allow fewer) */
    unsigned int grid_for(const void *kernel, size_t smem)
    {
        int fit = 0;
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) !=
                cudaSuccess ||
            gs_max_coresident_blocks(kernel, THREADS, smem, &fit) != GS_SUCCESS || fit < 1)
            return (unsigned int)sms;
        return (unsigned int)std::min(sms * o.per_sm, fit);
    }

    /* Capture one run of version v into a graph. */
    gs_status capture(int v, cudaGraphExec_t *exec, gs_task_plan_t *plan, gs_barrier_t *bar,
                      cublasHandle_t *blas)
    {
        cudaGraph_t g;
        static gs_task_view tview;
        static gs_grid_barrier bview;
        static model<T> arg;
        static int stages;
        arg = md;
        stages = o.stages;
        if (v == V_TASKS || v == V_TASKS_TAGGED) {
            GS_TRY(make_plan(v == V_TASKS_TAGGED, plan));
            GS_TRY(gs_task_plan_device(*plan, &tview));
            const size_t smem = gs_task_plan_smem_bytes(*plan);
            const void *kernel = v == V_TASKS_TAGGED ? (const void *)tagged_kernel<S>
                                                     : (const void *)tasks_kernel<S>;
            GS_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem));
            GS_CUDA_TRY(cudaMemsetAsync(tout, 0, out_elems() / 2 * sizeof *tout, s));
            GS_CUDA_TRY(cudaMemsetAsync(failed, 0, sizeof *failed, s));
            void *args[] = {&tview, &arg};
            GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            gs_status st = gs_task_plan_launch(*plan, kernel, dim3(THREADS), smem, s, args);
            GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
            GS_TRY(st);
        } else if (v == V_BARRIER) {
            int fewest = 1 << 30;
            for (int st = 0; st < steps; ++st)
                fewest = std::min(fewest, G::slabs(G::op(st)));
            const unsigned int grid = std::min(grid_for((const void *)barrier_kernel<S>,
                                                        (size_t)o.stages * S::SLAB),
                                               (unsigned int)fewest);
            GS_TRY(gs_barrier_create(bar, GS_BARRIER_AUTO));
            GS_TRY(gs_barrier_device(*bar, grid, &bview));
            const size_t smem = (size_t)o.stages * S::SLAB;
            GS_CUDA_TRY(cudaFuncSetAttribute(barrier_kernel<S>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
            void *args[] = {&bview, &arg, &stages};
            GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            gs_status st = gs_launch((const void *)barrier_kernel<S>, dim3(grid), dim3(THREADS),
                                     smem, s, args, *bar);
            GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
            GS_TRY(st);
        } else if (v == V_GRAPH || v == V_GRAPH_PDL) {
            GS_CUDA_TRY(cudaFuncSetAttribute(step_kernel<S>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, S::SLAB));
            cudaLaunchAttribute attr;
            attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr.val.programmaticStreamSerializationAllowed = 1;
            GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            cudaError_t err = cudaSuccess;
            for (int st = 0; st < steps && err == cudaSuccess; ++st) {
                cudaLaunchConfig_t cfg = {};
                cfg.gridDim = dim3((unsigned int)G::slabs(G::op(st)));
                cfg.blockDim = dim3(THREADS);
                cfg.dynamicSmemBytes = S::SLAB;
                cfg.stream = s;
                cfg.attrs = v == V_GRAPH_PDL ? &attr : NULL;
                cfg.numAttrs = v == V_GRAPH_PDL ? 1 : 0;
                err = cudaLaunchKernelEx(&cfg, step_kernel<S>, md, st);
            }
            GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
            GS_CUDA_TRY(err);
        } else {
            GS_TRY(capture_cublas(&g, blas));
        }
        GS_CUDA_TRY(cudaGraphInstantiate(exec, g, 0));
        cudaGraphDestroy(g);
        return GS_SUCCESS;
    }

    /* cuBLAS: y = W x per step (row-major W is column-major W^T: op_T), the
     * MLP's gate and up as two GEMMs and silu_mul, its down with beta = 1 on
     * a copy of the residual. */
    gs_status capture_cublas(cudaGraph_t *g, cublasHandle_t *blas)
    {
        if (cublasCreate(blas) != CUBLAS_STATUS_SUCCESS ||
            cublasSetStream(*blas, s) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "decode: cublasCreate/cublasSetStream failed\n");
            return GS_ERR_CUDA;
        }
        const cudaDataType dt = std::is_same<T, __half>::value ? CUDA_R_16F : CUDA_R_16BF;
        const float one = 1.0f, zero = 0.0f;
        cublasStatus_t bs = CUBLAS_STATUS_SUCCESS;
        cudaError_t err = cudaSuccess;
        GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (int st = 0; st < steps && bs == CUBLAS_STATUS_SUCCESS && err == cudaSuccess; ++st) {
            const int op = G::op(st);
            const T *in = G::input(md, st);
            T *y = G::output(md, st);
            const T *w2;
            const T *w1 = G::weights(md, st, 0, &w2);
            const int k = G::k(op), m = G::m(op);
            if (op == OP_GATE_UP) {
                bs = cublasGemmEx(*blas, CUBLAS_OP_T, CUBLAS_OP_N, m, S::B, k, &one, w1, dt, k, in,
                                  dt, k, &zero, gbuf, dt, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
                if (bs == CUBLAS_STATUS_SUCCESS)
                    bs = cublasGemmEx(*blas, CUBLAS_OP_T, CUBLAS_OP_N, m, S::B, k, &one, w2, dt, k,
                                      in, dt, k, &zero, ubuf, dt, m, CUBLAS_COMPUTE_32F,
                                      CUBLAS_GEMM_DEFAULT);
                silu_mul<T><<<4 * sms, 256, 0, s>>>(gbuf, ubuf, y, m * S::B);
                err = cudaGetLastError();
            } else {
                float beta = 0.0f;
                if (op == OP_DOWN) { /* x_{l+1} = x_l + W_d h */
                    err = cudaMemcpyAsync(y, G::input(md, st - 1), (size_t)S::B * S::D * sizeof(T),
                                          cudaMemcpyDeviceToDevice, s);
                    beta = 1.0f;
                }
                if (err == cudaSuccess)
                    bs = cublasGemmEx(*blas, CUBLAS_OP_T, CUBLAS_OP_N, m, S::B, k, &one, w1, dt, k,
                                      in, dt, k, beta ? &one : &zero, y, dt, m, CUBLAS_COMPUTE_32F,
                                      CUBLAS_GEMM_DEFAULT);
            }
        }
        GS_CUDA_TRY(cudaStreamEndCapture(s, g));
        GS_CUDA_TRY(err);
        if (bs != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "decode: cublasGemmEx failed (%d)\n", (int)bs);
            return GS_ERR_CUDA;
        }
        return GS_SUCCESS;
    }

    /* The tagged version's outputs into `host` (as the plain layout: step
     * st's vector b at st B MAXLEN + b m), every word's tag checked against
     * launch `launch`'s. */
    gs_status untag(std::vector<T> &host, unsigned int launch, long long *untagged)
    {
        std::vector<unsigned long long> h(out_elems() / 2);
        unsigned int fail = 0;
        GS_CUDA_TRY(cudaMemcpy(h.data(), tout, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
        GS_CUDA_TRY(cudaMemcpy(&fail, failed, sizeof fail, cudaMemcpyDeviceToHost));
        if (fail) {
            fprintf(stderr, "decode: a tagged wait gave up (2 s)\n");
            return GS_ERR_BARRIER_TIMEOUT;
        }
        *untagged = 0;
        for (int st = 0; st < steps; ++st) {
            const int m = G::m(G::op(st));
            for (int b = 0; b < S::B; ++b)
                for (int i = 0; i < m / 2; ++i) {
                    /* as the kernels lay it out: vector b at b (m / 2) of the step's words */
                    const unsigned long long word =
                        h[(size_t)st * S::B * (G::MAXLEN / 2) + (size_t)b * (m / 2) + i];
                    if ((unsigned int)(word >> 32) != act_tag(launch, steps, st))
                        ++*untagged;
                    unsigned short lo = (unsigned short)word, hi = (unsigned short)(word >> 16);
                    T *dst = &host[(size_t)st * S::B * G::MAXLEN + (size_t)b * m + 2 * i];
                    memcpy((void *)&dst[0], &lo, 2);
                    memcpy((void *)&dst[1], &hi, 2);
                }
        }
        return GS_SUCCESS;
    }

    /* The FP64 check of every step's outputs (see the file's comment). */
    void check(const std::vector<T> &host, const std::vector<T> &hx0, int is_cublas, outcome *oc)
    {
        const double u = unit_roundoff<T>();
        std::vector<double> row1(G::MAXLEN), row2(G::MAXLEN);
        oc->worst = 0.0;
        oc->bad = 0;
        oc->first_bad = -1;
        for (int st = 0; st < steps; ++st) {
            if (oc->bad && oc->first_bad < 0)
                oc->first_bad = st - 1;
            const int op = G::op(st), k = G::k(op), m = G::m(op);
            const T *in = st == 0 ? hx0.data() : &host[(size_t)(st - 1) * S::B * G::MAXLEN];
            const T *y = &host[(size_t)st * S::B * G::MAXLEN];
            for (int b = 0; b < S::B; ++b)
                for (int i = 0; i < m; ++i)
                    if (!std::isfinite(to_double(y[(size_t)b * m + i])))
                        ++oc->bad;
            const double gamma = 1.01 * k * ldexp(1.0, -24), v = is_cublas ? u : 0.0;
            for (int q = 0; q < 128; ++q) {
                const int r = (int)(hash64(o.seed ^ 0xc0ffeeull, (unsigned long long)st * 4096 + q) %
                                    (unsigned long long)m);
                const int l = S::MLP ? st / 2 : st;
                int kk;
                const size_t base1 = matrix(l, op == OP_DOWN ? 2 : 0, &kk) + (size_t)r * k;
                const size_t base2 = S::MLP ? matrix(l, 1, &kk) + (size_t)r * k : 0;
                const float a1 = scale(k, op == OP_DOWN ? 2 : 0), a2 = scale(k, 1);
                for (int c = 0; c < k; ++c) {
                    row1[c] = to_double(from_float<T>(uniform(o.seed, base1 + c, a1)));
                    if (op == OP_GATE_UP)
                        row2[c] = to_double(from_float<T>(uniform(o.seed, base2 + c, a2)));
                }
                for (int b = 0; b < S::B; ++b) {
                    double d1 = 0, m1 = 0, d2 = 0, m2 = 0;
                    for (int c = 0; c < k; ++c) {
                        const double x = to_double(in[(size_t)b * k + c]);
                        d1 += row1[c] * x;
                        m1 += fabs(row1[c] * x);
                        if (op == OP_GATE_UP) {
                            d2 += row2[c] * x;
                            m2 += fabs(row2[c] * x);
                        }
                    }
                    double ref, bound;
                    if (op == OP_GATE_UP) {
                        const double sg = 1.0 / (1.0 + exp(-d1)), silu = d1 * sg;
                        ref = silu * d2;
                        bound = u * fabs(ref) + 1.1 * fabs(d2) * (gamma * m1 + v * fabs(d1)) +
                                fabs(silu) * (gamma * m2 + v * fabs(d2));
                    } else {
                        double res = 0.0;
                        if (op == OP_DOWN) { /* the residual: the gate-up step's input */
                            const T *xl = st == 1 ? hx0.data() : &host[(size_t)(st - 2) * S::B * G::MAXLEN];
                            res = to_double(xl[(size_t)b * S::D + r]);
                        }
                        ref = d1 + res;
                        bound = u * fabs(ref) + gamma * (m1 + fabs(res));
                    }
                    bound += 1e-6 * u; /* the subnormal range */
                    const double got = to_double(y[(size_t)b * m + r]);
                    const double ratio = fabs(got - ref) / bound;
                    if (!(ratio <= 1.0))
                        ++oc->bad;
                    if (!(ratio <= oc->worst))
                        oc->worst = ratio;
                }
            }
        }
    }

    /* Time version v, then check a fresh run of it on poisoned outputs. */
    gs_status run(int v, outcome *oc)
    {
        cudaGraphExec_t exec = nullptr;
        gs_task_plan_t plan = nullptr;
        gs_barrier_t bar = nullptr;
        cublasHandle_t blas = nullptr;
        gs_status st = capture(v, &exec, &plan, &bar, &blas);
        replay r = {exec, 0}; /* r.launches: of the graph before the checked one (the tags') */
        if (st == GS_SUCCESS)
            st = gs_time_work(launch_replay, &r, s, &o.timing, &oc->t);
        const unsigned int launches = r.launches;
        if (st == GS_SUCCESS && plan)
            st = gs_task_plan_check(plan, s);
        if (st == GS_SUCCESS && bar)
            st = gs_barrier_check(bar, s);
        if (st == GS_SUCCESS) {
            std::vector<T> host(out_elems()), hx0((size_t)S::B * S::D);
            if (cudaMemsetAsync(out, 0xff, out_elems() * sizeof(T), s) != cudaSuccess ||
                cudaGraphLaunch(exec, s) != cudaSuccess || cudaStreamSynchronize(s) != cudaSuccess ||
                cudaMemcpy(host.data(), out, host.size() * sizeof(T), cudaMemcpyDeviceToHost) !=
                    cudaSuccess ||
                cudaMemcpy(hx0.data(), x0, hx0.size() * sizeof(T), cudaMemcpyDeviceToHost) !=
                    cudaSuccess) {
                fprintf(stderr, "decode: the checked run failed: %s\n",
                        cudaGetErrorName(cudaGetLastError()));
                st = GS_ERR_CUDA;
            }
            long long untagged = 0;
            if (st == GS_SUCCESS && v == V_TASKS_TAGGED)
                st = untag(host, launches, &untagged);
            if (st == GS_SUCCESS) {
                check(host, hx0, v == V_CUBLAS, oc);
                oc->bad += untagged;
            }
            if (st == GS_SUCCESS && plan)
                st = gs_task_plan_check(plan, s);
            if (st == GS_SUCCESS && bar)
                st = gs_barrier_check(bar, s);
        }
        if (exec)
            cudaGraphExecDestroy(exec);
        if (plan)
            gs_task_plan_destroy(plan);
        if (bar)
            gs_barrier_destroy(bar);
        if (blas)
            cublasDestroy(blas);
        return st;
    }
};

/* The read ceiling: GB/s reading `bytes` at p once (16-byte loads), the
 * median of `samples` reads after about 20 ms of untimed ones (the card's
 * clocks settle after the host's set-up and checks left it idle; two warm-up
 * reads did not: the same 512 MiB read 3.87 and 4.26 TB/s in one run). */
static gs_status read_ceiling(const void *p, size_t bytes, cudaStream_t s, int samples, double *gbs)
{
    unsigned int *sink;
    int dev, sms;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaMalloc(&sink, sizeof *sink));
    cudaGraph_t g;
    cudaGraphExec_t exec;
    GS_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    read_all<<<sms * 4, 512, 0, s>>>((const uint4 *)p, bytes / 16, sink);
    GS_CUDA_TRY(cudaStreamEndCapture(s, &g));
    GS_CUDA_TRY(cudaGraphInstantiate(&exec, g, 0));
    replay r = {exec, 0};
    /* 20 ms at 4.4 TB/s: 88 GB */
    const int warmup = (int)(88e9 / (double)bytes) + 2;
    const gs_timing_plan plan = {warmup, samples, 0, NULL}; /* exactly `samples`, hot */
    gs_stats t = {};
    gs_status st = gs_time_work(launch_replay, &r, s, &plan, &t);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
    cudaFree(sink);
    *gbs = (double)bytes / (t.median * 1e3);
    return st;
}

} // namespace decode

#endif
