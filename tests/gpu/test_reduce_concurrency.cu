/*
 * test_reduce_concurrency.cu - reductions from several host threads and
 * streams, and the life of their workspaces:
 *   - 8 threads, each on cudaStreamPerThread (one handle value, 8 streams),
 *     each reducing its own data many times: every result exact;
 *   - two threads on one explicit stream with results in host memory;
 *   - 10,000 streams created, used once and destroyed at once: every result
 *     exact, and the workspace cache stays bounded;
 *   - gs_reduce_release_workspaces racing calls in other threads;
 *   - the first call on a stream made inside a graph capture, and replays of
 *     that graph on fresh data; a host result inside a capture refused;
 *   - a result in managed memory is there when the call returns.
 * int64 sums of random data are exact, so every check is exact.
 */
#include <pthread.h>
#include <string.h>

#include "gpu_test.h"

extern "C" int gs__ws_cached_count(void); /* libgridsync internal, for this test */

static unsigned long long seed;

static unsigned long long mix(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* n random int64 values (within +-2^40) and their exact sum. */
static long long fill(long long *h, long long n, unsigned long long salt)
{
    long long sum = 0;
    for (long long i = 0; i < n; ++i) {
        h[i] = (long long)(mix(seed ^ (salt * 1000003ull + (unsigned long long)i)) >> 24) -
               (1ll << 39);
        sum += h[i];
    }
    return sum;
}

/* ----------------------------------------------- 8 threads, per-thread streams */

typedef struct worker {
    int index, rounds;
    long long n;
    int wrong, failed;
    unsigned long long stream_id;
} worker;

static void *per_thread_worker(void *arg)
{
    worker *w = (worker *)arg;
    long long *h = (long long *)malloc((size_t)w->n * 8), *d = NULL, *out = NULL;
    CUDA_OK(cudaMalloc((void **)&d, (size_t)w->n * 8));
    CUDA_OK(cudaMalloc((void **)&out, 8));
    CUDA_OK(cudaStreamGetId(cudaStreamPerThread, &w->stream_id));
    for (int r = 0; r < w->rounds; ++r) {
        long long want = fill(h, w->n, (unsigned long long)(w->index * 100000 + r)), got = 0;
        CUDA_OK(cudaMemcpyAsync(d, h, (size_t)w->n * 8, cudaMemcpyHostToDevice,
                                cudaStreamPerThread));
        /* half the rounds to host memory, half to device memory */
        if (r & 1) {
            w->failed += gs_reduce_sum(GS_INT64, d, w->n, &got, cudaStreamPerThread) != GS_SUCCESS;
        } else {
            w->failed += gs_reduce_sum(GS_INT64, d, w->n, out, cudaStreamPerThread) != GS_SUCCESS;
            CUDA_OK(cudaMemcpyAsync(&got, out, 8, cudaMemcpyDeviceToHost, cudaStreamPerThread));
            CUDA_OK(cudaStreamSynchronize(cudaStreamPerThread));
        }
        w->wrong += got != want;
    }
    cudaFree(d);
    cudaFree(out);
    free(h);
    return NULL;
}

static int check_per_thread_streams(int quick)
{
    enum { THREADS = 8 };
    pthread_t tid[THREADS];
    worker w[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].index = t;
        w[t].rounds = quick ? 4 : 200;
        w[t].n = (1 << 16) + 13 * t; /* sizes differ: grids differ */
        pthread_create(&tid[t], NULL, per_thread_worker, &w[t]);
    }
    int wrong = 0, failed = 0, same_ids = 0;
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(tid[t], NULL);
        wrong += w[t].wrong;
        failed += w[t].failed;
        for (int u = 0; u < t; ++u)
            same_ids += w[u].stream_id == w[t].stream_id;
    }
    EXPECT(same_ids == 0, "cudaStreamPerThread gave %d pairs of threads the same stream id",
           same_ids);
    EXPECT(failed == 0 && wrong == 0, "8 threads on cudaStreamPerThread: %d calls failed, %d of %d "
           "results wrong", failed, wrong, THREADS * w[0].rounds);
    printf("  8 threads x %d calls on cudaStreamPerThread: %d wrong\n", w[0].rounds, wrong);
    return 2;
}

/* ------------------------------------- two threads, one stream, host results */

