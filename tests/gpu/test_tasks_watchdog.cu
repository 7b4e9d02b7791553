/*
 * test_tasks_watchdog.cu - the task runtime's watchdog and its refusals on
 * a GPU: a block that leaves the kernel inside a task is named as the
 * cause (not the chain of tasks that waited behind it), the next launch
 * works, an unchecked time-out refuses the next launch, a kernel launched
 * on another grid is a misuse, and the plan errors that need the device
 * (shared memory, co-residency, the launch's shared memory).
 *
 * The plan: a chain of 4 x G tasks through the blocks of a grid of G (one
 * per SM): task i waits for counter i - 1 and posts counter i, on block
 * i mod G, and computes out[i] = out[i - 1] + i + 1 (checked against the
 * CPU). The faulty launch makes block 37 (or the middle block) return from
 * the kernel inside its third task.
 */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>

#include <string.h>
#include <vector>

#include "gpu_test.h"

static const unsigned int THREADS = 128;

__global__ void chain(gs_task_view plan, unsigned long long *out, unsigned int leave_at)
{
    extern __shared__ __align__(128) unsigned char smem[];
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t)) {
        const unsigned int i = gs_task_id(&t);
        if (i == leave_at)
            return; /* the whole block leaves inside the task: the fault */
        if (threadIdx.x == 0)
            out[i] = (i ? out[i - 1] : 0ull) + i + 1;
        gs_task_end(&r, &t);
    }
}

static gs_task_plan_t make_chain(unsigned int g, unsigned int n, double timeout)
{
    gs_task_plan_t plan;
    GS_OK(gs_task_plan_create(&plan, n));
    for (unsigned int i = 0; i < n; ++i) {
        gs_task_desc d;
        memset(&d, 0, sizeof d);
        d.op = i % 3;
        if (i > 0)
            d.waits[d.nwaits++] = {i - 1, 1};
        d.posts[d.nposts++] = {i, 1};
        d.block = (int)(i % g) + 1;
        GS_OK(gs_task_plan_add(plan, &d, NULL));
    }
    GS_OK(gs_task_plan_set_timeout(plan, timeout));
    GS_OK(gs_task_plan_build(plan, g));
    return plan;
}

