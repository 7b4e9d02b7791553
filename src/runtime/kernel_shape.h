/* kernel_shape.h - the kernel-shape cache of the runtime floor (internal):
 * what a component needs to know about a device and one of its kernels to
 * size the grid and pick a code path (the single-pass calls, the scans,
 * the wide gemm tile), queried once and cached: the
 * driver queries behind it (SM count, memory size, occupancy) cost a few
 * microseconds together, more than a small reduction itself. */
#ifndef GS_RUNTIME_KERNEL_SHAPE_H
#define GS_RUNTIME_KERNEL_SHAPE_H

#include <stddef.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs__kernel_shape {
    int sms;            /* streaming multiprocessors of the device */
    int per_sm;         /* resident blocks of `threads` threads per SM */
    size_t total_bytes; /* device memory */
    int early_launch;   /* compute capability >= 9.0 and the kernel's code
                           built for it (PTX 9.0 or later, not JIT-compiled from
                           older PTX, where the device code has neither):
                           programmatic dependent launch (the kernel's launch
                           overlaps the end of the previous kernel on the
                           stream, which griddepcontrol.wait then waits out),
                           and bulk copies */
    int async_copy;     /* compute capability >= 8.0 and the kernel's code
                           built for it (PTX 8.0 or later): cp.async */
} gs__kernel_shape;

/* The shape of `kernel` launched with `threads` threads and
 * `dynamic_smem` bytes of dynamic shared memory on `device`, from the cache
 * or queried. A kernel with more than 48 KiB of dynamic shared memory gets
 * the attribute that allows it on the first query (per device); when the
 * device cannot give that much, or no block fits, shape->per_sm is 0.
 * Thread-safe. */
gs_status gs__kernel_shape_get(int device, const void *kernel, int threads, int dynamic_smem,
                               gs__kernel_shape *shape);

#ifdef __cplusplus
}
#endif

#endif
