/*
 * test_tagged.cu - tagged words (gridsync/tagged.cuh) carry values between
 * blocks with no barrier: a ring of blocks where, every step, each block
 * puts 64 words (one a thread, tag = the step's) after a random per-block
 * delay, and gets its left and right neighbours' 64 words of the same step.
 * Each value is a hash of (seed, step, block, word) plus what the writer
 * read of its neighbours' words one step before minus what it expected (0
 * when every read was right): so each put depends on the reads before it,
 * as the contract's reuse rule asks, and a wrong read also spoils the
 * values after it. Two sets of words (even and odd steps). Grid sizes 1,
 * 2, SMs, SMs + 1 and the co-resident maximum, over 10^6 steps in all; the
 * same words serve every launch, each going on from the last one's tags,
 * one launch with tags ending at 2^32 - 1. Each thread puts and gets its
 * own word here; a value that goes through shared memory from one thread's
 * get to another's put is the stencil's (gpu_apps_stencil). Then the
 * watchdog: a block that
 * stops putting at a given step ends the launch with GS_ERR_BARRIER_TIMEOUT
 * naming it, the tag seen and the tag expected, and the GPU stays usable.
 */
#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <string.h>

#include <gridsync/tagged.cuh>

enum { WORDS = 64, THREADS = 128 };

static __device__ __forceinline__ unsigned int tg_value(unsigned int seed, unsigned int step,
                                                       unsigned int b, unsigned int w)
{
    return ex_hash(seed ^ step * 2654435761u ^ b * 40503u ^ w * 97u);
}

/* `steps` steps from tag tag0 + 1; block `victim` stops putting at step
 * `stop` (~0u: nobody stops). */
static __global__ void ring_kernel(gs_grid_barrier bar, gs_tagged_word *words,
                                   unsigned int *errors, unsigned int steps, unsigned int tag0,
                                   unsigned int seed, unsigned int max_delay_ns,
                                   unsigned int victim, unsigned int stop)
{
    const unsigned int n = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    const unsigned int left = (b + n - 1u) % n, right = (b + 1u) % n;
    unsigned int bad = 0u, carry = 0u; /* what the last step's reads were off by */
    for (unsigned int s = 0; s < steps; ++s) {
        gs_tagged_word *set = words + (size_t)(s & 1u) * n * WORDS;
        const unsigned int tag = tag0 + s + 1u;
        unsigned int h = ex_hash(seed ^ s * 7919u ^ b << 12);
        if (max_delay_ns && t == 0u && (h & 15u) == 0u)
            __nanosleep((h >> 4) % max_delay_ns);
        __syncthreads(); /* the delay holds back the whole block's puts */
        if (b == victim && s == stop)
            return; /* the watchdog test: this block never puts again */
        if (t < WORDS)
            gs_tagged_put_u32(set + (size_t)b * WORDS + t, tg_value(seed, s, b, t) + carry, tag);
        int gave_up = 0;
        if (t < WORDS) {
            unsigned int l = 0u, r = 0u;
            gave_up |= !gs_tagged_get_u32(&bar, set + (size_t)left * WORDS + t, tag, left, &l);
            if (!gave_up) /* after a time-out, no second wait (it would be reported late) */
                gave_up |= !gs_tagged_get_u32(&bar, set + (size_t)right * WORDS + t, tag, right,
                                              &r);
            const unsigned int dl = l - tg_value(seed, s, left, t);
            const unsigned int dr = r - tg_value(seed, s, right, t);
            bad += (dl != 0u) + (dr != 0u);
            carry = dl + dr; /* 0 when both were right */
        }
        gs_block_leave_if(gave_up);
    }
    if (bad)
        atomicAdd(errors, bad);
}

typedef struct ctx {
    gs_barrier_t bar;
    gs_tagged_word *words;
    unsigned int *errors;
    unsigned int tag; /* the last tag any launch used */
} ctx;

/* One launch; returns its status (the check's) and counts wrong values. */
static gs_status launch(ctx *c, unsigned int blocks, unsigned int steps, unsigned int delay_ns,
                        unsigned int victim, unsigned int stop, unsigned int *bad)
{
    gs_grid_barrier view;
    GS_OK(gs_barrier_device(c->bar, blocks, &view));
    CUDA_OK(cudaMemset(c->errors, 0, sizeof *c->errors));
    unsigned int seed = (unsigned int)rand(), tag0 = c->tag;
    void *args[] = {&view, &c->words, &c->errors, &steps, &tag0,
                    &seed, &delay_ns, &victim,    &stop};
    GS_OK(gs_launch((const void *)ring_kernel, dim3(blocks), dim3(THREADS), 0, 0, args, c->bar));
    gs_status st = gs_barrier_check(c->bar, 0);
    c->tag = tag0 + steps;
    CUDA_OK(cudaMemcpy(bad, c->errors, sizeof *bad, cudaMemcpyDeviceToHost));
    return st;
}

