/*
 * kernels.cuh - the versions of the decode workloads that
 * `gridsync bench decode` times against each other. A workload is a list
 * of dependent steps, each a matrix-vector product over 16-bit weights
 * read once (far more than the L2 holds), whose input is the previous
 * step's output:
 *   - chain: step l is y = W_l x_l, x_{l+1} = y (D x D);
 *   - gated MLP (Llama's): per layer, a gate-up step h = SiLU(W_g x) * (W_u x)
 *     (two F x D matrices) and a down step x' = W_d h (D x F).
 * A step is cut into slabs of rows, whose weights (32 or 64 KiB: run.cu) a block copies
 * into shared memory. The versions:
 *   - tasks (tasks_kernel): gridsync's task runtime, one task per slab; its
 *     weights are its independent input, copied `stages` tasks ahead; it
 *     waits for the previous step's counter (all its slabs) and posts its
 *     own. The copies of later steps stream in while a block waits.
 *   - tasks, tagged activations (tagged_kernel): the same tasks and
 *     copies, but a step's output travels as tagged words (a value pair and
 *     the tag of the launch and step that wrote it, in one 8-byte store) and
 *     a task polls its input's words itself: one round trip brings the data
 *     and says it is ready, where a counter costs the poster's release, the
 *     poll and then the load. The plan has no waits: its lists follow the
 *     steps, so each block finishes a step's tasks before the next step's.
 *   - persistent + grid barrier (barrier_kernel): one launch, the same slabs
 *     through the same ring of shared-memory stages (so the weights stream
 *     through the barrier too), gs_grid_sync between steps.
 *   - per-step kernels (step_kernel), in a CUDA graph, with or without
 *     programmatic dependent launch: a block per slab copies its weights into
 *     shared memory first, then lets the next kernel start and waits for the
 *     previous one (griddepcontrol), then reads its input. With PDL the next
 *     steps' blocks start and copy their weights while this one runs, as far
 *     as shared memory lets them.
 * The arithmetic is gemv.cuh's, the same in every version.
 */
#ifndef GS_SUITES_DECODE_KERNELS_CUH
#define GS_SUITES_DECODE_KERNELS_CUH

#include <gridsync/barrier.cuh>
#include <gridsync/detail/core/bulk_copy.cuh>
#include <gridsync/tasks.cuh>

#include "gemv.cuh"

