/*
 * test_scan_faults.cu - scans that cannot finish, and scans under stress,
 * launched directly (scan_direct.h): a look-back that can never finish
 * (tile 0 withheld) ends at its time-out with the fault recorded, in both
 * bandwidth kernels; both launched again and again with time-outs from
 * 200 ns, publications held back by a fault-injection hook, some launches
 * with their first tiles withheld, and the latency tiling's one-tile kernel
 * the same: every launch ends, resets the ticket, counts its blocks out,
 * and is exact unless it recorded a fault.
 */

/* Fault injection (single_pass_scan.cuh's hook) for the give-up stress's
 * direct launches: declared before the scan headers, defined after them. */
static __device__ void scan_test_delay(unsigned int seq, unsigned int tile, int point);
#define GS_SCAN_TEST_DELAY(args, tile, point) scan_test_delay((args).seq, (tile), (point))

#include "scan_direct.h"

/* Calls numbered from here on (the give-up stress's) are the only ones
 * held back; the other direct launches use small numbers. */
#define STRESS_SEQ_FROM 1000u

/* In a stress call, one publication in 8, chosen by hashing the call, the
 * tile and the point (0: the aggregate, 1: the inclusive prefix), waits 0
 * to 40 us first: longer than the stress's shorter time-outs, so that
 * look-backs and the resident kernel's aggregate wait give up at every
 * point of the tile loop. Bounded by the global timer. */
static __device__ void scan_test_delay(unsigned int seq, unsigned int tile, int point)
{
    if (seq < STRESS_SEQ_FROM)
        return;
    unsigned int h = seq * 0x9e3779b1u ^ tile * 0x85ebca77u ^ (unsigned int)point * 0xc2b2ae3du;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    if ((h & 7u) != 0u)
        return;
    const unsigned long long wait_ns = (h >> 8) % 40000u, start = gs__globaltimer_ns();
    while (gs__globaltimer_ns() - start < wait_ns) {
    }
}

/* ------------------------------------------------------------ time-out */

/*
 * The kernel (this test's own instance) on a state where tile 0 is never
 * taken: the ticket starts at 1, so tile 1's look-back can never finish.
 * Three blocks for two tiles (a grid of one block per tile would draw one
 * ticket each, and the reset would come before the third draw here). With
 * a 20 ms time-out it must end, record the fault (tile 1 of 2, the call's
 * number), set the abort word, still reset the ticket and count the three
 * blocks out, and leave tile 1's output unwritten.
 */
static int check_timeout_of(bool resident)
{
    typedef bandwidth_f32 policy;
    const char *which = resident ? "resident" : "register";
    const long long n = 2 * policy::tile_items;
    float *d_in, *d_out, *h_out = (float *)malloc(n * 4);
    unsigned int words[4], record[4];
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, n * 4));
    CUDA_OK(cudaMemset(d_in, 0, n * 4));
    CUDA_OK(cudaMemset(d_out, 0xff, n * 4));
    direct_workspace w = direct_workspace_make(2, 1u); /* tile 0's ticket taken */
    gs::detail::scan_args a = {d_in, d_out, n, w.desc, w.counters, w.d_fault, 20000000ull,
                               7u, 2u, 0, 1};
    double t0 = now_seconds();
    launch_bandwidth<gs::sum<float>>(resident, 3, a);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    double seconds = now_seconds() - t0;
    CUDA_OK(cudaMemcpy(words, w.counters, 16, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(h_out, d_out, n * 4, cudaMemcpyDeviceToHost));
    memcpy(record, (const void *)w.fault, 16);
    int written = 0;
    for (long long i = policy::tile_items; i < n; ++i)
        written += !isnan(h_out[i]);
    EXPECT(record[0] == 1u && record[1] == 7u && record[2] == 1u && record[3] == 2u,
           "%s kernel: fault record %u %u %u %u, expected 1 7 1 2", which, record[0], record[1],
           record[2], record[3]);
    EXPECT(words[0] == 0u && words[2] == 3u && words[3] == 7u,
           "%s kernel, after the time-out: ticket %u (want 0), blocks out %u (want 3), abort %u "
           "(want 7)",
           which, words[0], words[2], words[3]);
    EXPECT(written == 0, "%s kernel: the tile that gave up wrote %d elements", which, written);
    EXPECT(seconds < 5.0, "%s kernel: the look-back took %.1f s to give up (time-out 20 ms)",
           which, seconds);
    printf("  %s kernel: a look-back that cannot finish gave up after %.3f s (time-out 0.02 s)\n",
           which, seconds);
    cudaFree(d_in);
    cudaFree(d_out);
    direct_workspace_free(&w);
    free(h_out);
    return 4;
}

