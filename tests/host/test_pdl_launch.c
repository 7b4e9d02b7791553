/*
 * test_pdl_launch.c - the host side of programmatic dependent launch
 * (src/pdl/launch.c) on the stubbed CUDA runtime (cuda_stub.h), which
 * records what reaches cuLaunchKernelEx:
 *   - bad arguments are refused with one sentence and launch nothing;
 *   - on compute capability 9.0 with sm_90 code the launch carries the
 *     programmatic-stream-serialization attribute, with the grid, block,
 *     shared memory and stream given, also inside a stream capture;
 *   - below 9.0, or for code built from older PTX (where gs_pdl_wait is
 *     compiled to nothing), it is an ordinary launch without it, and
 *     gs_pdl_overlaps says so;
 *   - a failed launch is GS_ERR_CUDA naming cuLaunchKernelEx and the error.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <cuda.h>

#include "gridsync.h"

#include "cuda_stub.h"

/* Any non-NULL handle: the stub's driver launches nothing real. */
#define KERNEL ((cudaFunction_t)(uintptr_t)0x1000)

static gs_status launch(dim3 grid, dim3 block, size_t smem, cudaStream_t s)
{
    void *args[1] = {NULL};
    return gs_launch_pdl_func(KERNEL, grid, block, smem, s, args);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    stub_reset();
    void *args[1] = {NULL};
    dim3 one = {1, 1, 1}, zero_x = {0, 1, 1}, zero_z = {4, 1, 0}, wide = {33, 32, 1};
    assert_int_equal(gs_launch_pdl_func(NULL, one, one, 0, 0, args), GS_ERR_INVALID_ARGUMENT);
    assert_string_equal(gs_last_error_detail(), "gs_launch_pdl: kernel is NULL");
    assert_int_equal(launch(zero_x, one, 0, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "grid (0,1,1) and block (1,1,1) must have no "
                                                   "zero dimension"));
    assert_int_equal(launch(one, zero_z, 0, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "block (4,1,0)"));
    assert_int_equal(launch(one, wide, 0, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "1056 threads per block, at most 1024"));
    assert_int_equal(launch(one, one, (size_t)1 << 33, 0), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "bytes of shared memory"));
    int overlap = 7;
    assert_int_equal(gs_pdl_overlaps_func(NULL, &overlap), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(overlap, 0);
    assert_int_equal(gs_pdl_overlaps_func(KERNEL, NULL), GS_ERR_INVALID_ARGUMENT);
    assert_int_equal(stub_last_launch_ex().count, 0); /* nothing reached the driver */
}

static void test_programmatic_on_sm90(void **state)
{
    (void)state;
    stub_reset();
    cudaStream_t s;
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    dim3 grid = {1001, 3, 1}, block = {96, 2, 1};
    int overlap = 0;
    assert_int_equal(gs_pdl_overlaps_func(KERNEL, &overlap), GS_SUCCESS);
    assert_int_equal(overlap, 1);
    assert_int_equal(launch(grid, block, 4096, s), GS_SUCCESS);
    stub_launch_ex r = stub_last_launch_ex();
    assert_int_equal(r.count, 1);
    assert_int_equal(r.programmatic, 1);
    assert_int_equal(r.grid[0], 1001);
    assert_int_equal(r.grid[1], 3);
    assert_int_equal(r.grid[2], 1);
    assert_int_equal(r.block[0], 96);
    assert_int_equal(r.block[1], 2);
    assert_int_equal(r.smem, 4096);
    assert_ptr_equal(r.stream, s);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* Launches captured into a graph carry the attribute too (the driver makes
 * them programmatic edges), and the graph replays them. */
static void test_programmatic_in_capture(void **state)
{
    (void)state;
    stub_reset();
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t exec;
    dim3 grid = {7, 1, 1}, block = {64, 1, 1};
    assert_int_equal(cudaStreamCreate(&s), cudaSuccess);
    assert_int_equal(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    for (int k = 0; k < 5; ++k) {
        assert_int_equal(launch(grid, block, 0, s), GS_SUCCESS);
        assert_int_equal(stub_last_launch_ex().programmatic, 1);
    }
    assert_int_equal(cudaStreamEndCapture(s, &g), cudaSuccess);
    assert_int_equal(stub_last_launch_ex().count, 5);
    assert_int_equal(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
    assert_int_equal(cudaGraphLaunch(exec, s), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(s), cudaSuccess);
    assert_int_equal(cudaGraphExecDestroy(exec), cudaSuccess);
    assert_int_equal(cudaGraphDestroy(g), cudaSuccess);
    assert_int_equal(cudaStreamDestroy(s), cudaSuccess);
}

/* Below sm_90, or sm_90 running code JIT-compiled from older PTX: an
 * ordinary launch (gs_pdl_wait is a no-op there, so overlap would be
 * wrong). */
static void test_ordinary_elsewhere(void **state)
{
    (void)state;
    dim3 grid = {5, 1, 1}, block = {32, 1, 1};
    int overlap = 1;
    stub_reset();
    stub_set_compute_capability(8);
    assert_int_equal(gs_pdl_overlaps_func(KERNEL, &overlap), GS_SUCCESS);
    assert_int_equal(overlap, 0);
    assert_int_equal(launch(grid, block, 0, 0), GS_SUCCESS);
    assert_int_equal(stub_last_launch_ex().count, 1);
    assert_int_equal(stub_last_launch_ex().programmatic, 0);

    stub_reset();
    stub_set_ptx_version(80);
    overlap = 1;
    assert_int_equal(gs_pdl_overlaps_func(KERNEL, &overlap), GS_SUCCESS);
    assert_int_equal(overlap, 0);
    assert_int_equal(launch(grid, block, 0, 0), GS_SUCCESS);
    assert_int_equal(stub_last_launch_ex().programmatic, 0);

    stub_reset();
    stub_set_ptx_version(100); /* newer PTX on a newer GPU: overlaps */
    stub_set_compute_capability(10);
    assert_int_equal(launch(grid, block, 0, 0), GS_SUCCESS);
    assert_int_equal(stub_last_launch_ex().programmatic, 1);
    stub_reset();
}

static void test_launch_failure_named(void **state)
{
    (void)state;
    dim3 one = {1, 1, 1};
    stub_reset();
    stub_fail_next_launch_ex(CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(launch(one, one, 0, 0), GS_ERR_CUDA);
    assert_non_null(strstr(gs_last_error_detail(), "cuLaunchKernelEx failed at launch.c:"));
    assert_non_null(strstr(gs_last_error_detail(), "CUDA_ERROR_STUB"));
    assert_int_equal(stub_last_launch_ex().count, 0);
    assert_int_equal(launch(one, one, 0, 0), GS_SUCCESS); /* the next one goes through */
    stub_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_programmatic_on_sm90),
        cmocka_unit_test(test_programmatic_in_capture),
        cmocka_unit_test(test_ordinary_elsewhere),
        cmocka_unit_test(test_launch_failure_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
