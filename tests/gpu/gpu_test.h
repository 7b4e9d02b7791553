/*
 * gpu_test.h - helpers for GPU tests: skip (exit 77) without a GPU, check
 * CUDA calls and gridsync statuses, count failures, scale down under
 * compute-sanitizer (GS_TEST_SANITIZER=1, set by scripts/gpu-check).
 */
#ifndef GS_GPU_TEST_H
#define GS_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "gridsync.h"
#include "testing/random.h" /* gs_test_seed: the seed, printed; GRIDSYNC_TEST_SEED */

#define GS_TEST_SKIP 77

static int gs_test_failures = 0;

/* Exit 77 (CTest: skipped) when there is no usable GPU. */
static inline void gs_test_require_gpu(const char *name)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("%s: SKIP: no usable GPU (%s)\n", name,
               err != cudaSuccess ? cudaGetErrorName(err) : "0 devices");
        exit(GS_TEST_SKIP);
    }
}

static inline int gs_test_sanitizer(void)
{
    const char *s = getenv("GS_TEST_SANITIZER");
    return s && s[0] == '1';
}

#define CUDA_OK(call)                                                                   \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "FATAL %s:%d: %s: %s\n", __FILE__, __LINE__, #call,         \
                    cudaGetErrorName(e_));                                              \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

#define GS_OK(call)                                                                     \
    do {                                                                                \
        gs_status s_ = (call);                                                          \
        if (s_ != GS_SUCCESS) {                                                         \
            fprintf(stderr, "FATAL %s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,     \
                    gs_status_string(s_), gs_last_error_detail());                      \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

#define EXPECT(cond, ...)                                                               \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                               \
            fputc('\n', stderr);                                                        \
            ++gs_test_failures;                                                         \
        }                                                                               \
    } while (0)

static inline int gs_test_finish(const char *name, int checks)
{
    printf("%s: %d checks, %d failed\n", name, checks, gs_test_failures);
    return gs_test_failures ? 1 : 0;
}

#endif
