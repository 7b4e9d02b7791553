/* environment.h - what a result was measured on, for results.json. */
#ifndef GS_BENCH_ENVIRONMENT_H
#define GS_BENCH_ENVIRONMENT_H

#include <cjson/cJSON.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {"gpu", "compute_capability", "sms", "sm_clock_mhz_max", "sm_clock_mhz"
 *  (current, from NVML when available), "driver", "cuda_runtime",
 *  "gridsync_version", "git_commit", "command", "date"} */
cJSON *gs_environment_json(const gs_device_info *dev, int argc, char **argv);

/* Current SM clock in MHz of CUDA device `device`, read through NVML
 * (libnvidia-ml.so.1, loaded at run time), or -1 without it. */
int gs_current_sm_clock_mhz(int device);

#ifdef __cplusplus
}
#endif

#endif
