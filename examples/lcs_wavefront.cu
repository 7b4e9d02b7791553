/*
 * lcs_wavefront.cu - the longest common subsequence of two strings as a
 * wavefront of tiles, the blocks handing tiles to each other with signals.
 *
 * L[r][c] = max(L[r-1][c], L[r][c-1], L[r-1][c-1] + (a[r-1] == b[c-1])),
 * L[0][*] = L[*][0] = 0; the answer is L[m][n]. The table is cut into
 * bands of 32 rows and tiles of 32 x 32 cells. One warp-sized block works
 * through a band left to right: lane l owns row l of the band and at step s
 * computes column s - l of the tile, taking the row above from lane l - 1
 * with a shuffle (lane 0: from the band above, in global memory).
 *
 * Tile (i, j) needs tile (i - 1, j): block b owns bands b, b + G, ... and
 * publishes after each tile how many tiles it has finished
 * (gs_block_signal_store: a block barrier, then a release), and the block
 * of the band below waits for that count (gs_block_signal_wait: an
 * acquire, then a block barrier) before reading the band's bottom row. No
 * block ever waits for the whole grid: a band starts as soon as the first
 * tile above it is done, so up to G tiles run at once along the wavefront.
 * A block waits only on the band above, owned by a block that started
 * (gs_launch makes the grid co-resident), so there is no deadlock; a wait
 * that takes too long becomes an error from gs_signals_check, not a hang.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc lcs_wavefront.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_lcs_wavefront [length of a] [length of b] [seed]
 */
#include <gridsync.h>
#include <gridsync/signal.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T = 32 }; /* band rows = tile columns = threads per block */

/* rows[i * n + c] = L[min((i + 1) T, m)][c + 1]: the bottom row of band i.
 * Block b's counter = base + the tiles it has finished (base: where the
 * counters stand before this launch; 0 on a new signal set). */
static __global__ void lcs(gs_signal_set sig, unsigned long long base, const unsigned char *a,
                           const unsigned char *b, int *rows, int m, int n)
{
    const unsigned int full = 0xffffffffu;
    const int lane = (int)threadIdx.x, g = (int)gridDim.x;
    const int bands = (m + T - 1) / T, tiles = (n + T - 1) / T;
    for (int i = (int)blockIdx.x, k = 0; i < bands; i += g, ++k) {
        const int row = i * T + lane, h = min(T, m - i * T);
        const unsigned char ar = row < m ? a[row] : 0xff; /* 0xff: matches no char of b */
        int left = 0, cur = 0; /* L[row + 1][the last column done] */
        for (int j = 0; j < tiles; ++j) {
            const int c0 = j * T, w = min(T, n - c0);
            if (i > 0) /* tile (i - 1, j) is done: the band above's count passed j */
                gs_block_signal_wait(&sig, (unsigned int)((i - 1) % g),
                                     base + (unsigned long long)((i - 1) / g * tiles + j + 1));
            const int *above = rows + (long long)(i - 1) * n; /* read only when i > 0 */
            const int top = i > 0 && lane < w ? above[c0 + lane] : 0;
            const int corner = i > 0 && j > 0 ? above[c0 - 1] : 0;
            int diag = __shfl_up_sync(full, left, 1); /* L[row][c0] */
            if (lane == 0)
                diag = corner;
            for (int s = 0; s < 2 * T - 1; ++s) {
                const int c = s - lane; /* this lane's column in the tile */
                int up = __shfl_up_sync(full, cur, 1); /* lane - 1's column c, one step ago */
                const int from_above = __shfl_sync(full, top, s & (T - 1));
                if (lane == 0)
                    up = from_above;
                if (c >= 0 && c < T) {
                    const int col = c0 + c, match = col < n && ar == b[col];
                    cur = max(max(up, left), diag + match);
                    diag = up;
                    left = cur;
                    if (lane == h - 1 && c < w) /* the band's last row: for the band below */
                        rows[(long long)i * n + col] = cur;
                }
            }
            gs_block_signal_store(&sig, blockIdx.x,
                                  base + (unsigned long long)(k * tiles + j + 1));
        }
    }
}

/* Report a failed CUDA call: 1, else 0. */
static int cuda_failed(cudaError_t err, const char *call)
{
    if (err != cudaSuccess)
        fprintf(stderr, "%s: %s\n", call, cudaGetErrorName(err));
    return err != cudaSuccess;
}

/* Report a failed gridsync call: the exit status (3: no GPU), else 0. */
static int gs_failed(gs_status st)
{
    if (st == GS_SUCCESS)
        return 0;
    fprintf(stderr, "%s: %s\n", gs_status_string(st), gs_last_error_detail());
    return st == GS_ERR_NO_DEVICE ? 3 : 1;
}