static int check_timeout(void)
{
    return check_timeout_of(false) + (resident_runs() ? check_timeout_of(true) : 0);
}

/* ------------------------------------------------------ give-up stress */

/*
 * Both bandwidth kernels launched again and again with time-outs from
 * 200 ns to 100 us, on fresh random int32 data (sums exact, wrapping), on
 * a grid of more blocks than fit at once, one block per tile, a few
 * blocks, and one; the latency tiling's one-tile kernel the same, on one
 * block per tile. At full speed no wait outlasts 128 polls, so one
 * publication in 8 is held back 0-40 us (scan_test_delay): look-backs and
 * the resident kernel's aggregate wait then give up, or stop on another
 * tile's give-up, at any point of a block's tile loop. Every third launch
 * (not on one block per tile, whose tickets are not drawn past the tiles)
 * also withholds the tiles below s (the ticket starts at s > 0, as if
 * their blocks never ran), so that every tile from s on must give up.
 * Whatever happens, each launch must end without a CUDA error, reset the
 * ticket and count every block out; a launch that recorded no fault must
 * give the exact scan; one that withheld tiles must record the fault and
 * write nothing; and the state must stay usable: a last launch with a
 * generous time-out is exact.
 */
static void scan_i32_reference(const int *x, unsigned int *y, long long n, int exclusive)
{
    unsigned int acc = 0u;
    for (long long i = 0; i < n; ++i) {
        const unsigned int v = (unsigned int)x[i];
        y[i] = exclusive ? acc : acc + v;
        acc += v;
    }
}

/* The kernels the stress runs: the bandwidth tiling's two, and the
 * latency tiling's one-tile kernel (on one block per tile only). */
enum stress_kernel { stress_register, stress_resident, stress_one_tile };

static void launch_stress(stress_kernel kind, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<int, gs::detail::scan_latency> latency_i32;
    if (kind == stress_one_tile)
        gs::detail::single_tile_scan_kernel<latency_i32, gs::sum<int>>
            <<<blocks, latency_i32::threads>>>(a);
    else
        launch_bandwidth<gs::sum<int>>(kind == stress_resident, blocks, a);
}

