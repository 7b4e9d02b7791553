/*
 * test_scan_streams.cu - gs_scan beside other work: many back-to-back calls
 * on two streams with reductions mixed in (they share the workspace); two
 * host threads, on their own streams and on one shared stream; 300 streams
 * created, used and destroyed (workspaces recycled);
 * gs_reduce_release_workspaces racing scans whose lengths grow; a scan
 * captured in a graph and replayed on fresh data. Results against the CPU
 * reference (scan_test.h).
 */
#include <pthread.h>

#include "scan_test.h"

/* ------------------------------------------------- streams and threads */

/* Calls of different lengths and types back to back on two streams,
 * reductions in between (the same workspace); every output its own buffer,
 * checked at the end. */
static int check_two_streams(int quick)
{
    enum { CALLS = 48 };
    const int calls = quick ? 6 : CALLS;
    const long long most = 200000;
    cudaStream_t s[2];
    int *d_in, *d_out, *h_in, *h_out;
    long long *d_sum, h_sum[2 * CALLS];
    CUDA_OK(cudaStreamCreateWithFlags(&s[0], cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, most * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)2 * calls * most * 4));
    CUDA_OK(cudaMalloc((void **)&d_sum, sizeof h_sum));
    h_in = (int *)malloc(most * 4);
    h_out = (int *)malloc((size_t)2 * calls * most * 4);
    fill(h_in, most, FILL_REAL);
    CUDA_OK(cudaMemcpy(d_in, h_in, most * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_out, 0xff, (size_t)2 * calls * most * 4));
    long long lengths[2 * CALLS];
    for (int i = 0; i < calls; ++i)
        for (int k = 0; k < 2; ++k) {
            int j = 2 * i + k;
            lengths[j] = 1 + (long long)(next_u64() % (unsigned long long)most);
            gs_scan_kind kind = (gs_scan_kind)(j % 2);
            GS_OK(gs_scan(GS_SCAN_SUM, kind, GS_INT32, d_in, d_out + (size_t)j * most, lengths[j],
                          s[k]));
            /* the reduction folds the input in a different shape: a busy workspace */
            GS_OK(gs_reduce_sum(GS_INT64, (const long long *)d_in, lengths[j] / 2, d_sum + j, s[k]));
        }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)2 * calls * most * 4, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(h_sum, d_sum, (size_t)2 * calls * 8, cudaMemcpyDeviceToHost));
    long long wrong = 0, wrong_sums = 0;
    for (int j = 0; j < 2 * calls; ++j) {
        wrong += wrong_elements(GS_SCAN_SUM, (gs_scan_kind)(j % 2), h_in, h_out + (size_t)j * most,
                                lengths[j], false, "two streams");
        unsigned long long want = 0;
        for (long long i = 0; i < lengths[j] / 2; ++i)
            want += (unsigned long long)((const long long *)h_in)[i];
        wrong_sums += (long long)want != h_sum[j];
    }
    EXPECT(wrong == 0 && wrong_sums == 0, "two streams, %d calls each: %lld elements and %lld "
           "reductions wrong", calls, wrong, wrong_sums);
    printf("  2 streams x %d scans (and reductions) back to back: %lld wrong elements\n", calls,
           wrong);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sum);
    free(h_in);
    free(h_out);
    cudaStreamDestroy(s[0]);
    cudaStreamDestroy(s[1]);
    return 1;
}

/* Host threads scanning their own data, each many times: on their own
 * streams, or all on one shared stream. */
struct worker {
    cudaStream_t stream; /* 0: the thread makes its own */
    int index, rounds, wrong, failed;
};

