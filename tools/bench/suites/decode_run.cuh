/*
 * decode_run.cuh - measuring the chain: every version of decode_kernels.cuh
 * and cuBLAS on the same weights, timed as CUDA-graph replays (one replay:
 * the whole chain), each checked against the FP64 reference.
 *
 * Check: every activation written (the buffers are poisoned with NaN first)
 * and, for 256 random rows of every layer, |y - ref| <= u |ref| + 1.01 K
 * 2^-24 sum_k |w_k x_k| (ref: the FP64 product of the layer's weights and
 * the version's own input to that layer; u: the output type's unit
 * roundoff, 2^-11 for fp16, 2^-8 for bf16; K 2^-24 bounds any order of K
 * fp32 sums). The figure is the largest ratio of error to bound (<= 1).
 */
#ifndef GS_BENCH_DECODE_RUN_CUH
#define GS_BENCH_DECODE_RUN_CUH

#include "decode_host.cuh"

namespace decode {

enum version { V_TASKS, V_TASKS_TAGGED, V_BARRIER, V_GRAPH, V_GRAPH_PDL, V_CUBLAS, V_COUNT };
static const char *const version_names[V_COUNT] = {
    "gridsync tasks",          "gridsync tasks, tagged activations",
    "persistent + grid barrier", "per-layer kernels, graph",
    "per-layer kernels, graph + PDL", "cuBLAS GemmEx, graph"};

struct timing {
    double median_us, min_us, max_us; /* per replay (the whole chain) */
};

struct outcome {
    timing t;
    double worst;   /* largest error / bound over the rows checked */
    long long bad;  /* activations not written, or beyond the bound */
    int ran;
};

/* The rows the check samples, with their weights (exact in float). */
struct sample {
    int layers, k, rows;
    std::vector<int> row;    /* layers x rows */
    std::vector<float> w;    /* layers x rows x k */
};

template <typename T>
static void make_sample(sample &s, int layers, int k, unsigned long long seed, float scale,
                        unsigned long long pick)
{
    s.layers = layers;
    s.k = k;
    s.rows = std::min(256, k);
    s.row.resize((size_t)layers * s.rows);
    s.w.resize((size_t)layers * s.rows * k);
    for (int l = 0; l < layers; ++l)
        for (int i = 0; i < s.rows; ++i) {
            int r = (int)(hash64(pick, (unsigned long long)l * 4096 + i) % (unsigned long long)k);
            s.row[(size_t)l * s.rows + i] = r;
            const unsigned long long base = ((unsigned long long)l * k + r) * k;
            float *dst = &s.w[((size_t)l * s.rows + i) * k];
            for (int c = 0; c < k; ++c)
                dst[c] = (float)to_double(from_float<T>(uniform(seed, base + c, scale)));
        }
}

template <typename T>
static void check_chain(const std::vector<T> &act, const sample &s, int batch, outcome *o)
{
    const int k = s.k, layers = s.layers;
    const double u = unit_roundoff<T>(), gamma = 1.01 * k * ldexp(1.0, -24);
    o->worst = 0.0;
    o->bad = 0;
    for (size_t i = (size_t)batch * k; i < act.size(); ++i)
        if (!isfinite(to_double(act[i])))
            ++o->bad;
    for (int l = 0; l < layers; ++l)
        for (int i = 0; i < s.rows; ++i) {
            const float *w = &s.w[((size_t)l * s.rows + i) * k];
            const int r = s.row[(size_t)l * s.rows + i];
            for (int b = 0; b < batch; ++b) {
                const T *x = &act[((size_t)l * batch + b) * k];
                double ref = 0.0, mag = 0.0;
                for (int c = 0; c < k; ++c) {
                    double p = (double)w[c] * to_double(x[c]);
                    ref += p;
                    mag += fabs(p);
                }
                double y = to_double(act[((size_t)(l + 1) * batch + b) * k + r]);
                double bound = u * fabs(ref) + gamma * mag + 1e-30;
                double ratio = fabs(y - ref) / bound;
                if (!(ratio <= 1.0))
                    ++o->bad;
                if (ratio > o->worst || ratio != ratio)
                    o->worst = ratio;
            }
        }
}

/* Replay `exec` (one chain a replay): warm-up, then `samples` timed replays. */
static gs_status time_graph(cudaGraphExec_t exec, cudaStream_t s, int samples, timing *t)
{
    cudaEvent_t a, b;
    DECODE_CUDA(cudaEventCreate(&a));
    DECODE_CUDA(cudaEventCreate(&b));
    for (int i = 0; i < 2; ++i)
        DECODE_CUDA(cudaGraphLaunch(exec, s));
    std::vector<double> us;
    for (int i = 0; i < samples; ++i) {
        float ms = 0;
        DECODE_CUDA(cudaEventRecord(a, s));
        DECODE_CUDA(cudaGraphLaunch(exec, s));
        DECODE_CUDA(cudaEventRecord(b, s));
        DECODE_CUDA(cudaEventSynchronize(b));
        DECODE_CUDA(cudaEventElapsedTime(&ms, a, b));
        us.push_back(ms * 1e3);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(us.begin(), us.end());
    t->median_us = us[us.size() / 2];
    t->min_us = us.front();
    t->max_us = us.back();
    return GS_SUCCESS;
}

struct chain_opts {
    int layers, batch, stages, samples;
    int per_sm; /* blocks per SM of the persistent versions */
    int type; /* 0 fp16, 1 bf16 */
    unsigned long long seed;
    int versions; /* bit v: run version v */
};

/* Everything a chain needs on the device, made once per configuration. */
template <typename T, int K, int B, int R> struct chain_bench {
    chain_opts o;
    T *w = nullptr, *act = nullptr;
    unsigned long long *xt = nullptr; /* the tagged version's activations */
    unsigned int *failed = nullptr;
    unsigned int launches = 0;        /* of the tagged version's plan, for its tags */
    cudaStream_t s = nullptr;
    int sms = 0;
    float scale = 0;

    gs_status setup()
    {
        int dev;
        DECODE_CUDA(cudaGetDevice(&dev));
        DECODE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        DECODE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        const size_t wn = (size_t)o.layers * K * K, an = (size_t)(o.layers + 1) * B * K;
        DECODE_CUDA(cudaMalloc(&w, wn * sizeof(T)));
        DECODE_CUDA(cudaMalloc(&act, an * sizeof(T)));
        DECODE_CUDA(cudaMalloc(&xt, (size_t)o.layers * B * (K / 2) * sizeof *xt));
        DECODE_CUDA(cudaMalloc(&failed, sizeof *failed));
        scale = sqrtf(3.0f / K); /* keeps |x| near 1 through the layers */
        fill_uniform<T><<<1024, 256, 0, s>>>(w, wn, o.seed, scale);
        fill_uniform<T><<<64, 256, 0, s>>>(act, (size_t)B * K, o.seed ^ 0x5bd1e995ull, 1.0f);
        DECODE_CUDA(cudaGetLastError());
        DECODE_CUDA(cudaStreamSynchronize(s));
        return GS_SUCCESS;
    }

    void teardown()
    {
        cudaFree(w);
        cudaFree(act);
        cudaFree(xt);
        cudaFree(failed);
        cudaStreamDestroy(s);
    }

    gs_status poison()
    {
        DECODE_CUDA(cudaMemsetAsync(act + (size_t)B * K, 0xff,
                                    (size_t)o.layers * B * K * sizeof(T), s));
        return GS_SUCCESS;
    }

    /* Capture one chain of version v into a graph. */
    gs_status capture(int v, cudaGraphExec_t *exec, gs_task_plan_t *plan, gs_barrier_t *bar,
                      cublasHandle_t *blas)
    {
        const unsigned int slabs = K / R;
        const size_t slab_bytes = (size_t)R * K * sizeof(T);
        chain<T> c = {w, act, o.layers};
        cudaGraph_t g;
        if (v == V_TASKS || v == V_TASKS_TAGGED) {
            const int tagged = v == V_TASKS_TAGGED;
            DECODE_GS(gs_task_plan_create(plan, (unsigned int)o.layers));
            for (int l = 0; l < o.layers; ++l)
                for (unsigned int sl = 0; sl < slabs; ++sl) {
                    gs_task_desc d;
                    memset(&d, 0, sizeof d);
                    d.op = OP_GEMV;
                    d.arg[0] = (unsigned long long)l;
                    d.arg[1] = (unsigned long long)sl * R;
                    if (l > 0 && !tagged)
                        d.waits[d.nwaits++] = {(unsigned int)l - 1, slabs};
                    if (!tagged)
                        d.posts[d.nposts++] = {(unsigned int)l, 1};
                    d.inputs[d.ninputs++] = {w + ((size_t)l * K + (size_t)sl * R) * K, slab_bytes};
                    DECODE_GS(gs_task_plan_add(*plan, &d, NULL));
                }
            DECODE_GS(gs_task_plan_set_stages(*plan, (unsigned int)o.stages, 0));
            DECODE_GS(gs_task_plan_build(*plan, (unsigned int)(sms * o.per_sm)));
            static gs_task_view view;
            DECODE_GS(gs_task_plan_device(*plan, &view));
            size_t smem = gs_task_plan_smem_bytes(*plan);
            const void *kernel = tagged ? (const void *)decode_tagged_kernel<T, K, B, R>
                                        : (const void *)decode_tasks_kernel<T, K, B, R>;
            DECODE_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem));
            static chain<T> arg;
            static tagged_chain<T> targ;
            arg = c;
            targ = {w, act, xt, failed, o.layers};
            DECODE_CUDA(cudaMemsetAsync(xt, 0, (size_t)o.layers * B * (K / 2) * sizeof *xt, s));
            DECODE_CUDA(cudaMemsetAsync(failed, 0, sizeof *failed, s));
            launches = 0;
            void *args[] = {&view, tagged ? (void *)&targ : (void *)&arg};
            DECODE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            gs_status st = gs_task_plan_launch(*plan, kernel, dim3(THREADS), smem, s, args);
            DECODE_CUDA(cudaStreamEndCapture(s, &g));
            DECODE_GS(st);
        } else if (v == V_BARRIER) {
            DECODE_GS(gs_barrier_create(bar, GS_BARRIER_AUTO));
            static gs_grid_barrier view;
            unsigned int grid = (unsigned int)(sms * o.per_sm) < slabs
                                    ? (unsigned int)(sms * o.per_sm) : slabs;
            DECODE_GS(gs_barrier_device(*bar, grid, &view));
            size_t smem = (size_t)o.stages * slab_bytes;
            DECODE_CUDA(cudaFuncSetAttribute(decode_barrier_kernel<T, K, B, R>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
            static chain<T> arg;
            static int stages;
            arg = c;
            stages = o.stages;
            void *args[] = {&view, &arg, &stages};
            DECODE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            gs_status st = gs_launch((const void *)decode_barrier_kernel<T, K, B, R>, dim3(grid),
                                     dim3(THREADS), smem, s, args, *bar);
            DECODE_CUDA(cudaStreamEndCapture(s, &g));
            DECODE_GS(st);
        } else if (v == V_GRAPH || v == V_GRAPH_PDL) {
            DECODE_CUDA(cudaFuncSetAttribute(decode_layer_kernel<T, K, B, R>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)slab_bytes));
            cudaLaunchAttribute attr;
            attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr.val.programmaticStreamSerializationAllowed = 1;
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(slabs);
            cfg.blockDim = dim3(THREADS);
            cfg.dynamicSmemBytes = slab_bytes;
            cfg.stream = s;
            cfg.attrs = v == V_GRAPH_PDL ? &attr : NULL;
            cfg.numAttrs = v == V_GRAPH_PDL ? 1 : 0;
            DECODE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            cudaError_t err = cudaSuccess;
            for (int l = 0; l < o.layers && err == cudaSuccess; ++l)
                err = cudaLaunchKernelEx(&cfg, decode_layer_kernel<T, K, B, R>,
                                         (const T *)(w + (size_t)l * K * K),
                                         (const T *)(act + (size_t)l * B * K),
                                         act + (size_t)(l + 1) * B * K);
            DECODE_CUDA(cudaStreamEndCapture(s, &g));
            DECODE_CUDA(err);
        } else {
            if (cublasCreate(blas) != CUBLAS_STATUS_SUCCESS ||
                cublasSetStream(*blas, s) != CUBLAS_STATUS_SUCCESS) {
                fprintf(stderr, "decode: cublasCreate/cublasSetStream failed\n");
                return GS_ERR_CUDA;
            }
            const cudaDataType dt = o.type == 0 ? CUDA_R_16F : CUDA_R_16BF;
            const float one = 1.0f, zero = 0.0f;
            /* row-major W (K x K) is column-major W^T: y = op_T(W^T) x */
            DECODE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            cublasStatus_t bs = CUBLAS_STATUS_SUCCESS;
            for (int l = 0; l < o.layers && bs == CUBLAS_STATUS_SUCCESS; ++l)
                bs = cublasGemmEx(*blas, CUBLAS_OP_T, CUBLAS_OP_N, K, B, K, &one,
                                  w + (size_t)l * K * K, dt, K, act + (size_t)l * B * K, dt, K,
                                  &zero, act + (size_t)(l + 1) * B * K, dt, K,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            DECODE_CUDA(cudaStreamEndCapture(s, &g));
            if (bs != CUBLAS_STATUS_SUCCESS) {
                fprintf(stderr, "decode: cublasGemmEx failed (%d)\n", (int)bs);
                return GS_ERR_CUDA;
            }
        }
        DECODE_CUDA(cudaGraphInstantiate(exec, g, 0));
        cudaGraphDestroy(g);
        return GS_SUCCESS;
    }

    /* The tagged version's activations into `host` (layers 1 .. L), each
     * word's tag checked against the checked run's (launch `launch`). */
    gs_status untag(std::vector<T> &host, unsigned int launch, long long *untagged)
    {
        const size_t words = (size_t)o.layers * B * (K / 2);
        std::vector<unsigned long long> h(words);
        unsigned int fail = 0;
        DECODE_CUDA(cudaMemcpy(h.data(), xt, words * sizeof h[0], cudaMemcpyDeviceToHost));
        DECODE_CUDA(cudaMemcpy(&fail, failed, sizeof fail, cudaMemcpyDeviceToHost));
        if (fail) {
            fprintf(stderr, "decode: a tagged wait gave up (2 s)\n");
            return GS_ERR_BARRIER_TIMEOUT;
        }
        *untagged = 0;
        for (int l = 0; l < o.layers; ++l)
            for (size_t i = 0; i < (size_t)B * (K / 2); ++i) {
                unsigned long long word = h[(size_t)l * B * (K / 2) + i];
                if ((unsigned int)(word >> 32) != launch * (unsigned int)o.layers + l + 1u)
                    ++*untagged;
                unsigned short lo = (unsigned short)word, hi = (unsigned short)(word >> 16);
                T *dst = &host[(size_t)(l + 1) * B * K + 2 * i];
                memcpy(&dst[0], &lo, 2);
                memcpy(&dst[1], &hi, 2);
            }
        return GS_SUCCESS;
    }

    gs_status run(int v, const sample &smp, outcome *out)
    {
        cudaGraphExec_t exec = nullptr;
        gs_task_plan_t plan = nullptr;
        gs_barrier_t bar = nullptr;
        cublasHandle_t blas = nullptr;
        out->ran = 0;
        gs_status st = capture(v, &exec, &plan, &bar, &blas);
        if (st == GS_SUCCESS)
            st = time_graph(exec, s, o.samples, &out->t);
        launches = 2u + (unsigned int)o.samples;
        if (st == GS_SUCCESS && plan)
            st = gs_task_plan_check(plan, s);
        if (st == GS_SUCCESS && bar)
            st = gs_barrier_check(bar, s);
        if (st == GS_SUCCESS) { /* the check: a fresh run on poisoned activations */
            std::vector<T> host((size_t)(o.layers + 1) * B * K);
            st = poison();
            if (st == GS_SUCCESS && cudaGraphLaunch(exec, s) == cudaSuccess &&
                cudaStreamSynchronize(s) == cudaSuccess &&
                cudaMemcpy(host.data(), act, host.size() * sizeof(T), cudaMemcpyDeviceToHost) ==
                    cudaSuccess) {
                long long untagged = 0;
                if (v == V_TASKS_TAGGED)
                    st = untag(host, launches, &untagged);
                check_chain<T>(host, smp, B, out);
                out->bad += untagged;
                out->ran = 1;
            } else if (st == GS_SUCCESS) {
                fprintf(stderr, "decode: the checked run failed: %s\n",
                        cudaGetErrorName(cudaGetLastError()));
                st = GS_ERR_CUDA;
            }
            if (st == GS_SUCCESS && plan)
                st = gs_task_plan_check(plan, s);
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

/* The read ceiling: GB/s reading `bytes` at p once (16-byte loads). */
static gs_status read_ceiling(const void *p, size_t bytes, cudaStream_t s, int samples, double *gbs)
{
    unsigned int *sink;
    int dev, sms;
    DECODE_CUDA(cudaGetDevice(&dev));
    DECODE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    DECODE_CUDA(cudaMalloc(&sink, sizeof *sink));
    cudaGraph_t g;
    cudaGraphExec_t exec;
    DECODE_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    read_all<<<sms * 4, 512, 0, s>>>((const uint4 *)p, bytes / 16, sink);
    DECODE_CUDA(cudaStreamEndCapture(s, &g));
    DECODE_CUDA(cudaGraphInstantiate(&exec, g, 0));
    timing t;
    gs_status st = time_graph(exec, s, samples, &t);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
    cudaFree(sink);
    *gbs = (double)bytes / (t.median_us * 1e3);
    return st;
}

} // namespace decode

#endif