namespace decode {

/* The thread that issues the weights' bulk copies: not thread 0, whose
 * releases (a post, the grid barrier's arrival) would otherwise be ordered
 * after them. */
enum { COPY_THREAD = 32 };
enum op { OP_GEMV = 0, OP_GATE_UP = 1, OP_DOWN = 2 };

#if GS_HAS_BULK_COPY
#define DECODE_BULK 1
#else
#define DECODE_BULK 0
#endif

/* A workload's shape: element type, hidden size D, intermediate size F
 * (the MLP's; = D for the chain), batch B, whether it is the MLP, the
 * bytes of weights of a slab (so its rows per op), and the blocks of the
 * per-step kernel that must fit an SM together (its launch bounds' minimum;
 * 0: none, the compiler's choice: run.cu says where a bound pays). */
template <typename T_, int D_, int F_, int B_, bool MLP_, int SLAB_ = 32768, int STEP_BLOCKS_ = 0>
struct shape {
    typedef T_ T;
    static constexpr int D = D_, F = F_, B = B_;
    static constexpr bool MLP = MLP_;
    static constexpr int SLAB = SLAB_;
    static constexpr int STEP_BLOCKS = STEP_BLOCKS_;
    static constexpr int RA = SLAB / (2 * D);     /* gemv: rows of K = D */
    static constexpr int RG = SLAB / (2 * 2 * D); /* gate-up: rows of gate and of up, K = D */
    static constexpr int RD = SLAB / (2 * F);     /* down: rows of K = F */
    static constexpr int V = 2 * (RA > 2 * RG ? RA : 2 * RG) * B;
    static_assert(RA >= 2 && (!MLP || (RG >= 2 && RD >= 2)) && V <= 64, "slab shapes");
};

/* A workload's buffers. Step s's output: out + s B M (M = its length, the
 * longest of D and F apart); its input: x0 for step 0, else step s - 1's
 * output. Tagged versions: tout + s B (M / 2) words, vector b's m / 2
 * words at b (m / 2) (m: the step's output length, D for the MLP's down). */
template <typename T> struct model {
    const T *w;
    const T *x0;
    T *out;
    unsigned long long *tout;
    unsigned int *failed; /* a tagged wait that gave up */
    int layers;
};

template <class S> struct geometry {
    __host__ __device__ static int steps(int layers) { return S::MLP ? 2 * layers : layers; }
    __host__ __device__ static int op(int s) { return !S::MLP ? OP_GEMV : s % 2 ? OP_DOWN : OP_GATE_UP; }
    __host__ __device__ static int rows(int op)
    {
        return op == OP_GEMV ? S::RA : op == OP_GATE_UP ? S::RG : S::RD;
    }
    __host__ __device__ static int k(int op) { return op == OP_DOWN ? S::F : S::D; }
    __host__ __device__ static int m(int op) { return op == OP_GATE_UP ? S::F : S::D; }
    __host__ __device__ static int slabs(int op) { return m(op) / rows(op); }
    static constexpr int MAXLEN = S::F > S::D ? S::F : S::D;
    /* the first (gate) and second (up, else NULL) matrix rows of slab j */
    __host__ __device__ static const typename S::T *weights(const model<typename S::T> &md, int s,
                                                            int j, const typename S::T **second)
    {
        typedef typename S::T T;
        const int o = op(s);
        *second = nullptr;
        if (!S::MLP)
            return md.w + ((size_t)s * S::D + (size_t)j * S::RA) * S::D;
        const T *layer = md.w + (size_t)(s / 2) * 3 * S::F * S::D;
        if (o == OP_DOWN)
            return layer + 2 * (size_t)S::F * S::D + (size_t)j * S::RD * S::F;
        *second = layer + (size_t)S::F * S::D + (size_t)j * S::RG * S::D;
        return layer + (size_t)j * S::RG * S::D;
    }
    __host__ __device__ static typename S::T *output(const model<typename S::T> &md, int s)
    {
        return md.out + (size_t)s * S::B * MAXLEN;
    }
    __host__ __device__ static const typename S::T *input(const model<typename S::T> &md, int s)
    {
        return s == 0 ? md.x0 : output(md, s - 1);
    }
    __host__ __device__ static unsigned long long *toutput(const model<typename S::T> &md, int s)
    {
        return md.tout + (size_t)s * S::B * (MAXLEN / 2);
    }
};

/* ------------------------------------------------------------ tagged */

/* The tag of step s's output in launch `launch` (never 0: a cleared buffer
 * matches no tag). */
__host__ __device__ inline unsigned int act_tag(unsigned int launch, int steps, int s)
{
    return launch * (unsigned int)steps + (unsigned int)s + 1u;
}

/* This thread's chunks of an input of length K from tagged words: poll
 * (relaxed 16-byte loads: each 8-byte word is single-copy atomic, so a
 * word's value pair and tag are seen together) until every tag is `tag`;
 * bounded by 2 s. 1: all in. */
template <int K, int B>
__device__ __forceinline__ int load_tagged(xregs<K, B> &xr, const unsigned long long *xt,
                                           unsigned int tag)
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
                gs__ld_relaxed_gpu_v2_u64(p, &w0, &w1);
                gs__ld_relaxed_gpu_v2_u64(p + 2, &w2, &w3);
                if ((unsigned int)(w0 >> 32) == tag && (unsigned int)(w1 >> 32) == tag &&
                    (unsigned int)(w2 >> 32) == tag && (unsigned int)(w3 >> 32) == tag)
                    break;
                const unsigned long long now = gs__globaltimer_ns();
                if (deadline == 0)
                    deadline = now + 2000000000ull;
                else if (now > deadline)
                    return 0;
            }
            xr.v[b][c] = make_uint4((unsigned int)w0, (unsigned int)w1, (unsigned int)w2,
                                    (unsigned int)w3);
        }
    return 1;
}

/* Write vals (R rows x B, R even) as tagged words: rows r0 + 2i, r0 + 2i + 1
 * of vector b in word (r0 / 2 + i) of vector b's M / 2 words. */
template <typename T, int B, int R, int V>
__device__ __forceinline__ void write_tagged(const scratch<V> &s, unsigned long long *yt, int m,
                                             int r0, unsigned int tag)
{
    if (threadIdx.x < (unsigned int)(R / 2 * B)) {
        const int r = 2 * ((int)threadIdx.x / B), b = (int)threadIdx.x % B;
        const T lo = pair<T>::from_float(s.vals[r * B + b]);
        const T hi = pair<T>::from_float(s.vals[(r + 1) * B + b]);
        const unsigned int bits = (unsigned int)*(const unsigned short *)&lo |
                                  ((unsigned int)*(const unsigned short *)&hi << 16);
        gs__st_relaxed_gpu_u64(yt + (size_t)b * (m / 2) + (r0 + r) / 2,
                              ((unsigned long long)tag << 32) | bits);
    }
}

