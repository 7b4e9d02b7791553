/* environment.c - capture the measuring environment (the current SM clock
 * through NVML, loaded at run time). */
#define _POSIX_C_SOURCE 200809L
#include "bench/environment.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GS_GIT_COMMIT
#define GS_GIT_COMMIT "unknown"
#endif

/* The few NVML declarations used here (nvml.h): NVML is loaded at run time,
 * so the program starts where no driver is installed. */
typedef struct gs_nvml_device_st *gs_nvml_device;
enum { GS_NVML_SUCCESS = 0, GS_NVML_CLOCK_SM = 1 };
typedef struct gs_nvml {
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_pci_bus_id)(const char *bus_id, gs_nvml_device *device);
    int (*clock_info)(gs_nvml_device device, int type, unsigned int *mhz);
} gs_nvml;

/* The functions of libnvidia-ml.so.1 at `lib`; 0, or -1 if one is missing. */
static int nvml_bind(void *lib, gs_nvml *nvml)
{
    nvml->init = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    nvml->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
    nvml->by_pci_bus_id = (int (*)(const char *, gs_nvml_device *))dlsym(
        lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml->clock_info = (int (*)(gs_nvml_device, int, unsigned int *))dlsym(
        lib, "nvmlDeviceGetClockInfo");
    return nvml->init && nvml->shutdown && nvml->by_pci_bus_id && nvml->clock_info ? 0 : -1;
}

/* The device is found by its PCI bus id, the same under any
 * CUDA_VISIBLE_DEVICES (NVML does not follow it, CUDA ordinals do). */
int gs_current_sm_clock_mhz(int device)
{
    char bus_id[32];
    if (cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, device) != cudaSuccess) {
        (void)cudaGetLastError(); /* do not leave the error for the next call */
        return -1;
    }
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    gs_nvml nvml;
    int mhz = -1;
    if (nvml_bind(lib, &nvml) == 0 && nvml.init() == GS_NVML_SUCCESS) {
        gs_nvml_device dev;
        unsigned int clock;
        if (nvml.by_pci_bus_id(bus_id, &dev) == GS_NVML_SUCCESS &&
            nvml.clock_info(dev, GS_NVML_CLOCK_SM, &clock) == GS_NVML_SUCCESS)
            mhz = (int)clock;
        nvml.shutdown();
    }
    dlclose(lib);
    return mhz;
}

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
    cJSON_AddNumberToObject(env, "sms", dev->sm_count);
    cJSON_AddNumberToObject(env, "sm_clock_mhz_max", dev->sm_clock_khz / 1000.0);
    cJSON_AddNumberToObject(env, "sm_clock_mhz", gs_current_sm_clock_mhz(dev->ordinal));
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
