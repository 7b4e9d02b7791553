/* barrier_consumer.cu - a user's CUDA program against an installed gridsync:
 * a kernel with gs_grid_sync, split arrive/wait, a neighbour barrier, a grid
 * all-reduce, a signal and tagged words, launched with gs_launch on as many blocks as
 * fit, a stream compaction in a persistent kernel (block scan, then the grid
 * scan of the blocks' counts), a chain of kernels with programmatic dependent launch (gs_launch_pdl,
 * gs_pdl_wait), a halo exchange (a 1-D field shifted one cell a step), a
 * reduction, a prefix scan and a split-k gemm. Built every way a user builds it (plain nvcc with
 * its default static CUDA runtime, pkg-config, find_package, the static
 * library); exit 0 when the results are right, 77 without a GPU, 1 wrong. */
#include <gridsync.h>
#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/grid_scan.cuh>
#include <gridsync/halo.cuh>
#include <gridsync/neighbour.cuh>
#include <gridsync/pdl.cuh>
#include <gridsync/scan.cuh>
#include <gridsync/signal.cuh>
#include <gridsync/tagged.cuh>

#include <stdio.h>
#include <stdlib.h>

/* Each block writes its slot, waits, and checks the next block's slot;
 * then the same with a neighbour barrier, a sum every thread gets, and a
 * signal each block stores and its left neighbour waits for, and a value
 * each block passes to both neighbours in a tagged word (zeroed words, tags
 * from 1; the next value depends on the last ones read). */
static __global__ void ring(gs_grid_barrier bar, gs_signal_set sig, unsigned int *slots,
                            gs_tagged_word *words, unsigned int *errors, int rounds)
{
    unsigned int n = gridDim.x, b = blockIdx.x, next = (b + 1u) % n, prev = (b + n - 1u) % n;
    unsigned int off = 0u;
    for (int r = 0; r < rounds; ++r) {
        int gave_up = 0;
        if (threadIdx.x == 0) { /* both neighbours read mine: none runs two rounds ahead */
            unsigned int gn = 0u, gp = 0u, tag = (unsigned int)r + 1u;
            gs_tagged_word *set = words + (r & 1) * n;
            gs_tagged_put_u32(&set[b], b * 131u + (unsigned int)r + off, tag);
            gave_up = !gs_tagged_get_u32(&bar, &set[next], tag, next, &gn) ||
                      !gs_tagged_get_u32(&bar, &set[prev], tag, prev, &gp);
            off = (gn - (next * 131u + (unsigned int)r)) + (gp - (prev * 131u + (unsigned int)r));
            if (!gave_up && off != 0u) /* 0 when both were right */
                atomicAdd(errors, 1u);
        }
        gs_block_leave_if(gave_up); /* timed out: gs_barrier_check reports it */
        if (threadIdx.x == 0)
            slots[b] = b * 7919u + (unsigned int)r;
        gs_grid_token token = r % 2 ? gs_grid_arrive(&bar) : gs_grid_token{0u, 0u};
        if (r % 2)
            gs_grid_wait(&bar, token);
        else
            gs_grid_sync(&bar);
        if (threadIdx.x == 0 && slots[next] != next * 7919u + (unsigned int)r)
            atomicAdd(errors, 1u);
        gs_grid_sync(&bar);
        if (threadIdx.x == 0)
            slots[b] = b * 31u + (unsigned int)r;
        gs_neighbour_sync_1d(&bar, GS_NEIGHBOURS_WRAP);
        if (threadIdx.x == 0 && slots[next] != next * 31u + (unsigned int)r)
            atomicAdd(errors, 1u);
        int total = gs_grid_allreduce_sum_i32(&bar, threadIdx.x == 0 ? (int)b : 0);
        if (total != (int)(n * (n - 1u) / 2u))
            atomicAdd(errors, 1u);
        gs_block_signal_store(&sig, b, (unsigned long long)r + 1ull);
        gs_block_signal_wait(&sig, next, (unsigned long long)r + 1ull);
    }
}

/* Stream compaction in a persistent kernel: the even values of in[0 .. n),
 * in order, to out; *kept their count. Each round every block takes the
 * next blockDim values: the block scan gives each kept value its place in
 * the block and the block's count, the grid scan of the counts the block's
 * place in the round and the round's count. */
