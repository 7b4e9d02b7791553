/*
 * test_tasks.cu - the persistent task runtime (gridsync/tasks.cuh,
 * gridsync_tasks.h) on random plans, against a sequential execution of the
 * same plan on the CPU.
 *
 * A plan of T tasks (10^5; fewer under the sanitizers) is generated in an
 * order that runs (each task waits only on counters whose posters all come
 * before it), then added to the plan in a random order, so the runtime must
 * find an order itself. Each task waits on 0-4 counters: "full" waits (the
 * counter's whole per-launch total: every poster has finished) and
 * "partial" ones (some of its posters). It posts 1 or 2 counters; has 0-2
 * independent inputs (ranges of a constant buffer, some not 16-byte aligned
 * so that the threads copy them); some tasks sleep a few microseconds.
 * What a task computes proves the ordering:
 *   out[t] = mix(t, sum over its full waits of acc[c], checksum of its staged inputs)
 * where acc[c] sums the outputs of c's posters (each adds its own before it
 * posts): a task that ran before all of a full wait's posters had finished
 * gets a different sum. For a partial wait of value v, the task checks that
 * at least v posters have counted themselves in posted[c] (each before it
 * posts). The staged inputs' checksum is compared with the host's.
 * Every grid size from 1 to the co-resident maximum (grid_sizes.h), several
 * launches of each plan with no reset between them (epochs); outputs
 * poisoned before each launch; at least 10^6 waits in all. Then a fixed
 * plan (deferred_own_plan) of waits met by the block's own tasks beside
 * deferred posts that another block waits for.
 */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>

#include <stdlib.h>
#include <string.h>
#include <vector>

#include "gpu_test.h"
#include "grid_sizes.h"

static const unsigned int THREADS = 256;
static const unsigned long long POISON = 0xdeadbeefdeadbeefull;

/* splitmix64: the test's generator and its mixing function. */
static __host__ __device__ unsigned long long mix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static __host__ __device__ unsigned long long task_value(unsigned long long id,
                                                         unsigned long long sum,
                                                         unsigned long long checksum)
{
    return mix64(id * 0x100000001b3ull ^ mix64(sum) ^ (checksum << 1));
}

/* What the test kernel writes and checks. */
struct test_bufs {
    unsigned long long *acc;  /* per counter: sum of its posters' outputs */
    unsigned int *posted;     /* per counter: posters that have finished */
    unsigned long long *out;  /* per task */
    unsigned int *bad;        /* [0] partial waits seen unmet, [1] input checksums wrong */
    const unsigned long long *checksum; /* per task: its inputs' checksum, from the host */
};

/* Bytes weighted by position: catches a byte out of place. */
static __host__ __device__ unsigned long long byte_weight(unsigned long long i)
{
    return i * 2654435761ull + 1ull;
}

/* The test's kernel: every task checks its inputs and its partial waits,
 * sums its full waits' accumulators, may sleep, writes its output, then
 * adds itself to its posts' accumulators before gs_task_end posts them. */
__global__ void __launch_bounds__(256) run_plan(gs_task_view plan, test_bufs b)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ unsigned long long block_sum;
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t)) {
        const gs_task_record *rec = t.rec;
        if (threadIdx.x == 0)
            block_sum = 0;
        __syncthreads();
        unsigned long long part = 0;
        for (unsigned int i = 0; i < rec->ninputs; ++i) {
            const unsigned char *in = (const unsigned char *)gs_task_input(&t, i);
            for (unsigned int k = threadIdx.x; k < gs_task_input_bytes(&t, i); k += blockDim.x)
                part += in[k] * byte_weight(k + 4096ull * i);
        }
        atomicAdd(&block_sum, part);
        __syncthreads();
        if (threadIdx.x == 0) {
            const unsigned int id = gs_task_id(&t);
            if (block_sum != b.checksum[id])
                atomicAdd(&b.bad[1], 1u);
            unsigned long long sum = 0;
            for (unsigned int w = 0; w < rec->nwaits; ++w) {
                const unsigned int c = rec->wait_counter[w];
                if (rec->wait_value[w] == rec->wait_period[w])
                    sum += b.acc[c];
                else if (*(volatile unsigned int *)&b.posted[c] < rec->wait_value[w])
                    atomicAdd(&b.bad[0], 1u);
            }
            const unsigned long long delay = gs_task_arg(&t, 0);
            if (delay) {
                const unsigned long long until = gs__globaltimer_ns() + delay;
                while (gs__globaltimer_ns() < until) {
                }
            }
            const unsigned long long v = task_value(id, sum, block_sum);
            b.out[id] = v;
            for (unsigned int p = 0; p < rec->nposts; ++p) {
                atomicAdd(&b.acc[rec->post_counter[p]], v);
                atomicAdd(&b.posted[rec->post_counter[p]], 1u);
            }
        }
        gs_task_end(&r, &t);
    }
}

