/*
 * decode_kernels.cuh - the versions of the decode workload that
 * `gridsync bench decode` times against each other (and its test checks):
 * a chain of L dependent matrix-vector products y = W_l x_l, x_{l+1} = y,
 * over 16-bit weights read once (far more than the L2 holds).
 *
 *   - tasks (decode_tasks_kernel): gridsync's task runtime. A task is a
 *     slab of R rows of one layer; its weights are its independent input,
 *     copied into a shared-memory stage stages-ahead of its turn; it waits
 *     for the previous layer's counter (all its slabs done) and posts its
 *     layer's. The copies of later layers stream in while a block waits.
 *   - persistent + grid barrier (decode_barrier_kernel): one launch, the
 *     same slabs in the same ring of shared-memory stages (so the weights
 *     stream through the barrier too), gs_grid_sync between layers.
 *   - per-layer kernel (decode_layer_kernel), in a CUDA graph, with or
 *     without programmatic dependent launch: a block per slab copies its
 *     weights into shared memory first, then (PDL) tells the next kernel it
 *     may start and waits for the previous one (griddepcontrol), then reads x.
 *     With PDL the next layers' blocks start and copy their weights while
 *     this one runs, as far as shared memory lets them.
 * The arithmetic is decode_gemv.cuh's, the same in every version.
 */
#ifndef GS_BENCH_DECODE_KERNELS_CUH
#define GS_BENCH_DECODE_KERNELS_CUH

#include <gridsync/barrier.cuh>
#include <gridsync/detail/bulk_copy.cuh>
#include <gridsync/tasks.cuh>

#include "decode_gemv.cuh"

namespace decode {

enum { THREADS = 256 };
/* The thread that issues the weights' bulk copies: not thread 0, whose
 * releases (the grid barrier's arrival) would otherwise be ordered after
 * them. */
#ifdef GS__TASK_COPY_BY_THREAD_ZERO
enum { COPY_THREAD = 0 };
#else
enum { COPY_THREAD = 32 };
#endif
enum op { OP_GEMV = 0, OP_GATE_UP = 1, OP_DOWN = 2 };

/* A chain: L layers of K x K weights, activations (L + 1) x B x K. */
template <typename T> struct chain {
    const T *w;
    T *act;
    int layers;
};

/* The block's scratch for block_sum. */
template <int R, int B> struct scratch {
    float red[2 * R * B * (THREADS / 32) + 2 * R * B];
};

/* Tasks: OP_GEMV with arg 0 = layer, arg 1 = first row. */
template <typename T, int K, int B, int R>
__global__ void __launch_bounds__(THREADS) decode_tasks_kernel(gs_task_view plan, chain<T> c)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<R, B> s;
    xregs<K / (8 * THREADS), B> xr;
    gs_task_runner r;
    gs_task_t t;
    int cached = -1;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t)) {
        const int l = (int)gs_task_arg(&t, 0), r0 = (int)gs_task_arg(&t, 1);
        if (l != cached) { /* x_l: written by the tasks this one waited for */
            load_x<T, K, B, THREADS>(xr, c.act + (size_t)l * B * K);
            cached = l;
        }
        gemv_slab<T, K, B, R, THREADS>((const T *)gs_task_input(&t, 0), xr,
                                       c.act + (size_t)(l + 1) * B * K, K, r0, s.red);
        gs_task_end(&r, &t);
    }
}

#ifndef DECODE_POLL_NS
#define DECODE_POLL_NS 0
#endif

/* A chain whose activations travel as tagged words: word w of vector b of
 * layer l's input holds x[2w], x[2w + 1] (low 32 bits) and a tag (high 32
 * bits) naming the launch and layer that wrote it. x_0 is plain (x0). */
template <typename T> struct tagged_chain {
    const T *w;
    const T *x0;
    unsigned long long *xt; /* layers x B x K/2 words: the inputs of layers 1 .. L */
    unsigned int *failed;   /* set when a wait for a tag gave up */
    int layers;
};

/* The tag of layer l's output in launch `launch` (never 0: a cleared buffer
 * matches no tag). */
__device__ __forceinline__ unsigned int act_tag(unsigned int launch, int layers, int l)
{
    return launch * (unsigned int)layers + (unsigned int)l + 1u;
}

/* This thread's chunks of x from tagged words: poll (relaxed 16-byte loads:
 * each 8-byte word is single-copy atomic, so a word's value and tag are
 * seen together) until every tag is `tag`; bounded by 2 s. 1: all in. */
