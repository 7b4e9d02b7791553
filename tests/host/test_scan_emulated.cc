/*
 * test_scan_emulated.cc - the single-pass scan kernel and the block and warp
 * scans, the very device code of gridsync's headers, run on the host under
 * cuda_emulation.h: blocks as OS threads (a few resident at a time, started
 * in a shuffled order, their ticket draws and descriptor stores delayed at
 * random so that blocks fall behind and look-backs walk several windows),
 * threads as fibers. No GPU needed; the GPU tests (tests/gpu/test_scan.cu)
 * check the same on the hardware.
 *
 * Both kernels of the scan: the tile loop (single_pass_scan.cuh) and the
 * one-tile kernel for grids of one block per tile (single_tile_scan.cuh).
 * Checked: every op, kind and type against the CPU (exactly: floats hold
 * small integers, integers wrap; the 16-bit floats need CUDA's headers and
 * are left to the GPU tests); the library's own tuning and a small one
 * (64 threads, 512-element tiles, 32-tile windows) on a hundred tiles and
 * more; look-backs that walk three windows (tile 0 held back while 69
 * blocks publish); misaligned and in-place arrays; descriptors left by the previous
 * call (only the tag changes: nothing is cleared); results bitwise
 * identical across grids, residencies and schedules on real-valued floats;
 * the ticket back to zero and every block counted out after each call; a
 * look-back that cannot finish (tile 0 never drawn) giving up at its
 * time-out with the fault recorded; block and warp scans at block sizes that
 * are not multiples of 32.
 *
 * GRIDSYNC_TEST_SEED repeats a run (the seed is printed); GS_EMU_JITTER
 * sets the percentage of delayed accesses (5 by default; more for stress).
 */
#include "cuda_emulation.h"
#include "testing/random.h"

#include <gridsync/detail/scan/block_scan.cuh>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>
#include <gridsync/detail/scan/single_tile_scan.cuh>
#include <gridsync/detail/scan/warp_scan.cuh>

#include <limits>

static int failures = 0, checks = 0;