static int chain_is_right(const unsigned long long *d_out, unsigned int n)
{
    std::vector<unsigned long long> out(n);
    CUDA_OK(cudaMemcpy(out.data(), d_out, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    unsigned long long v = 0;
    for (unsigned int i = 0; i < n; ++i) {
        v += i + 1;
        if (out[i] != v) {
            fprintf(stderr, "chain: out[%u] = %llu, expected %llu\n", i, out[i], v);
            return 0;
        }
    }
    return 1;
}

int main(void)
{
    gs_test_require_gpu("tasks_watchdog");
    (void)gs_test_seed("tasks_watchdog");
    int dev, sms, optin;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const unsigned int g = (unsigned int)sms, n = 4 * g;
    const unsigned int leaver = g > 37 ? 37 : g / 2, leave_at = leaver + 2 * g;
    unsigned long long *d_out;
    CUDA_OK(cudaMalloc(&d_out, n * sizeof *d_out));
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    int checks = 0;

    /* 0.1 s: the faulty launch's wait ends soon. Under a sanitizer
     * (GS_TEST_SANITIZER=1) 5 s: racecheck slows a hand-off so much that the
     * healthy chain of 4 x G tasks outlasts 0.1 s (its report then says the
     * counter was reached only after the time-out, which is right, but the
     * test expects no time-out there) */
    gs_task_plan_t plan = make_chain(g, n, gs_test_sanitizer() ? 5.0 : 0.1);
    gs_task_view view;
    GS_OK(gs_task_plan_device(plan, &view));
    size_t smem = gs_task_plan_smem_bytes(plan);
    unsigned int none = ~0u;
    void *healthy[] = {&view, &d_out, &none};
    void *faulty[] = {&view, &d_out, (void *)&leave_at};

    /* 1. healthy, twice (the second on the counters the first left) */
    for (int k = 0; k < 2; ++k) {
        CUDA_OK(cudaMemsetAsync(d_out, 0xff, n * sizeof *d_out, stream));
        GS_OK(gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream, healthy));
        GS_OK(gs_task_plan_check(plan, stream));
        EXPECT(chain_is_right(d_out, n), "healthy launch %d", k);
        ++checks;
    }

    /* 2. block `leaver` leaves inside task leave_at: the report names it */
    GS_OK(gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream, faulty));
    CUDA_OK(cudaStreamSynchronize(stream));
    gs_status st = gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream,
                                       healthy);
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT, "a launch before the time-out was collected: %s",
           gs_status_string(st));
    EXPECT(strstr(gs_last_error_detail(), "gs_task_plan_check") != NULL, "%s",
           gs_last_error_detail());
    st = gs_task_plan_check(plan, stream);
    char expect[160];
    snprintf(expect, sizeof expect, "task %u (op %u, block %u, the 3rd of its 4) never finished: "
             "its block left the kernel while running it", leave_at, leave_at % 3, leaver);
    printf("tasks_watchdog: %s\n", gs_last_error_detail());
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT, "check after the fault: %s", gs_status_string(st));
    EXPECT(strstr(gs_last_error_detail(), expect) != NULL, "the report should start with '%s'",
           expect);
    snprintf(expect, sizeof expect, "waiting on it: task %u (op %u, block %u,", leave_at + 1,
             (leave_at + 1) % 3, (leaver + 1) % g);
    EXPECT(strstr(gs_last_error_detail(), expect) != NULL, "and name the first victim: '%s'",
           expect);
    checks += 4;

    /* 3. the next launch works */
    CUDA_OK(cudaMemsetAsync(d_out, 0xff, n * sizeof *d_out, stream));
    GS_OK(gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream, healthy));
    GS_OK(gs_task_plan_check(plan, stream));
    EXPECT(chain_is_right(d_out, n), "the launch after the time-out");
    ++checks;

    /* 4. a kernel launched on another grid is a misuse, and nothing runs */
    chain<<<g + 1, THREADS, smem, stream>>>(view, d_out, none);
    CUDA_OK(cudaGetLastError());
    st = gs_task_plan_check(plan, stream);
    EXPECT(st == GS_ERR_MISUSE, "a launch of %u blocks: %s", g + 1, gs_status_string(st));
    snprintf(expect, sizeof expect, "a grid of %u blocks, but its lists were built for %u", g + 1,
             g);
    EXPECT(strstr(gs_last_error_detail(), expect) != NULL, "%s", gs_last_error_detail());
    GS_OK(gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream, healthy));
    GS_OK(gs_task_plan_check(plan, stream));
    EXPECT(chain_is_right(d_out, n), "the launch after the misuse");
    checks += 3;

    /* 5. refusals: too little shared memory at launch */
    st = gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem - 16, stream, healthy);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), "stages need"),
           "short shared memory: %s: %s", gs_status_string(st), gs_last_error_detail());
    GS_OK(gs_task_plan_destroy(plan));
    checks += 1;

    /* 6. plan errors that need the device: stages past shared memory, a grid
     * that cannot be co-resident, a pinned block outside the grid */
    GS_OK(gs_task_plan_create(&plan, 1));
    gs_task_desc d;
    memset(&d, 0, sizeof d);
    d.posts[d.nposts++] = {0, 1};
    d.inputs[d.ninputs++] = {d_out, 64 * 1024};
    GS_OK(gs_task_plan_add(plan, &d, NULL));
    GS_OK(gs_task_plan_set_stages(plan, 12, 0));
    st = gs_task_plan_build(plan, 1);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), "shared memory"),
           "12 stages of 64 KiB (opt-in %d): %s: %s", optin, gs_status_string(st),
           gs_last_error_detail());
    GS_OK(gs_task_plan_set_stages(plan, 1, 0));
    st = gs_task_plan_build(plan, 100000);
    GS_OK(st); /* 100000 blocks build; the launch refuses them */
    GS_OK(gs_task_plan_device(plan, &view));
    smem = gs_task_plan_smem_bytes(plan);
    CUDA_OK(cudaFuncSetAttribute(chain, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    st = gs_task_plan_launch(plan, (const void *)chain, dim3(THREADS), smem, stream, healthy);
    EXPECT(st == GS_ERR_NOT_CORESIDENT, "100000 blocks: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    GS_OK(gs_task_plan_destroy(plan));
    GS_OK(gs_task_plan_create(&plan, 1));
    d.block = 5; /* block 4 */
    GS_OK(gs_task_plan_add(plan, &d, NULL));
    st = gs_task_plan_build(plan, 4);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), "names block 4"),
           "a pinned block outside the grid: %s", gs_last_error_detail());
    GS_OK(gs_task_plan_destroy(plan));
    checks += 3;

    cudaFree(d_out);
    cudaStreamDestroy(stream);
    return gs_test_finish("tasks_watchdog", checks);
}