typedef struct shared_stream {
    cudaStream_t stream;
    const long long *d;
    long long n, want;
    int rounds, wrong;
} shared_stream;

static void *host_result_worker(void *arg)
{
    shared_stream *s = (shared_stream *)arg;
    for (int r = 0; r < s->rounds; ++r) {
        long long got = 0;
        if (gs_reduce_sum(GS_INT64, s->d, s->n, &got, s->stream) != GS_SUCCESS || got != s->want)
            ++s->wrong;
    }
    return NULL;
}

static int check_shared_stream(int quick)
{
    const long long n1 = 100003, n2 = 7;
    long long *h = (long long *)malloc((size_t)n1 * 8), *d1, *d2;
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d1, (size_t)n1 * 8));
    CUDA_OK(cudaMalloc((void **)&d2, (size_t)n2 * 8));
    long long s1 = fill(h, n1, 77), s2;
    CUDA_OK(cudaMemcpy(d1, h, (size_t)n1 * 8, cudaMemcpyHostToDevice));
    s2 = fill(h, n2, 78);
    CUDA_OK(cudaMemcpy(d2, h, (size_t)n2 * 8, cudaMemcpyHostToDevice));
    shared_stream a = {stream, d1, n1, s1, quick ? 5 : 2000, 0};
    shared_stream b = {stream, d2, n2, s2, quick ? 5 : 2000, 0};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, host_result_worker, &a);
    pthread_create(&tb, NULL, host_result_worker, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    EXPECT(a.wrong == 0 && b.wrong == 0, "two threads, one stream, host results: %d and %d wrong",
           a.wrong, b.wrong);
    printf("  2 threads x %d calls on one stream, results in host memory: %d wrong\n", a.rounds,
           a.wrong + b.wrong);
    cudaFree(d1);
    cudaFree(d2);
    cudaStreamDestroy(stream);
    free(h);
    return 1;
}

/* ------------------------------------------- 10,000 short-lived streams */

