/*
 * test_other_device.cu - every host call that takes device arrays (gs_reduce,
 * gs_dot, gs_scan, gs_sgemm) refuses another GPU's memory with
 * GS_ERR_INVALID_ARGUMENT naming the argument and both devices, writes
 * nothing, and accepts the same call once that device is current. Needs two
 * GPUs; with one it is skipped (77).
 */
#include <string.h>

#include "gpu_test.h"

static const int N = 1000;

/* The call refused, its sentence naming `what` on device 1 while 0 is current. */
static int refused(gs_status st, const char *call, const char *what)
{
    char want[96];
    snprintf(want, sizeof want, "%s is memory of device 1 but device 0 is current", what);
    EXPECT(st == GS_ERR_INVALID_ARGUMENT && strstr(gs_last_error_detail(), want),
           "%s on device 1's %s: %s: %s", call, what, gs_status_string(st),
           gs_last_error_detail());
    return 1;
}

int main(void)
{
    gs_test_require_gpu("gpu_other_device");
    int count = 0;
    CUDA_OK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("gpu_other_device: one GPU, nothing to refuse: skipped\n");
        return GS_TEST_SKIP;
    }
    int checks = 0;
    float *far_x = NULL, *far_y = NULL, *near = NULL, *near_r = NULL;
    CUDA_OK(cudaSetDevice(1));
    CUDA_OK(cudaMalloc((void **)&far_x, N * sizeof(float)));
    CUDA_OK(cudaMalloc((void **)&far_y, N * sizeof(float)));
    CUDA_OK(cudaMemset(far_x, 0, N * sizeof(float)));
    CUDA_OK(cudaMemset(far_y, 0xff, N * sizeof(float))); /* NaN: any write shows */
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaMalloc((void **)&near, N * sizeof(float)));
    CUDA_OK(cudaMalloc((void **)&near_r, sizeof(float)));
    CUDA_OK(cudaMemset(near, 0, N * sizeof(float)));

    checks += refused(gs_reduce_sum(GS_FLOAT32, far_x, N, near_r, 0), "gs_reduce_sum", "input 1");
    checks += refused(gs_reduce_sum(GS_FLOAT32, near, N, far_y, 0), "gs_reduce_sum", "the result");
    checks += refused(gs_dot(GS_FLOAT32, near, far_x, N, near_r, 0), "gs_dot", "input 2");
    checks += refused(gs_scan_inclusive_sum(GS_FLOAT32, far_x, near, N, 0), "gs_scan", "the input");
    checks += refused(gs_scan_inclusive_sum(GS_FLOAT32, near, far_y, N, 0), "gs_scan", "the output");
    checks += refused(gs_sgemm(10, 10, 10, 1.0f, far_x, 10, near, 10, 0.0f, near, 10, 0),
                      "gs_sgemm", "A");
    checks += refused(gs_sgemm(10, 10, 10, 1.0f, near, 10, near, 10, 0.0f, far_y, 10, 0),
                      "gs_sgemm", "C");
    CUDA_OK(cudaDeviceSynchronize());

    /* nothing written on device 1; there the same calls run */
    CUDA_OK(cudaSetDevice(1));
    unsigned int first = 0;
    CUDA_OK(cudaMemcpy(&first, far_y, sizeof first, cudaMemcpyDeviceToHost));
    ++checks;
    EXPECT(first == 0xffffffffu, "a refused call wrote device 1's output: %08x", first);
    ++checks;
    GS_OK(gs_scan_inclusive_sum(GS_FLOAT32, far_x, far_y, N, 0));
    CUDA_OK(cudaMemcpy(&first, far_y, sizeof first, cudaMemcpyDeviceToHost));
    EXPECT(first == 0u, "the scan on device 1, with it current: %08x", first);
    CUDA_OK(cudaFree(far_x));
    CUDA_OK(cudaFree(far_y));
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaFree(near));
    CUDA_OK(cudaFree(near_r));
    return gs_test_finish("gpu_other_device", checks);
}