#define EXPECT(cond, ...)                                                                 \
    do {                                                                                  \
        ++checks;                                                                         \
        if (!(cond)) {                                                                    \
            ++failures;                                                                   \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

static std::mt19937_64 rng;

/* A small tuning: 2 warps (or Threads), 2 vectors per lane, 32-tile windows. */
template <class T, int Threads = 64>
struct small_policy {
    static constexpr int threads = Threads;
    static constexpr int min_blocks = 1;
    static constexpr int width = (int)(16 / sizeof(T));
    static constexpr int vectors = 2;
    static constexpr int warp_items = 32 * width * vectors;
    static constexpr int tile_items = threads * width * vectors;
    static constexpr int lookback = 1;
    static constexpr int poll_sleep_ns = 0;
};

/* The state a workspace keeps between calls: descriptors and counters. */
struct workspace {
    std::vector<unsigned long long> descriptors;
    unsigned int counters[4] = {0, 0, 0, 0};
    unsigned int fault[GS_FAULT_WORDS] = {}; /* gridsync/detail/core/fault_record.h */
    unsigned int seq = 0;
    explicit workspace(size_t tiles) : descriptors(tiles * 4 + 4, 0ull) {}
};

/* Which kernel a call of check_one runs on a grid of one block per tile:
 * the one-tile kernel, as the library does for its short and latency
 * tilings, or the tile loop, as it does for the bandwidth tiling. */
enum one_per_tile { one_tile_kernel, tile_loop };

/* One call: the kernel of Policy and Op on grid x resident blocks (at
 * most one per tile, as the library launches, unless `more_blocks`); on
 * one block per tile, the kernel `which` says. */
template <class Policy, class Op>
static void scan(workspace &ws, const void *in, void *out, long long n, bool exclusive,
                 unsigned int grid, unsigned int resident, unsigned long long timeout_ns = 0,
                 bool more_blocks = false, one_per_tile which = one_tile_kernel)
{
    long long tiles = (n + Policy::tile_items - 1) / Policy::tile_items;
    if (grid > tiles && !more_blocks)
        grid = (unsigned int)tiles;
    ++ws.seq;
    unsigned int exits_before = ws.counters[2];
    gs::detail::scan_args a = {in, out, n, ws.descriptors.data(), ws.counters, ws.fault,
                               timeout_ns, ws.seq, (unsigned int)tiles, exclusive ? 1 : 0,
                               1 /* the prefetch is a no-op in the emulation */};
    if (grid == tiles && which == one_tile_kernel)
        emu::launch(grid, Policy::threads, resident, rng(),
                    [&] { gs::detail::single_tile_scan_kernel<Policy, Op>(a); });
    else
        emu::launch(grid, Policy::threads, resident, rng(),
                    [&] { gs::detail::single_pass_scan_kernel<Policy, Op>(a); });
    EXPECT(ws.counters[0] == 0u, "the ticket is %u after the call, not 0", ws.counters[0]);
    EXPECT(ws.counters[2] - exits_before == grid, "%u blocks counted out of %u",
           ws.counters[2] - exits_before, grid);
}

/* The CPU's scan: exact for integers (wrapping) and for floats holding
 * small integers; floats otherwise only to compare runs with each other. */
template <class T, class Op>
static std::vector<T> cpu_scan(const std::vector<T> &x, bool exclusive)
{
    std::vector<T> y(x.size());
    T acc{};
    bool any = false;
    for (size_t k = 0; k < x.size(); ++k) {
        T before = any ? acc : Op::identity();
        acc = any ? Op()(acc, x[k]) : x[k];
        any = true;
        y[k] = exclusive ? before : acc;
    }
    return y;
}

template <class T> static std::vector<T> small_values(size_t n)
{
    std::vector<T> x(n);
    for (auto &v : x) {
        unsigned long long r = rng();
        if (std::numeric_limits<T>::is_integer)
            v = (T)r; /* every bit pattern: sums wrap */
        else
            v = (T)(int)(r % 15u) - (T)7; /* -7 .. 7: every prefix exact */
    }
    return x;
}

template <class T> static bool same(T a, T b)
{
    return (a != a && b != b) || a == b;
}

/* One op and kind of Policy on T: n elements, grid and residency, at the
 * given element offsets (in == out when in_place). */
template <class Policy, class Op>
static void check_one(const char *what, long long n, bool exclusive, unsigned int grid,
                      unsigned int resident, int in_offset, int out_offset, bool in_place)
{
    typedef typename Op::value_type T;
    std::vector<T> in_buf((size_t)n + 8), out_buf((size_t)n + 8 + 16);
    T *in = in_buf.data() + in_offset;
    T *out = in_place ? in : out_buf.data() + out_offset;
    T poison;
    memset(&poison, 0x5a, sizeof poison);
    if (!in_place)
        std::fill(out_buf.begin(), out_buf.end(), poison);
    workspace ws((size_t)(n / Policy::tile_items + 2));
    ws.seq = (unsigned int)(rng() % 1000u) + 1u;
    /* twice on one workspace, on other data: the second call meets the
     * first's descriptors, whose values are now wrong (on one block per
     * tile, one call runs the one-tile kernel and the other the tile loop,
     * in an order drawn at random) */
    const bool one_tile_first = (rng() & 1u) != 0u;
    for (int call = 0; call < 2; ++call) {
        std::vector<T> x = small_values<T>((size_t)n);
        std::vector<T> want = cpu_scan<T, Op>(x, exclusive);
        std::copy(x.begin(), x.end(), in);
        scan<Policy, Op>(ws, in, out, n, exclusive, grid, resident, 0, false,
                         (call == 0) == one_tile_first ? one_tile_kernel : tile_loop);
        long long wrong = 0, first = -1;
        for (long long k = 0; k < n; ++k)
            if (!same(out[k], want[(size_t)k]) && wrong++ == 0)
                first = k;
        int past = 0;
        if (!in_place)
            for (int k = 0; k < 16; ++k)
                past += memcmp(&out[n + k], &poison, sizeof poison) != 0;
        EXPECT(wrong == 0 && past == 0,
               "%s n=%lld %s grid %u/%u in+%d out+%d%s call %d: %lld wrong (first %lld: %.17g, "
               "expected %.17g), %d written past the end",
               what, n, exclusive ? "exclusive" : "inclusive", grid, resident, in_offset,
               out_offset, in_place ? " in place" : "", call, wrong, first,
               first >= 0 ? (double)out[first] : 0.0, first >= 0 ? (double)want[(size_t)first] : 0.0,
               past);
    }
}

/* Every op and kind of T with the small tuning, then a few with the
 * library's own (its short, latency and bandwidth tiles). */
template <class T> static void check_type(const char *name)
{
    typedef small_policy<T> small;
    const long long tile = small::tile_items;
    const long long lengths[] = {1, 5, tile - 1, tile, 3 * tile + 1, 70 * tile + 9};
    for (long long n : lengths)
        for (int exclusive = 0; exclusive < 2; ++exclusive) {
            check_one<small, gs::sum<T>>(name, n, exclusive, 6, 3, 0, 0, false);
            check_one<small, gs::min<T>>(name, n, exclusive, 4, 4, 1, 1, false);
            check_one<small, gs::max<T>>(name, n, exclusive, 3, 2, 1, 0, true);
        }
    /* far behind: a hundred and fifty tiles, two blocks resident of eight */
    check_one<small, gs::sum<T>>(name, 150 * tile + 3, false, 8, 2, 0, 3, false);
    typedef gs::detail::scan_policy<T, gs::detail::scan_short> short_tiles;
    check_one<short_tiles, gs::sum<T>>(name, 5 * short_tiles::tile_items + 9, true, 3, 2, 1, 0,
                                       false);
    typedef gs::detail::scan_policy<T> lib;
    check_one<lib, gs::sum<T>>(name, 3 * lib::tile_items + 77, true, 3, 2, 1, 1, false);
    check_one<lib, gs::max<T>>(name, 2 * lib::tile_items, false, 2, 2, 0, 0, true);
    typedef gs::detail::scan_policy<T, gs::detail::scan_bandwidth> bandwidth;
    check_one<bandwidth, gs::sum<T>>(name, 3 * bandwidth::tile_items + 5, false, 2, 2, 0, 1, false);
}

/* u32 and u64: their comparisons and wrapping sums (every bit pattern, so
 * values past the signed types' largest) through the tile loop and the
 * one-tile kernel, every op and kind on four tiles; the rest of their code
 * is i32's and i64's, which check_type covers. */
template <class T> static void check_unsigned(const char *name)
{
    typedef small_policy<T> small;
    const long long n = 3 * small::tile_items + 1;
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
        check_one<small, gs::sum<T>>(name, n, exclusive, 3, 2, 0, 0, false); /* tile loop */
        check_one<small, gs::min<T>>(name, n, exclusive, 4, 4, 1, 1, false); /* one a tile */
        check_one<small, gs::max<T>>(name, n, exclusive, 2, 2, 1, 0, true);
    }
}

/* The one-tile kernel with the library's short tiling (64-tile windows,
 * two entries a lane) on 40 tiles: the last look-backs fold both rows of
 * the first window through shared memory. */
static void check_one_tile_window(void)
{
    typedef gs::detail::scan_policy<int, gs::detail::scan_short> short_tiles;
    check_one<short_tiles, gs::sum<int>>("one-tile window", 40 * short_tiles::tile_items + 5,
                                         false, 41, 4, 0, 0, false);
}

/* Real-valued floats: the same bits whatever the grid, residency and
 * schedule (the look-back folds in a fixed order). */
static void check_repeatable(void)
{
    typedef small_policy<float> small;
    const long long n = 90 * small::tile_items + 41;
    std::vector<float> x((size_t)n), first((size_t)n), y((size_t)n);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto &v : x)
        v = u(rng);
    /* the last: one block per tile (the one-tile kernel), 8 resident */
    const unsigned int shapes[][2] = {{1, 1}, {8, 8}, {8, 2}, {5, 3}, {16, 4}, {91, 8}};
    int differ = 0;
    for (int s = 0; s < 6; ++s) {
        workspace ws(100);
        scan<small, gs::sum<float>>(ws, x.data(), y.data(), n, false, shapes[s][0], shapes[s][1]);
        if (s == 0)
            first = y;
        else
            differ += memcmp(first.data(), y.data(), (size_t)n * sizeof(float)) != 0;
        double worst = 0.0, exact = 0.0, magnitude = 0.0;
        for (long long k = 0; k < n; ++k) {
            exact += x[(size_t)k];
            magnitude += fabs(x[(size_t)k]);
            worst = std::max(worst, fabs(y[(size_t)k] - exact) / magnitude);
        }
        EXPECT(worst < 1e-4, "real-valued sum: relative error %.3g", worst);
    }
    EXPECT(differ == 0, "%d of 5 schedules gave other bits than the first", differ);
}

