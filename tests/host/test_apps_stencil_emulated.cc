/*
 * test_apps_stencil_emulated.cc - the 2-D heat stencil's persistent bodies
 * (tools/suites/apps/stencil/stencil_body.cuh, the very code of the bench's
 * kernels) run on the host under cuda_emulation.h: blocks as OS threads,
 * threads as fibers. The neighbour barrier is emulated by its contract
 * (each block publishes an epoch with a release store and waits, with
 * acquire loads, for its four face neighbours to reach it), with random
 * delays so that blocks drift a step apart, as the real one allows.
 *
 * The tagged halo (gridsync/tagged.cuh) is emulated the same way: 64-bit
 * words of value and tag, stored and polled atomically, stale tags from an
 * "earlier launch" in them at the start; its early gets (the block's last
 * threads polling the next step's ring during the interior) run as on the
 * GPU.
 *
 * Checked: the bodies (tile on chip with either halo, field in global memory:
 * there, blocks owning several interleaved row groups around a ring) on odd
 * fields, one to a dozen blocks, block sizes that are not multiples of 32
 * or of the tile's width, 1 and 7 steps: the same bits as the CPU's float
 * replica, and within gs_stencil_bound of the FP64 reference; the halo and
 * the buffers poisoned (NaN) first. Also the tile split (gs_halo_split_2d's,
 * included from detail/scoped/halo_split.h: this test does not link the library).
 * GRIDSYNC_TEST_SEED repeats a run (the seed is printed).
 */
#include "cuda_emulation.h"

#include "suites/apps/stencil/stencil_body.cuh"
#include <gridsync/detail/scoped/halo_split.h>
#include "testing/random.h"

#include <limits>

#include <stdarg.h>

static int failures = 0, checks = 0;

