/*
 * test_pdl.cu - kernels chained with gs_launch_pdl (programmatic dependent
 * launch) and gs_pdl_wait / gs_pdl_launch_dependents order memory from
 * each kernel to the next, read-after-write and write-after-read:
 *   - kernel k of a chain reads kernel k-1's output, rotated by a random
 *     shift (so every block reads other blocks' elements), and writes its
 *     own into the other of two buffers: the buffer kernel k-1 read, so a
 *     write that came before kernel k-1's reads would change them;
 *   - each step is a bijection of the element's value, so one wrong read
 *     anywhere in the chain leaves a wrong value in the final output: the
 *     result is checked exactly, every element, against the CPU;
 *   - every kernel calls gs_pdl_launch_dependents first (the next kernel
 *     may start at once), then sleeps a random, bounded time per block,
 *     before gs_pdl_wait for some blocks and after it (before reading) for
 *     others, so that early starters and late readers overlap;
 *   - grid sizes 1, 3, 7 x 3 (2-D), the SM count plus one, the co-resident
 *     maximum plus one and three times it plus one (odd sizes; PDL needs
 *     no co-residency), on a stream and as a CUDA graph captured once and
 *     replayed several times, each replay going on from the last one's
 *     output; buffers poisoned first;
 *   - gs_launch_pdl refuses a NULL kernel and a zero grid.
 * Prints whether this GPU overlaps the launches (sm_90) or makes ordinary
 * ones; the values must be exact either way.
 */
#include <gridsync/pdl.cuh>

#include <string.h>

#include "exchange.cuh" /* ex_hash */
#include "gpu_test.h"

enum { THREADS = 128, STEPS = 48, REPLAYS = 3, MAX_DELAY_NS = 3000 };

/* Step k's value of element i from the element it reads: a bijection of
 * `in` (xor, then an odd multiplier, then an add), so a wrong input always
 * gives a wrong output. */
static __host__ __device__ __forceinline__ unsigned int step_value(unsigned int in, int k,
                                                                   unsigned int i)
{
    return (in ^ ((unsigned int)k * 0x9e3779b9u)) * 0x01000193u + i;
}

/* Kernel k: out[i] = step_value(in[(i + shift[k]) mod n], k, i). */
static __global__ void chain_step(const unsigned int *in, unsigned int *out,
                                  const unsigned int *shift, int k, unsigned int n,
                                  unsigned int seed)
{
    gs_pdl_launch_dependents(); /* at the top: the next kernel may be scheduled at once */
    const unsigned int b = blockIdx.x + gridDim.x * blockIdx.y;
    const unsigned int i = b * blockDim.x + threadIdx.x;
    const unsigned int h = ex_hash(seed ^ (unsigned int)k * 40503u ^ (b << 11));
    if (threadIdx.x == 0u && (h & 1u)) /* late to the wait */
        __nanosleep((h >> 1) % MAX_DELAY_NS);
    __syncthreads();
    const unsigned int s = shift[k]; /* written before the chain: no wait needed */
    gs_pdl_wait(); /* kernel k-1 complete: its writes of `in` visible, its reads of `out` done */
    if (threadIdx.x == 0u && !(h & 1u)) /* late to read (the kernel before must be done) */
        __nanosleep((h >> 1) % MAX_DELAY_NS);
    __syncthreads();
    if (i < n) {
        const unsigned int j = (unsigned int)(((unsigned long long)i + s) % n);
        out[i] = step_value(in[j], k, i);
    }
}

/* The chain on the CPU: `steps` kernels from `x` (n elements). */
static void chain_cpu(unsigned int *x, unsigned int *tmp, const unsigned int *shift, int steps,
                      unsigned int n)
{
    for (int k = 0; k < steps; ++k) {
        for (unsigned int i = 0; i < n; ++i)
            tmp[i] = step_value(x[(unsigned int)(((unsigned long long)i + shift[k]) % n)], k, i);
        memcpy(x, tmp, (size_t)n * sizeof *x);
    }
}