/* A block's inputs of both lengths (the MLP's down step reads F), and
 * which step they hold. */
template <class S> struct inputs {
    xregs<S::D, S::B> xd;
    xregs<S::MLP ? S::F : 8 * THREADS, S::MLP ? S::B : 1> xf;
    int step = -1;
};

/* The slab's values into s.vals: step s's op on the slab in shared memory
 * (w; the up rows at w2 for gate-up). The chain compiles only its gemv. */
template <class S, int V>
__device__ __forceinline__ void compute(int o, const typename S::T *w, const typename S::T *w2,
                                        const inputs<S> &in, scratch<V> &sc)
{
    typedef typename S::T T;
    if constexpr (!S::MLP) {
        (void)o;
        (void)w2;
        gemv_values<T, S::D, S::B, S::RA>(w, in.xd, sc);
    } else if (o == OP_GATE_UP) {
        gate_up_values<T, S::D, S::B, S::RG>(w, w2, in.xd, sc);
    } else {
        gemv_values<T, S::F, S::B, S::RD>(w, in.xf, sc);
    }
}

/* The MLP's residual: the down step of layer l writes x_{l+1} = x_l + W_d h;
 * threads i < R B add x_l's row of their value (x_l: step s - 2's output,
 * x_0 for layer 0; as tagged words, `tag` != 0, checked like any input).
 * 1: done; 0: a tagged wait gave up. */
template <class S, int V>
__device__ __forceinline__ int add_residual(scratch<V> &sc, const model<typename S::T> &md, int s,
                                            int j, unsigned int tag)
{
    typedef typename S::T T;
    int ok = 1;
    if (threadIdx.x < (unsigned int)(S::RD * S::B)) {
        const int r = j * S::RD + (int)threadIdx.x / S::B, b = (int)threadIdx.x % S::B;
        float x;
        if (s < 2 || !tag) {
            x = (float)geometry<S>::input(md, s - 1)[(size_t)b * S::D + r];
        } else {
            const unsigned long long *p = geometry<S>::toutput(md, s - 2) + (size_t)b * (S::D / 2) + r / 2;
            unsigned long long word, deadline = 0;
            while ((unsigned int)((word = *(const volatile unsigned long long *)p) >> 32) != tag) {
                const unsigned long long now = gs__globaltimer_ns();
                if (deadline == 0)
                    deadline = now + 2000000000ull;
                else if (now > deadline) {
                    ok = 0;
                    break;
                }
            }
            const unsigned short bits = (unsigned short)(word >> (16 * (r % 2)));
            x = (float)*(const T *)&bits;
        }
        sc.vals[threadIdx.x] += x;
    }
    return __syncthreads_and(ok);
}

/* Write the slab's values, plainly or as tagged words (tag != 0). */
template <class S, int V>
__device__ __forceinline__ void write_slab(int o, const scratch<V> &sc,
                                           const model<typename S::T> &md, int s, int j,
                                           unsigned int tag)
{
    typedef typename S::T T;
    const int m = geometry<S>::m(o), r0 = j * geometry<S>::rows(o);
    if constexpr (!S::MLP) {
        if (tag)
            write_tagged<T, S::B, S::RA>(sc, geometry<S>::toutput(md, s), m, r0, tag);
        else
            write_plain<T, S::B, S::RA>(sc, geometry<S>::output(md, s), m, r0);
    } else if (o == OP_GATE_UP) {
        if (tag)
            write_tagged<T, S::B, S::RG>(sc, geometry<S>::toutput(md, s), m, r0, tag);
        else
            write_plain<T, S::B, S::RG>(sc, geometry<S>::output(md, s), m, r0);
    } else {
        if (tag)
            write_tagged<T, S::B, S::RD>(sc, geometry<S>::toutput(md, s), m, r0, tag);
        else
            write_plain<T, S::B, S::RD>(sc, geometry<S>::output(md, s), m, r0);
    }
}

/* Load step s's input (plain) into the block's registers, once per step. */
template <class S>
__device__ __forceinline__ void load_input(inputs<S> &in, const model<typename S::T> &md, int s)
{
    if (in.step == s)
        return;
    if constexpr (S::MLP)
        if (geometry<S>::op(s) == OP_DOWN) {
            load_x<typename S::T, S::F, S::B>(in.xf, geometry<S>::input(md, s));
            in.step = s;
            return;
        }
    load_x<typename S::T, S::D, S::B>(in.xd, geometry<S>::input(md, s));
    in.step = s;
}