static __global__ void keep_even(gs_grid_barrier bar, const unsigned int *in, unsigned int n,
                                 unsigned int *out, unsigned int *kept)
{
    __shared__ unsigned int smem[32];
    unsigned int written = 0u;
    for (unsigned int start = 0u; start < n; start += gridDim.x * blockDim.x) {
        unsigned int i = start + blockIdx.x * blockDim.x + threadIdx.x;
        unsigned int x = i < n ? in[i] : 1u, keep = x % 2u == 0u, mine, round;
        unsigned int slot = gs::block_exclusive_scan(keep, smem, gs::sum<unsigned int>(), &mine);
        unsigned int base = gs_grid_exclusive_sum_u32(&bar, mine, &round);
        if (keep)
            out[written + base + slot] = x;
        written += round;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *kept = written;
}

/* keep_even on 1000003 values (several rounds of as many blocks as fit):
 * the wrong or missing values against the CPU, -1 when a call failed. */
static long long compact_wrong(gs_barrier_t bar)
{
    const unsigned int n = 1000003u;
    unsigned int *h = (unsigned int *)malloc(2 * (size_t)n * sizeof *h), *got = h + n;
    unsigned int *in = NULL, *out = NULL, *kept = NULL, count = 0u, want = 0u;
    int blocks = 0;
    gs_grid_barrier view;
    long long wrong = -1;
    if (!h)
        return -1;
    for (unsigned int i = 0; i < n; ++i)
        h[i] = (i * 2654435761u) >> 7;
    if (gs_max_coresident_blocks((const void *)keep_even, 256, 0, &blocks) == GS_SUCCESS &&
        gs_barrier_device(bar, (unsigned int)blocks, &view) == GS_SUCCESS &&
        cudaMalloc((void **)&in, n * sizeof *h) == cudaSuccess &&
        cudaMalloc((void **)&out, n * sizeof *h) == cudaSuccess &&
        cudaMalloc((void **)&kept, sizeof *kept) == cudaSuccess &&
        cudaMemcpy(in, h, n * sizeof *h, cudaMemcpyHostToDevice) == cudaSuccess &&
        cudaMemset(out, 0xff, n * sizeof *h) == cudaSuccess) {
        unsigned int len = n;
        void *args[] = {&view, (void *)&in, &len, &out, &kept};
        if (gs_launch((const void *)keep_even, dim3((unsigned int)blocks), dim3(256), 0, 0, args,
                      bar) == GS_SUCCESS &&
            gs_barrier_check(bar, 0) == GS_SUCCESS &&
            cudaMemcpy(&count, kept, sizeof count, cudaMemcpyDeviceToHost) == cudaSuccess &&
            cudaMemcpy(got, out, n * sizeof *h, cudaMemcpyDeviceToHost) == cudaSuccess) {
            wrong = 0;
            for (unsigned int i = 0; i < n; ++i) /* the even values in order, then untouched */
                if (h[i] % 2u == 0u)
                    wrong += got[want++] != h[i];
            for (unsigned int i = want; i < n; ++i)
                wrong += got[i] != 0xffffffffu;
            wrong += count != want;
        }
    }
    if (wrong < 0)
        fprintf(stderr, "compaction: %s\n", gs_last_error_detail());
    cudaFree(in);
    cudaFree(out);
    cudaFree(kept);
    free(h);
    return wrong;
}

/* One kernel of a PDL chain: out[i] = 3 in[i + 1 (mod n)] + 1, after the
 * previous kernel has written `in` and read `out`. */
static __global__ void chain_step(const unsigned int *in, unsigned int *out, unsigned int n)
{
    gs_pdl_launch_dependents();
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    gs_pdl_wait();
    if (i < n)
        out[i] = 3u * in[(i + 1u) % n] + 1u;
}

/* 20 chained kernels over n elements (a stream of their own); the wrong
 * values of the result against the CPU, -1 when a call failed. */
static long long pdl_chain_wrong(unsigned int n)
{
    unsigned int *buf[2] = {NULL, NULL}, *h = (unsigned int *)malloc(3 * (size_t)n * sizeof *h);
    unsigned int *want = h + n, *next = h + 2 * (size_t)n;
    cudaStream_t s = NULL;
    long long wrong = -1;
    gs_status st = GS_SUCCESS;
    if (!h || cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc((void **)&buf[0], n * sizeof *h) != cudaSuccess ||
        cudaMalloc((void **)&buf[1], n * sizeof *h) != cudaSuccess ||
        cudaMemsetAsync(buf[0], 0, n * sizeof *h, s) != cudaSuccess) {
        free(h);
        return -1;
    }
    for (int k = 0; k < 20 && st == GS_SUCCESS; ++k) { /* the last one writes buf[0] */
        const unsigned int *in = buf[k & 1];
        unsigned int *out = buf[(k + 1) & 1];
        void *args[] = {(void *)&in, (void *)&out, &n};
        st = gs_launch_pdl((const void *)chain_step, dim3((n + 255u) / 256u), dim3(256), 0, s,
                           args);
    }
    if (st != GS_SUCCESS)
        fprintf(stderr, "gs_launch_pdl: %s\n", gs_last_error_detail());
    else if (cudaStreamSynchronize(s) == cudaSuccess &&
             cudaMemcpy(h, buf[0], n * sizeof *h, cudaMemcpyDeviceToHost) == cudaSuccess) {
        for (unsigned int i = 0; i < n; ++i)
            want[i] = 0u;
        for (int k = 0; k < 20; ++k) {
            for (unsigned int i = 0; i < n; ++i)
                next[i] = 3u * want[(i + 1u) % n] + 1u;
            for (unsigned int i = 0; i < n; ++i)
                want[i] = next[i];
        }
        wrong = 0;
        for (unsigned int i = 0; i < n; ++i)
            wrong += h[i] != want[i];
    }
    cudaFree(buf[0]);
    cudaFree(buf[1]);
    cudaStreamDestroy(s);
    free(h);
    return wrong;
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        gs_status st_ = (call);                                                            \
        if (st_ != GS_SUCCESS) {                                                           \
            fprintf(stderr, "%s: %s: %s\n", #call, gs_status_string(st_),                  \
                    gs_last_error_detail());                                               \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

/* C = A B with `kernel` (GS_GEMM_SPLITK: k cut into slices; GS_GEMM_STREAMK:
 * k steps divided among one wave of blocks; GS_GEMM_AUTO: what gs_sgemm
 * picks, for 2048 x 2048 x 64 the wide 128 x 256 tile on sm_80+ GPUs of,
 * for example, 132 SMs, the 128-tiles on others),
 * m x n x k of small integers: every product and sum is exact in FP32, so
 * C must equal the CPU's integers. Returns the wrong elements (-1: a call
 * failed). */
static long long gemm_wrong_with(gs_gemm_kernel kernel, int m, int n, int k)
{
    float *ha = (float *)malloc(sizeof(float) * m * k), *hb = (float *)malloc(sizeof(float) * k * n);
    float *hc = (float *)malloc(sizeof(float) * m * n), *a = NULL, *b = NULL, *c = NULL;
    long long wrong = -1;
    if (!ha || !hb || !hc)
        return -1;
    for (int i = 0; i < m * k; ++i)
        ha[i] = (float)(i * 7 % 5 - 2);
    for (int i = 0; i < k * n; ++i)
        hb[i] = (float)(i * 3 % 5 - 2);
    if (cudaMalloc((void **)&a, sizeof(float) * m * k) == cudaSuccess &&
        cudaMalloc((void **)&b, sizeof(float) * k * n) == cudaSuccess &&
        cudaMalloc((void **)&c, sizeof(float) * m * n) == cudaSuccess &&
        cudaMemcpy(a, ha, sizeof(float) * m * k, cudaMemcpyHostToDevice) == cudaSuccess &&
        cudaMemcpy(b, hb, sizeof(float) * k * n, cudaMemcpyHostToDevice) == cudaSuccess &&
        gs_sgemm_with(kernel, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n, 0) == GS_SUCCESS &&
        cudaMemcpy(hc, c, sizeof(float) * m * n, cudaMemcpyDeviceToHost) == cudaSuccess) {
        wrong = 0;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                long long want = 0;
                for (int l = 0; l < k; ++l)
                    want += (long long)ha[(size_t)i * k + l] * (long long)hb[(size_t)l * n + j];
                wrong += hc[(size_t)i * n + j] != (float)want;
            }
    } else {
        fprintf(stderr, "%s gemm: %s\n", gs_gemm_kernel_name(kernel), gs_last_error_detail());
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    free(ha);
    free(hb);
    free(hc);
    return wrong;
}

/* gridsync/halo.cuh: each step every cell takes its left neighbour's value
 * (0 enters at the left end), so after `steps` steps cell x holds
 * u0[x - steps]: exact, and wrong wherever an edge came late or stale. */
static __global__ void shift(gs_grid_barrier bar, gs_halo halo, const float *u0, float *out,
                             int steps)
{
    extern __shared__ float smem[];
    gs_halo_tile t;
    gs_halo_begin_f32(&t, &bar, &halo, smem, steps);
    gs_halo_load_f32(&t, u0);
    for (int s = 0; s < steps; ++s) {
        const float *c = gs_halo_cur_f32(&t);
        for (int e = t.thread; e < t.edges; e += t.threads) {
            int x, y;
            gs_halo_edge_cell(&t, e, &x, &y);
            gs_halo_put_f32(&t, x, y, c[gs_halo_at(&t, x, y) - 1]);
        }
        if (s % 2 == 0) /* the interior: the walk, then the column strips */
            for (gs_halo_walk w = gs_halo_interior(&t); w.ly < w.end; gs_halo_next(&w))
                gs_halo_nxt_f32(&t)[gs_halo_at(&t, w.lx, w.ly)] = c[gs_halo_at(&t, w.lx, w.ly) - 1];
        else
            for (gs_halo_strip st = gs_halo_strips(&t); st.item < st.items;
                 gs_halo_strip_next(&t, &st))
                for (int y = st.y; y < st.end; ++y)
                    gs_halo_nxt_f32(&t)[gs_halo_at(&t, st.x, y)] = c[gs_halo_at(&t, st.x, y) - 1];
        gs_halo_exchange_f32(&t);
    }
    gs_halo_store_f32(&t, out);
    gs_halo_end(&t);
}

/* The shift on `blocks` chunks of a 5003-cell field, twice on one halo (the
 * second launch goes on from the first's tags): the cells that are wrong. */
static long long halo_wrong(gs_barrier_t bar, int blocks)
{
    const int n = 5003, steps = 60;
    gs_halo_t halo;
    gs_halo view;
    gs_grid_barrier bview;
    size_t smem = 0;
    float *h = (float *)malloc(n * sizeof(float)), *u0 = NULL, *out = NULL;
    long long wrong = 0;
    for (int i = 0; i < n; ++i)
        h[i] = (float)(i + 1);
    blocks = blocks < 64 ? blocks : 64;
    if (gs_halo_create_1d(&halo, n, blocks, GS_FLOAT32) != GS_SUCCESS ||
        gs_halo_device(halo, &view) != GS_SUCCESS ||
        gs_halo_shared_bytes(halo, &smem) != GS_SUCCESS ||
        gs_barrier_device(bar, (unsigned int)blocks, &bview) != GS_SUCCESS ||
        cudaMalloc((void **)&u0, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc((void **)&out, n * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(u0, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "halo: %s\n", gs_last_error_detail());
        return n;
    }
    int s = steps;
    for (int launch = 0; launch < 2 && wrong == 0; ++launch) {
        void *args[] = {&bview, &view, &u0, &out, &s};
        if (cudaMemset(out, 0xff, n * sizeof(float)) != cudaSuccess ||
            gs_launch((const void *)shift, dim3((unsigned int)blocks), dim3(128), smem, 0, args,
                      bar) != GS_SUCCESS ||
            gs_barrier_check(bar, 0) != GS_SUCCESS ||
            cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
            fprintf(stderr, "halo: %s\n", gs_last_error_detail());
            return n;
        }
        for (int i = 0; i < n; ++i)
            wrong += h[i] != (i >= steps ? (float)(i - steps + 1) : 0.0f);
    }
    gs_halo_destroy(halo);
    cudaFree(u0);
    cudaFree(out);
    free(h);
    return wrong;
}

int main(void)
{
    int devices = 0, blocks = 0, rounds = 100;
    if (gs_device_count(&devices) == GS_ERR_NO_DEVICE) {
        printf("barrier_consumer: no GPU, nothing to run (%s)\n", gs_last_error_detail());
        return 77;
    }
    CHECK(gs_max_coresident_blocks((const void *)ring, 256, 0, &blocks));
    gs_barrier_t bar;
    gs_grid_barrier view;
    gs_signals_t sig;
    gs_signal_set sig_view;
    CHECK(gs_signals_create(&sig, (unsigned int)blocks));
    CHECK(gs_signals_device(sig, &sig_view));
    unsigned int *slots = NULL, *errors = NULL, bad = 0;
    gs_tagged_word *words = NULL;
    CHECK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    CHECK(gs_barrier_device(bar, (unsigned int)blocks, &view));
    if (cudaMalloc((void **)&slots, (size_t)blocks * sizeof *slots) != cudaSuccess ||
        cudaMalloc((void **)&words, 2u * (size_t)blocks * sizeof *words) != cudaSuccess ||
        cudaMemset(words, 0, 2u * (size_t)blocks * sizeof *words) != cudaSuccess ||
        cudaMalloc((void **)&errors, sizeof *errors) != cudaSuccess ||
        cudaMemset(errors, 0, sizeof *errors) != cudaSuccess)
        return 1;
    void *args[] = {&view, &sig_view, &slots, &words, &errors, &rounds};
    CHECK(gs_launch((const void *)ring, dim3((unsigned int)blocks), dim3(256), 0, 0, args, bar));
    CHECK(gs_barrier_check(bar, 0));
    CHECK(gs_signals_check(sig, 0));
    CHECK(gs_signals_destroy(sig));
    if (cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;

    /* a reduction of 1..n into host memory (12 MB: the scan below takes
     * its bandwidth tiles) */
    const long long n = 1500007;
    long long *x = NULL, sum = 0;
    long long *h = (long long *)malloc((size_t)n * sizeof *h);
    for (long long i = 0; i < n; ++i)
        h[i] = i + 1;
    if (!h || cudaMalloc((void **)&x, (size_t)n * sizeof *x) != cudaSuccess ||
        cudaMemcpy(x, h, (size_t)n * sizeof *x, cudaMemcpyHostToDevice) != cudaSuccess)
        return 1;
    CHECK(gs_reduce_sum(GS_INT64, x, n, &sum, 0));
    /* its inclusive prefix sums, in place: element i becomes (i + 1)(i + 2) / 2 */
    CHECK(gs_scan_inclusive_sum(GS_INT64, x, x, n, 0));
    CHECK(gs_scan_check(0));
    if (cudaMemcpy(h, x, (size_t)n * sizeof *h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    long long scan_wrong = 0;
    for (long long i = 0; i < n; ++i)
        scan_wrong += h[i] != (i + 1) * (i + 2) / 2;
    long long gemm_wrong = gemm_wrong_with(GS_GEMM_SPLITK, 96, 80, 4096);
    long long streamk_wrong = gemm_wrong_with(GS_GEMM_STREAMK, 96, 80, 4096);
    long long auto_wrong = gemm_wrong_with(GS_GEMM_AUTO, 2048, 2048, 64);
    long long pdl_wrong = pdl_chain_wrong(100003u);
    long long shift_wrong = halo_wrong(bar, blocks);
    long long compact = compact_wrong(bar);
    printf("barrier_consumer: halo shift: %lld wrong cells; compaction: %lld wrong\n",
           shift_wrong, compact);
    printf("barrier_consumer: gridsync %s, %d blocks x %d rounds: %u wrong values; sum %lld "
           "(expected %lld); prefix sums: %lld wrong; split-k gemm: %lld wrong; stream-k gemm: "
           "%lld wrong; 2048 x 2048 x 64 gemm: %lld wrong; PDL chain: %lld wrong\n",
           gs_version(), blocks, rounds, bad, sum, n * (n + 1) / 2, scan_wrong, gemm_wrong,
           streamk_wrong, auto_wrong, pdl_wrong);
    CHECK(gs_barrier_destroy(bar));
    cudaFree(slots);
    cudaFree(words);
    cudaFree(errors);
    cudaFree(x);
    free(h);
    return bad == 0 && sum == n * (n + 1) / 2 && scan_wrong == 0 && gemm_wrong == 0 &&
                   streamk_wrong == 0 && auto_wrong == 0 && pdl_wrong == 0 &&
                   shift_wrong == 0 && compact == 0
               ? 0
               : 1;
}
