/*
 * cuda_emulation.h - just enough of CUDA to run gridsync's device headers
 * on the host, for tests on machines without a GPU (test_scan_emulated.cc).
 *
 * Blocks are OS threads, at most `resident` at once, started in a shuffled
 * order (the hardware promises no order either). The threads of a block
 * are fibers (ucontext) on their block's OS thread, switched only at
 * collective operations: warp shuffles and ballots (every lane of the warp
 * must arrive) and __syncthreads (every thread of the block). So blocks run
 * truly concurrently, warps within a block interleave at collectives, and
 * lanes of a warp run in lock step as far as the code can tell. The next
 * fiber is drawn at random, mostly from one favoured warp that changes now
 * and then, so that warps drift apart as far as the barriers let them.
 *
 * Memory: the gridsync memory-order helpers become __atomic builtins (x86:
 * total store order, stronger than PTX's model; the emulation checks the
 * algorithms' logic, not weak-memory behaviour). A two-word vector access is
 * two separate accesses in a random order, as PTX allows, and the ticket
 * and descriptor accesses can be delayed at random (jitter) so that blocks
 * fall behind one another and look-backs walk several windows.
 *
 * Include this before any gridsync header; it stands in for
 * gridsync/detail/core/memory_order.cuh and gridsync/detail/reduce/single_pass.cuh.
 */
#ifndef GS_TEST_CUDA_EMULATION_H
#define GS_TEST_CUDA_EMULATION_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

/* ------------------------------------------------------------ keywords */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local /* one per block: a block is one OS thread */
#define GS_DEVICE static inline
/* what this file stands in for */
#define GRIDSYNC_DETAIL_MEMORY_ORDER_CUH
#define GRIDSYNC_DETAIL_SINGLE_PASS_CUH

struct float4 { float x, y, z, w; };
struct int4 { int x, y, z, w; };
struct uint4 { unsigned int x, y, z, w; };
struct double2 { double x, y; };
struct longlong2 { long long x, y; };
struct ulonglong2 { unsigned long long x, y; };

