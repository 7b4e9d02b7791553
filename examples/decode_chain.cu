/*
 * decode_chain.cu - batch-1 decode with gridsync's task runtime: a chain of
 * L dependent matrix-vector products x_{l+1} = W_l x_l over fp16 weights,
 * each read once. Every layer needs the whole previous output, but its
 * weights depend on nothing: the runtime copies the weights of a block's
 * next tasks into shared memory while the block waits, so the memory system
 * never idles through the waits.
 *
 * One task per slab of ROWS rows of a layer: its weights are the task's
 * independent input; it waits for counter l - 1 (every slab of layer l - 1
 * posted it), computes its rows (a warp per row) and posts counter l.
 * Checked against an FP64 computation on the CPU from the GPU's own input to
 * each layer: |y - ref| <= 2^-11 |ref| + 1.01 K 2^-24 sum |w x|.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc -arch=sm_90 decode_chain.cu $(pkg-config --cflags --libs gridsync)
 *   run:   ./example_decode_chain [D] [layers]
 */
#include <gridsync_tasks.h>
#include <gridsync/tasks.cuh>

#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_check.h"

enum { ROWS = 8, THREADS = 256 };

/* Each warp takes a row of the task's slab (in shared memory) and dots it
 * with x_l (global memory: written by the tasks this one waited for). */
static __global__ void decode(gs_task_view plan, const __half *x, __half *out, int d)
{
    extern __shared__ __align__(128) unsigned char smem[];
    gs_task_runner r;
    gs_task_t t;
    gs_task_begin(&r, &plan, smem);
    const int warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    while (gs_task_next(&r, &t)) {
        const int layer = (int)gs_task_arg(&t, 0), row0 = (int)gs_task_arg(&t, 1);
        const __half *w = (const __half *)gs_task_input(&t, 0);
        const __half *in = layer == 0 ? x : out + (size_t)(layer - 1) * d;
        for (int row = warp; row < ROWS; row += THREADS / 32) {
            float sum = 0.0f;
            for (int c = lane; c < d; c += 32)
                sum += __half2float(w[(size_t)row * d + c]) * __half2float(in[c]);
            for (int o = 16; o > 0; o /= 2)
                sum += __shfl_xor_sync(0xffffffffu, sum, o);
            if (lane == 0)
                out[(size_t)layer * d + row0 + row] = __float2half(sum);
        }
        gs_task_end(&r, &t);
    }
}

int main(int argc, char **argv)
{
    const int d = argc > 1 ? atoi(argv[1]) : 2048, layers = argc > 2 ? atoi(argv[2]) : 16;
    if (d < ROWS || d % ROWS || d > 16384 || layers < 1 || layers > 4096) {
        fprintf(stderr, "usage: %s [D: a multiple of %d to 16384] [layers: 1 to 4096]\n", argv[0],
                ROWS);
        return 2;
    }
    int dev = 0, sms = 0;
    GS_CHECK(gs_device_count(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t wn = (size_t)layers * d * d;
    __half *hw = (__half *)malloc(wn * sizeof *hw), *hx = (__half *)malloc(d * sizeof *hx);
    __half *hout = (__half *)malloc((size_t)layers * d * sizeof *hout);
    if (!hw || !hx || !hout)
        return 1;
    srand(12345);
    const float a = sqrtf(3.0f / d); /* keeps |x| near 1 through the layers */
    for (size_t i = 0; i < wn; ++i)
        hw[i] = __float2half(a * (2.0f * rand() / RAND_MAX - 1.0f));
    for (int i = 0; i < d; ++i)
        hx[i] = __float2half(2.0f * rand() / RAND_MAX - 1.0f);

    __half *w, *x, *out;
    CHECK(cudaMalloc(&w, wn * sizeof *w));
    CHECK(cudaMalloc(&x, d * sizeof *x));
    CHECK(cudaMalloc(&out, (size_t)layers * d * sizeof *out));
    CHECK(cudaMemcpy(w, hw, wn * sizeof *w, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, hx, d * sizeof *x, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0xff, (size_t)layers * d * sizeof *out)); /* NaN: unwritten shows */

    /* the plan: a task per slab, layer after layer */
    gs_task_plan_t plan;
    GS_CHECK(gs_task_plan_create(&plan, (unsigned int)layers));
    const unsigned int slabs = (unsigned int)(d / ROWS);
    for (int l = 0; l < layers; ++l)
        for (unsigned int s = 0; s < slabs; ++s) {
            gs_task_desc task;
            memset(&task, 0, sizeof task);
            task.arg[0] = (unsigned long long)l;
            task.arg[1] = (unsigned long long)s * ROWS;
            if (l > 0)
                task.waits[task.nwaits++] = {(unsigned int)l - 1, slabs};
            task.posts[task.nposts++] = {(unsigned int)l, 1};
            task.inputs[task.ninputs++] = {w + ((size_t)l * d + (size_t)s * ROWS) * d,
                                           ROWS * d * sizeof *w};
            GS_CHECK(gs_task_plan_add(plan, &task, NULL));
        }
    GS_CHECK(gs_task_plan_set_stages(plan, 4, 0)); /* up to 4 slabs in flight per block */
    GS_CHECK(gs_task_plan_build(plan, (unsigned int)sms));
    gs_task_view view;
    GS_CHECK(gs_task_plan_device(plan, &view));
    const size_t smem = gs_task_plan_smem_bytes(plan);
    CHECK(cudaFuncSetAttribute(decode, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    void *args[] = {&view, &x, &out, (void *)&d};
    GS_CHECK(gs_task_plan_launch(plan, (const void *)decode, dim3(THREADS), smem, 0, args));
    GS_CHECK(gs_task_plan_check(plan, 0));
    CHECK(cudaMemcpy(hout, out, (size_t)layers * d * sizeof *hout, cudaMemcpyDeviceToHost));

    /* every layer against FP64 from the GPU's own input to it */
    long long bad = 0;
    double worst = 0.0;
    for (int l = 0; l < layers; ++l) {
        const __half *in = l == 0 ? hx : hout + (size_t)(l - 1) * d;
        for (int row = 0; row < d; ++row) {
            double ref = 0.0, mag = 0.0;
            for (int c = 0; c < d; ++c) {
                const double p = (double)__half2float(hw[((size_t)l * d + row) * d + c]) *
                                 (double)__half2float(in[c]);
                ref += p;
                mag += fabs(p);
            }
            const double got = (double)__half2float(hout[(size_t)l * d + row]);
            const double bound = ldexp(fabs(ref), -11) + 1.01 * d * ldexp(mag, -24) + 1e-7;
            const double ratio = fabs(got - ref) / bound;
            bad += !(ratio <= 1.0);
            worst = ratio > worst ? ratio : worst;
        }
    }
    printf("decode_chain: %d layers of %d x %d fp16, %u tasks on %d blocks: %lld outputs beyond "
           "the bound (largest error / bound %.3f)\n",
           layers, d, d, gs_task_plan_size(plan), sms, bad, worst);
    GS_CHECK(gs_task_plan_destroy(plan));
    cudaFree(w);
    cudaFree(x);
    cudaFree(out);
    free(hw);
    free(hx);
    free(hout);
    return bad ? 1 : 0;
}
