// tasks_allreduce.cu - probe (issue 44, proof 2): what a grid-wide sum costs
// through the task runtime against gridsync's grid all-reduce.
// `gridsync bench apps` put CG on the runtime (cg_tasks.cu, two counter
// hand-offs an iteration, each followed by a read of the blocks' partial
// sums) 0.78 us an iteration slower than the hand-written kernel on grid
// all-reduces at 2^16 unknowns (64 blocks of 256 threads) and 1.3 us slower
// at 2^20 (128 blocks of 1024), with the same loops (their SASS compared).
// This probe times the synchronization alone, per phase, on grids of 64 and
// 128 blocks of 256 and 1024 threads:
//   all-reduce        gs_grid_allreduce_sum_f64 of every thread's value
//   grid sync         gs_grid_sync alone (the all-reduce's barrier)
//   tasks: sum        a plan of one task per block and phase: it waits for
//                     counter 0 >= blocks x phase, folds the last phase's
//                     partials (warp 0), block-sums its value and writes its
//                     partial, posts counter 0 (cg_tasks.cu's skeleton)
//   tasks: counter    the same plan, the task does nothing: the runtime's
//                     all-to-all hand-off alone
//   tasks: sum, 4 stages  the first with 4 stages instead of 2
// Each launch runs PHASES phases; time per phase: events over the launch,
// the median of 7 launches (after 2 untimed).
// `make research` builds it: build/research/probes/tasks_allreduce
#include <gridsync.h>
#include <gridsync_tasks.h>
#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/tasks.cuh>

#include <algorithm>
#include <stdio.h>
#include <string.h>
#include <vector>

#include "probe_check.h"
#include "../../tools/suites/apps/cg/cg_block_sum.cuh" /* the CG port's block and grid sums */

enum { PHASES = 1000, LAUNCHES = 7 };