/* A generated plan, in the order it was generated (which runs). */
struct gen_task {
    gs_task_desc d;
    unsigned char full[GS_TASK_MAX_WAITS];
};

struct generated {
    std::vector<gen_task> tasks;   /* generation order */
    std::vector<unsigned int> perm;/* perm[g]: the id task g is added as */
    unsigned int counters;
    unsigned long long waits;
};

static unsigned int rnd(unsigned long long *s, unsigned int n)
{
    *s = mix64(*s);
    return (unsigned int)((*s >> 16) % n);
}

/* The ids the tasks get (perm): a random permutation of the generation
 * order, so the runtime must find a runnable order itself. */
static void add_in_random_order(generated *g, unsigned long long *s)
{
    const unsigned int n = (unsigned int)g->tasks.size();
    g->perm.resize(n);
    for (unsigned int i = 0; i < n; ++i)
        g->perm[i] = i;
    for (unsigned int i = n; i > 1; --i)
        std::swap(g->perm[i - 1], g->perm[rnd(s, i)]);
}

static generated generate(unsigned long long *s, unsigned int n, const unsigned char *d_in,
                          size_t in_bytes)
{
    generated g;
    std::vector<unsigned int> open, closed, posters;
    unsigned int counters = 0;
    g.waits = 0;
    for (unsigned int i = 0; i < n; ++i) {
        gen_task t;
        memset(&t, 0, sizeof t);
        t.d.op = 1;
        unsigned int nw = closed.empty() ? 0 : rnd(s, 5);
        for (unsigned int w = 0; w < nw; ++w) {
            unsigned int pick = rnd(s, 10) < 8 && closed.size() > 64
                                    ? (unsigned int)closed.size() - 1 - rnd(s, 64)
                                    : rnd(s, (unsigned int)closed.size());
            unsigned int c = closed[pick], total = posters[c];
            t.full[w] = rnd(s, 10) < 6;
            t.d.waits[w] = {c, t.full[w] ? total : 1 + rnd(s, total)};
            if (!t.full[w] && t.d.waits[w].value == total)
                t.full[w] = 1;
        }
        t.d.nwaits = nw;
        g.waits += nw;
        while (open.size() < 8) {
            open.push_back(counters++);
            posters.push_back(0);
        }
        t.d.nposts = 1 + (rnd(s, 8) == 0);
        for (unsigned int p = 0; p < t.d.nposts; ++p) {
            unsigned int k = rnd(s, (unsigned int)open.size());
            if (p == 1 && open[k] == t.d.posts[0].counter)
                k = (k + 1) % (unsigned int)open.size();
            t.d.posts[p] = {open[k], 1};
            ++posters[open[k]];
        }
        for (unsigned int k = 0; k < open.size();)
            if (posters[open[k]] > 0 && rnd(s, 4) == 0) {
                closed.push_back(open[k]);
                open.erase(open.begin() + k);
            } else {
                ++k;
            }
        if (rnd(s, 10) < 7) {
            t.d.ninputs = 1 + rnd(s, 2);
            for (unsigned int k = 0; k < t.d.ninputs; ++k) {
                int aligned = rnd(s, 10) < 6;
                size_t bytes = aligned ? 16u * (1 + rnd(s, 256)) : 1 + rnd(s, 4096);
                size_t off = rnd(s, (unsigned int)(in_bytes - 4096));
                if (aligned)
                    off &= ~(size_t)15;
                t.d.inputs[k] = {d_in + off, bytes};
            }
        }
        if (rnd(s, 100) < 3)
            t.d.arg[0] = 200 + rnd(s, 4000); /* sleeps this many ns */
        g.tasks.push_back(t);
    }
    g.counters = counters;
    add_in_random_order(&g, s);
    return g;
}

