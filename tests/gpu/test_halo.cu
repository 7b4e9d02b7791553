/*
 * test_halo.cu - the halo exchange (gridsync/halo.cuh) on the GPU: a heat
 * stencil (2-D 5-point and 1-D 3-point, weights exact in binary) written on
 * the public API (the interior by rows on even steps, by column strips on
 * odd), in float and in double, on odd fields cut into tiles for
 * grids of 1, 2, SMs, SMs + 1 and the co-resident maximum (and one less),
 * every block sleeping a random time before its edges at random steps. Each
 * halo serves two plain launches and then two replays of a CUDA graph of two
 * launches, with no reset in between (the epochs carry the tags on), the
 * output buffers poisoned (NaN) before each; the field after each launch
 * pair must have the bits of the CPU's replica in the same type (fma, the
 * same order of adds) and be within the FP64 reference's bound (float:
 * 4 roundings a step of at most 2^-24 of max|u0|, which the averaging never
 * amplifies; double: the replica is the reference). Then tags that wrap past
 * 2^32 - 1 within a launch, a grid the halo was not made for (GS_ERR_MISUSE
 * with its sentence), and the watchdog: a block that stops at a given step
 * ends the launch with GS_ERR_BARRIER_TIMEOUT naming it, and after
 * gs_halo_reset the same halo solves correctly again.
 * Under a sanitizer (GS_TEST_SANITIZER=1): three grids, a few steps.
 */
#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <math.h>
#include <string.h>
#include <vector>

#include <gridsync/halo.cuh>

enum { THREADS = 128 };

/* The public calls of each type, so that the kernel is written once. */
template <class T>
struct api;
template <>
struct api<float> {
    static constexpr gs_dtype type = GS_FLOAT32;
    static __device__ void begin(gs_halo_tile *t, const gs_grid_barrier *b, const gs_halo *h,
                                 float *smem, int steps)
    {
        gs_halo_begin_f32(t, b, h, smem, steps);
    }
    static __device__ void load(const gs_halo_tile *t, const float *f) { gs_halo_load_f32(t, f); }
    static __device__ void store(const gs_halo_tile *t, float *f) { gs_halo_store_f32(t, f); }
    static __device__ void put(const gs_halo_tile *t, int x, int y, float v)
    {
        gs_halo_put_f32(t, x, y, v);
    }
    static __device__ void exchange(gs_halo_tile *t) { gs_halo_exchange_f32(t); }
    static __host__ __device__ float fma_(float a, float b, float c) { return fmaf(a, b, c); }
};
template <>
struct api<double> {
    static constexpr gs_dtype type = GS_FLOAT64;
    static __device__ void begin(gs_halo_tile *t, const gs_grid_barrier *b, const gs_halo *h,
                                 double *smem, int steps)
    {
        gs_halo_begin_f64(t, b, h, smem, steps);
    }
    static __device__ void load(const gs_halo_tile *t, const double *f) { gs_halo_load_f64(t, f); }
    static __device__ void store(const gs_halo_tile *t, double *f) { gs_halo_store_f64(t, f); }
    static __device__ void put(const gs_halo_tile *t, int x, int y, double v)
    {
        gs_halo_put_f64(t, x, y, v);
    }
    static __device__ void exchange(gs_halo_tile *t) { gs_halo_exchange_f64(t); }
    static __host__ __device__ double fma_(double a, double b, double c) { return fma(a, b, c); }
};

/* One cell's step: 2-D u/2 + (n + s + w + e)/8, 1-D u/2 + (w + e)/4. */
template <class T>
static __host__ __device__ T cell2(T c, T n, T s, T w, T e)
{
    return api<T>::fma_(T(0.125), (n + s) + (w + e), T(0.5) * c);
}
template <class T>
static __host__ __device__ T cell1(T c, T w, T e)
{
    return api<T>::fma_(T(0.25), w + e, T(0.5) * c);
}

template <class T>
static __device__ T step_at(const gs_halo_tile &t, const T *c, int i)
{
    return t.ring_rows ? cell2(c[i], c[i - t.stride], c[i + t.stride], c[i - 1], c[i + 1])
                       : cell1(c[i], c[i - 1], c[i + 1]);
}

