/*
 * test_barrier_graph.cu - a barrier's launches captured into CUDA graphs are
 * tracked, and checks do not hold launches up:
 *   - gs_barrier_check on another stream returns only after a running graph
 *     replay that uses the barrier has finished (it reads and may re-arm
 *     the state);
 *   - gs_barrier_destroy returns only after it (the state is freed);
 *   - while a check waits for a long launch, gs_launch on the barrier from
 *     another thread returns GS_ERR_BUSY at once instead of blocking.
 * The kernel holds block 0 for a while between two grid barriers, then
 * writes a mark into host-mapped memory as its very last act.
 */
#include <pthread.h>
#include <time.h>

#include <gridsync/barrier.cuh>

#include "gpu_test.h"

enum { BLOCKS = 8, THREADS = 64 };
static const unsigned long long HOLD_NS = 300000000ull; /* 300 ms */

static __global__ void slow(gs_grid_barrier bar, unsigned long long hold_ns,
                            volatile unsigned int *mark, unsigned int value)
{
    gs_grid_sync(&bar);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        const unsigned long long start = gs__globaltimer_ns();
        while (gs__globaltimer_ns() - start < hold_ns) {
        }
    }
    gs_grid_sync(&bar);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        __threadfence_system();
        *mark = value;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct setup {
    gs_barrier_t bar;
    gs_grid_barrier view;
    unsigned int *mark, *d_mark;
    cudaStream_t s1, s2;
};

static gs_status launch_slow(setup *u, cudaStream_t s, unsigned long long hold_ns,
                             unsigned int value)
{
    void *args[] = {&u->view, &hold_ns, &u->d_mark, &value};
    return gs_launch((const void *)slow, dim3(BLOCKS), dim3(THREADS), 0, s, args, u->bar);
}

/* A graph holding one launch of the slow kernel (marking `value`). */
static cudaGraphExec_t capture(setup *u, unsigned int value)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(u->s1, cudaStreamCaptureModeThreadLocal));
    gs_status st = launch_slow(u, u->s1, HOLD_NS, value);
    CUDA_OK(cudaStreamEndCapture(u->s1, &graph));
    GS_OK(st);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_OK(cudaGraphDestroy(graph));
    return exec;
}

static int check_graph_replays(setup *u)
{
    /* check on s2 while the replay on s1 runs */
    cudaGraphExec_t exec = capture(u, 1u);
    *u->mark = 0u;
    double t0 = now_s();
    CUDA_OK(cudaGraphLaunch(exec, u->s1));
    gs_status st = gs_barrier_check(u->bar, u->s2);
    double took = now_s() - t0;
    unsigned int seen = *u->mark;
    EXPECT(st == GS_SUCCESS, "check during a replay: %s (%s)", gs_status_string(st),
           gs_last_error_detail());
    EXPECT(seen == 1u, "gs_barrier_check returned after %.3f s, before the graph replay using "
           "the barrier had finished (mark %u)", took, seen);
    printf("  gs_barrier_check waited %.3f s for a graph replay on another stream\n", took);

    /* destroy while a replay runs */
    *u->mark = 0u;
    CUDA_OK(cudaGraphLaunch(exec, u->s1));
    t0 = now_s();
    GS_OK(gs_barrier_destroy(u->bar));
    took = now_s() - t0;
    seen = *u->mark;
    EXPECT(seen == 1u, "gs_barrier_destroy returned after %.3f s, before the graph replay "
           "using the barrier had finished (mark %u)", took, seen);
    printf("  gs_barrier_destroy waited %.3f s for a graph replay\n", took);
    CUDA_OK(cudaStreamSynchronize(u->s1));
    CUDA_OK(cudaGraphExecDestroy(exec));
    return 3;
}

struct checker {
    gs_barrier_t bar;
    cudaStream_t stream;
    gs_status st;
};

static void *check_thread(void *arg)
{
    checker *c = (checker *)arg;
    c->st = gs_barrier_check(c->bar, c->stream);
    return NULL;
}

static int check_busy_during_check(setup *u)
{
    GS_OK(launch_slow(u, u->s1, 2 * HOLD_NS, 2u));
    checker c = {u->bar, u->s1, GS_ERR_INTERNAL};
    pthread_t t;
    if (pthread_create(&t, NULL, check_thread, &c) != 0) {
        fprintf(stderr, "FATAL: pthread_create\n");
        exit(1);
    }
    struct timespec pause = {0, 100000000}; /* the check is waiting now */
    nanosleep(&pause, NULL);
    double t0 = now_s();
    gs_status st = launch_slow(u, u->s2, 0ull, 3u);
    double took = now_s() - t0;
    EXPECT(st == GS_ERR_BUSY && took < 0.1,
           "gs_launch during a check: %s after %.3f s (want GS_ERR_BUSY at once)",
           gs_status_string(st), took);
    pthread_join(t, NULL);
    EXPECT(c.st == GS_SUCCESS, "the check: %s", gs_status_string(c.st));
    EXPECT(*u->mark == 2u, "the check returned before the launch it waited for ended");
    GS_OK(launch_slow(u, u->s2, 0ull, 4u)); /* after the check: launches go through */
    GS_OK(gs_barrier_check(u->bar, u->s2));
    printf("  gs_launch during a check: %s in %.4f s\n", gs_status_string(st), took);
    return 3;
}

int main(void)
{
    gs_test_require_gpu("barrier_graph");
    setup u;
    int checks = 0;
    CUDA_OK(cudaStreamCreateWithFlags(&u.s1, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&u.s2, cudaStreamNonBlocking));
    CUDA_OK(cudaHostAlloc((void **)&u.mark, sizeof *u.mark, cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer((void **)&u.d_mark, u.mark, 0));
    GS_OK(gs_barrier_create(&u.bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(u.bar, 5.0));
    GS_OK(gs_barrier_device(u.bar, BLOCKS, &u.view));
    checks += check_busy_during_check(&u);
    checks += check_graph_replays(&u); /* destroys the barrier */
    CUDA_OK(cudaFreeHost(u.mark));
    CUDA_OK(cudaStreamDestroy(u.s1));
    CUDA_OK(cudaStreamDestroy(u.s2));
    return gs_test_finish("barrier_graph", checks);
}