/* Count a check; print the sentence when it failed. */
static void expect(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect(bool ok, const char *fmt, ...)
{
    ++checks;
    if (ok)
        return;
    ++failures;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The neighbour barrier's contract, over the blocks' epochs; `ring`: a
 * 1 x gy grid whose first and last blocks are neighbours too
 * (gs_neighbour_sync_1d with GS_NEIGHBOURS_WRAP, the global body's). */
struct emu_neighbour_sync {
    unsigned long long *epochs, *calls;
    int bx, by, gx, gy;
    bool ring;
    void operator()() const
    {
        __syncthreads();
        if (threadIdx.x == 0) {
            int me = by * gx + bx;
            if (emu::jitter_rng && (*emu::jitter_rng)() % 8u == 0u)
                emu::sleep_us((long)((*emu::jitter_rng)() % 200u)); /* fall behind */
            unsigned long long e = ++calls[me];
            __atomic_store_n(&epochs[me], e, __ATOMIC_RELEASE);
            const int nx[4] = {bx - 1, bx + 1, bx, bx};
            int ny[4] = {by, by, by - 1, by + 1};
            if (ring) {
                ny[2] = (by + gy - 1) % gy;
                ny[3] = (by + 1) % gy;
            }
            for (int k = 0; k < 4; ++k)
                if (nx[k] >= 0 && nx[k] < gx && ny[k] >= 0 && ny[k] < gy)
                    while (__atomic_load_n(&epochs[ny[k] * gx + nx[k]], __ATOMIC_ACQUIRE) < e)
                        sched_yield();
        }
        __syncthreads();
    }
};

/* The tagged exchange's contract (gridsync/tagged.cuh): each edge cell with
 * its step's tag in one 64-bit word, stored and polled atomically (relaxed:
 * the tag in the word is all the reader relies on), random delays before a
 * store so that neighbours wait. The same members as
 * gs_stencil_barrier_halo; no barrier between steps. */
struct emu_tagged_halo {
    static constexpr bool early_gets = true;
    unsigned long long *words;
    unsigned int tag0;
    void put(size_t at, float v, int s) const
    {
        if (emu::jitter_rng && (*emu::jitter_rng)() % 64u == 0u)
            emu::sleep_us((long)((*emu::jitter_rng)() % 50u));
        unsigned int bits;
        memcpy(&bits, &v, sizeof bits);
        __atomic_store_n(&words[at], (unsigned long long)(tag0 + (unsigned int)s + 1u) << 32 | bits,
                         __ATOMIC_RELAXED);
    }
    int get(size_t at, int s, int, float *v) const
    {
        unsigned long long w;
        while ((unsigned int)((w = __atomic_load_n(&words[at], __ATOMIC_RELAXED)) >> 32) !=
               tag0 + (unsigned int)s)
            emu::yield(); /* the block's other threads run: a neighbour may wait on their puts */
        unsigned int bits = (unsigned int)w;
        memcpy(v, &bits, sizeof bits);
        return 1;
    }
    int try_get(size_t at, int s, float *v) const /* one look */
    {
        unsigned long long w = __atomic_load_n(&words[at], __ATOMIC_RELAXED);
        if ((unsigned int)(w >> 32) != tag0 + (unsigned int)s)
            return 0;
        unsigned int bits = (unsigned int)w;
        memcpy(v, &bits, sizeof bits);
        return 1;
    }
    void ring_done(int) const { __syncthreads(); } /* get never gives up here */
    void step_done() const {}
};

static const float nan_f = std::numeric_limits<float>::quiet_NaN();

/* One solve of w x h, `steps` steps, on `blocks` blocks of `threads`. */
enum { GLOBAL, ONCHIP, TAGGED, MODES };

static void solve(int w, int h, int steps, int blocks, int threads, int mode_,
                  unsigned long long seed)
{
    std::mt19937_64 rng(seed);
    const size_t n = (size_t)w * h;
    std::vector<float> u0(n), a(n, nan_f), b(n, nan_f), out(n, nan_f);
    for (size_t i = 0; i < n; ++i)
        u0[i] = (float)(rng() >> 40) / (float)(1u << 24); /* [0, 1), 24 bits */
    gs_stencil_field f = {};
    f.w = w;
    f.h = h;
    f.steps = steps;
    if (mode_ == GLOBAL) { /* as plan_global: a 1-D grid, at most a block a group */
        const int rows = gs_stencil_group_rows(w, threads), groups = (h + rows - 1) / rows;
        f.gx = 1;
        f.gy = blocks < groups ? blocks : groups;
    } else {
        gs__halo_split_2d(w, h, blocks, &f.gx, &f.gy);
        f.tile_w = (w + f.gx - 1) / f.gx;
        f.tile_h = (h + f.gy - 1) / f.gy;
    }
    std::vector<float> halo(gs_stencil_halo_floats(w, h, f.gx, f.gy), nan_f);
    /* tagged: stale words hold the tags of an earlier launch, up to tag0
     * (its last step's), with NaN values */
    const unsigned int tag0 = 1000u + (unsigned int)(rng() % 1000u);
    std::vector<unsigned long long> words(halo.size(), (unsigned long long)tag0 << 32 |
                                                           0x7fc00000u);
    for (size_t i = 0; i < words.size(); i += 2)
        words[i] = (unsigned long long)(tag0 - 1u) << 32 | 0x7fc00000u;
    std::vector<unsigned long long> epochs(f.gx * f.gy, 0ull), calls(f.gx * f.gy, 0ull);
    f.u0 = u0.data();
    f.a = a.data();
    f.b = b.data();
    f.out = out.data();
    f.halo = halo.data();
    const size_t smem_floats = 2u * (size_t)(f.tile_h + 2) * (size_t)(f.tile_w + 2);
    unsigned int grid = (unsigned int)(f.gx * f.gy);
    emu::launch(grid, (unsigned int)threads, grid, rng(), [&]() {
        static thread_local std::vector<float> smem;
        if (smem.size() != smem_floats)
            smem.assign(smem_floats, nan_f);
        int bx = (int)blockIdx.x % f.gx, by = (int)blockIdx.x / f.gx;
        emu_neighbour_sync sync = {epochs.data(), calls.data(), bx, by, f.gx, f.gy,
                                   mode_ == GLOBAL};
        if (mode_ == ONCHIP)
            gs_stencil_onchip_body(f, bx, by, smem.data(),
                                   gs_stencil_barrier_halo<emu_neighbour_sync>{f.halo, sync});
        else if (mode_ == TAGGED)
            gs_stencil_onchip_body(f, bx, by, smem.data(), emu_tagged_halo{words.data(), tag0});
        else
            gs_stencil_global_body(f, by, f.gy, sync);
    });

    std::vector<float> fx(n), fy(n);
    std::vector<double> dx(n), dy(n);
    const float *replica = gs_stencil_cpu<float>(u0.data(), w, h, steps, fx.data(), fy.data());
    const double *ref = gs_stencil_cpu<double>(u0.data(), w, h, steps, dx.data(), dy.data());
    size_t diff = 0, first = n;
    for (size_t i = 0; i < n; ++i)
        if (memcmp(&out[i], &replica[i], sizeof(float)) != 0) {
            first = diff++ ? first : i;
        }
    double err = gs_stencil_error(out.data(), ref, n);
    double bound = gs_stencil_bound(steps, u0.data(), ref, n);
    const char *mode = mode_ == ONCHIP ? "on chip" : mode_ == TAGGED ? "tagged" : "global";
    expect(diff == 0, "%s %dx%d, %d steps, %dx%d tiles, %d threads: %zu cells differ from the "
           "float replica, first (%zu, %zu): %g vs %g", mode, w, h, steps, f.gx, f.gy, threads,
           diff, first % w, first / w, first < n ? out[first] : 0.0f,
           first < n ? replica[first] : 0.0f);
    expect(err <= bound, "%s %dx%d, %d steps: error %.3g over the bound %.3g", mode, w, h,
           steps, err, bound);
}

/* The edge cells: each cell on a tile's edge exactly once, none inside. */
static void test_perimeter(void)
{
    for (int tw = 1; tw <= 7; ++tw)
        for (int th = 1; th <= 7; ++th) {
            std::vector<int> seen((size_t)tw * th, 0);
            const int n = gs_stencil_perimeter(tw, th);
            for (int i = 0; i < n; ++i) {
                int lx = -1, ly = -1;
                gs_stencil_perimeter_cell(i, tw, th, &lx, &ly);
                if (lx >= 0 && lx < tw && ly >= 0 && ly < th)
                    ++seen[(size_t)ly * tw + lx];
                else
                    expect(false, "%d x %d: edge cell %d at (%d, %d), outside", tw, th, i, lx, ly);
            }
            for (int y = 0; y < th; ++y)
                for (int x = 0; x < tw; ++x) {
                    const bool edge = x == 0 || y == 0 || x == tw - 1 || y == th - 1;
                    expect(seen[(size_t)y * tw + x] == (edge ? 1 : 0),
                           "%d x %d: cell (%d, %d) listed %d times as an edge cell", tw, th, x, y,
                           seen[(size_t)y * tw + x]);
                }
        }
}

static void test_tiles(void)
{
    int gx = 0, gy = 0;
    gs__halo_split_2d(1024, 1024, 132, &gx, &gy);
    expect(gx * gy == 132 && (gx == 12 || gx == 11), "132 on a square: %d x %d", gx, gy);
    gs__halo_split_2d(2048, 1024, 132, &gx, &gy);
    expect(gx >= gy && gx * gy >= 116, "132 on 2:1: %d x %d", gx, gy);
    gs__halo_split_2d(3, 1000, 132, &gx, &gy);
    expect(gx <= 3 && gy <= 1000 && gx * gy >= 116, "132 on 3 x 1000: %d x %d", gx, gy);
    gs__halo_split_2d(5, 3, 132, &gx, &gy);
    expect(gx == 5 && gy == 3, "132 on 5 x 3: %d x %d", gx, gy);
    gs__halo_split_2d(64, 64, 1, &gx, &gy);
    expect(gx == 1 && gy == 1, "1 block: %d x %d", gx, gy);
    for (int blocks = 1; blocks <= 300; ++blocks) {
        gs__halo_split_2d(97, 61, blocks, &gx, &gy);
        expect(gx >= 1 && gy >= 1 && gx * gy <= blocks && gx <= 97 && gy <= 61,
               "%d blocks: %d x %d", blocks, gx, gy);
    }
}

int main(void)
{
    unsigned long long seed = gs_test_seed("test_apps_stencil_emulated");
    fflush(stdout);
    emu::jitter_percent = 5;
    emu::fiber_stack = 64u << 10;
    test_tiles();
    test_perimeter();
    static const int fields[][2] = {{1, 1}, {5, 3}, {17, 13}, {37, 29}, {3, 41}, {64, 9},
                                      {200, 37}, {7, 300}};
    static const int blocks[] = {1, 2, 3, 6, 12};
    static const int threads[] = {32, 45, 96};
    int k = 0;
    for (const auto &fd : fields)
        for (int bl : blocks)
            for (int steps : {1, 7})
                for (int mode = 0; mode < MODES; ++mode, ++k)
                    solve(fd[0], fd[1], steps, bl, threads[k % 3], mode, seed + k);
    printf("test_apps_stencil_emulated: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
