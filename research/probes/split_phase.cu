// probe: where a split-phase grid barrier's time goes when W us of work sit
// between arrive and wait (flip's counter, no watchdog: spins bounded by a
// count). Thread 0 of each block stamps clock64 around arrive and wait.
// `make research` builds it: build/research/probes/split_phase [threads] [set]
// sets: none (every design at 2..1056 blocks, W = 0, 1, 2 us), focus (the
// sleep between failed polls), c (where the slot check goes; the flag read;
// the counter's line), g (the first poll's gate). research/notes/scoped-sync.md has
// what they measured.
#include <cstdio>
#include <cstdlib>
#include <gridsync/barrier.cuh>
#include <gridsync/detail/core/memory_order.cuh>

#define CK(x)                                                                  \
    do {                                                                       \
        cudaError_t e_ = (x);                                                  \
        if (e_ != cudaSuccess) {                                               \
            printf("%s: %s\n", #x, cudaGetErrorName(e_));                      \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

enum { POLL_MAX = 1 << 24 };

__device__ __forceinline__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}
__device__ __forceinline__ unsigned atom_rlx(unsigned *p, unsigned v)
{
    unsigned old;
    asm volatile("atom.add.relaxed.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}
__device__ __forceinline__ void red_rel(unsigned *p, unsigned v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void fence_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

// M: 0 work alone; 1 atom.add.release (the library's arrive), wait polls
// acquire; 2 fence + atom.relaxed; 3 atom.relaxed, no fence (unordered:
// the fence's cost); 4 red.release, the phase kept by the block (no value
// comes back); 5 as 1, wait polls relaxed then one fence; 6 the library's
// gs_grid_arrive/gs_grid_wait (watchdog included); 7 warp 0 arrives
// (red.release), the last warp polls with the phase it keeps (the two
// stalls overlap instead of adding up); 8 as 7, but the poller reads the
// counter's phase just before the block barrier of each arrive (stateless:
// mixes with any other barrier on the counter); 9 as 7, with a sleep of
// g_sleep_ns after each poll that failed (fewer polls on the counter's line
// while the arrivals land); 10 as 7, the slot check (a load of the next
// block's slot) in the poller instead of thread 0; 11 as 7, the check
// consumed at once; 12 work alone with thread 0 loading the next block's
// slot as the others do (unchecked: nobody waits for it); 13 as 7, with
// the watchdog's flag read before the polls as the library does, on the
// library's counter; 14 as 7 on the library's counter, no flag read; 15 as
// 7, the poller's first poll no sooner than g_sleep_ns x blocks SM clocks
// after the block's arrival (the arrivals' storm on the counter's line).
__device__ unsigned g_sleep_ns; // 9: between failed polls

template <int M>
__global__ void kern(unsigned *flip, unsigned *slots, unsigned *errors, int iters, long long work,
                     unsigned long long *stamps, gs_grid_barrier bar)
{
    unsigned *ctr = M == 13 || M == 14 ? bar.state + GS_W_FLIP : flip; /* the library's line */
    const unsigned n = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    constexpr bool last_polls = M == 7 || M == 9 || M == 10 || M == 11 || M == 13 || M == 14 || M == 15;
    const unsigned poller = M >= 7 && M != 12 ? blockDim.x - 32 : 0;
    const unsigned checker = M == 10 ? poller : 0;
    unsigned sink = 0;
    const long long gate_per_block = M == 15 ? g_sleep_ns : 0; /* once: acquires empty L1 */
    unsigned bad = 0, phase_bit = 0, seen = 0, expected = 0;
    long long a_sum = 0, w_sum = 0;
    if ((M == 4 && t == 0) || (last_polls && t == poller))
        phase_bit = gs__ld_relaxed_gpu(ctr) & 0x80000000u;
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        unsigned *buf = slots + (it & 1) * n;
        bad += seen != expected;
        if (t == blockDim.x - 1)
            buf[b] = it * 2654435761u + b;
        if (M == 8 && t == poller) /* before the block barrier that precedes the release */
            phase_bit = gs__ld_relaxed_gpu(ctr) & 0x80000000u;
        __syncthreads();
        unsigned old = 0;
        gs_grid_token token;
        long long c0 = clock64();
        if (M == 6)
            token = gs_grid_arrive(&bar);
        else if (M >= 7 && M != 12 && t == 0)
            red_rel(ctr, b == 0 ? 0x80000000u - (n - 1) : 1u);
        else if (M != 0 && t == 0) {
            unsigned add = b == 0 ? 0x80000000u - (n - 1) : 1u;
            if (M == 1 || M == 5)
                old = gs__atom_add_release_gpu(ctr, add);
            else if (M == 2) {
                fence_gpu();
                old = atom_rlx(ctr, add);
            } else if (M == 3)
                old = atom_rlx(ctr, add);
            else if (M == 4) {
                red_rel(ctr, add);
                old = phase_bit;
                phase_bit ^= 0x80000000u;
            }
        }
        long long c1 = clock64();
        spin(work);
        long long c2 = clock64();
        if (M == 6)
            gs_grid_wait(&bar, token);
        if (last_polls && t == poller) {
            old = phase_bit;
            phase_bit ^= 0x80000000u;
        }
        if (M == 8)
            old = phase_bit;
        if (M == 15 && t == poller) {
            long long gate = gate_per_block * n;
            while (clock64() - c1 < gate) {
            }
        }
        if (M != 0 && M != 6 && M != 12 && t == poller) {
            unsigned late = M == 13 ? gs__ld_relaxed_gpu(bar.state) : 0u;
            for (int k = 0; k < POLL_MAX; ++k) {
                unsigned v = M == 5 ? gs__ld_relaxed_gpu(ctr) : gs__ld_acquire_gpu(ctr);
                if ((v ^ old) & 0x80000000u)
                    break;
                if (M == 9)
                    __nanosleep(g_sleep_ns);
            }
            bad += late;
            if (M == 5)
                fence_gpu();
        }
        if (M != 6)
            __syncthreads();
        long long c3 = clock64();
        a_sum += c1 - c0;
        w_sum += c3 - c2;
        if (t == checker && M == 12) {
            unsigned o = b + 1 == n ? 0 : b + 1;
            sink += buf[o];
        } else if (t == checker && M == 11) {
            unsigned o = b + 1 == n ? 0 : b + 1;
            bad += buf[o] != it * 2654435761u + o;
        } else if (t == checker && M != 0) {
            unsigned o = b + 1 == n ? 0 : b + 1;
            seen = buf[o]; /* checked next step, as the bench does */
            expected = it * 2654435761u + o;
        }
    }
    bad += seen != expected;
    if (sink == 0x12345678u)
        bad += 1u << 30;
    if (t == 0) {
        atomicAdd(stamps + 0, (unsigned long long)a_sum);
        atomicAdd(stamps + 1, (unsigned long long)w_sum);
        if (bad)
            atomicAdd(errors, bad);
    }
}

template <int M>
static void run(const char *name, int blocks, int threads, double work_us, double ghz,
                unsigned *flip, unsigned *slots, unsigned *errors, unsigned long long *stamps,
                gs_grid_barrier bar)
{
    const int iters = 4000;
    long long work = (long long)(work_us * 1e3 * ghz);
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern<M>, threads, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (per_sm * sms < blocks) {
        printf("%-28s %5d blocks: does not fit (%d a SM)\n", name, blocks, per_sm);
        return;
    }
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float best = 1e30f;
    unsigned long long st[2] = {0, 0};
    for (int rep = 0; rep < 5; ++rep) {
        CK(cudaMemset(stamps, 0, 16));
        void *args[] = {&flip, &slots, &errors, (void *)&iters, &work, &stamps, &bar};
        CK(cudaEventRecord(e0));
        CK(cudaLaunchCooperativeKernel((const void *)kern<M>, blocks, threads, args, 0, 0));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms < best) {
            best = ms;
            CK(cudaMemcpy(st, stamps, 16, cudaMemcpyDeviceToHost));
        }
    }
    unsigned err = 0;
    CK(cudaMemcpy(&err, errors, 4, cudaMemcpyDeviceToHost));
    double per = 1e3 * best / iters;
    printf("%-28s %5d blocks W=%.1f: %.3f us/step (x W %.2f)  arrive %.0f cyc  wait %.0f cyc  errors %u\n",
           name, blocks, work_us, per, work_us > 0 ? per / work_us : 0.0,
           (double)st[0] / blocks / iters, (double)st[1] / blocks / iters, err);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

int main(int argc, char **argv)
{
    int sms = 0, khz = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    double ghz = khz / 1e6;
    unsigned *flip, *slots, *errors;
    unsigned long long *stamps;
    CK(cudaMalloc(&flip, 4));
    CK(cudaMemset(flip, 0, 4));
    CK(cudaMalloc(&slots, 2 * 4096 * 4));
    CK(cudaMalloc(&errors, 4));
    CK(cudaMemset(errors, 0, 4));
    CK(cudaMalloc(&stamps, 16));
    gs_grid_barrier bar = {};
    CK(cudaMalloc(&bar.state, 1 << 20));
    CK(cudaMemset(bar.state, 0, 1 << 20));
    bar.timeout_ns = 2000000000ull;
    bar.method = GS_BARRIER_FLIP;
    bar.capacity = 1 << 14;
    int threads = argc > 1 ? atoi(argv[1]) : 256;
    int grids[] = {2, sms, 2 * sms, 4 * sms, 8 * sms};
    if (argc > 2) { /* the poll back-off, next to the designs it changes */
        if (argv[2][0] == 'c') { /* where the slot check goes */
            double cworks[] = {0.0, 1.0, 2.0};
            for (double w : cworks)
                for (int gi = 1; gi < 5; ++gi) {
                    int g = grids[gi];
                    run<0>("work alone", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<12>("work alone + remote load", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<6>("library arrive/wait", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<7>("warp 0 arrives, last polls", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<10>("as 7, poller checks", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<11>("as 7, check at once", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<13>("as 7, flag read as library", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<14>("as 7, library's counter", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                }
            return 0;
        }
        double fworks[] = {0.0, 0.5, 1.0, 2.0};
        unsigned sleeps[] = {32, 64, 128, 256, 512};
        if (argv[2][0] == 'g') { /* the first poll's gate */
            double gworks[] = {0.0, 0.5, 1.0, 2.0};
            unsigned gates[] = {2, 3};
            for (double w : gworks)
                for (int gi = 1; gi < 5; ++gi) {
                    int g = grids[gi];
                    run<12>("work alone + remote load", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<1>("atom.release (old library)", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    run<7>("warp 0 arrives, last polls", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    for (unsigned c : gates) {
                        char name[64];
                        snprintf(name, sizeof name, "as 7, gate %u clk/block", c);
                        CK(cudaMemcpyToSymbol(g_sleep_ns, &c, sizeof c));
                        run<15>(name, g, threads, w, ghz, flip, slots, errors, stamps, bar);
                    }
                }
            return 0;
        }
        for (double w : fworks)
            for (int gi = 1; gi < 5; ++gi) {
                int g = grids[gi];
                run<0>("work alone", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                run<1>("atom.release (old library)", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                run<6>("library arrive/wait", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                run<7>("warp 0 arrives, last polls", g, threads, w, ghz, flip, slots, errors, stamps, bar);
                for (unsigned ns : sleeps) {
                    char name[64];
                    snprintf(name, sizeof name, "as 7, sleep %u ns", ns);
                    CK(cudaMemcpyToSymbol(g_sleep_ns, &ns, sizeof ns));
                    run<9>(name, g, threads, w, ghz, flip, slots, errors, stamps, bar);
                }
            }
        return 0;
    }
    double works[] = {0.0, 1.0, 2.0};
    for (double w : works)
        for (int g : grids) {
            run<0>("work alone", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<1>("atom.release (library)", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            if (w == 0.0) continue;
            run<2>("fence + atom.relaxed", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<3>("atom.relaxed, no fence", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<4>("red.release, local phase", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<5>("atom.release, relaxed poll", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<6>("library arrive/wait", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<7>("warp 0 arrives, last polls", g, threads, w, ghz, flip, slots, errors, stamps, bar);
            run<8>("as 7, phase read each arrive", g, threads, w, ghz, flip, slots, errors, stamps, bar);
        }
    printf("clock %.3f GHz\n", ghz);
    return 0;
}