/* `steps` steps from in to out; block `victim` stops at step `stop` (~0u:
 * nobody); at random steps a block sleeps up to max_delay_ns first. */
template <class T>
static __global__ void heat(gs_grid_barrier bar, gs_halo halo, const T *in, T *out, int steps,
                            unsigned int seed, unsigned int max_delay_ns, unsigned int victim,
                            unsigned int stop)
{
    extern __shared__ __align__(16) unsigned char raw[];
    T *smem = (T *)raw;
    gs_halo_tile t;
    api<T>::begin(&t, &bar, &halo, smem, steps);
    api<T>::load(&t, in);
    const unsigned int b = blockIdx.x + gridDim.x * blockIdx.y;
    for (int s = 0; s < steps; ++s) {
        const unsigned int h = ex_hash(seed ^ (unsigned int)s * 7919u ^ b << 12);
        if (max_delay_ns && t.thread == 0 && (h & 7u) == 0u)
            __nanosleep((h >> 3) % max_delay_ns);
        __syncthreads(); /* the delay holds back the whole block's edges */
        if (b == victim && (unsigned int)s == stop)
            return; /* the watchdog test: this block never puts again */
        const T *c = (const T *)t.cur;
        T *n = (T *)t.nxt;
        for (int e = t.thread; e < t.edges; e += t.threads) {
            int x, y;
            gs_halo_edge_cell(&t, e, &x, &y);
            api<T>::put(&t, x, y, step_at(t, c, gs_halo_at(&t, x, y)));
        }
        if (s % 2 == 0) { /* the interior: by rows on even steps, column strips on odd */
            for (gs_halo_walk w = gs_halo_interior(&t); w.ly < w.end; gs_halo_next(&w)) {
                const int i = gs_halo_at(&t, w.lx, w.ly);
                n[i] = step_at(t, c, i);
            }
        } else {
            for (gs_halo_strip st = gs_halo_strips(&t); st.item < st.items;
                 gs_halo_strip_next(&t, &st))
                for (int y = st.y; y < st.end; ++y) {
                    const int i = gs_halo_at(&t, st.x, y);
                    n[i] = step_at(t, c, i);
                }
        }
        api<T>::exchange(&t);
    }
    api<T>::store(&t, out);
    gs_halo_end(&t);
}

/* The CPU's steps in U from a field of T (zero outside). */
template <class U, class T>
static void cpu_steps(std::vector<U> &x, int w, int h, int dims, int steps)
{
    std::vector<U> y(x.size());
    for (int s = 0; s < steps; ++s) {
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const U *p = &x[(size_t)r * w + c];
                const U west = c > 0 ? p[-1] : U(0), east = c + 1 < w ? p[1] : U(0);
                if (dims == 1) {
                    y[(size_t)r * w + c] = sizeof(U) == sizeof(T) ? (U)cell1<T>((T)*p, (T)west, (T)east)
                                                               : U(0.5) * *p + U(0.25) * (west + east);
                } else {
                    const U up = r > 0 ? p[-w] : U(0), down = r + 1 < h ? p[w] : U(0);
                    y[(size_t)r * w + c] =
                        sizeof(U) == sizeof(T) ? (U)cell2<T>((T)*p, (T)up, (T)down, (T)west, (T)east)
                                               : U(0.5) * *p + U(0.125) * ((up + down) + (west + east));
                }
            }
        x.swap(y);
    }
}

struct ctx {
    gs_barrier_t bar;
    cudaStream_t stream;
    int max_blocks, checks;
    unsigned int seed;
};

/* One configuration's state: the halo, the device fields, the CPU's. */
template <class T>
struct run {
    int w, h, dims, gx, gy;
    size_t n, smem;
    gs_halo_t halo;
    gs_halo view;
    T *u0, *pa, *pb;
    std::vector<T> replica;
    std::vector<double> ref;
    double bound, max0;
};

