/*
 * test_barrier_misuse.cu - what gs_launch and the device code do when a
 * barrier is misused, instead of mixing arrivals or silently doing nothing:
 *   - a launch on a second stream while one runs on the first: GS_ERR_BUSY
 *     (the same stream is fine), and both streams work afterwards;
 *   - a launch after a time-out nobody collected: refused with a sentence;
 *     collected, the barrier works again;
 *   - a launch made before the time-out happened: its blocks leave at their
 *     first barrier, and gs_barrier_check says so;
 *   - a plain <<<>>> launch larger than the barrier's capacity: every block
 *     leaves at its first barrier, nothing written outside the state
 *     (memcheck), and the check names the grid size;
 *   - GRIDSYNC_BARRIER_TIMEOUT overrides gs_barrier_set_timeout, and "off"
 *     gives unbounded waits;
 *   - a pointer that is not a kernel, and a barrier of another device (with
 *     two GPUs), are refused before anything runs.
 */
#include <string.h>
#include <time.h>

#include "exchange.cuh"
#include "gpu_test.h"

/* Block 0 waits until the host sets *go (host-mapped; bounded at 20 s),
 * then every block passes a barrier: the kernel runs as long as the host
 * wants, whatever the speed of the GPU or of a sanitizer. */
static __global__ void held(gs_grid_barrier bar, const volatile unsigned int *go)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long start = gs__globaltimer_ns();
        while (*go == 0u && gs__globaltimer_ns() - start < 20000000000ull)
            __nanosleep(1000);
    }
    gs_grid_sync(&bar);
}

/* Block `victim` skips the barrier of iteration iters / 2. */
static __global__ void skip_one(gs_grid_barrier bar, unsigned int victim, int iters)
{
    for (int i = 0; i < iters; ++i)
        if (!(blockIdx.x == victim && i == iters / 2))
            gs_grid_sync(&bar);
}

/* Counts the blocks that got through both barriers. */
static __global__ void mark(gs_grid_barrier bar, unsigned int *ran)
{
    gs_grid_sync(&bar);
    gs_grid_sync(&bar);
    if (threadIdx.x == 0)
        atomicAdd(ran, 1u);
}

static unsigned int blocks;
static unsigned int *ran;

static gs_status launch_mark(gs_barrier_t bar, cudaStream_t s, unsigned int grid)
{
    gs_grid_barrier view;
    GS_OK(gs_barrier_device(bar, grid, &view));
    void *args[] = {&view, &ran};
    return gs_launch((const void *)mark, dim3(grid), dim3(128), 0, s, args, bar);
}

