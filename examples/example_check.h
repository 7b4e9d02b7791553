/*
 * example_check.h - how the examples check their calls: a CUDA runtime
 * call that fails prints the call and the error's name and returns 1 from
 * main; a gridsync call prints the status and the library's sentence, and
 * returns 3 when there is no GPU (the examples' tests count that as
 * skipped), 1 otherwise. Kept next to the examples, so that each still
 * builds alone: nvcc example.cu $(pkg-config --cflags --libs gridsync).
 */
#ifndef GRIDSYNC_EXAMPLE_CHECK_H
#define GRIDSYNC_EXAMPLE_CHECK_H

#include <stdio.h>

#include <gridsync.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorName(e_));                      \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

#define GS_CHECK(call)                                                                     \
    do {                                                                                   \
        gs_status s_ = (call);                                                             \
        if (s_ != GS_SUCCESS) {                                                            \
            fprintf(stderr, "%s: %s\n", gs_status_string(s_), gs_last_error_detail());     \
            return s_ == GS_ERR_NO_DEVICE ? 3 : 1;                                         \
        }                                                                                  \
    } while (0)

#endif
