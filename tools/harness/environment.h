/* environment.h - what a result was measured on, for results.json. */
#ifndef GS_BENCH_ENVIRONMENT_H
#define GS_BENCH_ENVIRONMENT_H

#include <cjson/cJSON.h>

#include "gridsync.h"
#include "harness/nvml.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {"gpu", "device", "compute_capability", "sms", "l2_bytes",
 *  "sm_clock_mhz_max", "sm_clock_mhz" (current, from NVML; -1 without it),
 *  "gpu_state" (harness/nvml.h: clocks, temperature, power, throttle reasons
 *  when the run began), "memory_bandwidth_gbs_theoretical",
 *  "driver_cuda_version", "cuda_runtime", "gridsync_version", "git_commit",
 *  "command", "date"}. `gridsync bench` adds "sm_clock_mhz_end" and
 *  "gpu_state_end" when the run ends. */
cJSON *gs_environment_json(const gs_device_info *dev, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
