// probe_check.h - CK(call): a CUDA runtime call a probe cannot go on without;
// on failure it prints the call and the CUDA error name and exits 1.
#ifndef GS_PROBE_CHECK_H
#define GS_PROBE_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorName(e_));                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