static int give_up_stress_of(stress_kernel kind, long long tiles, unsigned int blocks,
                             int launches, unsigned int *seq)
{
    const char *which = kind == stress_resident   ? "resident"
                        : kind == stress_one_tile ? "one-tile"
                                                  : "register";
    const long long tile_items =
        kind == stress_one_tile ? gs::detail::scan_policy<int, gs::detail::scan_latency>::tile_items
                                : bandwidth_i32::tile_items;
    const long long n = tiles * tile_items - 37; /* a partial last tile */
    const size_t bytes = (size_t)n * sizeof(int);
    int *h_in = (int *)malloc(bytes), *d_in, *d_out;
    unsigned int *h_out = (unsigned int *)malloc(bytes), *want = (unsigned int *)malloc(bytes);
    if (!h_in || !h_out || !want) {
        fprintf(stderr, "FATAL: out of host memory for %lld elements\n", n);
        exit(1);
    }
    CUDA_OK(cudaMalloc((void **)&d_in, bytes));
    CUDA_OK(cudaMalloc((void **)&d_out, bytes));
    direct_workspace w = direct_workspace_make(tiles, 0u);
    static const unsigned long long timeouts[] = {200ull, 1000ull, 3000ull, 10000ull, 30000ull,
                                                  100000ull};
    int faulted = 0, withheld = 0, exact = 0;
    for (int l = 0; l <= launches; ++l) {
        const bool last = l == launches; /* the state still usable */
        const bool withhold = !last && blocks > 1u && blocks != (unsigned int)tiles && l % 3 == 2;
        const unsigned int start = withhold ? 1u + (unsigned int)(next_u64() % (tiles / 2)) : 0u;
        const int exclusive = (int)(next_u64() & 1u);
        for (long long i = 0; i < n; ++i)
            h_in[i] = (int)(unsigned int)next_u64();
        CUDA_OK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_out, 0xff, bytes));
        CUDA_OK(cudaMemcpy(w.counters, &start, 4, cudaMemcpyHostToDevice));
        unsigned int before[4];
        CUDA_OK(cudaMemcpy(before, w.counters, 16, cudaMemcpyDeviceToHost));
        memset(w.fault, 0, GS_FAULT_WORDS * 4);
        ++*seq;
        const unsigned long long timeout = last ? 2000000000ull : timeouts[(l / 3 + l) % 6];
        gs::detail::scan_args a = {d_in, d_out, n, w.desc, w.counters, w.d_fault, timeout,
                                   *seq, (unsigned int)tiles, exclusive, 1};
        launch_stress(kind, blocks, a);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        unsigned int words[4], record[4];
        CUDA_OK(cudaMemcpy(words, w.counters, 16, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
        memcpy(record, (const void *)w.fault, 16);
        EXPECT(words[0] == 0u && words[2] == before[2] + blocks,
               "%s kernel, %u blocks, launch %d (time-out %llu ns, first ticket %u): ticket %u "
               "(want 0), blocks out %u (want %u)",
               which, blocks, l, timeout, start, words[0], words[2] - before[2], blocks);
        if (withhold) {
            long long written = 0;
            for (long long i = 0; i < n; ++i)
                written += h_out[i] != 0xffffffffu;
            /* the tile named is one a wait was for: from s on, or (a late bulk
             * copy, whose ticket is unknown until it lands) the tile before,
             * or tile 0 for a block's first copy */
            EXPECT(record[0] == 1u && record[1] == *seq && record[2] < (unsigned int)tiles &&
                       record[3] == (unsigned int)tiles,
                   "%s kernel, %u blocks, tiles below %u withheld: fault record %u %u %u %u",
                   which, blocks, start, record[0], record[1], record[2], record[3]);
            EXPECT(written == 0, "%s kernel, %u blocks, tiles below %u withheld: %lld written",
                   which, blocks, start, written);
            ++withheld;
        } else if (record[0] == 0u) {
            scan_i32_reference(h_in, want, n, exclusive);
            long long wrong = 0, first = -1;
            for (long long i = 0; i < n; ++i)
                if (h_out[i] != want[i] && wrong++ == 0)
                    first = i;
            EXPECT(wrong == 0,
                   "%s kernel, %u blocks, launch %d (time-out %llu ns, no fault): %lld wrong, "
                   "first at %lld",
                   which, blocks, l, timeout, wrong, first);
            ++exact;
        } else {
            EXPECT(!last, "%s kernel, %u blocks: a launch with a 2 s time-out gave up", which,
                   blocks);
            ++faulted;
        }
    }
    printf("  %s kernel, %u blocks, %lld tiles: %d launches exact, %d gave up (time-outs "
           "of 200 ns to 100 us, delays up to 40 us), %d with tiles withheld\n",
           which, blocks, tiles, exact, faulted, withheld);
    cudaFree(d_in);
    cudaFree(d_out);
    direct_workspace_free(&w);
    free(h_in);
    free(h_out);
    free(want);
    return launches + 1;
}

static int check_give_up_stress(int quick)
{
    int device = 0, sms = 0, checks = 0;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const long long tiles = quick ? 24 : 160;
    const int launches = quick ? 6 : 60;
    /* more blocks than fit at once (tickets keep that safe), one per tile,
     * a few, one */
    const unsigned int grids[] = {quick ? 7u : 3u * (unsigned int)sms + 1u, (unsigned int)tiles,
                                  5u, 1u};
    unsigned int seq = STRESS_SEQ_FROM;
    for (int k = resident_runs() ? 1 : 0; k >= 0; --k)
        for (unsigned int blocks : grids)
            checks += give_up_stress_of(k == 1 ? stress_resident : stress_register, tiles, blocks,
                                        launches, &seq);
    checks += give_up_stress_of(stress_one_tile, tiles, (unsigned int)tiles, launches, &seq);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    const int quick = scan_test_begin("scan_faults");
    int checks = 0;
    checks += check_timeout();
    checks += check_give_up_stress(quick);
    return scan_test_end("scan_faults", checks);
}