static unsigned int read_ran(void)
{
    unsigned int v = 0;
    CUDA_OK(cudaMemcpy(&v, ran, sizeof v, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemset(ran, 0, sizeof v));
    return v;
}

static gs_status launch_skip(gs_barrier_t bar, cudaStream_t s)
{
    gs_grid_barrier view;
    unsigned int victim = blocks / 2u;
    int iters = 6;
    GS_OK(gs_barrier_device(bar, blocks, &view));
    void *args[] = {&view, &victim, &iters};
    return gs_launch((const void *)skip_one, dim3(blocks), dim3(128), 0, s, args, bar);
}

static int check_busy(void)
{
    gs_barrier_t bar;
    cudaStream_t a, b;
    gs_grid_barrier view;
    unsigned int *go = NULL;
    CUDA_OK(cudaHostAlloc((void **)&go, sizeof *go, cudaHostAllocMapped));
    *go = 0u;
    CUDA_OK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, 60.0));
    GS_OK(gs_barrier_device(bar, blocks, &view));
    void *args[] = {&view, &go};
    GS_OK(gs_launch((const void *)held, dim3(blocks), dim3(128), 0, a, args, bar));
    gs_status st = launch_mark(bar, b, blocks); /* A is held: it is still running */
    EXPECT(st == GS_ERR_BUSY && strstr(gs_last_error_detail(), "still running"),
           "a second stream while the first runs: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    st = gs_launch((const void *)held, dim3(blocks), dim3(128), 0, a, args, bar);
    EXPECT(st == GS_SUCCESS, "the same stream again: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    *go = 1u;
    GS_OK(gs_barrier_check(bar, a));
    GS_OK(launch_mark(bar, b, blocks)); /* A is done: B may go */
    GS_OK(gs_barrier_check(bar, b));
    unsigned int got = read_ran();
    EXPECT(got == blocks, "after the busy refusal: %u of %u blocks ran", got, blocks);
    printf("  second stream while busy: refused (GS_ERR_BUSY); afterwards %u/%u blocks ran\n", got,
           blocks);
    GS_OK(gs_barrier_destroy(bar));
    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    cudaFreeHost(go);
    return 3;
}

static int check_uncollected_timeout(void)
{
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, gs_test_sanitizer() ? 2.0 : 0.2));
    GS_OK(launch_skip(bar, 0));
    CUDA_OK(cudaStreamSynchronize(0)); /* done, but not collected */
    gs_status st = launch_mark(bar, 0, blocks);
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(gs_last_error_detail(), "not been collected"),
           "a launch after an uncollected time-out: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    printf("  launch after an uncollected time-out: %s\n", gs_last_error_detail());
    st = gs_barrier_check(bar, 0);
    char want[64];
    snprintf(want, sizeof want, "missing: block %u", blocks / 2u);
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(gs_last_error_detail(), want),
           "the collected report: %s: %s", gs_status_string(st), gs_last_error_detail());
    GS_OK(launch_mark(bar, 0, blocks));
    GS_OK(gs_barrier_check(bar, 0));
    unsigned int got = read_ran();
    EXPECT(got == blocks, "after collecting: %u of %u blocks ran", got, blocks);
    GS_OK(gs_barrier_destroy(bar));
    return 3;
}

static int check_launch_before_timeout(void)
{
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, gs_test_sanitizer() ? 2.0 : 0.3));
    GS_OK(launch_skip(bar, 0));
    GS_OK(launch_mark(bar, 0, blocks)); /* accepted: the time-out has not happened yet */
    gs_status st = gs_barrier_check(bar, 0);
    unsigned int got = read_ran();
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(gs_last_error_detail(), "after the time-out"),
           "a launch queued behind a time-out: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    EXPECT(got == 0, "the queued launch: %u blocks passed a barrier after the time-out", got);
    printf("  launch queued behind a time-out: %s\n", gs_last_error_detail());
    GS_OK(launch_mark(bar, 0, blocks));
    GS_OK(gs_barrier_check(bar, 0));
    got = read_ran();
    EXPECT(got == blocks, "after collecting: %u of %u blocks ran", got, blocks);
    GS_OK(gs_barrier_destroy(bar));
    return 3;
}

static int check_oversized(const gs_device_info *info)
{
    gs_barrier_t bar;
    gs_grid_barrier view;
    unsigned int capacity = (unsigned int)(info->sm_count * info->max_blocks_per_sm);
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_device(bar, capacity, &view));
    mark<<<capacity + 1u, 32>>>(view, ran); /* plain launch: nothing refuses it */
    CUDA_OK(cudaGetLastError());
    gs_status st = gs_barrier_check(bar, 0);
    char want[96];
    snprintf(want, sizeof want, "a grid of %u blocks used a barrier that serves at most %u",
             capacity + 1u, capacity);
    unsigned int got = read_ran();
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && strstr(gs_last_error_detail(), want),
           "a plain launch of %u blocks: %s: %s", capacity + 1u, gs_status_string(st),
           gs_last_error_detail());
    EXPECT(got == 0, "a grid beyond the capacity: %u blocks passed a barrier", got);
    printf("  plain launch of %u blocks (capacity %u): %s\n", capacity + 1u, capacity,
           gs_last_error_detail());
    GS_OK(launch_mark(bar, 0, blocks));
    GS_OK(gs_barrier_check(bar, 0));
    got = read_ran();
    EXPECT(got == blocks, "after an oversized grid: %u of %u blocks ran", got, blocks);
    GS_OK(gs_barrier_destroy(bar));
    return 3;
}