static void *scan_worker(void *arg)
{
    worker *w = (worker *)arg;
    const long long n = 70001 + 4096 * w->index;
    long long *h = (long long *)malloc((size_t)n * 8), *y = (long long *)malloc((size_t)n * 8);
    long long *d_in, *d_out;
    cudaStream_t s = w->stream;
    if (!s)
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, (size_t)n * 8));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)n * 8));
    unsigned long long state = 0x1234567ull * (unsigned long long)(w->index + 1);
    for (int r = 0; r < w->rounds; ++r) {
        for (long long i = 0; i < n; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            h[i] = (long long)(state >> 1);
        }
        CUDA_OK(cudaMemcpyAsync(d_in, h, (size_t)n * 8, cudaMemcpyHostToDevice, s));
        gs_scan_kind kind = (gs_scan_kind)(r % 2);
        w->failed += gs_scan(GS_SCAN_SUM, kind, GS_INT64, d_in, d_out, n, s) != GS_SUCCESS;
        CUDA_OK(cudaMemcpyAsync(y, d_out, (size_t)n * 8, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        w->wrong += wrong_elements(GS_SCAN_SUM, kind, h, y, n, false, "thread") != 0;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    if (!w->stream)
        cudaStreamDestroy(s);
    free(h);
    free(y);
    return NULL;
}

static int check_threads(int quick)
{
    cudaStream_t shared;
    CUDA_OK(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking));
    int checks = 0;
    for (int mode = 0; mode < 2; ++mode) {
        pthread_t tid[2];
        worker w[2];
        for (int t = 0; t < 2; ++t) {
            w[t] = worker{mode ? shared : (cudaStream_t)0, t, quick ? 3 : 60, 0, 0};
            pthread_create(&tid[t], NULL, scan_worker, &w[t]);
        }
        for (int t = 0; t < 2; ++t)
            pthread_join(tid[t], NULL);
        EXPECT(w[0].wrong + w[1].wrong + w[0].failed + w[1].failed == 0,
               "2 threads (%s): %d and %d scans wrong, %d and %d failed",
               mode ? "one stream" : "own streams", w[0].wrong, w[1].wrong, w[0].failed,
               w[1].failed);
        printf("  2 threads x %d scans, %s: %d wrong\n", w[0].rounds,
               mode ? "one shared stream" : "own streams", w[0].wrong + w[1].wrong);
        ++checks;
    }
    cudaStreamDestroy(shared);
    return checks;
}

/* gs_reduce_release_workspaces racing scans in two threads, whose lengths
 * grow (descriptor areas replaced while old ones may still be in use). */
struct racer {
    volatile int *stop;
    int calls, wrong;
};

static void *racing_scanner(void *arg)
{
    racer *r = (racer *)arg;
    const long long most = 40 * latency_tile<int>();
    int *h = (int *)malloc(most * 4), *y = (int *)malloc(most * 4), *d_in, *d_out;
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, most * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, most * 4));
    for (long long i = 0; i < most; ++i)
        h[i] = (int)(i * 2654435761u);
    CUDA_OK(cudaMemcpy(d_in, h, most * 4, cudaMemcpyHostToDevice));
    for (long long n = latency_tile<int>() + 1; !*r->stop; n = n * 3 / 2 > most ? 1 : n * 3 / 2 + 1) {
        bool ok = gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, GS_INT32, d_in, d_out, n, s) == GS_SUCCESS;
        CUDA_OK(cudaMemcpyAsync(y, d_out, (size_t)n * 4, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        r->wrong += !ok || wrong_elements(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, h, y, n, false, "race");
        ++r->calls;
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaStreamDestroy(s);
    free(h);
    free(y);
    return NULL;
}

static int check_release_race(int quick)
{
    volatile int stop = 0;
    racer r[2] = {{&stop, 0, 0}, {&stop, 0, 0}};
    pthread_t tid[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&tid[i], NULL, racing_scanner, &r[i]);
    for (int i = 0; i < (quick ? 20 : 1000); ++i)
        gs_reduce_release_workspaces();
    stop = 1;
    for (int i = 0; i < 2; ++i)
        pthread_join(tid[i], NULL);
    EXPECT(r[0].wrong + r[1].wrong == 0, "release racing %d scans: %d wrong",
           r[0].calls + r[1].calls, r[0].wrong + r[1].wrong);
    printf("  gs_reduce_release_workspaces racing %d scans in 2 threads: %d wrong\n",
           r[0].calls + r[1].calls, r[0].wrong + r[1].wrong);
    return 1;
}

/* More streams than the workspace cache holds: workspaces are recycled
 * between streams with their descriptors and counters as they are. */
static int check_stream_churn(int quick)
{
    const int streams = quick ? 80 : 300;
    const long long n = 3 * latency_tile<int>() + 5;
    int *d_in, *d_out, *h_in, *h_out;
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, (size_t)streams * n * 4));
    h_in = (int *)malloc(n * 4);
    h_out = (int *)malloc((size_t)streams * n * 4);
    fill(h_in, n, FILL_REAL);
    CUDA_OK(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice));
    int failed = 0;
    for (int i = 0; i < streams; ++i) {
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        failed += gs_scan(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, GS_INT32, d_in, d_out + (size_t)i * n, n,
                          s) != GS_SUCCESS;
        CUDA_OK(cudaStreamDestroy(s)); /* its kernel may still run */
    }
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)streams * n * 4, cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (int i = 0; i < streams; ++i)
        wrong += wrong_elements(GS_SCAN_MAX, GS_SCAN_INCLUSIVE, h_in, h_out + (size_t)i * n, n,
                                false, "stream churn");
    EXPECT(failed == 0 && wrong == 0, "%d streams: %d calls failed, %lld elements wrong", streams,
           failed, wrong);
    printf("  %d streams created, scanned once, destroyed: %lld wrong\n", streams, wrong);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 1;
}

/* A scan captured in a graph (its workspace the graph's own, zeroed by a
 * node at every replay) and replayed on fresh data. */
static int check_capture(void)
{
    const long long n = 50 * latency_tile<float>() + 3;
    float *d_in, *d_out, *h_in = (float *)malloc(n * 4), *h_out = (float *)malloc(n * 4);
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_in, n * 4));
    CUDA_OK(cudaMalloc((void **)&d_out, n * 4));
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    gs_status st = gs_scan(GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, GS_FLOAT32, d_in, d_out, n, s);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    EXPECT(st == GS_SUCCESS, "a scan inside a capture: %s: %s", gs_status_string(st),
           gs_last_error_detail());
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    long long wrong = 0;
    for (int rep = 0; rep < 3; ++rep) {
        fill(h_in, n, FILL_SMALL_INTS);
        CUDA_OK(cudaMemcpyAsync(d_in, h_in, n * 4, cudaMemcpyHostToDevice, s));
        CUDA_OK(cudaGraphLaunch(exec, s));
        CUDA_OK(cudaMemcpyAsync(h_out, d_out, n * 4, cudaMemcpyDeviceToHost, s));
        CUDA_OK(cudaStreamSynchronize(s));
        wrong += wrong_elements(GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, h_in, h_out, n, true, "graph");
    }
    EXPECT(wrong == 0, "graph replays on fresh data: %lld elements wrong", wrong);
    printf("  a captured scan replayed 3 times on fresh data: %lld wrong\n", wrong);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 1;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    const int quick = scan_test_begin("scan_streams");
    int checks = 0;
    checks += check_two_streams(quick);
    checks += check_threads(quick);
    checks += check_stream_churn(quick);
    checks += check_release_race(quick);
    checks += check_capture();
    return scan_test_end("scan_streams", checks);
}