static int exchange(ctx *c, unsigned int blocks, unsigned int steps, unsigned int delay_ns)
{
    unsigned int bad = 0u;
    gs_status st = launch(c, blocks, steps, delay_ns, ~0u, ~0u, &bad);
    EXPECT(st == GS_SUCCESS, "%u blocks, %u steps: %s: %s", blocks, steps, gs_status_string(st),
           gs_last_error_detail());
    EXPECT(bad == 0u, "%u blocks, %u steps from tag %u, delay %u ns: %u wrong values", blocks,
           steps, c->tag - steps + 1u, delay_ns, bad);
    return 2;
}

/* A block that stops putting: the time-out names it and the tags. Two
 * blocks, so that the only waiter is block 0, on block 1. */
static int watchdog(ctx *c)
{
    const unsigned int blocks = 2u, victim = 1u, stop = 5u;
    const unsigned int expected_tag = c->tag + stop + 1u;
    unsigned int bad = 0u;
    GS_OK(gs_barrier_set_timeout(c->bar, 0.2));
    gs_status st = launch(c, blocks, 20u, 0u, victim, stop, &bad);
    char want[96];
    snprintf(want, sizeof want, "tagged word from block %u", victim);
    const char *detail = gs_last_error_detail();
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(detail, want) != NULL,
           "%u blocks, block %u stops at step %u: expected a time-out naming it, got %s: %s",
           blocks, victim, stop, gs_status_string(st), detail);
    char tags[96];
    snprintf(tags, sizeof tags, "waited for tag %u but saw tag", expected_tag);
    EXPECT(strstr(detail, tags) != NULL, "the time-out's sentence names the tag %u: %s",
           expected_tag, detail);
    printf("tagged: watchdog (%u blocks): %s\n", blocks, detail);
    GS_OK(gs_barrier_set_timeout(c->bar, 5.0));
    /* the GPU and the barrier go on: a full exchange on the same words */
    return 2 + exchange(c, blocks, 1000u, 0u);
}

int main(void)
{
    gs_test_require_gpu("tagged");
    srand((unsigned int)gs_test_seed("tagged"));
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    int max_blocks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)ring_kernel, THREADS, 0, &max_blocks));
    ctx c = {};
    c.tag = 0u;
    GS_OK(gs_barrier_create(&c.bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(c.bar, quick ? 30.0 : 5.0));
    const size_t bytes = 2u * (size_t)max_blocks * WORDS * sizeof(gs_tagged_word);
    CUDA_OK(cudaMalloc(&c.words, bytes));
    CUDA_OK(cudaMemset(c.words, 0, bytes)); /* tag 0: never waited for */
    CUDA_OK(cudaMalloc(&c.errors, sizeof *c.errors));
    unsigned int grids[6];
    int ngrids = gs_test_grid_sizes((unsigned int)info.sm_count, (unsigned int)max_blocks, grids);
    const unsigned int steps = quick ? 6u : 1200000u / (unsigned int)ngrids + 1u;
    int checks = 0;
    long long total = 0;
    for (int g = 0; g < ngrids; ++g) {
        checks += exchange(&c, grids[g], steps, g % 2 ? 3000u : 0u);
        total += steps;
    }
    /* tags up to 2^32 - 1: the words' stale tags are all below */
    c.tag = 0xffffffffu - 1000u;
    checks += exchange(&c, grids[ngrids - 1], 1000u, 1000u);
    /* wrapping: the words go back to tag 0 first, as the contract says */
    CUDA_OK(cudaMemset(c.words, 0, bytes));
    c.tag = 0u;
    checks += exchange(&c, grids[0], quick ? 3u : 1000u, 0u);
    printf("tagged: %lld steps over %d grid sizes (1 .. %d blocks), %d words a block a step\n",
           total, ngrids, max_blocks, WORDS);
    checks += watchdog(&c);
    GS_OK(gs_barrier_destroy(c.bar));
    cudaFree(c.words);
    cudaFree(c.errors);
    return gs_test_finish("tagged", checks);
}