static int check_timeout_env(void)
{
    gs_barrier_t bar;
    gs_grid_barrier view;
    setenv("GRIDSYNC_BARRIER_TIMEOUT", gs_test_sanitizer() ? "2" : "0.25", 1);
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, 60.0)); /* the environment wins */
    GS_OK(gs_barrier_device(bar, blocks, &view));
    EXPECT(view.timeout_ns == (gs_test_sanitizer() ? 2000000000ull : 250000000ull),
           "GRIDSYNC_BARRIER_TIMEOUT: the view's time-out is %llu ns", view.timeout_ns);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    GS_OK(launch_skip(bar, 0));
    gs_status st = gs_barrier_check(bar, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    EXPECT(st == GS_ERR_BARRIER_TIMEOUT && took < (gs_test_sanitizer() ? 30.0 : 5.0),
           "GRIDSYNC_BARRIER_TIMEOUT=0.25: %s after %.2f s", gs_status_string(st), took);
    GS_OK(gs_barrier_destroy(bar));

    setenv("GRIDSYNC_BARRIER_TIMEOUT", "off", 1);
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_device(bar, blocks, &view));
    EXPECT(view.timeout_ns == 0, "GRIDSYNC_BARRIER_TIMEOUT=off: time-out %llu ns", view.timeout_ns);
    GS_OK(launch_mark(bar, 0, blocks));
    GS_OK(gs_barrier_check(bar, 0));
    unsigned int got = read_ran();
    EXPECT(got == blocks, "with time-outs off: %u of %u blocks ran", got, blocks);
    GS_OK(gs_barrier_destroy(bar));
    unsetenv("GRIDSYNC_BARRIER_TIMEOUT");
    printf("  GRIDSYNC_BARRIER_TIMEOUT: 0.25 s beat set_timeout(60) (%.2f s); off ran\n", took);
    return 4;
}

static int check_refusals(void)
{
    gs_barrier_t bar;
    static int not_a_kernel;
    int count = 0, checks = 0;
    gs_status st;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    /* the failed lookup is a CUDA API error by design, which memcheck
     * counts: checked outside the sanitizers only */
    if (!gs_test_sanitizer()) {
        st = gs_launch((const void *)&not_a_kernel, dim3(1), dim3(32), 0, 0, NULL, bar);
        EXPECT(st == GS_ERR_INVALID_ARGUMENT &&
                   strstr(gs_last_error_detail(), "is not a __global__ function"),
               "a pointer that is not a kernel: %s: %s", gs_status_string(st),
               gs_last_error_detail());
        ++checks;
    }
    CUDA_OK(cudaGetDeviceCount(&count));
    if (count >= 2) {
        CUDA_OK(cudaSetDevice(1));
        st = launch_mark(bar, 0, 1);
        EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), "belongs to device 0"),
               "a barrier of device 0 launched on device 1: %s: %s", gs_status_string(st),
               gs_last_error_detail());
        CUDA_OK(cudaSetDevice(0));
        ++checks;
    } else {
        printf("  (one GPU: the other-device refusal is not exercised)\n");
    }
    GS_OK(gs_barrier_destroy(bar));
    return checks;
}

int main(void)
{
    gs_test_require_gpu("barrier_misuse");
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    blocks = (unsigned int)info.sm_count;
    CUDA_OK(cudaMalloc((void **)&ran, sizeof *ran));
    CUDA_OK(cudaMemset(ran, 0, sizeof *ran));
    int checks = 0;
    /* under compute-sanitizer a launch returns only once its kernel has
     * ended, so no launch is ever still running on another stream: the busy
     * refusal is checked outside the sanitizers */
    if (!gs_test_sanitizer())
        checks += check_busy();
    checks += check_uncollected_timeout();
    checks += check_launch_before_timeout();
    checks += check_oversized(&info);
    checks += check_timeout_env();
    checks += check_refusals();
    cudaFree(ran);
    return gs_test_finish("barrier_misuse", checks);
}