/* Tile 0's block stalls (0.5 s after drawing it) while 69 other blocks
 * publish their aggregates: the last tiles' look-backs walk past two
 * windows of aggregates only, then fold the middle one read again. (No
 * block draws its second ticket before every block has drawn its first,
 * so that no tile among the first 70 is a block's prefetched next one, not
 * started until its current one ends.) */
static void check_deep_walk(void)
{
    typedef small_policy<float, 32> f32;
    typedef small_policy<long long, 32> i64;
    emu::slow_ticket = 0;
    emu::slow_ticket_us = 500000;
    emu::hold_second_draws = true;
    emu::fiber_stack = 64u << 10;
    check_one<f32, gs::sum<float>>("deep walk f32", 75 * f32::tile_items + 5, false, 70, 70, 0, 0,
                                   false);
    check_one<i64, gs::max<long long>>("deep walk i64", 75 * i64::tile_items, true, 70, 70, 1, 1,
                                       false);
    emu::slow_ticket = -1;
    emu::hold_second_draws = false;
    emu::fiber_stack = 128u << 10;
}

/* Tile 0 never drawn (the ticket starts at 1): tile 1's look-back cannot
 * finish and must give up at its time-out, with the fault recorded. Three
 * blocks for two tiles: a grid of one block per tile draws one ticket
 * each, and the reset would then come before the second draw. Returns the
 * seconds it took. */