/* Own waits next to deferred posts, on blocks 0 and 1 (pinned), `rounds`
 * rounds; counter 2k is round k's first, 2k + 1 its second:
 *   block 0: A posts 2k; B waits 2k >= 1 (met by A, on its own block: not
 *            polled, and A no longer defers its post) and posts 2k;
 *   block 1: C waits 2k >= 1 (A's post alone: it must not wait for B),
 *            posts 2k + 1; D waits 2k >= 2 (A's and B's), posts 2k + 1
 *            (C defers its post to D's, flushed before D's wait);
 *   A of round k + 1 waits 2k + 1 >= 2 (C's and D's).
 * Some tasks sleep; added in a random order, as the random plans are. */
static generated deferred_own_plan(unsigned long long *s, unsigned int rounds)
{
    generated g;
    g.waits = 0;
    g.counters = 2 * rounds;
    for (unsigned int k = 0; k < rounds; ++k) {
        gen_task t[4];
        memset(t, 0, sizeof t);
        for (unsigned int i = 0; i < 4; ++i) {
            t[i].d.op = 1;
            t[i].d.block = i < 2 ? 1 : 2;
            t[i].d.nposts = 1;
            t[i].d.posts[0] = {2 * k + (i < 2 ? 0u : 1u), 1};
            if (rnd(s, 10) < 3)
                t[i].d.arg[0] = 200 + rnd(s, 3000); /* sleeps this many ns */
        }
        if (k > 0) {
            t[0].d.waits[t[0].d.nwaits++] = {2 * k - 1, 2};
            t[0].full[0] = 1;
        }
        t[1].d.waits[t[1].d.nwaits++] = {2 * k, 1};
        t[2].d.waits[t[2].d.nwaits++] = {2 * k, 1};
        t[3].d.waits[t[3].d.nwaits++] = {2 * k, 2};
        t[3].full[0] = 1;
        for (unsigned int i = 0; i < 4; ++i) {
            g.waits += t[i].d.nwaits;
            g.tasks.push_back(t[i]);
        }
    }
    add_in_random_order(&g, s);
    return g;
}

/* The sequential execution: outputs by id, and each task's input checksum. */
static void reference(const generated &g, const unsigned char *h_in, const unsigned char *d_in,
                      std::vector<unsigned long long> &out, std::vector<unsigned long long> &sum_in)
{
    size_t n = g.tasks.size();
    std::vector<unsigned long long> acc(g.counters, 0);
    out.assign(n, 0);
    sum_in.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const gen_task &t = g.tasks[i];
        unsigned int id = g.perm[i];
        unsigned long long cs = 0, sum = 0;
        for (unsigned int k = 0; k < t.d.ninputs; ++k) {
            const unsigned char *p = h_in + ((const unsigned char *)t.d.inputs[k].ptr - d_in);
            for (size_t j = 0; j < t.d.inputs[k].bytes; ++j)
                cs += p[j] * byte_weight(j + 4096ull * k);
        }
        for (unsigned int w = 0; w < t.d.nwaits; ++w)
            if (t.full[w])
                sum += acc[t.d.waits[w].counter];
        unsigned long long v = task_value(id, sum, cs);
        for (unsigned int p = 0; p < t.d.nposts; ++p)
            acc[t.d.posts[p].counter] += v;
        out[id] = v;
        sum_in[id] = cs;
    }
}

/* The kernel's buffers for plan g, each task's input checksum (sum_in)
 * uploaded. */