template <class T>
static gs_status launch(ctx *c, run<T> *r, const T *in, T *out, int steps, unsigned int delay,
                        unsigned int victim, unsigned int stop)
{
    gs_grid_barrier bv;
    GS_OK(gs_barrier_device(c->bar, (unsigned int)(r->gx * r->gy), &bv));
    unsigned int seed = c->seed++;
    void *args[] = {&bv, &r->view, &in, &out, &steps, &seed, &delay, &victim, &stop};
    return gs_launch((const void *)heat<T>, dim3(r->gx, r->gy), dim3(THREADS), r->smem, c->stream,
                     args, c->bar);
}

/* The CPU's fields go `steps` further; then `got` (device) must match. */
template <class T>
static void expect_field(ctx *c, run<T> *r, const T *got, int steps, const char *what)
{
    cpu_steps<T, T>(r->replica, r->w, r->h, r->dims, steps);
    cpu_steps<double, T>(r->ref, r->w, r->h, r->dims, steps);
    std::vector<T> host(r->n);
    CUDA_OK(cudaMemcpy(host.data(), got, r->n * sizeof(T), cudaMemcpyDeviceToHost));
    size_t diff = 0, first = 0;
    double err = 0.0;
    for (size_t i = 0; i < r->n; ++i) {
        if (memcmp(&host[i], &r->replica[i], sizeof(T)) != 0 && diff++ == 0)
            first = i;
        const double d = fabs((double)host[i] - r->ref[i]);
        err = d > err || d != d ? d : err;
    }
    c->checks += 2;
    EXPECT(diff == 0, "%s %s %d x %d on %d x %d tiles: %zu cells differ from the CPU replica, "
           "first (%zu, %zu): %g, not %g", sizeof(T) == 4 ? "f32" : "f64", what, r->w, r->h,
           r->gx, r->gy, diff, first % r->w, first / r->w, (double)host[first],
           (double)r->replica[first]);
    EXPECT(err <= r->bound, "%s %s %d x %d on %d x %d tiles: |gpu - fp64| = %.3g over the bound "
           "%.3g", sizeof(T) == 4 ? "f32" : "f64", what, r->w, r->h, r->gx, r->gy, err, r->bound);
}

template <class T>
static void poison(ctx *c, run<T> *r)
{
    CUDA_OK(cudaMemsetAsync(r->pa, 0xff, r->n * sizeof(T), c->stream));
    CUDA_OK(cudaMemsetAsync(r->pb, 0xff, r->n * sizeof(T), c->stream));
}

/* Set up a field of w x h (dims 1: h = 1) on `blocks` blocks. 0: it does not fit. */
template <class T>
static int setup(ctx *c, run<T> *r, int w, int h, int dims, int blocks, int steps_total)
{
    r->w = w;
    r->h = h;
    r->dims = dims;
    r->n = (size_t)w * h;
    if (dims == 1) {
        r->gx = blocks < w ? blocks : w;
        r->gy = 1;
        GS_OK(gs_halo_create_1d(&r->halo, w, r->gx, api<T>::type));
    } else {
        unsigned int gx, gy;
        gs_test_grid_2d((unsigned int)blocks, &gx, &gy);
        if ((int)gx > w || (int)gy > h)
            GS_OK(gs_halo_split_2d(w, h, blocks, (int *)&gx, (int *)&gy));
        r->gx = (int)gx;
        r->gy = (int)gy;
        GS_OK(gs_halo_create_2d(&r->halo, w, h, r->gx, r->gy, api<T>::type));
    }
    GS_OK(gs_halo_device(r->halo, &r->view));
    GS_OK(gs_halo_shared_bytes(r->halo, &r->smem));
    int fit = 0;
    GS_OK(gs_max_coresident_blocks((const void *)heat<T>, THREADS, r->smem, &fit));
    if (fit < r->gx * r->gy) {
        GS_OK(gs_halo_destroy(r->halo));
        return 0;
    }
    CUDA_OK(cudaMalloc(&r->u0, r->n * sizeof(T)));
    CUDA_OK(cudaMalloc(&r->pa, r->n * sizeof(T)));
    CUDA_OK(cudaMalloc(&r->pb, r->n * sizeof(T)));
    r->replica.resize(r->n);
    r->ref.resize(r->n);
    gs_rng rng = {0x4a10ull + (unsigned long long)c->seed};
    r->max0 = 0.0;
    for (size_t i = 0; i < r->n; ++i) { /* [0, 1), exactly */
        r->replica[i] = (T)(0.5 * (gs_rng_uniform(&rng) + 1.0));
        r->ref[i] = (double)r->replica[i];
        r->max0 = fmax(r->max0, r->ref[i]);
    }
    CUDA_OK(cudaMemcpy(r->u0, r->replica.data(), r->n * sizeof(T), cudaMemcpyHostToDevice));
    r->bound = sizeof(T) == 4 ? 4.0 * steps_total * ldexp(1.0, -24) * r->max0 : 0.0;
    return 1;
}

