/*
 * test_scan_kernels.cu - the scan's kernels launched directly, each against
 * the kernel whose bits it must give (scan_direct.h): the bandwidth
 * tiling's resident kernel (tiles in shared memory, bulk copies, a
 * look-back warp) against its register kernel, and the short and latency
 * tilings' one-tile kernels (one block per tile) against their tile loops:
 * inclusive and exclusive float sums, int min and max, aligned, misaligned
 * (input, output or both) and in place, partial last tiles, grids of one
 * block, one block per tile and fewer blocks than tiles; every element
 * written, nothing past n, no look-back giving up.
 */
#include "scan_direct.h"

/* The bandwidth tiling's register kernel (0) and resident kernel (1). */
template <class Op>
static void launch_register_resident(int k, unsigned int blocks, const gs::detail::scan_args &a)
{
    launch_bandwidth<Op>(k == 1, blocks, a);
}

/* One case of check_resident: the resident kernel's bits must be the
 * register kernel's, both on `blocks` blocks. */
template <class Op>
static int resident_case(const typename Op::value_type *h_in, long long n, int in_offset,
                         bool in_place, int exclusive, unsigned int blocks, const char *what,
                         int out_offset = -1)
{
    typedef gs::detail::scan_policy<typename Op::value_type, gs::detail::scan_bandwidth> policy;
    const kernel_pair pair = {{"register kernel", "resident kernel"},
                              launch_register_resident<Op>,
                              {blocks, blocks}};
    return same_bits_case<policy, Op>(pair, h_in, n, in_offset, in_place, exclusive, what,
                                      out_offset);
}

/* The bandwidth tiling's resident kernel against its register kernel (the
 * library runs the first on sm_90 and later, the second elsewhere, and
 * promises the same bits): float sums and int max and min, inclusive and
 * exclusive, on random data; a partial last tile; input 16-byte aligned
 * (bulk copies), misaligned (the threads load), output misaligned, and in
 * place; one block, one
 * block per tile, and fewer blocks than tiles (tickets). Small enough for
 * the sanitizers. */
static int check_resident(void)
{
    const long long tile = bandwidth_f32::tile_items;
    const long long n = 5 * tile + 77;
    float *hf = (float *)malloc((size_t)n * sizeof(float));
    int *hi = (int *)malloc((size_t)n * sizeof(int));
    for (long long i = 0; i < n; ++i) {
        hf[i] = (float)(urand() * 2.0 - 1.0) * 100.0f;
        hi[i] = (int)(next_u64() & 0xffffffu); /* never -1: the poison */
    }
    int checks = 0;
    const unsigned int grids[] = {1u, 6u, 2u, 3u}; /* one, one per tile, fewer */
    for (unsigned int blocks : grids)
        for (int exclusive = 0; exclusive < 2; ++exclusive) {
            checks += resident_case<gs::sum<float>>(hf, n, 0, false, exclusive, blocks, "f32 sum");
            checks += resident_case<gs::sum<float>>(hf, n, 1, false, exclusive, blocks, "f32 sum");
            /* copied in, stored element by element */
            checks +=
                resident_case<gs::sum<float>>(hf, n, 0, false, exclusive, blocks, "f32 sum", 2);
            checks += resident_case<gs::max<int>>(hi, n, 0, true, exclusive, blocks, "i32 max");
        }
    checks += resident_case<gs::min<int>>(hi, 2 * tile, 3, true, 0, 2u, "i32 min");
    checks += resident_case<gs::sum<float>>(hf, tile - 5, 0, false, 1, 1u, "f32 sum");
    free(hf);
    free(hi);
    printf("  the resident kernel gives the register kernel's bits: %d checks\n", checks);
    return checks;
}

/* ------------------------------------------------- the one-tile kernel */

/* A tiling's tile loop (0) and its one-tile kernel (1). */
template <class Op, int Tiling>
static void launch_loop_or_one_tile(int k, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<typename Op::value_type, Tiling> policy;
    if (k == 0)
        gs::detail::single_pass_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
    else
        gs::detail::single_tile_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
}

