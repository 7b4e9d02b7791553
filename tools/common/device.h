/* device.h - choosing the GPU a tool works on, and what it can hold. */
#ifndef GS_COMMON_DEVICE_H
#define GS_COMMON_DEVICE_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Make GPU `ordinal` (validated) the current one; fills `info`. */
gs_status gs_select_device(int ordinal, gs_device_info *info);

/* Co-resident blocks of `threads` threads of a small kernel that uses
 * gs_grid_sync, on the current GPU (coresident.cu). */
gs_status gs_probe_coresident(int threads, int *blocks);

#ifdef __cplusplus
}
#endif

#endif
