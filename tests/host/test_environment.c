/* test_environment.c - the GPU's clocks and throttle reasons are read
 * through NVML, never through a program found in PATH: a fake nvidia-smi
 * that leaves a canary must not run; throttle reasons by name; the state as
 * JSON, with and without NVML. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/environment.h"

static void test_clock_runs_no_program(void **state)
{
    (void)state;
    char dir[] = "/tmp/gs_env_XXXXXX", fake[128], canary[128], path[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(fake, sizeof fake, "%s/nvidia-smi", dir);
    snprintf(canary, sizeof canary, "%s/CANARY", dir);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\ntouch '%s'\necho 98765\n", canary);
    fclose(f);
    assert_int_equal(chmod(fake, 0755), 0);
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    snprintf(path, sizeof path, "%s:%s", dir, saved ? saved : "/usr/bin:/bin");
    setenv("PATH", path, 1);
    int mhz = gs_current_sm_clock_mhz(0);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    int ran = access(canary, F_OK) == 0;
    unlink(canary);
    unlink(fake);
    rmdir(dir);
    assert_false(ran);
    assert_int_not_equal(mhz, 98765); /* -1 without a GPU or NVML */
}

static void test_throttle_names(void **state)
{
    (void)state;
    char buf[256];
    gs_throttle_names(0, buf, sizeof buf);
    assert_string_equal(buf, "none");
    gs_throttle_names(GS_THROTTLE_SW_POWER_CAP | GS_THROTTLE_HW_THERMAL, buf, sizeof buf);
    assert_string_equal(buf, "sw_power_cap, hw_thermal");
    gs_throttle_names(GS_THROTTLE_GPU_IDLE | 0x400, buf, sizeof buf);
    assert_string_equal(buf, "gpu_idle, 0x400");
    gs_throttle_names(~0ull, buf, 16); /* cut to fit, never past the end */
    assert_true(strlen(buf) < 16);
    assert_true((GS_THROTTLE_SLOWING & GS_THROTTLE_GPU_IDLE) == 0);
    assert_true((GS_THROTTLE_SLOWING & GS_THROTTLE_SW_POWER_CAP) != 0);
}

static void test_state_json(void **state)
{
    (void)state;
    gs_gpu_state s;
    memset(&s, 0, sizeof s);
    cJSON *j = gs_gpu_state_json(&s);
    assert_string_equal(cJSON_GetObjectItem(j, "nvml")->valuestring, "not available");
    cJSON_Delete(j);
    s.ok = 1;
    s.sm_mhz = 1755;
    s.mem_mhz = -1;
    s.temperature_c = 61;
    s.power_w = 512.5;
    s.has_throttle = 1;
    s.throttle = GS_THROTTLE_SW_POWER_CAP;
    j = gs_gpu_state_json(&s);
    assert_true(cJSON_GetObjectItem(j, "sm_clock_mhz")->valuedouble == 1755);
    assert_null(cJSON_GetObjectItem(j, "mem_clock_mhz")); /* not read: left out */
    assert_true(cJSON_GetObjectItem(j, "power_w")->valuedouble == 512.5);
    cJSON *r = cJSON_GetObjectItem(j, "throttle_reasons");
    assert_int_equal(cJSON_GetArraySize(r), 1);
    assert_string_equal(cJSON_GetArrayItem(r, 0)->valuestring, "sw_power_cap");
    cJSON_Delete(j);
    /* this machine: a reading or a clean "not available", never a crash */
    gs_gpu_state now;
    int rc = gs_gpu_state_read(0, &now);
    assert_true((rc == 0) == (now.ok == 1));
    if (!now.ok)
        assert_true(now.sm_mhz == -1 && now.power_w < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_runs_no_program),
        cmocka_unit_test(test_throttle_names),
        cmocka_unit_test(test_state_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