/* One case of check_one_tile: the one-tile kernel on one block per tile
 * must give the bits of the tile loop on `loop_blocks` blocks. */
template <class Op, int Tiling>
static int one_tile_case(const typename Op::value_type *h_in, long long n, int in_offset,
                         bool in_place, int exclusive, unsigned int loop_blocks, const char *what,
                         int out_offset = -1)
{
    typedef gs::detail::scan_policy<typename Op::value_type, Tiling> policy;
    const unsigned int tiles = (unsigned int)((n + policy::tile_items - 1) / policy::tile_items);
    const kernel_pair pair = {{"tile loop", "one-tile kernel"},
                              launch_loop_or_one_tile<Op, Tiling>,
                              {loop_blocks, tiles}};
    return same_bits_case<policy, Op>(pair, h_in, n, in_offset, in_place, exclusive, what,
                                      out_offset);
}

/* The one-tile kernels of the short and latency tilings (gs_scan runs them
 * where the grid has one block per tile) against their tile loops on one
 * block per tile, three blocks (tickets) and one: float sums of real values
 * and int max, inclusive and exclusive, aligned, input misaligned, output
 * misaligned (stored element by element) and in place, partial last tiles;
 * and float sums over 70 tiles, whose last look-backs start past tile 0's
 * 64-tile window. */
template <int Tiling>
static int check_one_tile_of(const float *hf, const int *hi, int quick)
{
    typedef gs::detail::scan_policy<float, Tiling> policy;
    const long long n = 5 * policy::tile_items + 77, tiles = 6;
    const unsigned int grids[] = {(unsigned int)tiles, 3u, 1u};
    int checks = 0;
    for (unsigned int blocks : grids)
        for (int exclusive = 0; exclusive < 2; ++exclusive) {
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 0, false, exclusive, blocks,
                                                            "f32 sum");
            checks += one_tile_case<gs::max<int>, Tiling>(hi, n, 0, true, exclusive, blocks,
                                                          "i32 max");
            if (quick)
                continue;
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 1, false, exclusive, blocks,
                                                            "f32 sum");
            checks += one_tile_case<gs::sum<float>, Tiling>(hf, n, 0, false, exclusive, blocks,
                                                            "f32 sum", 3);
        }
    checks += one_tile_case<gs::sum<float>, Tiling>(hf, policy::tile_items - 5, 0, false, 1, 1u,
                                                    "f32 sum");
    if (!quick)
        checks += one_tile_case<gs::sum<float>, Tiling>(hf, 70 * policy::tile_items + 3, 0, false,
                                                        0, 7u, "f32 sum, 71 tiles");
    return checks;
}

static int check_one_tile(int quick)
{
    typedef gs::detail::scan_policy<float, gs::detail::scan_latency> latency;
    const long long n = 70 * latency::tile_items + 3; /* the largest case */
    float *hf = (float *)malloc((size_t)n * sizeof(float));
    int *hi = (int *)malloc((size_t)n * sizeof(int));
    if (!hf || !hi) {
        fprintf(stderr, "FATAL: out of host memory for %lld elements\n", n);
        exit(1);
    }
    for (long long i = 0; i < n; ++i) {
        hf[i] = (float)(urand() * 2.0 - 1.0) * 100.0f;
        hi[i] = (int)(next_u64() & 0xffffffu); /* never -1: the poison */
    }
    int checks = check_one_tile_of<gs::detail::scan_short>(hf, hi, quick);
    checks += check_one_tile_of<gs::detail::scan_latency>(hf, hi, quick);
    free(hf);
    free(hi);
    printf("  the one-tile kernels give their tile loops' bits: %d checks\n", checks);
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    const int quick = scan_test_begin("scan_kernels");
    int checks = 0;
    if (resident_runs()) {
        checks += check_resident();
    } else {
        printf("  the resident kernel: skipped (it needs sm_90 and code built for it)\n");
    }
    checks += check_one_tile(quick);
    return scan_test_end("scan_kernels", checks);
}