template <class T>
static void release(run<T> *r)
{
    GS_OK(gs_halo_destroy(r->halo));
    CUDA_OK(cudaFree(r->u0));
    CUDA_OK(cudaFree(r->pa));
    CUDA_OK(cudaFree(r->pb));
}

/* Two launches, then two replays of a graph of two launches: no reset. */
template <class T>
static void solve(ctx *c, int w, int h, int dims, int blocks, int steps, unsigned int delay)
{
    run<T> r = {};
    if (!setup(c, &r, w, h, dims, blocks, 6 * steps)) {
        printf("halo: %d x %d on %d blocks does not fit at once: skipped\n", w, h, blocks);
        return;
    }
    poison(c, &r);
    GS_OK(launch(c, &r, r.u0, r.pa, steps, delay, ~0u, ~0u));
    GS_OK(launch(c, &r, r.pa, r.pb, steps, delay, ~0u, ~0u));
    GS_OK(gs_barrier_check(c->bar, c->stream));
    expect_field(c, &r, r.pb, 2 * steps, "two launches");
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
    gs_status a = launch(c, &r, r.pb, r.pa, steps, delay, ~0u, ~0u);
    gs_status b = launch(c, &r, r.pa, r.pb, steps, delay, ~0u, ~0u);
    CUDA_OK(cudaStreamEndCapture(c->stream, &graph));
    GS_OK(a);
    GS_OK(b);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 2; ++replay) {
        CUDA_OK(cudaMemsetAsync(r.pa, 0xff, r.n * sizeof(T), c->stream));
        CUDA_OK(cudaGraphLaunch(exec, c->stream));
        GS_OK(gs_barrier_check(c->bar, c->stream));
        expect_field(c, &r, r.pb, 2 * steps, replay ? "graph replay 2" : "graph replay 1");
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    release(&r);
}

/* Tags that wrap past 2^32 - 1 in a launch: the epochs set just below it
 * (the words zeroed, as after a reset), then a second launch after them. */
template <class T>
static void wrap(ctx *c, int blocks, int steps)
{
    run<T> r = {};
    if (!setup(c, &r, 97, 61, 2, blocks, 2 * steps))
        return;
    std::vector<unsigned int> near(r.gx * r.gy, 0xffffffffu - 7u);
    CUDA_OK(cudaMemcpy(r.view.epochs, near.data(), near.size() * sizeof(unsigned int),
                       cudaMemcpyHostToDevice));
    poison(c, &r);
    GS_OK(launch(c, &r, r.u0, r.pa, steps, 0u, ~0u, ~0u));
    GS_OK(launch(c, &r, r.pa, r.pb, steps, 0u, ~0u, ~0u));
    GS_OK(gs_barrier_check(c->bar, c->stream));
    expect_field(c, &r, r.pb, 2 * steps, "tags wrapping");
    release(&r);
}

/* A grid the halo was not made for, then a block that stops (two tiles,
 * so that the only waiter is block 0, on block 1): the reports, then the
 * same halo, reset, solves again. */