typedef struct chain {
    dim3 grid;
    unsigned int n, seed;
    unsigned int *buf[2]; /* kernel k reads buf[(k + 1) & 1] and writes buf[k & 1] */
    unsigned int *shift;
} chain;

/* The chain's kernels on `stream` (run, or captured). */
static void launch_chain(chain *c, int steps, cudaStream_t stream)
{
    for (int k = 0; k < steps; ++k) {
        const unsigned int *in = c->buf[(k + 1) & 1];
        unsigned int *out = c->buf[k & 1];
        void *args[] = {(void *)&in, (void *)&out, (void *)&c->shift, (void *)&k, (void *)&c->n,
                        (void *)&c->seed};
        GS_OK(gs_launch_pdl((const void *)chain_step, c->grid, dim3(THREADS), 0, stream, args));
    }
}

/* Compare the device's output (buf[(steps - 1) & 1]) with `want`; the
 * number of wrong elements (the first few printed). */
static unsigned int compare(const unsigned int *got, const unsigned int *want, unsigned int n,
                            const char *what, unsigned int blocks)
{
    unsigned int wrong = 0;
    for (unsigned int i = 0; i < n; ++i)
        if (got[i] != want[i] && wrong++ < 4)
            fprintf(stderr, "  %s, %u blocks: element %u (block %u) is %08x, want %08x\n", what,
                    blocks, i, i / THREADS, got[i], want[i]);
    return wrong;
}

/* One grid: `steps` kernels on the stream, then a graph of `steps`
 * kernels replayed REPLAYS times, each from the last one's output. */
