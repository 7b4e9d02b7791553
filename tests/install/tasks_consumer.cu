/* tasks_consumer.cu - a user's program on an installed gridsync's task
 * runtime: a fan-in/fan-out plan (a row of independent tasks, each adding its
 * staged input; a task that waits for all of them and sums their outputs;
 * then a second row that reads that sum), launched twice with no reset (the
 * counters' epochs), then captured into a CUDA graph and replayed. Built every
 * way a user builds it (tests/host/install_consumer.sh); exit 0 when the
 * results are right, 77 without a GPU, 1 wrong. */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>

#include <stdio.h>
#include <string.h>

enum { ROW = 300, WORDS = 64 };

#define CHECK(call)                                                                        \
    do {                                                                                   \
        gs_status s_ = (call);                                                             \
        if (s_ != GS_SUCCESS) {                                                            \
            fprintf(stderr, "%s: %s: %s\n", #call, gs_status_string(s_), gs_last_error_detail()); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

/* op 0: out[id] = sum of its input's words; op 1: out[id] = sum of out[0 .. ROW);
 * op 2: out[id] = out[ROW] + arg 0 */
static __global__ void run(gs_task_view plan, long long *out)
{
    extern __shared__ __align__(128) unsigned char smem[];
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t)) {
        if (threadIdx.x == 0) {
            long long v = 0;
            if (gs_task_op(&t) == 0) {
                const int *in = (const int *)gs_task_input(&t, 0);
                for (int i = 0; i < WORDS; ++i)
                    v += in[i];
            } else if (gs_task_op(&t) == 1) {
                for (int i = 0; i < ROW; ++i)
                    v += out[i];
            } else {
                v = out[ROW] + (long long)gs_task_arg(&t, 0);
            }
            out[gs_task_id(&t)] = v;
        }
        gs_task_end(&r, &t);
    }
}

static int right(const long long *d_out, long long expect_sum)
{
    long long out[2 * ROW + 1];
    if (cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 0;
    for (int i = 0; i < ROW; ++i)
        if (out[i] != (long long)WORDS * i)
            return 0;
    if (out[ROW] != expect_sum)
        return 0;
    for (int i = 0; i < ROW; ++i)
        if (out[ROW + 1 + i] != expect_sum + i)
            return 0;
    return 1;
}

int main(void)
{
    int devices = 0, sms = 0;
    if (gs_device_count(&devices) == GS_ERR_NO_DEVICE) {
        printf("tasks_consumer: no GPU, nothing to run (%s)\n", gs_last_error_detail());
        return 77;
    }
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess)
        return 1;
    int *in = NULL, host[ROW * WORDS];
    long long *out = NULL;
    for (int i = 0; i < ROW * WORDS; ++i)
        host[i] = i / WORDS;
    if (cudaMalloc((void **)&in, sizeof host) != cudaSuccess ||
        cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMalloc((void **)&out, (2 * ROW + 1) * sizeof *out) != cudaSuccess)
        return 1;
    gs_task_plan_t plan;
    CHECK(gs_task_plan_create(&plan, 2));
    for (int i = 0; i < 2 * ROW + 1; ++i) {
        gs_task_desc d;
        memset(&d, 0, sizeof d);
        d.op = i < ROW ? 0 : i == ROW ? 1 : 2;
        if (i < ROW) {
            d.inputs[d.ninputs++] = {in + i * WORDS, WORDS * sizeof *in};
            d.posts[d.nposts++] = {0, 1};
        } else if (i == ROW) {
            d.waits[d.nwaits++] = {0, ROW};
            d.posts[d.nposts++] = {1, 1};
        } else {
            d.waits[d.nwaits++] = {1, 1};
            d.arg[0] = (unsigned long long)(i - ROW - 1);
        }
        CHECK(gs_task_plan_add(plan, &d, NULL));
    }
    CHECK(gs_task_plan_set_stages(plan, 3, 0));
    CHECK(gs_task_plan_build(plan, (unsigned int)sms));
    gs_task_view view;
    CHECK(gs_task_plan_device(plan, &view));
    void *args[] = {&view, &out};
    const size_t smem = gs_task_plan_smem_bytes(plan);
    const long long sum = (long long)WORDS * ROW * (ROW - 1) / 2;
    int ok = 1;
    for (int k = 0; k < 2; ++k) {
        if (cudaMemset(out, 0xff, (2 * ROW + 1) * sizeof *out) != cudaSuccess)
            return 1;
        CHECK(gs_task_plan_launch(plan, (const void *)run, dim3(128), smem, 0, args));
        CHECK(gs_task_plan_check(plan, 0));
        ok &= right(out, sum);
    }
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t exec;
    if (cudaStreamCreate(&s) != cudaSuccess ||
        cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
        return 1;
    CHECK(gs_task_plan_launch(plan, (const void *)run, dim3(128), smem, s, args));
    if (cudaStreamEndCapture(s, &g) != cudaSuccess || cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
        return 1;
    for (int k = 0; k < 3; ++k) {
        if (cudaMemsetAsync(out, 0xff, (2 * ROW + 1) * sizeof *out, s) != cudaSuccess ||
            cudaGraphLaunch(exec, s) != cudaSuccess)
            return 1;
        CHECK(gs_task_plan_check(plan, s));
        ok &= right(out, sum);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    CHECK(gs_task_plan_destroy(plan));
    cudaFree(in);
    cudaFree(out);
    printf("tasks_consumer: %d tasks on %d blocks, 2 launches and 3 graph replays: %s\n",
           2 * ROW + 1, sms, ok ? "right" : "WRONG");
    return ok ? 0 : 1;
}
