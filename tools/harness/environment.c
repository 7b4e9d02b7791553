/* environment.c - capture the measuring environment (the GPU's state
 * through NVML, harness/nvml.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/environment.h"

#include "harness/nvml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GS_GIT_COMMIT
#define GS_GIT_COMMIT "unknown"
#endif

cJSON *gs_environment_json(const gs_device_info *dev, int argc, char **argv)
{
    cJSON *env = cJSON_CreateObject();
    char buf[1024];
    size_t n = 0;
    if (!env)
        return NULL;
    cJSON_AddStringToObject(env, "gpu", dev->name);
    snprintf(buf, sizeof buf, "%d.%d", dev->cc_major, dev->cc_minor);
    cJSON_AddStringToObject(env, "compute_capability", buf);
    cJSON_AddNumberToObject(env, "device", dev->ordinal);
    cJSON_AddNumberToObject(env, "sms", dev->sm_count);
    cJSON_AddNumberToObject(env, "l2_bytes", dev->l2_bytes);
    cJSON_AddNumberToObject(env, "sm_clock_mhz_max", dev->sm_clock_khz / 1000.0);
    gs_gpu_state state;
    gs_gpu_state_read(dev->ordinal, &state);
    cJSON_AddNumberToObject(env, "sm_clock_mhz", state.ok ? state.sm_mhz : -1);
    cJSON_AddItemToObject(env, "gpu_state", gs_gpu_state_json(&state));
    cJSON_AddNumberToObject(env, "memory_bandwidth_gbs_theoretical", dev->mem_bandwidth_gbs);
    snprintf(buf, sizeof buf, "%d.%d", dev->driver_version / 1000, dev->driver_version % 1000 / 10);
    cJSON_AddStringToObject(env, "driver_cuda_version", buf);
    snprintf(buf, sizeof buf, "%d.%d", dev->runtime_version / 1000,
             dev->runtime_version % 1000 / 10);
    cJSON_AddStringToObject(env, "cuda_runtime", buf);
    cJSON_AddStringToObject(env, "gridsync_version", gs_version());
    /* the commit configured into the build, unless GS_GIT_COMMIT says
     * otherwise (a build directory outlives commits; scripts/run-bench sets
     * it from the checkout when git is there) */
    const char *commit = getenv("GS_GIT_COMMIT");
    cJSON_AddStringToObject(env, "git_commit", commit && commit[0] ? commit : GS_GIT_COMMIT);
    buf[0] = '\0';
    for (int i = 0; i < argc && n < sizeof buf - 1; ++i)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", argv[i]);
    cJSON_AddStringToObject(env, "command", buf);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(env, "date", buf);
    return env;
}
