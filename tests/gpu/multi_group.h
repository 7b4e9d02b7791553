/*
 * multi_group.h - the one-process multi-GPU tests' group: every visible GPU
 * (up to GS_MULTI_MAX_GPUS) in one gs_multi_create group, or exit 77 (skip)
 * with the reason when there are fewer than two or a pair has no peer
 * access.
 */
#ifndef GS_TEST_MULTI_GROUP_H
#define GS_TEST_MULTI_GROUP_H

#include <gridsync_multi.h>

#include "gpu_test.h"

static inline gs_multi_t gs_test_multi_group(const char *name)
{
    gs_test_require_gpu(name);
    int count = 0;
    CUDA_OK(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("%s: SKIP: needs 2 or more GPUs, found %d\n", name, count);
        exit(GS_TEST_SKIP);
    }
    int devices[GS_MULTI_MAX_GPUS], g = count < GS_MULTI_MAX_GPUS ? count : GS_MULTI_MAX_GPUS;
    for (int i = 0; i < g; ++i)
        devices[i] = i;
    gs_multi_t m = NULL;
    gs_status st = gs_multi_create(&m, g, devices);
    if (st == GS_ERR_NOT_SUPPORTED) {
        printf("%s: SKIP: %s\n", name, gs_last_error_detail());
        exit(GS_TEST_SKIP);
    }
    GS_OK(st);
    return m;
}

#endif