static int check_stream_churn(int quick)
{
    const int streams = quick ? 200 : 10000;
    const long long n = 4099;
    long long *h = (long long *)malloc((size_t)n * 8), *d, *out, *got;
    got = (long long *)malloc((size_t)streams * 8);
    CUDA_OK(cudaMalloc((void **)&d, (size_t)n * 8));
    CUDA_OK(cudaMalloc((void **)&out, (size_t)streams * 8));
    long long want = fill(h, n, 99);
    CUDA_OK(cudaMemcpy(d, h, (size_t)n * 8, cudaMemcpyHostToDevice));
    int failed = 0, most_cached = 0;
    for (int i = 0; i < streams; ++i) {
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        failed += gs_reduce_sum(GS_INT64, d, n, out + i, s) != GS_SUCCESS;
        CUDA_OK(cudaStreamDestroy(s)); /* its kernel may still be running */
        int c = gs__ws_cached_count();
        most_cached = c > most_cached ? c : most_cached;
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(got, out, (size_t)streams * 8, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < streams; ++i)
        wrong += got[i] != want;
    EXPECT(failed == 0 && wrong == 0, "%d streams created, used, destroyed: %d calls failed, %d "
           "results wrong", streams, failed, wrong);
    EXPECT(most_cached <= 256, "the workspace cache grew to %d entries", most_cached);
    printf("  %d streams created, used once, destroyed: %d wrong, at most %d workspaces cached\n",
           streams, wrong, most_cached);
    cudaFree(d);
    cudaFree(out);
    free(h);
    free(got);
    return 2;
}

/* ------------------------------------------------ release racing calls */

typedef struct racer {
    const long long *d;
    long long n, want;
    volatile int *stop;
    int calls, wrong;
} racer;

static void *racing_caller(void *arg)
{
    racer *r = (racer *)arg;
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    while (!*r->stop) {
        long long got = 0;
        r->wrong += gs_reduce_sum(GS_INT64, r->d, r->n, &got, s) != GS_SUCCESS || got != r->want;
        ++r->calls;
    }
    cudaStreamDestroy(s);
    return NULL;
}

static int check_release_race(int quick)
{
    enum { CALLERS = 4 };
    const long long n = 1 << 18;
    long long *h = (long long *)malloc((size_t)n * 8), *d;
    CUDA_OK(cudaMalloc((void **)&d, (size_t)n * 8));
    long long want = fill(h, n, 123);
    CUDA_OK(cudaMemcpy(d, h, (size_t)n * 8, cudaMemcpyHostToDevice));
    volatile int stop = 0;
    racer r[CALLERS];
    pthread_t tid[CALLERS];
    for (int i = 0; i < CALLERS; ++i) {
        r[i] = racer{d, n, want, &stop, 0, 0};
        pthread_create(&tid[i], NULL, racing_caller, &r[i]);
    }
    for (int i = 0; i < (quick ? 20 : 2000); ++i)
        gs_reduce_release_workspaces();
    stop = 1;
    int calls = 0, wrong = 0;
    for (int i = 0; i < CALLERS; ++i) {
        pthread_join(tid[i], NULL);
        calls += r[i].calls;
        wrong += r[i].wrong;
    }
    EXPECT(wrong == 0, "release racing %d calls: %d failed or wrong", calls, wrong);
    printf("  gs_reduce_release_workspaces racing %d calls in %d threads: %d wrong\n", calls,
           CALLERS, wrong);
    cudaFree(d);
    free(h);
    return 1;
}

/* --------------------------------------------------------- graph capture */

static int check_capture(void)
{
    const long long n = 300007;
    long long *h = (long long *)malloc((size_t)n * 8), *d, *out, got = 0, host_result = 0;
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d, (size_t)n * 8));
    CUDA_OK(cudaMalloc((void **)&out, 8));
    /* the first call ever on this stream happens inside the capture */
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    gs_status st = gs_reduce_sum(GS_INT64, d, n, out, s);
    gs_status refused = gs_reduce_sum(GS_INT64, d, n, &host_result, s);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    EXPECT(st == GS_SUCCESS, "a reduction inside a capture: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    EXPECT(refused == GS_ERR_INVALID_ARGUMENT, "a host result inside a capture: %s",
           gs_status_string(refused));
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    int wrong = 0;
    for (int rep = 0; rep < 3; ++rep) {
        long long want = fill(h, n, 500 + (unsigned long long)rep);
        CUDA_OK(cudaMemcpyAsync(d, h, (size_t)n * 8, cudaMemcpyHostToDevice, s));
        CUDA_OK(cudaGraphLaunch(exec, s));
        /* a direct call on the same stream between replays */
        long long direct = 0;
        GS_OK(gs_reduce_sum(GS_INT64, d, n, &direct, s));
        CUDA_OK(cudaMemcpyAsync(&got, out, 8, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        wrong += got != want || direct != want;
    }
    EXPECT(wrong == 0, "graph replays on fresh data: %d of 3 wrong", wrong);
    printf("  first call inside a capture, 3 replays on fresh data: %d wrong\n", wrong);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFree(out);
    free(h);
    return 3;
}

/* ------------------------------------------------------ managed result */

static int check_managed_result(void)
{
    const long long n = 1 << 20;
    long long *h = (long long *)malloc((size_t)n * 8), *d, *managed;
    CUDA_OK(cudaMalloc((void **)&d, (size_t)n * 8));
    CUDA_OK(cudaMallocManaged((void **)&managed, 8, cudaMemAttachGlobal));
    int wrong = 0;
    for (int rep = 0; rep < 20; ++rep) {
        long long want = fill(h, n, 900 + (unsigned long long)rep);
        CUDA_OK(cudaMemcpy(d, h, (size_t)n * 8, cudaMemcpyHostToDevice));
        *managed = 0x5a5a5a5a; /* poison */
        GS_OK(gs_reduce_sum(GS_INT64, d, n, managed, 0));
        wrong += *managed != want; /* read on return, no synchronization */
    }
    EXPECT(wrong == 0, "results in managed memory read on return: %d of 20 wrong", wrong);
    cudaFree(d);
    cudaFree(managed);
    free(h);
    return 1;
}

int main(void)
{
    gs_test_require_gpu("reduce_concurrency");
    seed = gs_test_seed("reduce_concurrency");
    const int quick = gs_test_sanitizer();
    int checks = 0;
    checks += check_per_thread_streams(quick);
    checks += check_shared_stream(quick);
    checks += check_stream_churn(quick);
    checks += check_release_race(quick);
    checks += check_capture();
    checks += check_managed_result();
    gs_reduce_release_workspaces();
    return gs_test_finish("reduce_concurrency", checks);
}