static double give_up_once(workspace &ws)
{
    typedef small_policy<float> small;
    const long long n = 2 * small::tile_items;
    std::vector<float> x((size_t)n, 1.0f), y((size_t)n, -1.0f);
    ws.counters[0] = 1u;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    scan<small, gs::sum<float>>(ws, x.data(), y.data(), n, false, 3, 3, 30000000ull, true);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int written = 0;
    for (long long k = small::tile_items; k < n; ++k)
        written += y[(size_t)k] != -1.0f;
    EXPECT(ws.counters[3] == ws.seq, "abort word %u, expected %u", ws.counters[3], ws.seq);
    EXPECT(written == 0, "the tile that gave up wrote %d elements", written);
    return (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
}

/* A scan that gives up records the fault; a second one while the first is
 * unreported keeps the first and counts itself; once the host has lowered
 * the flag (gs__ws_fault_take), the next is recorded (fault_record.h). */
static void check_timeout(void)
{
    workspace ws(4);
    ws.seq = 41;
    double seconds = give_up_once(ws);
    const unsigned int *f = ws.fault;
    EXPECT(f[GS_FAULT_FLAG] == 1u && f[GS_FAULT_CALL] == 42u && f[GS_FAULT_WHERE] == 1u &&
               f[GS_FAULT_OF] == 2u && f[GS_FAULT_LATER] == 0u,
           "fault record %u %u %u %u %u, expected 1 42 1 2 0", f[0], f[1], f[2], f[3], f[4]);
    EXPECT(seconds < 10.0, "gave up after %.2f s (time-out 0.03 s)", seconds);
    printf("test_scan_emulated: a look-back that cannot finish gave up after %.3f s\n", seconds);
    give_up_once(ws); /* call 43, the first not yet reported */
    EXPECT(f[GS_FAULT_FLAG] == 1u && f[GS_FAULT_CALL] == 42u && f[GS_FAULT_LATER] == 1u,
           "a second fault before the first was reported: record %u %u %u %u %u, expected "
           "1 42 1 2 1 (the first kept, one later)",
           f[0], f[1], f[2], f[3], f[4]);
    ws.fault[GS_FAULT_FLAG] = 0u; /* the host reported it */
    give_up_once(ws);             /* call 44 */
    EXPECT(f[GS_FAULT_FLAG] == 1u && f[GS_FAULT_CALL] == 44u && f[GS_FAULT_LATER] == 1u,
           "a fault after the report: record %u %u %u %u %u, expected 1 44 1 2 1", f[0], f[1],
           f[2], f[3], f[4]);
}

/* gs::block_* and gs::warp_* scans, any block size. */
static void check_block_scans(void)
{
    const unsigned int sizes[] = {32, 33, 64, 95, 128, 200};
    for (unsigned int n : sizes) {
        std::vector<int> x(n), incl(n), excl(n), totals(n), warp_excl(n), mx(n);
        std::vector<gs::arg<int>> arg(n);
        for (auto &v : x)
            v = (int)(rng() % 21u) - 10;
        emu::launch(1, n, 1, rng(), [&] {
            __shared__ int smem[32];
            __shared__ gs::arg<int> asmem[32];
            unsigned int t = threadIdx.x;
            unsigned int lanes = n - (t & ~31u) < 32u ? n - (t & ~31u) : 32u;
            int total = 0;
            incl[t] = gs::block_inclusive_scan(x[t], smem, gs::sum<int>());
            excl[t] = gs::block_exclusive_scan(x[t], smem, gs::sum<int>(), &total);
            totals[t] = total;
            mx[t] = gs::block_exclusive_scan(x[t], smem, gs::max<int>());
            warp_excl[t] = gs::warp_exclusive_scan(x[t], lanes, gs::sum<int>());
            arg[t] = gs::block_inclusive_scan(gs::arg<int>{(long long)t, x[t]}, asmem,
                                              gs::argmin<int>());
        });
        int wrong = 0, sum = 0, warp_sum = 0, best = 0, high = std::numeric_limits<int>::min();
        int total = 0;
        for (unsigned int t = 0; t < n; ++t)
            total += x[t];
        for (unsigned int t = 0; t < n; ++t) {
            if (t % 32 == 0)
                warp_sum = 0;
            wrong += excl[t] != sum || warp_excl[t] != warp_sum || totals[t] != total ||
                     mx[t] != high;
            sum += x[t];
            warp_sum += x[t];
            high = std::max(high, x[t]);
            best = x[t] < x[(size_t)best] ? (int)t : best;
            wrong += incl[t] != sum || arg[t].index != best || arg[t].value != x[(size_t)best];
        }
        EXPECT(wrong == 0, "block of %u threads: %d wrong", n, wrong);
    }
}

int main(void)
{
    unsigned long long seed = gs_test_seed("test_scan_emulated");
    rng.seed(seed);
    const char *jitter = getenv("GS_EMU_JITTER"); /* percent of delayed accesses; stress runs */
    emu::jitter_percent = jitter && *jitter ? atoi(jitter) : 5;
    check_block_scans();
    check_timeout();
    check_type<float>("f32");
    check_type<double>("f64");
    check_type<int>("i32");
    check_type<long long>("i64");
    check_unsigned<unsigned int>("u32");
    check_unsigned<unsigned long long>("u64");
    check_repeatable();
    check_one_tile_window();
    check_deep_walk();
    printf("test_scan_emulated: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
