/* host_call_cost.cu - probe (issue 46): what one call of the host API costs
 * the host, beside the CUDA calls it is made of, and what it costs back to
 * back (where the slower of host and GPU sets the pace).
 *
 * For each operation two figures, us per call:
 *   issue  the host's time to make the call, in bursts of 32 calls with a
 *          stream synchronize between bursts (not timed), so the launch
 *          queue never fills and the GPU never pushes back;
 *   b2b    20000 calls back to back, then one synchronize: wall time per
 *          call (the GPU's time per call where it is the slower side).
 * On a non-blocking stream and on the legacy default stream (stream 0: what
 * torch's current stream is unless a user sets one).
 * The launch rows compare the runtime's launches (<<<>>>, cudaLaunchKernelExC)
 * with the driver's cuLaunchKernelEx on a handle looked up once: a CUfunction
 * (cudaGetFuncBySymbol: the current context's) and a CUkernel (cudaGetKernel:
 * context-less; the driver finds the context from the stream, or the current
 * one for stream 0), with and without the PDL attribute: what the library's
 * gs_scan / gs_reduce launch would cost through the driver.
 * `make research` builds it: build/research/probes/host_call_cost
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <pthread.h>
#include <gridsync.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "probe_check.h"

#define GS_CHECK(call)                                                                       \
    do {                                                                                     \
        gs_status s_ = (call);                                                               \
        if (s_ != GS_SUCCESS) {                                                              \
            fprintf(stderr, "%s: %s\n", #call, gs_last_error_detail());                     \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

__global__ void empty_kernel(int *p)
{
    if (p && threadIdx.x == 1024)
        *p = 0;
}

typedef struct ctx {
    cudaStream_t s;
    float *x, *y, *out;
    long long n;
    CUfunction func;   /* empty_kernel's, cudaGetFuncBySymbol */
    CUfunction kernel; /* empty_kernel's CUkernel (cudaGetKernel), cast as the driver takes it */
} ctx;

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static void op_empty(ctx *c) { empty_kernel<<<1, 32, 0, c->s>>>(NULL); }
static void op_empty132(ctx *c) { empty_kernel<<<132, 256, 0, c->s>>>(NULL); }
static void op_launch_ex_pdl(ctx *c)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(32);
    cfg.stream = c->s;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    int *p = NULL;
    void *args[] = {&p};
    CK(cudaLaunchKernelExC(&cfg, (const void *)empty_kernel, args));
}
static void op_launch_ex(ctx *c)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(32);
    cfg.stream = c->s;
    int *p = NULL;
    void *args[] = {&p};
    CK(cudaLaunchKernelExC(&cfg, (const void *)empty_kernel, args));
}
/* cuLaunchKernelEx of `f`, with the PDL attribute when `pdl`. */
static void driver_launch(ctx *c, CUfunction f, int pdl)
{
    CUlaunchAttribute attr[1];
    attr[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr[0].value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig cfg = {};
    cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 32;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.hStream = (CUstream)c->s;
    cfg.attrs = pdl ? attr : NULL;
    cfg.numAttrs = pdl ? 1 : 0;
    int *p = NULL;
    void *args[] = {&p};
    CUresult r = cuLaunchKernelEx(&cfg, f, args, NULL);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuLaunchKernelEx: error %d\n", (int)r);
        exit(1);
    }
}
static void op_cu_func(ctx *c) { driver_launch(c, c->func, 0); }
static void op_cu_func_pdl(ctx *c) { driver_launch(c, c->func, 1); }
static void op_cu_kernel(ctx *c) { driver_launch(c, c->kernel, 0); }
static void op_cu_kernel_pdl(ctx *c) { driver_launch(c, c->kernel, 1); }
static void op_ctx_current(ctx *c)
{
    CUcontext cur;
    (void)c;
    if (cuCtxGetCurrent(&cur) != CUDA_SUCCESS)
        exit(1);
}
static void op_is_capturing(ctx *c)
{
    cudaStreamCaptureStatus st;
    CK(cudaStreamIsCapturing(c->s, &st));
}
/* The library takes five uncontended locks a call (kernel shape, time-out,
 * workspace cache twice, the workspace's order lock). */
