/*
 * gridsync/detail/scoped/halo_exchange.cuh - the halo exchange (internal), generic
 * over the value type: a block's tile set up from the halo's view, loaded
 * and stored, its edge values published as tagged words, the next step's
 * ring fetched by the last warps while the others compute the interior, and
 * the step ended. The public names (gs_halo_*_f32, _f64), the contract and
 * why it is correct are in gridsync/halo.cuh; the geometry in
 * detail/scoped/halo_tile.cuh; the tagged word and its watched wait in
 * detail/scoped/tagged_word.cuh.
 */
#ifndef GRIDSYNC_DETAIL_HALO_EXCHANGE_CUH
#define GRIDSYNC_DETAIL_HALO_EXCHANGE_CUH

#include <gridsync/detail/barrier/barrier_layout.h>
#include <gridsync/detail/scoped/halo_tile.cuh>
#include <gridsync/detail/scoped/tagged_word.cuh>

namespace gs {
namespace detail {

/* A value's bits in tagged words: a float in one (its 32 bits), a double in
 * two (low half, high half), each word carrying the step's tag, so a reader
 * that sees the tag in both has both halves of that step's value. */
template <class T>
struct halo_value {
    static_assert(sizeof(T) != sizeof(T), "gs_halo exchanges float and double values only.");
};

template <>
struct halo_value<float> {
    static constexpr int words = 1;
    __device__ __forceinline__ static void put(unsigned long long *w, float v, unsigned int tag)
    {
        gs__tagged_put(w, __float_as_uint(v), tag);
    }
    /* one look: 1 and *v when the word carries `tag` */
    __device__ __forceinline__ static int look(const unsigned long long *w, unsigned int tag,
                                               float *v)
    {
        const unsigned long long x = gs__ld_relaxed_gpu_u64(w);
        *v = __uint_as_float((unsigned int)x);
        return (unsigned int)(x >> 32) == tag;
    }
    __device__ __forceinline__ static int get(const gs_grid_barrier *b,
                                              const unsigned long long *w, unsigned int tag,
                                              unsigned int from, float *v)
    {
        unsigned int bits = 0u;
        const int ok = gs__tagged_get(b, w, tag, from, &bits);
        *v = __uint_as_float(bits);
        return ok;
    }
};

template <>
struct halo_value<double> {
    static constexpr int words = 2;
    __device__ __forceinline__ static void put(unsigned long long *w, double v, unsigned int tag)
    {
        const unsigned long long x = (unsigned long long)__double_as_longlong(v);
        const unsigned long long t = (unsigned long long)tag << 32;
        gs__st_relaxed_gpu_v2_u64(w, t | (x & 0xffffffffull), t | (x >> 32));
    }
    __device__ __forceinline__ static int look(const unsigned long long *w, unsigned int tag,
                                               double *v)
    {
        unsigned long long lo = 0ull, hi = 0ull;
        gs__ld_relaxed_gpu_v2_u64(w, &lo, &hi);
        *v = __longlong_as_double((long long)((hi << 32) | (lo & 0xffffffffull)));
        return (unsigned int)(lo >> 32) == tag && (unsigned int)(hi >> 32) == tag;
    }
    __device__ __forceinline__ static int get(const gs_grid_barrier *b,
                                              const unsigned long long *w, unsigned int tag,
                                              unsigned int from, double *v)
    {
        unsigned int lo = 0u, hi = 0u;
        const int ok = gs__tagged_get(b, w, tag, from, &lo) &&
                       gs__tagged_get(b, w + 1, tag, from, &hi);
        *v = __longlong_as_double((long long)((unsigned long long)hi << 32 | lo));
        return ok;
    }
};

/* A halo used on a grid it was not made for, or with the other value type:
 * thread 0 records the misuse on the barrier's watchdog record
 * (gs_barrier_check reports it); every block leaves (the condition is the
 * same in every block). */
GS_DEVICE void halo_leave_misused(const gs_grid_barrier *bar, unsigned int code, unsigned int a0,
                                  unsigned int a1)
{
    if (gs__thread_rank() == 0u)
        gs__raise_misuse(bar->state, bar->count, bar->method, code, a0, a1, 0u, 0u);
    asm volatile("exit;");
}

template <class T>
GS_DEVICE void halo_begin(gs_halo_tile &t, const gs_grid_barrier *bar, const gs_halo *v, T *smem,
                          int steps)
{
    t.view = *v;
    t.bar = bar;
    const unsigned int rank = gs__block_rank(), blocks = gs__grid_blocks();
    if (blocks != (unsigned int)(v->gx * v->gy))
        halo_leave_misused(bar, GS_MISUSE_HALO_GRID, blocks, (unsigned int)(v->gx * v->gy));
    if (v->value_words != halo_value<T>::words)
        halo_leave_misused(bar, GS_MISUSE_HALO_TYPE, (unsigned int)sizeof(T),
                           4u * (unsigned int)v->value_words);
    t.thread = (int)gs__thread_rank();
    t.threads = (int)gs__block_threads();
    t.bx = (int)rank % v->gx;
    t.by = (int)rank / v->gx;
    t.x0 = halo_cut(t.bx, v->w, v->gx);
    t.y0 = halo_cut(t.by, v->h, v->gy);
    t.w = halo_cut(t.bx + 1, v->w, v->gx) - t.x0;
    t.h = halo_cut(t.by + 1, v->h, v->gy) - t.y0;
    t.ring_rows = v->dims == 2 ? 1 : 0;
    t.stride = t.w + 2;
    t.cur = smem;
    t.nxt = smem + (unsigned long long)(t.h + 2 * t.ring_rows) * (unsigned long long)t.stride;
    t.side[0] = t.ring_rows && t.by > 0 ? t.w : 0;
    t.side[1] = t.ring_rows && t.by + 1 < v->gy ? t.w : 0;
    t.side[2] = t.bx > 0 ? t.h : 0;
    t.side[3] = t.bx + 1 < v->gx ? t.h : 0;
    t.ring = t.side[0] + t.side[1] + t.side[2] + t.side[3];
    t.edges = halo_edge_count(t.w, t.h, v->dims);
    const int iw = t.w > 2 ? t.w - 2 : 0, ih = t.ring_rows ? (t.h > 2 ? t.h - 2 : 0) : 1;
    t.pollers = halo_pollers(t.ring, iw * ih, t.threads);
    t.computers = t.threads > t.pollers ? t.threads - t.pollers : t.threads;
    int ex = 0, ey = 0;
    if (t.thread < t.edges)
        halo_edge_decode(t, t.thread, &ex, &ey);
    t.edge_xy = ex | ey << 16;
    halo_strip_plan(t);
    t.step = 0;
    t.steps = steps;
    /* written by this block's thread 0 at the end of the last launch
     * (gs_halo_end); the kernel boundary orders it before this read */
    t.base = gs__ld_relaxed_gpu(v->epochs + rank);
}

/* The tile and its ring from a field in global memory (zero outside the
 * field) into cur; nxt zeroed (its ring outside the field stays zero). */
template <class T>
GS_DEVICE void halo_load(const gs_halo_tile &t, const T *field)
{
    T *cur = (T *)t.cur, *nxt = (T *)t.nxt;
    const int n = (t.h + 2 * t.ring_rows) * t.stride;
    for (int i = t.thread; i < n; i += t.threads) {
        const int x = t.x0 + i % t.stride - 1, y = t.y0 + i / t.stride - t.ring_rows;
        const bool in = x >= 0 && x < t.view.w && y >= 0 && y < t.view.h;
        cur[i] = in ? field[(unsigned long long)y * (unsigned long long)t.view.w + (unsigned long long)x] : T(0);
        nxt[i] = T(0);
    }
    __syncthreads();
}

/* The tile of cur into a field in global memory. */
template <class T>
GS_DEVICE void halo_store(const gs_halo_tile &t, T *field)
{
    const T *cur = (const T *)t.cur;
    for (int i = t.thread; i < t.w * t.h; i += t.threads) {
        const int lx = i % t.w, ly = i / t.w;
        field[(unsigned long long)(t.y0 + ly) * (unsigned long long)t.view.w + (unsigned long long)(t.x0 + lx)] = cur[halo_at(t, lx, ly)];
    }
}

template <class T>
GS_DEVICE void halo_put_value(const gs_halo_tile &t, unsigned long long at, T v, unsigned int tag)
{
    halo_value<T>::put(t.view.words + at * (unsigned long long)halo_value<T>::words, v, tag);
}

/* Edge cell (lx, ly) of this step: into nxt, and to each neighbour whose
 * ring it is (a corner goes to two). */
template <class T>
GS_DEVICE void halo_put(const gs_halo_tile &t, int lx, int ly, T v)
{
    ((T *)t.nxt)[halo_at(t, lx, ly)] = v;
    const unsigned int tag = t.base + (unsigned int)t.step + 1u, p = tag & 1u;
    if (ly == 0 && t.side[0])
        halo_put_value(t, halo_row(t.view, p, t.by, 0) + (unsigned long long)(t.x0 + lx), v, tag);
    if (ly == t.h - 1 && t.side[1])
        halo_put_value(t, halo_row(t.view, p, t.by, 1) + (unsigned long long)(t.x0 + lx), v, tag);
    if (lx == 0 && t.side[2])
        halo_put_value(t, halo_col(t.view, p, t.bx, 0) + (unsigned long long)(t.y0 + ly), v, tag);
    if (lx == t.w - 1 && t.side[3])
        halo_put_value(t, halo_col(t.view, p, t.bx, 1) + (unsigned long long)(t.y0 + ly), v, tag);
}

/* A poller's share of the ring whose edges carry `tag`: cells p, p +
 * pollers, ..., four at a time with their loads in flight together (up to
 * GS_TUNE_HALO_POLL_ROUNDS unwatched looks), then the watched wait for any
 * still missing; stored into `copy`. 1: a wait gave up (the watchdog). */
template <class T>
GS_DEVICE int halo_poll_ring(const gs_halo_tile &t, int p, unsigned int tag, T *copy)
{
    const int pollers = t.pollers;
    const unsigned long long *words = t.view.words;
    constexpr int W = halo_value<T>::words;
    for (int j0 = p; j0 < t.ring; j0 += 4 * pollers) {
        unsigned long long at[4];
        int off[4], from = 0; /* the writer: only for a watched wait, looked up then */
        T v[4];
        unsigned int pending = 0u;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            v[k] = T(0);
            if (j0 + k * pollers < t.ring) {
                halo_ring_cell(t, j0 + k * pollers, tag, &at[k], &off[k], &from);
                pending |= 1u << k;
            } else { /* a valid word, looked at and ignored */
                at[k] = at[0];
                off[k] = 0;
            }
        }
        for (int round = 0; pending != 0u && round < GS_TUNE_HALO_POLL_ROUNDS; ++round) {
            T got[4];
            int in[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) /* every look unconditional: four loads in flight */
                in[k] = halo_value<T>::look(words + at[k] * W, tag, &got[k]);
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if ((pending >> k & 1u) && in[k]) {
                    v[k] = got[k];
                    pending &= ~(1u << k);
                }
        }
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (pending >> k & 1u) {
                halo_ring_cell(t, j0 + k * pollers, tag, &at[k], &off[k], &from);
                if (!halo_value<T>::get(t.bar, words + at[k] * W, tag, (unsigned int)from, &v[k]))
                    return 1;
            }
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (j0 + k * pollers < t.ring)
                copy[off[k]] = v[k];
    }
    return 0;
}

/* The step's end: the pollers fetch the next step's ring into nxt (none
 * after the launch's last step), a block barrier (every block leaves if a
 * wait gave up), then nxt becomes cur. */
template <class T>
GS_DEVICE void halo_exchange(gs_halo_tile &t)
{
    int gave_up = 0;
    const int first_poller = t.threads - t.pollers;
    if (t.step + 1 < t.steps && t.pollers > 0 && t.thread >= first_poller)
        gave_up = halo_poll_ring<T>(t, t.thread - first_poller,
                                    t.base + (unsigned int)t.step + 1u, (T *)t.nxt);
    if (__syncthreads_or(gave_up))
        asm volatile("exit;");
    void *swap = t.cur;
    t.cur = t.nxt;
    t.nxt = swap;
    ++t.step;
}

/* The block's last tag, for the next launch (after a block barrier: every
 * thread read the old one at gs_halo_begin). */
GS_DEVICE void halo_end(const gs_halo_tile &t)
{
    __syncthreads();
    if (t.thread == 0)
        gs__st_relaxed_gpu(t.view.epochs + gs__block_rank(), t.base + (unsigned int)t.step);
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_HALO_EXCHANGE_CUH */