namespace emu {

struct dim3 {
    unsigned int x, y, z;
};

struct fiber {
    ucontext_t ctx;
    unsigned int tid;
    bool done;
    std::vector<char> stack;
};

struct warp_state {
    unsigned int arrived = 0, gen = 0;
    unsigned long long slot[2][32];
};

struct block_state {
    dim3 block_idx, block_dim, grid_dim;
    std::vector<fiber> fibers;
    std::vector<warp_state> warps;
    unsigned int bar_arrived = 0, bar_gen = 0;
    ucontext_t scheduler;
    unsigned int draws = 0; /* tickets drawn (gs__atom_add_relaxed_gpu) */
    std::function<void()> body;
    unsigned long long switches = 0;
};

inline thread_local block_state *blk;
inline thread_local fiber *cur;
inline thread_local std::mt19937_64 *jitter_rng;
inline int jitter_percent; /* chance of a delay at a ticket draw or a descriptor store */
inline long long slow_ticket = -1; /* the block that draws this ticket stalls ... */
inline long slow_ticket_us;        /* ... this long after drawing it */
inline bool hold_second_draws;     /* no block draws twice before every block drew once */
inline unsigned int first_draws;   /* blocks that drew (this launch) */
inline size_t fiber_stack = 128u << 10;

inline void yield()
{
    fiber *me = cur;
    swapcontext(&me->ctx, &blk->scheduler);
}

inline unsigned int lanes_of_warp(unsigned int warp)
{
    unsigned int n = blk->block_dim.x * blk->block_dim.y * blk->block_dim.z;
    return n - warp * 32u < 32u ? n - warp * 32u : 32u;
}

/* Every lane deposits v; once all have, each reads the deposits. Two
 * deposit sets by generation parity: a lane cannot get two collectives
 * ahead of a slower one. */
inline const unsigned long long *exchange(unsigned long long v)
{
    unsigned int warp = cur->tid >> 5, lane = cur->tid & 31u;
    warp_state &w = blk->warps[warp];
    unsigned int g = w.gen;
    w.slot[g & 1u][lane] = v;
    if (++w.arrived == lanes_of_warp(warp)) {
        w.arrived = 0;
        ++w.gen;
    } else {
        while (w.gen == g)
            yield();
    }
    return w.slot[g & 1u];
}

inline void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* Now and then, fall behind (jitter_percent of the calls, up to 300 us). */
inline void maybe_delay()
{
    if (jitter_percent && jitter_rng && (int)((*jitter_rng)() % 100u) < jitter_percent)
        sleep_us((long)((*jitter_rng)() % 300u));
}

inline void trampoline()
{
    blk->body();
    cur->done = true;
    yield();
}

/* Run one block to its end on the calling OS thread. */
inline void run_block(block_state &b, unsigned long long seed)
{
    std::mt19937_64 rng(seed);
    blk = &b;
    jitter_rng = &rng;
    unsigned int n = b.block_dim.x;
    b.fibers.resize(n);
    b.warps.assign((n + 31u) / 32u, warp_state());
    for (unsigned int t = 0; t < n; ++t) {
        fiber &f = b.fibers[t];
        f.tid = t;
        f.done = false;
        f.stack.assign(fiber_stack, 0);
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = f.stack.data();
        f.ctx.uc_stack.ss_size = f.stack.size();
        f.ctx.uc_link = NULL;
        makecontext(&f.ctx, trampoline, 0);
    }
    unsigned int live = n, warps = (unsigned int)b.warps.size(), favoured = 0;
    while (live > 0) {
        if (rng() % 512u == 0u)
            favoured = (unsigned int)(rng() % warps);
        unsigned int t = rng() % 16u != 0u ? favoured * 32u + (unsigned int)(rng() % 32u)
                                           : (unsigned int)(rng() % n);
        if (t >= n || b.fibers[t].done) { /* the next live one */
            t = (unsigned int)(rng() % n);
            while (b.fibers[t].done)
                t = (t + 1u) % n;
        }
        cur = &b.fibers[t];
        swapcontext(&b.scheduler, &cur->ctx);
        live -= cur->done;
        if ((++b.switches & 1023u) == 0u)
            sched_yield(); /* let the other blocks' threads run */
    }
    blk = NULL;
    cur = NULL;
    jitter_rng = NULL;
}

/* A grid of `grid` blocks of `threads` threads running `kernel()`, at most
 * `resident` blocks at once, started in a shuffled order. */
struct launch_job {
    block_state *b;
    unsigned long long seed;
    pthread_mutex_t *lock;
    pthread_cond_t *cond;
    unsigned int *running;
};

inline void *block_thread(void *p)
{
    launch_job *j = (launch_job *)p;
    run_block(*j->b, j->seed);
    pthread_mutex_lock(j->lock);
    --*j->running;
    pthread_cond_signal(j->cond);
    pthread_mutex_unlock(j->lock);
    return NULL;
}

inline void launch(unsigned int grid, unsigned int threads, unsigned int resident,
                   unsigned long long seed, const std::function<void()> &kernel)
{
    std::vector<block_state> blocks(grid);
    std::vector<launch_job> jobs(grid);
    std::vector<pthread_t> tids(grid);
    std::vector<unsigned int> order(grid);
    std::mt19937_64 rng(seed);
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
    unsigned int running = 0;
    __atomic_store_n(&first_draws, 0u, __ATOMIC_RELEASE);
    for (unsigned int i = 0; i < grid; ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256u << 10);
    for (unsigned int k = 0; k < grid; ++k) {
        unsigned int i = order[k];
        blocks[i].block_idx = dim3{i, 0, 0};
        blocks[i].block_dim = dim3{threads, 1, 1};
        blocks[i].grid_dim = dim3{grid, 1, 1};
        blocks[i].body = kernel;
        jobs[i] = launch_job{&blocks[i], rng(), &lock, &cond, &running};
        pthread_mutex_lock(&lock);
        while (running >= resident)
            pthread_cond_wait(&cond, &lock);
        ++running;
        pthread_mutex_unlock(&lock);
        if (pthread_create(&tids[i], &attr, block_thread, &jobs[i]) != 0) {
            fprintf(stderr, "emulation: pthread_create failed\n");
            exit(1);
        }
    }
    for (unsigned int i = 0; i < grid; ++i)
        pthread_join(tids[i], NULL);
    pthread_attr_destroy(&attr);
}

template <class T> inline unsigned long long bits(T v)
{
    static_assert(sizeof(T) <= 8, "shuffles move up to 8 bytes");
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> inline T from_bits(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

} // namespace emu

#define threadIdx (::emu::dim3{::emu::cur->tid, 0u, 0u})
#define blockIdx (::emu::blk->block_idx)
#define blockDim (::emu::blk->block_dim)
#define gridDim (::emu::blk->grid_dim)

/* ------------------------------------------------------------ intrinsics */

inline void __syncthreads()
{
    emu::block_state &b = *emu::blk;
    unsigned int g = b.bar_gen;
    if (++b.bar_arrived == b.block_dim.x) {
        b.bar_arrived = 0;
        ++b.bar_gen;
    } else {
        while (b.bar_gen == g)
            emu::yield();
    }
}

template <class T> inline T __shfl_sync(unsigned int, T v, int src)
{
    const unsigned long long *s = emu::exchange(emu::bits(v));
    return emu::from_bits<T>(s[src & 31]);
}
template <class T> inline T __shfl_up_sync(unsigned int, T v, unsigned int delta)
{
    unsigned int lane = emu::cur->tid & 31u;
    const unsigned long long *s = emu::exchange(emu::bits(v));
    return lane >= delta ? emu::from_bits<T>(s[lane - delta]) : v;
}
template <class T> inline T __shfl_down_sync(unsigned int, T v, unsigned int delta)
{
    unsigned int lane = emu::cur->tid & 31u, lanes = emu::lanes_of_warp(emu::cur->tid >> 5);
    const unsigned long long *s = emu::exchange(emu::bits(v));
    return lane + delta < lanes ? emu::from_bits<T>(s[lane + delta]) : v;
}
inline void __syncwarp(unsigned int = 0xffffffffu)
{
    (void)emu::exchange(0ull);
}
inline unsigned int __ballot_sync(unsigned int, int predicate)
{
    unsigned int lanes = emu::lanes_of_warp(emu::cur->tid >> 5), bits = 0;
    const unsigned long long *s = emu::exchange(predicate ? 1ull : 0ull);
    for (unsigned int l = 0; l < lanes; ++l)
        bits |= (s[l] ? 1u : 0u) << l;
    return bits;
}
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
inline unsigned int __float_as_uint(float v) { return emu::from_bits<unsigned int>(emu::bits(v)); }
inline float __uint_as_float(unsigned int v) { return emu::from_bits<float>(v); }
inline float __int_as_float(int v) { return emu::from_bits<float>((unsigned int)v); }
inline long long __double_as_longlong(double v) { return (long long)emu::bits(v); }
inline double __longlong_as_double(long long v) { return emu::from_bits<double>((unsigned long long)v); }

/* ------------------------------------ gridsync/detail/core/memory_order.cuh */

GS_DEVICE unsigned int gs__ld_relaxed_gpu(const unsigned int *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
GS_DEVICE unsigned int gs__ld_acquire_gpu(const unsigned int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GS_DEVICE void gs__ld_relaxed_gpu_v2_u64(const unsigned long long *p, unsigned long long *a,
                                        unsigned long long *b)
{
    if (emu::jitter_rng && ((*emu::jitter_rng)() & 1u)) { /* either order */
        *b = __atomic_load_n(p + 1, __ATOMIC_RELAXED);
        *a = __atomic_load_n(p, __ATOMIC_RELAXED);
    } else {
        *a = __atomic_load_n(p, __ATOMIC_RELAXED);
        *b = __atomic_load_n(p + 1, __ATOMIC_RELAXED);
    }
}
GS_DEVICE void gs__st_relaxed_gpu(unsigned int *p, unsigned int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
GS_DEVICE void gs__st_relaxed_gpu_u64(unsigned long long *p, unsigned long long v)
{
    emu::maybe_delay();
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
GS_DEVICE void gs__st_relaxed_gpu_v2_u64(unsigned long long *p, unsigned long long a,
                                        unsigned long long b)
{
    emu::maybe_delay();
    bool high_first = emu::jitter_rng && ((*emu::jitter_rng)() & 1u);
    __atomic_store_n(p + (high_first ? 1 : 0), high_first ? b : a, __ATOMIC_RELAXED);
    emu::maybe_delay(); /* a reader may see one word of the pair and not the other */
    __atomic_store_n(p + (high_first ? 0 : 1), high_first ? a : b, __ATOMIC_RELAXED);
}
GS_DEVICE void gs__st_relaxed_sys(unsigned int *p, unsigned int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}
GS_DEVICE void gs__st_release_sys(unsigned int *p, unsigned int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GS_DEVICE unsigned int gs__ld_acquire_sys(const unsigned int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GS_DEVICE unsigned int gs__atom_exch_relaxed_gpu(unsigned int *p, unsigned int v)
{
    return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
}
GS_DEVICE unsigned int gs__atom_add_relaxed_gpu(unsigned int *p, unsigned int v)
{
    emu::maybe_delay();
    unsigned int draw = ++emu::blk->draws;
    while (draw == 2u && emu::hold_second_draws &&
           __atomic_load_n(&emu::first_draws, __ATOMIC_ACQUIRE) < emu::blk->grid_dim.x)
        emu::sleep_us(1000);
    unsigned int old = __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    if (draw == 1u)
        __atomic_fetch_add(&emu::first_draws, 1u, __ATOMIC_RELEASE);
    if ((long long)old == emu::slow_ticket)
        emu::sleep_us(emu::slow_ticket_us);
    return old;
}
GS_DEVICE void gs__red_add_release_gpu(unsigned int *p, unsigned int v)
{
    __atomic_fetch_add(p, v, __ATOMIC_RELEASE);
}
GS_DEVICE unsigned long long gs__globaltimer_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* ------------------------------------- gridsync/detail/reduce/single_pass.cuh */
namespace gs {
namespace detail {
inline void single_pass_begin() {}
/* a hint to L2: nothing to emulate */
inline void single_pass_prefetch_l2(const void *, long long) {}
} // namespace detail
} // namespace gs

#endif /* GS_TEST_CUDA_EMULATION_H */