/* Tasks: arg 0 = step, arg 1 = slab; the weights are the task's inputs. */
template <class S>
__global__ void __launch_bounds__(THREADS) tasks_kernel(gs_task_view plan, model<typename S::T> md)
{
    typedef typename S::T T;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<S::V> sc;
    inputs<S> in;
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t)) {
        const int s = (int)gs_task_arg(&t, 0), j = (int)gs_task_arg(&t, 1), o = (int)gs_task_op(&t);
        load_input<S>(in, md, s); /* written by the tasks this one waited for */
        compute<S>(o, (const T *)gs_task_input(&t, 0),
                   o == OP_GATE_UP ? (const T *)gs_task_input(&t, 1) : nullptr, in, sc);
        if (S::MLP && o == OP_DOWN)
            add_residual<S>(sc, md, s, j, 0u);
        write_slab<S>(o, sc, md, s, j, 0u);
        gs_task_end(&r, &t);
    }
}

/* Tasks, activations as tagged words (x_0 plain). */
template <class S>
__global__ void __launch_bounds__(THREADS) tagged_kernel(gs_task_view plan, model<typename S::T> md)
{
    typedef typename S::T T;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<S::V> sc;
    inputs<S> in;
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    const unsigned int launch = gs_task_launch_index(&r);
    const int steps = geometry<S>::steps(md.layers);
    while (gs_task_next(&r, &t)) {
        const int s = (int)gs_task_arg(&t, 0), j = (int)gs_task_arg(&t, 1), o = (int)gs_task_op(&t);
        if (in.step != s) {
            int ok = 1;
            if (s == 0)
                load_x<T, S::D, S::B>(in.xd, md.x0);
            else if (S::MLP && o == OP_DOWN)
                ok = load_tagged<S::MLP ? S::F : 8 * THREADS, S::MLP ? S::B : 1>(
                    in.xf, geometry<S>::toutput(md, s - 1), act_tag(launch, steps, s - 1));
            else
                ok = load_tagged<S::D, S::B>(in.xd, geometry<S>::toutput(md, s - 1),
                                             act_tag(launch, steps, s - 1));
            if (!__syncthreads_and(ok)) {
                if (threadIdx.x == 0)
                    atomicExch(md.failed, 1u);
                return; /* bounded; the bench reports it */
            }
            in.step = s;
        }
        compute<S>(o, (const T *)gs_task_input(&t, 0),
                   o == OP_GATE_UP ? (const T *)gs_task_input(&t, 1) : nullptr, in, sc);
        if (S::MLP && o == OP_DOWN &&
            !add_residual<S>(sc, md, s, j, s >= 2 ? act_tag(launch, steps, s - 2) : 0u)) {
            if (threadIdx.x == 0)
                atomicExch(md.failed, 1u);
            return;
        }
        write_slab<S>(o, sc, md, s, j, act_tag(launch, steps, s));
        gs_task_end(&r, &t);
    }
}

/* ------------------------------------------------ copies of a slab */

/* Slab j of step s into shared memory at dst (one or two copies), counted
 * on bar (sm_90), or copied by the block's threads (older GPUs). */
template <class S>
__device__ __forceinline__ void fetch_slab(typename S::T *dst, const model<typename S::T> &md,
                                           int s, int j, unsigned long long *bar)
{
    typedef typename S::T T;
    const T *w2;
    const T *w = geometry<S>::weights(md, s, j, &w2);
    const unsigned int half = S::SLAB / 2;
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD) {
        gs::detail::bulk_barrier_expect(bar, S::SLAB);
        if (w2) {
            gs::detail::bulk_copy_counted(dst, w, half, bar);
            gs::detail::bulk_copy_counted((unsigned char *)dst + half, w2, half, bar);
        } else {
            gs::detail::bulk_copy_counted(dst, w, S::SLAB, bar);
        }
    }
#else
    (void)bar;
    for (unsigned int i = threadIdx.x; i < S::SLAB / 16u; i += blockDim.x) {
        const uint4 *src = w2 && i >= half / 16u ? (const uint4 *)w2 + (i - half / 16u)
                                                 : (const uint4 *)w + i;
        ((uint4 *)dst)[i] = *src;
    }
#endif
}

/* Wait for a stage's copies: warp 0, all its lanes together (a branch of
 * one thread that can trap leaves the warp unconverged at the block barrier
 * after it: an illegal instruction on H200); bounded: a copy that has not
 * landed in 2 s is a fault. */
