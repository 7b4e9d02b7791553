/*
 * nvml.h - the GPU's clocks, temperature, power and the reasons its clocks
 * are held down, read through NVML: the driver's libnvidia-ml.so.1, loaded
 * at run time (dlopen), so nothing is needed to build and a machine without
 * the driver only gets "not available". Never through a program
 * (nvidia-smi): no shell, nothing found on PATH.
 *
 * The device is found by its PCI bus id, the same under any
 * CUDA_VISIBLE_DEVICES (NVML does not follow it; CUDA ordinals do).
 */
#ifndef GS_BENCH_NVML_H
#define GS_BENCH_NVML_H

#include <stddef.h>

#include <cjson/cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The clock event ("throttle") reasons of nvml.h, by bit. */
enum {
    GS_THROTTLE_GPU_IDLE = 0x1,
    GS_THROTTLE_APPLICATIONS_CLOCKS = 0x2,
    GS_THROTTLE_SW_POWER_CAP = 0x4,
    GS_THROTTLE_HW_SLOWDOWN = 0x8,
    GS_THROTTLE_SYNC_BOOST = 0x10,
    GS_THROTTLE_SW_THERMAL = 0x20,
    GS_THROTTLE_HW_THERMAL = 0x40,
    GS_THROTTLE_HW_POWER_BRAKE = 0x80,
    GS_THROTTLE_DISPLAY_CLOCKS = 0x100
};

/* The reasons that slow a measurement down: power and thermal limits and
 * hardware slowdowns (not idling, application clocks, sync boost or the
 * display). */
#define GS_THROTTLE_SLOWING                                                                   \
    (GS_THROTTLE_SW_POWER_CAP | GS_THROTTLE_HW_SLOWDOWN | GS_THROTTLE_SW_THERMAL |            \
     GS_THROTTLE_HW_THERMAL | GS_THROTTLE_HW_POWER_BRAKE)

/* One reading; -1 (or a negative power) where NVML did not answer. */
typedef struct gs_gpu_state {
    int ok;                      /* NVML was there and knew the device */
    int sm_mhz, mem_mhz;         /* current clocks */
    int temperature_c;
    double power_w;
    int has_throttle;
    unsigned long long throttle; /* GS_THROTTLE_* bits, when has_throttle */
} gs_gpu_state;

/* Read the state of CUDA device `device`. 0, or -1 (state->ok 0) without
 * NVML, the driver or the device. */
int gs_gpu_state_read(int device, gs_gpu_state *state);

/* The names of the bits of `mask` ("sw_power_cap", "hw_thermal", ...; an
 * unknown bit as "0x200"), joined by ", " into `buf`; "none" for 0. */
void gs_throttle_names(unsigned long long mask, char *buf, size_t len);

/* {"sm_clock_mhz", "mem_clock_mhz", "temperature_c", "power_w",
 *  "throttle_reasons": ["sw_power_cap", ...]} with only what was read;
 * {"nvml": "not available"} when nothing was. */
cJSON *gs_gpu_state_json(const gs_gpu_state *state);

/* Current SM clock in MHz of CUDA device `device`, or -1 without NVML. */
int gs_current_sm_clock_mhz(int device);

#ifdef __cplusplus
}
#endif

#endif