static void misuse_and_watchdog(ctx *c)
{
    run<float> r = {};
    const int steps = 40;
    if (!setup(c, &r, 97, 61, 2, 2, 2 * steps))
        return;
    gs_grid_barrier bv;
    GS_OK(gs_barrier_device(c->bar, 3u, &bv));
    int s = steps;
    unsigned int seed = 1u, delay = 0u, none = ~0u;
    const float *in = r.u0;
    void *args[] = {&bv, &r.view, &in, &r.pa, &s, &seed, &delay, &none, &none};
    GS_OK(gs_launch((const void *)heat<float>, dim3(3), dim3(THREADS), r.smem, c->stream, args,
                    c->bar));
    gs_status st = gs_barrier_check(c->bar, c->stream);
    const char *detail = gs_last_error_detail();
    c->checks += 1;
    EXPECT(st == GS_ERR_MISUSE && strstr(detail, "made for 2 tiles") != NULL,
           "a halo of 2 tiles on 3 blocks: expected GS_ERR_MISUSE naming it, got %s: %s",
           gs_status_string(st), detail);
    printf("halo: misuse: %s\n", detail);

    GS_OK(gs_halo_reset(r.halo, c->stream));
    GS_OK(gs_barrier_set_timeout(c->bar, 0.2));
    const unsigned int victim = 1u, stop = 7u;
    GS_OK(launch(c, &r, r.u0, r.pa, steps, 0u, victim, stop));
    st = gs_barrier_check(c->bar, c->stream);
    detail = gs_last_error_detail();
    char want[64];
    snprintf(want, sizeof want, "tagged word from block %u", victim);
    c->checks += 1;
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want) != NULL,
           "block %u stops at step %u: expected a time-out naming it, got %s: %s", victim, stop,
           gs_status_string(st), detail);
    printf("halo: watchdog: %s\n", detail);
    GS_OK(gs_barrier_set_timeout(c->bar, gs_test_sanitizer() ? 30.0 : 5.0));
    GS_OK(gs_halo_reset(r.halo, c->stream)); /* the blocks' epochs differ after a time-out */
    poison(c, &r);
    GS_OK(launch(c, &r, r.u0, r.pa, steps, 0u, ~0u, ~0u));
    GS_OK(launch(c, &r, r.pa, r.pb, steps, 0u, ~0u, ~0u));
    GS_OK(gs_barrier_check(c->bar, c->stream));
    expect_field(c, &r, r.pb, 2 * steps, "after reset");
    release(&r);
}

int main(void)
{
    gs_test_require_gpu("halo");
    ctx c = {};
    c.seed = (unsigned int)gs_test_seed("halo");
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const size_t most_smem = 160u << 10; /* the largest tile pair below: one block, 1-D */
    CUDA_OK(cudaFuncSetAttribute((const void *)heat<float>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most_smem));
    CUDA_OK(cudaFuncSetAttribute((const void *)heat<double>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most_smem));
    GS_OK(gs_max_coresident_blocks((const void *)heat<float>, THREADS, 1024, &c.max_blocks));
    GS_OK(gs_barrier_create(&c.bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(c.bar, quick ? 30.0 : 5.0));
    CUDA_OK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    unsigned int grids[6];
    int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)c.max_blocks, grids);
    if (quick) { /* 2, SMs + 1, the maximum */
        grids[0] = grids[1];
        grids[1] = grids[3 < ngrids ? 3 : ngrids - 1];
        grids[2] = grids[ngrids - 1];
        ngrids = 3;
    }
    const int steps = quick ? 5 : 300;
    for (int g = 0; g < ngrids; ++g) {
        const int blocks = (int)grids[g];
        const unsigned int delay = g % 2 ? 3000u : 0u;
        solve<float>(&c, 173, 97, 2, blocks, steps, delay);   /* 2 x 138 KB on one block */
        solve<double>(&c, 119, 67, 2, blocks, steps, delay);  /* 2 x 132 KB */
        solve<float>(&c, 20011, 1, 1, blocks, steps, delay);  /* 2 x 78 KB */
        solve<double>(&c, 10007, 1, 1, blocks, steps, delay); /* 2 x 78 KB */
        printf("halo: %d blocks: 2-D and 1-D, float and double, %d steps x 6 launches%s\n",
               blocks, steps, delay ? ", random delays" : "");
    }
    wrap<float>(&c, (int)grids[ngrids - 1], quick ? 10 : 100);
    wrap<double>(&c, info.sm_count, quick ? 10 : 100);
    misuse_and_watchdog(&c);
    GS_OK(gs_barrier_destroy(c.bar));
    CUDA_OK(cudaStreamDestroy(c.stream));
    return gs_test_finish("halo", c.checks);
}