static void op_mutex5(ctx *c)
{
    (void)c;
    for (int i = 0; i < 5; ++i) {
        pthread_mutex_lock(&probe_lock);
        pthread_mutex_unlock(&probe_lock);
    }
}
static void op_get_device(ctx *c)
{
    int d;
    (void)c;
    CK(cudaGetDevice(&d));
}
static void op_pointer_attributes(ctx *c)
{
    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, c->x));
}
static void op_capture_info(ctx *c)
{
    cudaStreamCaptureStatus st;
    CK(cudaStreamGetCaptureInfo(c->s, &st, NULL));
}
static void op_stream_id(ctx *c)
{
    unsigned long long id;
    CK(cudaStreamGetId(c->s, &id));
}
static void op_memset8(ctx *c) { CK(cudaMemsetAsync(c->out, 0, 8, c->s)); }
static void op_reduce(ctx *c) { GS_CHECK(gs_reduce_sum(GS_FLOAT32, c->x, c->n, c->out, c->s)); }
static void op_dot(ctx *c) { GS_CHECK(gs_dot(GS_FLOAT32, c->x, c->y, c->n, c->out, c->s)); }
static void op_scan(ctx *c)
{
    GS_CHECK(gs_scan_inclusive_sum(GS_FLOAT32, c->x, c->y, c->n, c->s));
}

typedef struct entry {
    const char *name;
    void (*fn)(ctx *);
    long long n;
} entry;

static const entry ops[] = {
    {"empty kernel <<<1,32>>>", op_empty, 0},
    {"empty kernel <<<132,256>>>", op_empty132, 0},
    {"cudaLaunchKernelExC + PDL attr", op_launch_ex_pdl, 0},
    {"cudaLaunchKernelExC, no attr", op_launch_ex, 0},
    {"cuLaunchKernelEx CUfunction", op_cu_func, 0},
    {"cuLaunchKernelEx CUfunction + PDL", op_cu_func_pdl, 0},
    {"cuLaunchKernelEx CUkernel", op_cu_kernel, 0},
    {"cuLaunchKernelEx CUkernel + PDL", op_cu_kernel_pdl, 0},
    {"cuCtxGetCurrent", op_ctx_current, 0},
    {"cudaStreamIsCapturing", op_is_capturing, 0},
    {"5 x mutex lock/unlock", op_mutex5, 0},
    {"cudaGetDevice", op_get_device, 0},
    {"cudaPointerGetAttributes", op_pointer_attributes, 0},
    {"cudaStreamGetCaptureInfo", op_capture_info, 0},
    {"cudaStreamGetId", op_stream_id, 0},
    {"cudaMemsetAsync 8 B", op_memset8, 0},
    {"gs_reduce_sum f32 2^10", op_reduce, 1 << 10},
    {"gs_reduce_sum f32 2^16", op_reduce, 1 << 16},
    {"gs_reduce_sum f32 2^22", op_reduce, 1 << 22},
    {"gs_dot f32 2^10", op_dot, 1 << 10},
    {"gs_scan_inclusive_sum f32 2^10", op_scan, 1 << 10},
    {"gs_scan_inclusive_sum f32 2^16", op_scan, 1 << 16},
    {"gs_scan_inclusive_sum f32 2^22", op_scan, 1 << 22},
};

static void measure(ctx *c, const entry *e, const char *stream_name)
{
    c->n = e->n;
    for (int i = 0; i < 100; ++i) /* warm: caches, workspaces, lazy loading */
        e->fn(c);
    CK(cudaStreamSynchronize(c->s));
    enum { BURST = 32, BURSTS = 300, B2B = 20000 };
    double issue = 0.0;
    for (int b = 0; b < BURSTS; ++b) {
        double t0 = now_us();
        for (int i = 0; i < BURST; ++i)
            e->fn(c);
        issue += now_us() - t0;
        CK(cudaStreamSynchronize(c->s));
    }
    double t0 = now_us();
    for (int i = 0; i < B2B; ++i)
        e->fn(c);
    CK(cudaStreamSynchronize(c->s));
    double b2b = (now_us() - t0) / B2B;
    printf("%-34s %-12s issue %7.3f us  b2b %7.3f us\n", e->name, stream_name,
           issue / (BURST * BURSTS), b2b);
}

int main(void)
{
    ctx c;
    const size_t bytes = (size_t)4 << 22;
    CK(cudaMalloc((void **)&c.x, bytes));
    CK(cudaMalloc((void **)&c.y, bytes));
    CK(cudaMalloc((void **)&c.out, 64));
    CK(cudaMemset(c.x, 0x3c, bytes));
    CK(cudaMemset(c.y, 0x3c, bytes));
    cudaFunction_t func;
    cudaKernel_t kernel;
    CK(cudaGetFuncBySymbol(&func, (const void *)empty_kernel));
    CK(cudaGetKernel(&kernel, (const void *)empty_kernel));
    c.func = (CUfunction)func;
    c.kernel = (CUfunction)(void *)kernel;
    cudaStream_t own;
    CK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    const cudaStream_t streams[2] = {own, (cudaStream_t)0};
    const char *const names[2] = {"non-blocking", "legacy 0"};
    for (int s = 0; s < 2; ++s) {
        c.s = streams[s];
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i)
            measure(&c, &ops[i], names[s]);
    }
    CK(cudaStreamDestroy(own));
    return 0;
}