#define GS_OK_OR_DIE(x)                                                                            \
    do {                                                                                           \
        gs_status s_ = (x);                                                                        \
        if (s_ != GS_SUCCESS) {                                                                    \
            fprintf(stderr, "%s: %s (%s)\n", #x, gs_status_string(s_), gs_last_error_detail()); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

template <int THREADS>
__global__ void __launch_bounds__(THREADS) allreduce_loop(gs_grid_barrier bar, double *sink)
{
    double acc = 0.0;
    for (int k = 0; k < PHASES; ++k)
        acc += gs_grid_allreduce_sum_f64(&bar, threadIdx.x * 1e-3 + k);
    if (threadIdx.x == 0 && acc == -1.0)
        *sink = acc;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) sync_loop(gs_grid_barrier bar)
{
    for (int k = 0; k < PHASES; ++k)
        gs_grid_sync(&bar);
}

// partials: two rows of gridDim.x, by phase parity (row k % 2 is written in
// phase k and read in phase k + 1; phase k + 2 writes it after every phase
// k + 1 task has posted)
template <int THREADS, bool SUM>
__global__ void __launch_bounds__(THREADS)
    tasks_loop(gs_task_view plan, double *partials, double *sink)
{
    extern __shared__ __align__(128) unsigned char smem[];
    __shared__ double total;
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    const int nb = (int)gridDim.x;
    double acc = 0.0;
    while (gs_task_next(&r, &t)) {
        if (SUM) {
            const int k = (int)gs_task_arg(&t, 0);
            if (k > 0)
                acc += gs_cg_sum_partials(partials + ((k - 1) & 1) * nb, nb, &total);
            const double part = gs_cg_block_sum(threadIdx.x * 1e-3 + k);
            if (threadIdx.x == 0u)
                partials[(k & 1) * nb + blockIdx.x] = part;
        }
        gs_task_end(&r, &t);
    }
    if (threadIdx.x == 0 && acc == -1.0)
        *sink = acc;
}

static float time_launches(cudaStream_t s, cudaEvent_t a, cudaEvent_t b, void (*launch)(void *),
                           void *ctx)
{
    std::vector<float> ms;
    for (int i = 0; i < 2 + LAUNCHES; ++i) {
        CK(cudaEventRecord(a, s));
        launch(ctx);
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float t = 0;
        CK(cudaEventElapsedTime(&t, a, b));
        if (i >= 2)
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1000.0f / PHASES; // us per phase
}

struct barrier_ctx {
    const void *kernel;
    unsigned int blocks, threads;
    gs_barrier_t bar;
    gs_grid_barrier view;
    double *sink;
    cudaStream_t s;
    int allreduce;
};

static void launch_barrier(void *p)
{
    barrier_ctx *c = (barrier_ctx *)p;
    void *args_ar[] = {&c->view, &c->sink};
    void *args_sync[] = {&c->view};
    GS_OK_OR_DIE(gs_launch(c->kernel, dim3(c->blocks), dim3(c->threads), 0, c->s,
                           c->allreduce ? args_ar : args_sync, c->bar));
}

struct tasks_ctx {
    const void *kernel;
    unsigned int threads;
    gs_task_plan_t plan;
    gs_task_view view;
    double *partials, *sink;
    cudaStream_t s;
};

static void launch_tasks(void *p)
{
    tasks_ctx *c = (tasks_ctx *)p;
    void *args[] = {&c->view, &c->partials, &c->sink};
    GS_OK_OR_DIE(gs_task_plan_launch(c->plan, c->kernel, dim3(c->threads),
                                     gs_task_plan_smem_bytes(c->plan), c->s, args));
}

template <int THREADS>
static void run(unsigned int blocks, cudaStream_t s, cudaEvent_t a, cudaEvent_t b, double *sink,
                double *partials)
{
    barrier_ctx bc = {};
    bc.blocks = blocks;
    bc.threads = THREADS;
    bc.sink = sink;
    bc.s = s;
    GS_OK_OR_DIE(gs_barrier_create(&bc.bar, GS_BARRIER_AUTO));
    GS_OK_OR_DIE(gs_barrier_device(bc.bar, blocks, &bc.view));
    bc.kernel = (const void *)allreduce_loop<THREADS>;
    bc.allreduce = 1;
    const float ar = time_launches(s, a, b, launch_barrier, &bc);
    GS_OK_OR_DIE(gs_barrier_check(bc.bar, s));
    bc.kernel = (const void *)sync_loop<THREADS>;
    bc.allreduce = 0;
    const float sy = time_launches(s, a, b, launch_barrier, &bc);
    GS_OK_OR_DIE(gs_barrier_check(bc.bar, s));
    gs_barrier_destroy(bc.bar);

    float tk[3];
    for (int v = 0; v < 3; ++v) {
        tasks_ctx tc = {};
        tc.threads = THREADS;
        tc.partials = partials;
        tc.sink = sink;
        tc.s = s;
        tc.kernel = v == 1 ? (const void *)tasks_loop<THREADS, false>
                           : (const void *)tasks_loop<THREADS, true>;
        GS_OK_OR_DIE(gs_task_plan_create(&tc.plan, 1));
        for (unsigned int k = 0; k < PHASES; ++k)
            for (unsigned int blk = 0; blk < blocks; ++blk) {
                gs_task_desc d;
                memset(&d, 0, sizeof d);
                d.arg[0] = k;
                d.block = (int)blk + 1;
                if (k > 0) {
                    d.nwaits = 1;
                    d.waits[0].counter = 0;
                    d.waits[0].value = blocks * k;
                }
                d.nposts = 1;
                d.posts[0].counter = 0;
                d.posts[0].delta = 1;
                GS_OK_OR_DIE(gs_task_plan_add(tc.plan, &d, NULL));
            }
        if (v == 2)
            GS_OK_OR_DIE(gs_task_plan_set_stages(tc.plan, 4, 0));
        GS_OK_OR_DIE(gs_task_plan_build(tc.plan, blocks));
        GS_OK_OR_DIE(gs_task_plan_device(tc.plan, &tc.view));
        tk[v] = time_launches(s, a, b, launch_tasks, &tc);
        GS_OK_OR_DIE(gs_task_plan_check(tc.plan, s));
        gs_task_plan_destroy(tc.plan);
    }
    printf("| %u | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %+.3f |\n", blocks, THREADS, ar, sy,
           tk[0], tk[1], tk[2], tk[0] - ar);
}

int main()
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    double *sink, *partials;
    CK(cudaMalloc(&sink, sizeof(double)));
    CK(cudaMalloc(&partials, 2 * 2048 * sizeof(double)));
    printf("us per phase, %d phases a launch, median of %d launches\n", PHASES, LAUNCHES);
    printf("| blocks | threads | all-reduce | grid sync | tasks: sum | tasks: counter | "
           "tasks: sum, 4 stages | tasks: sum - all-reduce |\n|---|---|---|---|---|---|---|---|\n");
    const unsigned int grids[] = {64, 128};
    for (unsigned int g : grids) {
        run<256>(g, s, a, b, sink, partials);
        run<1024>(g, s, a, b, sink, partials);
    }
    return 0;
}