template <typename T, int K, int B>
__device__ __forceinline__ int load_x_tagged(xregs<K / (8 * THREADS), B> &xr,
                                             const unsigned long long *xt, unsigned int tag)
{
    constexpr int CH = K / (8 * THREADS);
    unsigned long long deadline = 0;
#pragma unroll
    for (int b = 0; b < B; ++b)
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            const unsigned long long *p =
                xt + (size_t)b * (K / 2) + (size_t)(c * THREADS + threadIdx.x) * 4;
            unsigned long long w0, w1, w2, w3;
            for (;;) {
                gs_ld_relaxed_gpu_v2_u64(p, &w0, &w1);
                gs_ld_relaxed_gpu_v2_u64(p + 2, &w2, &w3);
                if ((unsigned int)(w0 >> 32) == tag && (unsigned int)(w1 >> 32) == tag &&
                    (unsigned int)(w2 >> 32) == tag && (unsigned int)(w3 >> 32) == tag)
                    break;
                const unsigned long long now = gs_globaltimer_ns();
                if (deadline == 0)
                    deadline = now + 2000000000ull;
                else if (now > deadline)
                    return 0;
#if DECODE_POLL_NS > 0
                __nanosleep(DECODE_POLL_NS); /* fewer polls: they share L2 with the weights */
#endif
            }
            xr.v[b][c] = make_uint4((unsigned int)w0, (unsigned int)w1, (unsigned int)w2,
                                    (unsigned int)w3);
        }
    return 1;
}

/* Tasks, activations as tagged words: the weights stream through the task
 * runtime's stages as in decode_tasks_kernel, but a task waits for its
 * input vector itself, polling the tagged words (one round trip brings the
 * values and says they are ready), instead of a counter (the posting
 * block's release, the poll, then the load: three). The plan has no waits:
 * its lists follow the layers, so every block finishes layer l - 1's tasks
 * before it starts layer l's, which is what keeps the polls from waiting on
 * a task that cannot run. */
template <typename T, int K, int B, int R>
__global__ void __launch_bounds__(THREADS) decode_tagged_kernel(gs_task_view plan,
                                                                tagged_chain<T> c)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<R, B> s;
    xregs<K / (8 * THREADS), B> xr;
    gs_task_runner r;
    gs_task_t t;
    int cached = -1;
    gs_task_begin(&r, &plan, smem);
    const unsigned int launch = gs_task_launch_index(&r);
    while (gs_task_next(&r, &t)) {
        const int l = (int)gs_task_arg(&t, 0), r0 = (int)gs_task_arg(&t, 1);
        if (l != cached) {
            int ok = 1;
            if (l == 0)
                load_x<T, K, B, THREADS>(xr, c.x0);
            else
                ok = load_x_tagged<T, K, B>(xr, c.xt + (size_t)(l - 1) * B * (K / 2),
                                            act_tag(launch, c.layers, l - 1));
            if (!__syncthreads_and(ok)) {
                if (threadIdx.x == 0)
                    atomicExch(c.failed, 1u);
                return; /* bounded: the bench reports the failure */
            }
            cached = l;
        }
        float acc[R][B];
#pragma unroll
        for (int rr = 0; rr < R; ++rr)
#pragma unroll
            for (int b = 0; b < B; ++b)
                acc[rr][b] = 0.0f;
        slab_dot<T, K, B, R, THREADS>(acc, (const T *)gs_task_input(&t, 0), xr);
        float flat[R * B];
#pragma unroll
        for (int rr = 0; rr < R; ++rr)
#pragma unroll
            for (int b = 0; b < B; ++b)
                flat[rr * B + b] = acc[rr][b];
        float sum = block_sum<R * B, THREADS>(flat, s.red);
        if (threadIdx.x < 32) { /* R B <= 32: warp 0 holds every sum */
            const float odd = __shfl_down_sync(0xffffffffu, sum, B);
            const int rr = (int)threadIdx.x / B, b = (int)threadIdx.x % B;
            if (threadIdx.x < (unsigned int)(R * B) && rr % 2 == 0) {
                const T lo = pair<T>::from_float(sum), hi = pair<T>::from_float(odd);
                const unsigned int bits = (unsigned int)*(const unsigned short *)&lo |
                                          ((unsigned int)*(const unsigned short *)&hi << 16);
                gs_st_relaxed_gpu_u64(c.xt + ((size_t)l * B + b) * (K / 2) + (r0 + rr) / 2,
                                      ((unsigned long long)act_tag(launch, c.layers, l) << 32) |
                                          bits);
            }
        }
        gs_task_end(&r, &t);
    }
}

#if GS_HAS_BULK_COPY
#define DECODE_BULK 1
#else
#define DECODE_BULK 0
#endif

/* One slab's weights into shared memory at dst, counted on bar (sm_90), or
 * copied by the block's threads (older GPUs). */
