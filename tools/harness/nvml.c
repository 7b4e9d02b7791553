/* nvml.c - NVML loaded at run time (nvml.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gridsync.h"

/* The few NVML declarations used here (nvml.h of the driver). */
typedef struct gs_nvml_device_st *gs_nvml_device;
enum {
    NVML_OK = 0,
    NVML_CLOCK_SM = 1,
    NVML_CLOCK_MEM = 2,
    NVML_TEMPERATURE_GPU = 0
};

typedef struct nvml_api {
    int (*init)(void);
    int (*shutdown)(void);
    int (*by_pci_bus_id)(const char *bus_id, gs_nvml_device *device);
    int (*clock_info)(gs_nvml_device device, int type, unsigned int *mhz);
    int (*temperature)(gs_nvml_device device, int sensor, unsigned int *celsius); /* optional */
    int (*power)(gs_nvml_device device, unsigned int *milliwatts);               /* optional */
    int (*reasons)(gs_nvml_device device, unsigned long long *mask);             /* optional */
} nvml_api;

/* The functions of libnvidia-ml.so.1 at `lib`; 0, or -1 if a required one
 * is missing. */
static int nvml_bind(void *lib, nvml_api *api)
{
    api->init = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    api->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
    api->by_pci_bus_id = (int (*)(const char *, gs_nvml_device *))dlsym(
        lib, "nvmlDeviceGetHandleByPciBusId_v2");
    api->clock_info = (int (*)(gs_nvml_device, int, unsigned int *))dlsym(
        lib, "nvmlDeviceGetClockInfo");
    api->temperature = (int (*)(gs_nvml_device, int, unsigned int *))dlsym(
        lib, "nvmlDeviceGetTemperature");
    api->power = (int (*)(gs_nvml_device, unsigned int *))dlsym(lib, "nvmlDeviceGetPowerUsage");
    /* renamed in CUDA 12.2's NVML; the old name stays for older drivers */
    void *reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons)
        reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    api->reasons = (int (*)(gs_nvml_device, unsigned long long *))reasons;
    return api->init && api->shutdown && api->by_pci_bus_id && api->clock_info ? 0 : -1;
}

static void read_device(const nvml_api *api, gs_nvml_device dev, gs_gpu_state *s)
{
    unsigned int v = 0;
    unsigned long long mask = 0;
    s->ok = 1;
    if (api->clock_info(dev, NVML_CLOCK_SM, &v) == NVML_OK)
        s->sm_mhz = (int)v;
    if (api->clock_info(dev, NVML_CLOCK_MEM, &v) == NVML_OK)
        s->mem_mhz = (int)v;
    if (api->temperature && api->temperature(dev, NVML_TEMPERATURE_GPU, &v) == NVML_OK)
        s->temperature_c = (int)v;
    if (api->power && api->power(dev, &v) == NVML_OK)
        s->power_w = v / 1000.0;
    if (api->reasons && api->reasons(dev, &mask) == NVML_OK) {
        s->has_throttle = 1;
        s->throttle = mask;
    }
}

int gs_gpu_state_read(int device, gs_gpu_state *s)
{
    char bus_id[32];
    memset(s, 0, sizeof *s);
    s->sm_mhz = s->mem_mhz = s->temperature_c = -1;
    s->power_w = -1.0;
    if (cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, device) != cudaSuccess) {
        (void)cudaGetLastError(); /* do not leave the error for the next call */
        return -1;
    }
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    nvml_api api;
    if (nvml_bind(lib, &api) == 0 && api.init() == NVML_OK) {
        gs_nvml_device dev;
        if (api.by_pci_bus_id(bus_id, &dev) == NVML_OK)
            read_device(&api, dev, s);
        api.shutdown();
    }
    dlclose(lib);
    return s->ok ? 0 : -1;
}

static const struct {
    unsigned long long bit;
    const char *name;
} reason_names[] = {
    {GS_THROTTLE_GPU_IDLE, "gpu_idle"},
    {GS_THROTTLE_APPLICATIONS_CLOCKS, "applications_clocks"},
    {GS_THROTTLE_SW_POWER_CAP, "sw_power_cap"},
    {GS_THROTTLE_HW_SLOWDOWN, "hw_slowdown"},
    {GS_THROTTLE_SYNC_BOOST, "sync_boost"},
    {GS_THROTTLE_SW_THERMAL, "sw_thermal"},
    {GS_THROTTLE_HW_THERMAL, "hw_thermal"},
    {GS_THROTTLE_HW_POWER_BRAKE, "hw_power_brake"},
    {GS_THROTTLE_DISPLAY_CLOCKS, "display_clocks"},
};

/* The name of bit `bit` into `buf` (known, or "0x..."). */
static const char *bit_name(unsigned long long bit, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof reason_names / sizeof reason_names[0]; ++i)
        if (reason_names[i].bit == bit)
            return reason_names[i].name;
    snprintf(buf, len, "0x%llx", bit);
    return buf;
}

void gs_throttle_names(unsigned long long mask, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (mask == 0) {
        snprintf(buf, len, "none");
        return;
    }
    for (int b = 0; b < 64 && n < len; ++b) {
        unsigned long long bit = 1ull << b;
        char hex[24];
        if (mask & bit)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
                                  bit_name(bit, hex, sizeof hex));
    }
}

cJSON *gs_gpu_state_json(const gs_gpu_state *s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (!s->ok) {
        cJSON_AddStringToObject(o, "nvml", "not available");
        return o;
    }
    if (s->sm_mhz >= 0)
        cJSON_AddNumberToObject(o, "sm_clock_mhz", s->sm_mhz);
    if (s->mem_mhz >= 0)
        cJSON_AddNumberToObject(o, "mem_clock_mhz", s->mem_mhz);
    if (s->temperature_c >= 0)
        cJSON_AddNumberToObject(o, "temperature_c", s->temperature_c);
    if (s->power_w >= 0)
        cJSON_AddNumberToObject(o, "power_w", s->power_w);
    if (s->has_throttle) {
        cJSON *a = cJSON_AddArrayToObject(o, "throttle_reasons");
        char hex[24];
        for (int b = 0; b < 64 && a; ++b)
            if (s->throttle & (1ull << b))
                cJSON_AddItemToArray(a, cJSON_CreateString(bit_name(1ull << b, hex, sizeof hex)));
    }
    return o;
}

int gs_current_sm_clock_mhz(int device)
{
    gs_gpu_state s;
    gs_gpu_state_read(device, &s);
    return s.ok ? s.sm_mhz : -1;
}
