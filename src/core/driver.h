/*
 * driver.h - internal: the few CUDA driver API functions the library calls
 * on kernels that belong to the user's program.
 *
 * A __global__ function is registered with the CUDA runtime of the program
 * that defines it (nvcc links a static runtime by default), so the library's
 * runtime cannot look it up by its host pointer. The user's side resolves it
 * to a driver handle (gs__kernel_func in gridsync.h, cudaGetFuncBySymbol),
 * valid in every runtime of the process; the library queries and launches it
 * through the driver, reached with cudaGetDriverEntryPointByVersion so that
 * libgridsync needs no link to libcuda.
 */
#ifndef GS_CORE_DRIVER_H
#define GS_CORE_DRIVER_H

#include <cuda.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs__driver_api {
    CUresult (*occupancy)(int *blocks, CUfunction f, int block_threads, size_t dynamic_smem);
    CUresult (*launch_cooperative)(CUfunction f, unsigned int gx, unsigned int gy,
                                   unsigned int gz, unsigned int bx, unsigned int by,
                                   unsigned int bz, unsigned int smem, CUstream stream,
                                   void **params);
    CUresult (*error_name)(CUresult r, const char **name);
    CUresult (*launch_ex)(const CUlaunchConfig *config, CUfunction f, void **params,
                          void **extra);
    CUresult (*func_attribute)(int *value, CUfunction_attribute attribute, CUfunction f);
} gs__driver_api;

/* The entry points, looked up once per process. */
gs_status gs__driver(const gs__driver_api **api);

/* Record a failed driver call ("cuLaunchCooperativeKernel failed at
 * launch.c:80: CUDA_ERROR_...") and return the matching status. */
gs_status gs__driver_fail(CUresult r, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

/* GS_CU_TRY(api->occupancy(...), "cuOccupancyMaxActiveBlocksPerMultiprocessor") */
#define GS_CU_TRY(expr, name)                                                          \
    do {                                                                               \
        CUresult gs_cu_ = (expr);                                                      \
        if (gs_cu_ != CUDA_SUCCESS)                                                    \
            return gs__driver_fail(gs_cu_, name, __FILE__, __LINE__);                  \
    } while (0)

#endif /* GS_CORE_DRIVER_H */
