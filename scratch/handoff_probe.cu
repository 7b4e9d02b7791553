/* handoff_probe.cu - the task runtime's dependency hand-off: a chain of
 * tasks through the blocks of the grid (task i on block i mod G waits for
 * task i - 1's post), no work: time per task = post -> the waiting task's
 * first instruction, plus the runtime's own steps. */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>
#include <stdio.h>
#include <string.h>
#include <vector>
#include <algorithm>

__global__ void __launch_bounds__(128) hop(gs_task_view plan)
{
    extern __shared__ __align__(128) unsigned char smem[];
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    while (gs_task_next(&r, &t))
        gs_task_end(&r, &t);
}

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorName(e)); return 1; } } while (0)
#define GK(x) do { gs_status e = (x); if (e) { printf("%s: %s\n", #x, gs_last_error_detail()); return 1; } } while (0)

int main()
{
    int maxb = 0;
    GK(gs_max_coresident_blocks((const void *)hop, 128, 1024, &maxb));
    unsigned int grids[] = {1, 2, 66, 132, 264, 528, 1056, (unsigned)maxb};
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (unsigned int g : grids) {
        if (g > (unsigned)maxb) continue;
        const unsigned int n = 8192;
        gs_task_plan_t plan;
        GK(gs_task_plan_create(&plan, n));
        for (unsigned int i = 0; i < n; ++i) {
            gs_task_desc d; memset(&d, 0, sizeof d);
            if (i) d.waits[d.nwaits++] = {i - 1, 1};
            d.posts[d.nposts++] = {i, 1};
            d.block = (int)(i % g) + 1;
            GK(gs_task_plan_add(plan, &d, NULL));
        }
        GK(gs_task_plan_build(plan, g));
        gs_task_view v; GK(gs_task_plan_device(plan, &v));
        size_t smem = gs_task_plan_smem_bytes(plan);
        void *args[] = {&v};
        cudaGraph_t gr; cudaGraphExec_t ex;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        gs_status st = gs_task_plan_launch(plan, (const void *)hop, dim3(128), smem, s, args);
        CK(cudaStreamEndCapture(s, &gr));
        GK(st);
        CK(cudaGraphInstantiate(&ex, gr, 0));
        cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
        std::vector<float> ms;
        for (int k = 0; k < 9; ++k) {
            float m; cudaEventRecord(a, s); cudaGraphLaunch(ex, s); cudaEventRecord(b, s);
            CK(cudaEventSynchronize(b)); cudaEventElapsedTime(&m, a, b); ms.push_back(m);
        }
        GK(gs_task_plan_check(plan, s));
        std::sort(ms.begin(), ms.end());
        printf("handoff: %4u blocks: %.3f us a hand-off (median of 9 chains of %u; min %.3f)\n", g,
               ms[4] * 1e3 / n, n, ms[0] * 1e3 / n);
        cudaGraphExecDestroy(ex); cudaGraphDestroy(gr);
        gs_task_plan_destroy(plan);
    }
    return 0;
}