template <typename T>
__device__ __forceinline__ void fetch_slab(T *dst, const T *src, unsigned int bytes,
                                           unsigned long long *bar)
{
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD) {
        gs::detail::bulk_barrier_expect(bar, bytes);
        gs::detail::bulk_copy_counted(dst, src, bytes, bar);
    }
#else
    (void)bar;
    for (unsigned int i = threadIdx.x; i < bytes / 16u; i += blockDim.x)
        ((uint4 *)dst)[i] = ((const uint4 *)src)[i];
#endif
}

__device__ __forceinline__ void wait_slab(unsigned long long *bar, unsigned int parity)
{
#if DECODE_BULK
    /* warp 0 waits, all its lanes together (a branch of one thread that can
     * trap left the warp unconverged at the block barrier after it: an
     * illegal instruction on H200); bounded: a copy that has not landed in
     * 2 s is a fault */
    if (threadIdx.x < 32u) {
        unsigned long long deadline = 0;
        while (!gs::detail::bulk_barrier_try_wait(bar, parity)) {
            const unsigned long long now = gs_globaltimer_ns();
            if (deadline == 0)
                deadline = now + 2000000000ull;
            else if (now > deadline)
                __trap();
        }
    }
#else
    (void)bar;
    (void)parity;
#endif
    __syncthreads();
}

/* Persistent, one grid barrier per layer. Block b takes slabs b, b + G, ...
 * of every layer, through a ring of `stages` shared-memory stages of one
 * slab each (issued `stages` slabs ahead, across layers). */
template <typename T, int K, int B, int R>
__global__ void __launch_bounds__(THREADS) decode_barrier_kernel(gs_grid_barrier bar, chain<T> c,
                                                                 int stages)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<R, B> s;
    __shared__ unsigned long long bars[16];
    const int slabs = K / R, g = (int)gridDim.x, b = (int)blockIdx.x;
    const int mine = (slabs - b + g - 1) / g; /* slabs per layer of this block (>= 1) */
    const int total = mine * c.layers;
    const unsigned int bytes = R * K * sizeof(T);
    T *stage0 = (T *)smem;
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD)
        for (int k = 0; k < stages; ++k)
            gs::detail::bulk_barrier_init(&bars[k], 1u);
#endif
    __syncthreads();
    for (int k = 0; k < stages && k < total; ++k)
        fetch_slab(stage0 + (size_t)k * R * K,
                   c.w + ((size_t)(k / mine) * K + (size_t)(b + (k % mine) * g) * R) * K, bytes,
                   &bars[k]);
    xregs<K / (8 * THREADS), B> xr;
    for (int k = 0; k < total; ++k) {
        const int l = k / mine, slab = b + (k % mine) * g, st = k % stages;
        if (k % mine == 0) {
            if (l > 0)
                gs_grid_sync(&bar); /* on a time-out the block leaves here */
            load_x<T, K, B, THREADS>(xr, c.act + (size_t)l * B * K);
        }
        wait_slab(&bars[st], (unsigned int)(k / stages) & 1u);
        gemv_slab<T, K, B, R, THREADS>(stage0 + (size_t)st * R * K, xr,
                                       c.act + (size_t)(l + 1) * B * K, K, slab * R, s.red);
        __syncthreads();
        const int next = k + stages;
        if (next < total)
            fetch_slab(stage0 + (size_t)st * R * K,
                       c.w + ((size_t)(next / mine) * K + (size_t)(b + (next % mine) * g) * R) * K,
                       bytes, &bars[st]);
    }
}

/* griddepcontrol (sm_90): let the next kernel start; wait for the previous
 * one to complete and its writes to be visible. No-ops elsewhere and in a
 * launch without the programmatic-serialization attribute. */
__device__ __forceinline__ void pdl_launch_dependents()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* One layer: block s computes slab s. Its weights are copied first, before
 * the wait for the previous kernel. */
template <typename T, int K, int B, int R>
__global__ void __launch_bounds__(THREADS) decode_layer_kernel(const T *w, const T *x, T *y)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<R, B> s;
    __shared__ unsigned long long bar;
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD)
        gs::detail::bulk_barrier_init(&bar, 1u);
#endif
    __syncthreads();
    fetch_slab((T *)smem, w + (size_t)blockIdx.x * R * K, R * K * sizeof(T), &bar);
    pdl_launch_dependents();
    pdl_wait();
    xregs<K / (8 * THREADS), B> xr;
    load_x<T, K, B, THREADS>(xr, x);
    wait_slab(&bar, 0u);
    gemv_slab<T, K, B, R, THREADS>((const T *)smem, xr, y, K, (int)blockIdx.x * R, s.red);
}

} // namespace decode

#endif