static test_bufs bufs_for(const generated &g, const std::vector<unsigned long long> &sum_in)
{
    const size_t n = g.tasks.size();
    test_bufs b;
    unsigned long long *checksum;
    CUDA_OK(cudaMalloc(&b.acc, g.counters * sizeof *b.acc));
    CUDA_OK(cudaMalloc(&b.posted, g.counters * sizeof *b.posted));
    CUDA_OK(cudaMalloc(&b.out, n * sizeof *b.out));
    CUDA_OK(cudaMalloc(&b.bad, 2 * sizeof *b.bad));
    CUDA_OK(cudaMalloc(&checksum, n * sizeof *checksum));
    CUDA_OK(cudaMemcpy(checksum, sum_in.data(), n * sizeof *checksum, cudaMemcpyHostToDevice));
    b.checksum = checksum;
    return b;
}

static void free_bufs(const test_bufs &b)
{
    cudaFree(b.acc);
    cudaFree(b.posted);
    cudaFree(b.out);
    cudaFree(b.bad);
    cudaFree((void *)b.checksum);
}

static int run_grid(const generated &g, unsigned int blocks, unsigned int stages, int launches,
                    const std::vector<unsigned long long> &ref, const test_bufs &b,
                    unsigned long long *waits_done, cudaStream_t stream)
{
    size_t n = g.tasks.size();
    gs_task_plan_t plan;
    GS_OK(gs_task_plan_create(&plan, g.counters));
    std::vector<gs_task_desc> by_id(n);
    for (size_t i = 0; i < n; ++i)
        by_id[g.perm[i]] = g.tasks[i].d;
    for (size_t i = 0; i < n; ++i) {
        unsigned int id;
        GS_OK(gs_task_plan_add(plan, &by_id[i], &id));
        EXPECT(id == i, "task %zu got id %u", i, id);
    }
    GS_OK(gs_task_plan_set_stages(plan, stages, 0));
    GS_OK(gs_task_plan_build(plan, blocks));
    gs_task_view view;
    GS_OK(gs_task_plan_device(plan, &view));
    size_t smem = gs_task_plan_smem_bytes(plan);
    CUDA_OK(cudaFuncSetAttribute(run_plan, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    std::vector<unsigned long long> out(n);
    int checks = 0;
    for (int l = 0; l < launches; ++l) {
        CUDA_OK(cudaMemsetAsync(b.acc, 0, g.counters * sizeof *b.acc, stream));
        CUDA_OK(cudaMemsetAsync(b.posted, 0, g.counters * sizeof *b.posted, stream));
        CUDA_OK(cudaMemsetAsync(b.out, 0xef, n * sizeof *b.out, stream));
        CUDA_OK(cudaMemsetAsync(b.bad, 0, 2 * sizeof *b.bad, stream));
        test_bufs args = b;
        void *argv[] = {&view, &args};
        GS_OK(gs_task_plan_launch(plan, (const void *)run_plan, dim3(THREADS), smem, stream, argv));
        GS_OK(gs_task_plan_check(plan, stream));
        unsigned int bad[2];
        CUDA_OK(cudaMemcpy(out.data(), b.out, n * sizeof *b.out, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(bad, b.bad, sizeof bad, cudaMemcpyDeviceToHost));
        size_t wrong = 0, first = n;
        for (size_t i = 0; i < n; ++i)
            if (out[i] != ref[i] && wrong++ == 0)
                first = i;
        EXPECT(wrong == 0, "%u blocks, %u stages, launch %d: %zu of %zu outputs wrong (first: "
               "task %zu: %llx, expected %llx%s)", blocks, stages, l, wrong, n, first,
               first < n ? out[first] : 0ull, first < n ? ref[first] : 0ull,
               first < n && out[first] == 0xefefefefefefefefull ? ", never written" : "");
        EXPECT(bad[0] == 0, "%u blocks, launch %d: %u partial waits found fewer posters "
               "finished than they waited for", blocks, l, bad[0]);
        EXPECT(bad[1] == 0, "%u blocks, launch %d: %u tasks saw staged inputs that differ "
               "from memory", blocks, l, bad[1]);
        *waits_done += g.waits;
        checks += 3;
    }
    GS_OK(gs_task_plan_destroy(plan));
    (void)POISON;
    return checks;
}

int main(void)
{
    gs_test_require_gpu("tasks");
    unsigned long long seed = gs_test_seed("tasks");
    const int sanitizer = gs_test_sanitizer();
    const unsigned int n = sanitizer ? 3000u : 100000u;
    const int launches = sanitizer ? 2 : 3;

    const size_t in_bytes = 4u << 20;
    std::vector<unsigned char> h_in(in_bytes);
    unsigned long long s = seed;
    for (size_t i = 0; i < in_bytes; ++i)
        h_in[i] = (unsigned char)(mix64(s + i) >> 24);
    unsigned char *d_in;
    CUDA_OK(cudaMalloc(&d_in, in_bytes));
    CUDA_OK(cudaMemcpy(d_in, h_in.data(), in_bytes, cudaMemcpyHostToDevice));

    generated g = generate(&s, n, d_in, in_bytes);
    std::vector<unsigned long long> ref, sum_in;
    reference(g, h_in.data(), d_in, ref, sum_in);

    const test_bufs b = bufs_for(g, sum_in);

    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    int dev, sms;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    /* the largest stage any task needs, for the co-resident maximum */
    size_t need = GS_TASK_RECORD_BYTES;
    for (const gen_task &t : g.tasks) {
        size_t k = GS_TASK_RECORD_BYTES;
        for (unsigned int i = 0; i < t.d.ninputs; ++i)
            k += (t.d.inputs[i].bytes + 127) & ~(size_t)127;
        need = k > need ? k : need;
    }
    unsigned long long waits = 0;
    int checks = 0;
    const unsigned int stage_counts[] = {1, 3, 6};
    for (unsigned int si = 0; si < 3; ++si) {
        unsigned int stages = stage_counts[si];
        size_t smem = GS_TASK_SMEM_HEADER + stages * ((need + 127) & ~(size_t)127);
        CUDA_OK(cudaFuncSetAttribute(run_plan, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)smem));
        int max_blocks = 0;
        GS_OK(gs_max_coresident_blocks((const void *)run_plan, THREADS, smem, &max_blocks));
        unsigned int grids[6];
        int ngrids = gs_test_grid_sizes((unsigned int)sms, (unsigned int)max_blocks, grids);
        for (int gi = 0; gi < ngrids; ++gi) {
            if (sanitizer && gi % 2)
                continue;
            if (grids[gi] == 1 && n > 20000 && si > 0)
                continue; /* one block walks 10^5 tasks once per stage count is enough */
            /* one block: every wait is its own (not polled); two launches for the epochs */
            checks += run_grid(g, grids[gi], stages, grids[gi] == 1 ? 2 : launches, ref, b,
                               &waits, stream);
            printf("tasks: %u tasks, %u counters, %u stages, %u blocks: done\n", n, g.counters,
                   stages, grids[gi]);
            fflush(stdout);
        }
    }
    {
        generated dg = deferred_own_plan(&s, sanitizer ? 40u : 400u);
        std::vector<unsigned long long> dref, dsum;
        reference(dg, h_in.data(), d_in, dref, dsum); /* no inputs: checksums 0 */
        const test_bufs db = bufs_for(dg, dsum);
        const unsigned int dgrids[] = {2u, (unsigned int)sms};
        for (unsigned int stages = 1; stages <= 3; stages += 2)
            for (unsigned int gi = 0; gi < 2; ++gi) {
                checks += run_grid(dg, dgrids[gi], stages, launches, dref, db, &waits, stream);
                printf("tasks: own waits beside deferred posts, %zu tasks, %u stages, %u "
                       "blocks: done\n", dg.tasks.size(), stages, dgrids[gi]);
            }
        free_bufs(db);
    }
    printf("tasks: %llu waits in all\n", waits);
    EXPECT(sanitizer || waits >= 1000000ull, "only %llu waits ran", waits);
    cudaFree(d_in);
    free_bufs(b);
    cudaStreamDestroy(stream);
    return gs_test_finish("tasks", checks + 1);
}