__device__ __forceinline__ void wait_slab(unsigned long long *bar, unsigned int parity)
{
#if DECODE_BULK
    if (threadIdx.x < 32u) {
        unsigned long long deadline = 0;
        while (!gs::detail::bulk_barrier_try_wait(bar, parity)) {
            const unsigned long long now = gs__globaltimer_ns();
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

/* Step s's slab in shared memory at w: its values, written plainly. */
template <class S, int V>
__device__ __forceinline__ void run_slab(const model<typename S::T> &md, int s, int j,
                                         const typename S::T *w, const inputs<S> &in,
                                         scratch<V> &sc)
{
    typedef typename S::T T;
    const int o = geometry<S>::op(s);
    compute<S>(o, w, o == OP_GATE_UP ? w + S::SLAB / 2 / sizeof(T) : nullptr, in, sc);
    if (S::MLP && o == OP_DOWN)
        add_residual<S>(sc, md, s, j, 0u);
    write_slab<S>(o, sc, md, s, j, 0u);
}

/* A block's walk through its slabs: slabs b, b + G, ... of each step in
 * turn (every step has at least G slabs). */
template <class S> struct cursor {
    int s, j;
    __device__ void next(int g)
    {
        const int o = geometry<S>::op(s);
        if ((int)blockIdx.x + (j + 1) * g < geometry<S>::slabs(o)) {
            ++j;
        } else {
            ++s;
            j = 0;
        }
    }
    __device__ int slab(int g) const { return (int)blockIdx.x + j * g; }
};

/* Persistent, one grid barrier per step, through a ring of `stages`
 * shared-memory stages of one slab each, issued `stages` slabs ahead
 * (across steps). */
template <class S>
__global__ void __launch_bounds__(THREADS) barrier_kernel(gs_grid_barrier bar,
                                                          model<typename S::T> md, int stages)
{
    typedef typename S::T T;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<S::V> sc;
    __shared__ unsigned long long bars[16];
    const int g = (int)gridDim.x, steps = geometry<S>::steps(md.layers);
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD)
        for (int k = 0; k < stages; ++k)
            gs::detail::bulk_barrier_init(&bars[k], 1u);
#endif
    __syncthreads();
    cursor<S> fetch = {0, 0}, at = {0, 0};
    for (int k = 0; k < stages && fetch.s < steps; ++k, fetch.next(g))
        fetch_slab<S>((T *)(smem + (size_t)k * S::SLAB), md, fetch.s, fetch.slab(g), &bars[k]);
    inputs<S> in;
    for (int k = 0; at.s < steps; ++k, at.next(g)) {
        const int st = k % stages;
        if (at.s != in.step) {
            if (at.s > 0)
                gs_grid_sync(&bar); /* on a time-out the block leaves here */
            load_input<S>(in, md, at.s);
        }
        wait_slab(&bars[st], (unsigned int)(k / stages) & 1u);
        run_slab<S>(md, at.s, at.slab(g), (const T *)(smem + (size_t)st * S::SLAB), in, sc);
        __syncthreads();
        if (fetch.s < steps) {
            fetch_slab<S>((T *)(smem + (size_t)st * S::SLAB), md, fetch.s, fetch.slab(g), &bars[st]);
            fetch.next(g);
        }
    }
}

/* ------------------------------------------------ per-step kernels */

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

/* Step s: block j computes slab j; its weights are copied first, before the
 * wait for the previous kernel. */
template <class S>
__global__ void __launch_bounds__(THREADS, S::STEP_BLOCKS) step_kernel(model<typename S::T> md, int s)
{
    typedef typename S::T T;
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ scratch<S::V> sc;
    __shared__ unsigned long long bar;
#if DECODE_BULK
    if (threadIdx.x == COPY_THREAD)
        gs::detail::bulk_barrier_init(&bar, 1u);
#endif
    __syncthreads();
    fetch_slab<S>((T *)smem, md, s, (int)blockIdx.x, &bar);
    pdl_launch_dependents();
    pdl_wait();
    inputs<S> in;
    load_input<S>(in, md, s);
    wait_slab(&bar, 0u);
    run_slab<S>(md, s, (int)blockIdx.x, (const T *)smem, in, sc);
}

/* cuBLAS's gated MLP between its GEMMs: h = SiLU(g) * u, elementwise. */
template <typename T>
__global__ void silu_mul(const T *g, const T *u, T *h, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float gv = (float)g[i], uv = (float)u[i];
        h[i] = pair<T>::from_float(gv / (1.0f + __expf(-gv)) * uv);
    }
}

} // namespace decode

#endif
