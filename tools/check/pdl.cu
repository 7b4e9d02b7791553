/* pdl.cu - kernels chained by programmatic dependent launch (gs_launch_pdl,
 * gs_pdl_wait): a chain of kernels, each reading the previous one's output
 * from other blocks and overwriting the buffer the previous one read, on a
 * stream and replayed from a CUDA graph, against the values the CPU
 * knows. */
#include <gridsync/pdl.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsync_internal.h"
#include "check/check.h"

enum { THREADS = 256, STEPS = 40, REPLAYS = 3 };

/* Step k of element i from the element it reads (a bijection of `in`: one
 * wrong read leaves a wrong final value). */
static __host__ __device__ __forceinline__ unsigned int step(unsigned int in, int k,
                                                            unsigned int i)
{
    return (in ^ ((unsigned int)k * 0x9e3779b9u)) * 0x01000193u + i;
}

/* Kernel k: out[i] = step(in[(i + 131 k + 1) mod n], k, i); the next kernel
 * may start at once, and waits before it touches either buffer. */
static __global__ void chained(const unsigned int *in, unsigned int *out, int k, unsigned int n)
{
    gs_pdl_launch_dependents();
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    gs_pdl_wait();
    if (i < n)
        out[i] = step(in[(i + 131u * (unsigned int)k + 1u) % n], k, i);
}

/* `steps` kernels on `stream`: kernel k reads buf[(k + 1) & 1], writes buf[k & 1]. */
static gs_status chain(unsigned int **buf, unsigned int n, int steps, cudaStream_t stream)
{
    const unsigned int blocks = (n + THREADS - 1u) / THREADS;
    for (int k = 0; k < steps; ++k) {
        const unsigned int *in = buf[(k + 1) & 1];
        unsigned int *out = buf[k & 1];
        void *args[] = {(void *)&in, (void *)&out, (void *)&k, (void *)&n};
        GS_TRY(gs_launch_pdl((const void *)chained, dim3(blocks), dim3(THREADS), 0, stream,
                             args));
    }
    return GS_SUCCESS;
}

static void chain_cpu(unsigned int *x, unsigned int *tmp, unsigned int n, int steps)
{
    for (int k = 0; k < steps; ++k) {
        for (unsigned int i = 0; i < n; ++i)
            tmp[i] = step(x[(i + 131u * (unsigned int)k + 1u) % n], k, i);
        memcpy(x, tmp, (size_t)n * sizeof *x);
    }
}

/* The chain on the stream, then a graph of it replayed REPLAYS times; the
 * number of wrong values of the final output. */
static gs_status run_chains(unsigned int n, cudaStream_t stream, unsigned int *host,
                            unsigned int *tmp, unsigned int *got, unsigned int *wrong)
{
    unsigned int *buf[2] = {NULL, NULL};
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    const size_t bytes = (size_t)n * sizeof *host;
    for (unsigned int i = 0; i < n; ++i)
        host[i] = i * 2654435761u + 12345u;
    cudaError_t err = cudaMalloc((void **)&buf[0], bytes);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&buf[1], bytes);
    if (err == cudaSuccess) /* poisoned: every kernel writes every element */
        err = cudaMemsetAsync(buf[0], 0xa5, bytes, stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(buf[1], host, bytes, cudaMemcpyHostToDevice, stream);
    gs_status st = err == cudaSuccess
                       ? GS_SUCCESS
                       : gs__cuda_fail(err, "cudaMalloc/cudaMemcpyAsync(check)", __FILE__,
                                       __LINE__);
    if (st == GS_SUCCESS) /* an even chain: the output lands in buf[1], the next input */
        st = chain(buf, n, STEPS, stream);
    if (st == GS_SUCCESS &&
        (err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaStreamBeginCapture", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        gs_status captured = chain(buf, n, STEPS, stream);
        err = cudaStreamEndCapture(stream, &graph);
        if (captured != GS_SUCCESS)
            st = captured;
        else if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaStreamEndCapture", __FILE__, __LINE__);
    }
    if (st == GS_SUCCESS && (err = cudaGraphInstantiate(&exec, graph, 0)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaGraphInstantiate", __FILE__, __LINE__);
    for (int r = 0; r < REPLAYS && st == GS_SUCCESS; ++r)
        if ((err = cudaGraphLaunch(exec, stream)) != cudaSuccess)
            st = gs__cuda_fail(err, "cudaGraphLaunch", __FILE__, __LINE__);
    if (st == GS_SUCCESS && (err = cudaStreamSynchronize(stream)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaStreamSynchronize(check)", __FILE__, __LINE__);
    if (st == GS_SUCCESS &&
        (err = cudaMemcpy(got, buf[1], bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaMemcpy(check)", __FILE__, __LINE__);
    if (st == GS_SUCCESS) {
        for (int r = 0; r <= REPLAYS; ++r) /* the stream's chain, then each replay */
            chain_cpu(host, tmp, n, STEPS);
        for (unsigned int i = 0; i < n; ++i)
            *wrong += got[i] != host[i];
    }
    if (exec)
        cudaGraphExecDestroy(exec);
    if (graph)
        cudaGraphDestroy(graph);
    cudaFree(buf[0]);
    cudaFree(buf[1]);
    return st;
}

static int run_pdl(const gs_check_env *env, char *figure, size_t len)
{
    /* more blocks than fit at once: a chain needs no co-residency */
    const unsigned int n = 3u * (unsigned int)env->max_blocks * THREADS + 77u;
    unsigned int *host = (unsigned int *)malloc(3 * (size_t)n * sizeof *host), wrong = 0;
    cudaStream_t stream = NULL;
    int overlap = 0;
    gs_status st = host ? GS_SUCCESS : gs__fail(GS_ERR_OUT_OF_MEMORY, "check pdl: host memory");
    if (st == GS_SUCCESS)
        st = gs_pdl_overlaps((const void *)chained, &overlap);
    cudaError_t err = cudaSuccess;
    if (st == GS_SUCCESS &&
        (err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess)
        st = gs__cuda_fail(err, "cudaStreamCreateWithFlags", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = run_chains(n, stream, host, host + n, host + 2 * (size_t)n, &wrong);
    if (stream)
        cudaStreamDestroy(stream);
    free(host);
    if (st != GS_SUCCESS)
        snprintf(figure, len, "%s: %s", gs_status_string(st), gs_last_error_detail());
    else
        snprintf(figure, len,
                 "%d chained kernels of %u blocks (stream, then %d graph replays), %s: %u "
                 "wrong values",
                 STEPS * (1 + REPLAYS), (n + THREADS - 1u) / THREADS, REPLAYS,
                 overlap ? "overlapping (PDL)" : "ordinary launches (no PDL here)", wrong);
    return st == GS_SUCCESS && wrong == 0u;
}

extern "C" const gs_check gs_check_pdl = {
    "pdl", "kernels chained by programmatic dependent launch (gs_launch_pdl, gs_pdl_wait) see "
           "each other's writes and never overwrite what the previous kernel still reads",
    run_pdl};