#define CHECK(call) if (cuda_failed((call), #call)) return 1
#define GS_CHECK(call) if (int rc_ = gs_failed(call)) return rc_

/* A whole number in [lo, hi], or -1. */
static long arg(const char *s, long lo, long hi)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return *s && *end == '\0' && v >= lo && v <= hi ? v : -1;
}

int main(int argc, char **argv)
{
    long m = argc > 1 ? arg(argv[1], 1, 1 << 16) : 3001, n = argc > 2 ? arg(argv[2], 1, 1 << 16) : 2048;
    long seed = argc > 3 ? arg(argv[3], 0, 0x7fffffff) : 12345;
    if (argc > 4 || m < 0 || n < 0 || seed < 0) {
        fprintf(stderr, "usage: example_lcs_wavefront [length of a: 1 .. 65536] "
                        "[length of b: 1 .. 65536] [seed >= 0]\n");
        return 2;
    }
    int count = 0;
    GS_CHECK(gs_device_count(&count));
    const int bands = (int)((m + T - 1) / T);
    unsigned char *a = (unsigned char *)malloc((size_t)(m + n));
    int *got = (int *)malloc((size_t)bands * n * sizeof(int));
    int *prev = (int *)calloc(2 * ((size_t)n + 1), sizeof(int)), *cur = prev + n + 1;
    if (!a || !got || !prev) {
        fprintf(stderr, "example_lcs_wavefront: out of host memory\n");
        return 1;
    }
    unsigned char *b = a + m;
    srand((unsigned int)seed);
    for (long i = 0; i < m + n; ++i)
        a[i] = (unsigned char)(rand() % 4); /* A, C, G, T */

    unsigned char *d_a;
    int *d_rows;
    CHECK(cudaMalloc(&d_a, (size_t)(m + n)));
    CHECK(cudaMalloc(&d_rows, (size_t)bands * n * sizeof(int)));
    CHECK(cudaMemcpy(d_a, a, (size_t)(m + n), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_rows, 0xff, (size_t)bands * n * sizeof(int))); /* -1: never written */

    /* one block per band, at most what can be co-resident: a block then
     * takes bands b, b + blocks, ... */
    int blocks = 0;
    GS_CHECK(gs_max_coresident_blocks((const void *)lcs, T, 0, &blocks));
    blocks = bands < blocks ? bands : blocks;
    gs_signals_t sig;
    gs_signal_set view;
    GS_CHECK(gs_signals_create(&sig, (unsigned int)blocks));
    GS_CHECK(gs_signals_device(sig, &view));
    unsigned long long base = 0; /* a new set: every counter is 0 */
    const unsigned char *d_b = d_a + m;
    int im = (int)m, in = (int)n;
    void *args[] = {&view, &base, &d_a, &d_b, &d_rows, &im, &in};
    GS_CHECK(gs_launch((const void *)lcs, dim3(blocks), dim3(T), 0, 0, args, NULL));
    GS_CHECK(gs_signals_check(sig, 0)); /* waits for the kernel; a time-out is an error */
    CHECK(cudaMemcpy(got, d_rows, (size_t)bands * n * sizeof(int), cudaMemcpyDeviceToHost));

    long bad = 0; /* the same DP on the CPU, every band's bottom row compared */
    for (long r = 1; r <= m; ++r) {
        for (long c = 1; c <= n; ++c) {
            int x = prev[c] > cur[c - 1] ? prev[c] : cur[c - 1];
            int y = prev[c - 1] + (a[r - 1] == b[c - 1]);
            cur[c] = x > y ? x : y;
        }
        if (r % T == 0 || r == m)
            for (long c = 0; c < n; ++c)
                bad += got[(r - 1) / T * n + c] != cur[c + 1];
        int *s = prev;
        prev = cur;
        cur = s;
    }
    printf("lcs_wavefront: strings of %ld and %ld (seed %ld), %d bands on %d blocks: LCS %d on "
           "the GPU, %d on the CPU, %ld of %ld band rows differ %s\n", m, n, seed, bands, blocks,
           got[(long)(bands - 1) * n + n - 1], prev[n], bad, (long)bands * n,
           bad ? "(WRONG)" : "(ok)");
    GS_CHECK(gs_signals_destroy(sig));
    cudaFree(d_a);
    cudaFree(d_rows);
    free(a);
    free(got);
    free(prev < cur ? prev : cur);
    return bad ? 1 : 0;
}
