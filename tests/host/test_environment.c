/* test_environment.c - the current SM clock is read through NVML, never
 * through a program found in PATH: a fake nvidia-smi that leaves a canary
 * must not run. */
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

#include "bench/environment.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_runs_no_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