static int run_grid(dim3 grid, int steps, unsigned int seed, cudaStream_t stream)
{
    chain c;
    const unsigned int blocks = grid.x * grid.y;
    c.grid = grid;
    c.n = blocks * THREADS;
    c.seed = seed;
    const size_t bytes = (size_t)c.n * sizeof(unsigned int);
    unsigned int *x = (unsigned int *)malloc(bytes), *tmp = (unsigned int *)malloc(bytes);
    unsigned int *got = (unsigned int *)malloc(bytes);
    unsigned int *shift = (unsigned int *)malloc((size_t)steps * sizeof *shift);
    if (!x || !tmp || !got || !shift) {
        fprintf(stderr, "FATAL: out of host memory\n");
        exit(1);
    }
    for (int k = 0; k < steps; ++k) /* odd shifts: reads cross blocks */
        shift[k] = (ex_hash(seed + 977u * (unsigned int)k) % c.n) | (c.n > 1u);
    for (unsigned int i = 0; i < c.n; ++i)
        x[i] = ex_hash(seed ^ (i * 2654435761u));
    CUDA_OK(cudaMalloc(&c.buf[0], bytes));
    CUDA_OK(cudaMalloc(&c.buf[1], bytes));
    CUDA_OK(cudaMalloc(&c.shift, (size_t)steps * sizeof *shift));
    CUDA_OK(cudaMemcpy(c.shift, shift, (size_t)steps * sizeof *shift, cudaMemcpyHostToDevice));
    /* on `stream` (non-blocking: cudaMemset's legacy stream would not order it) */
    CUDA_OK(cudaMemsetAsync(c.buf[0], 0xa5, bytes, stream)); /* poison: kernel 0 writes all */
    CUDA_OK(cudaMemcpyAsync(c.buf[1], x, bytes, cudaMemcpyHostToDevice, stream));
    CUDA_OK(cudaStreamSynchronize(stream)); /* x is pageable and changes below */
    unsigned int wrong = 0;

    /* on the stream */
    launch_chain(&c, steps, stream);
    CUDA_OK(cudaStreamSynchronize(stream));
    chain_cpu(x, tmp, shift, steps, c.n);
    CUDA_OK(cudaMemcpy(got, c.buf[(steps - 1) & 1], bytes, cudaMemcpyDeviceToHost));
    wrong += compare(got, x, c.n, "stream", blocks);

    /* a graph, captured once (an even number of kernels: each replay reads
     * what the last one wrote), replayed from the stream's output */
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    const int graph_steps = steps & ~1;
    if ((steps & 1) == 1) /* the stream's output in buf[0]: the graph's input is buf[1] */
        CUDA_OK(cudaMemcpyAsync(c.buf[1], c.buf[0], bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_OK(cudaMemsetAsync(c.buf[0], 0x5a, bytes, stream)); /* poison the graph's output */
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    launch_chain(&c, graph_steps, stream);
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < REPLAYS; ++r) {
        CUDA_OK(cudaGraphLaunch(exec, stream));
        chain_cpu(x, tmp, shift, graph_steps, c.n);
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    CUDA_OK(cudaMemcpy(got, c.buf[1], bytes, cudaMemcpyDeviceToHost));
    wrong += compare(got, x, c.n, "graph", blocks);

    printf("  grid %ux%u (%u blocks of %d): %d kernels on a stream, %d replays of a graph of "
           "%d: %u wrong values\n",
           grid.x, grid.y, blocks, THREADS, steps, REPLAYS, graph_steps, wrong);
    EXPECT(wrong == 0u, "grid %ux%u: %u wrong values", grid.x, grid.y, wrong);
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    CUDA_OK(cudaFree(c.buf[0]));
    CUDA_OK(cudaFree(c.buf[1]));
    CUDA_OK(cudaFree(c.shift));
    free(x);
    free(tmp);
    free(got);
    free(shift);
    return 1;
}

/* The smallest odd number above x. */
static unsigned int odd_above(unsigned int x) { return x + 1u + (x & 1u); }

/* Bad arguments: one sentence, nothing launched. */
static int check_arguments(void)
{
    void *args[1] = {NULL};
    gs_status st = gs_launch_pdl(NULL, dim3(1), dim3(32), 0, 0, args);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT, "NULL kernel: %s", gs_status_string(st));
    st = gs_launch_pdl((const void *)chain_step, dim3(0), dim3(32), 0, 0, args);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT, "zero grid: %s", gs_status_string(st));
    EXPECT(strstr(gs_last_error_detail(), "no zero dimension") != NULL, "detail: %s",
           gs_last_error_detail());
    CUDA_OK(cudaGetLastError());
    return 2;
}

int main(void)
{
    gs_test_require_gpu("pdl");
    const unsigned int seed = (unsigned int)gs_test_seed("pdl");
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int overlap = 0, fit = 0;
    GS_OK(gs_pdl_overlaps((const void *)chain_step, &overlap));
    GS_OK(gs_max_coresident_blocks((const void *)chain_step, THREADS, 0, &fit));
    printf("pdl: %s (compute capability %d.%d), %d blocks of %d threads co-resident\n",
           overlap ? "launches overlap the previous kernel (programmatic dependent launch)"
                   : "ordinary stream-ordered launches (no PDL on this GPU or build)",
           info.cc_major, info.cc_minor, fit, THREADS);
    const unsigned int sms = (unsigned int)info.sm_count;
    const unsigned int most = (unsigned int)fit;
    const dim3 grids[] = {dim3(1), dim3(3), dim3(7, 3), dim3(odd_above(sms)),
                          dim3(odd_above(most)), dim3(odd_above(3u * most))};
    const int ngrids = quick ? 4 : (int)(sizeof grids / sizeof grids[0]);
    const int steps = quick ? 5 : STEPS + 1; /* odd: the graph's input comes from buf[0] */
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    int checks = check_arguments();
    for (int g = 0; g < ngrids; ++g)
        checks += run_grid(grids[g], steps, seed + 7919u * (unsigned int)g, stream);
    CUDA_OK(cudaStreamDestroy(stream));
    return gs_test_finish("pdl", checks);
}
