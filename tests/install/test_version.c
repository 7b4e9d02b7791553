/* test_version.c - the version is defined once (include/gridsync.h) and
 * agrees everywhere: the integer code, the text, the library's own
 * gs_get_version and gs_version, and CMake's project version (passed in as
 * GS_CMAKE_VERSION). Linked to the shared library: gs_get_version is
 * exported. No GPU needed. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gridsync.h"

static void test_code_is_major_minor_patch(void **state)
{
    (void)state;
    assert_int_equal(GS_VERSION(1, 2, 3), 10203);
    assert_int_equal(GS_VERSION(0, 1, 0), 100);
    assert_int_equal(GS_VERSION_CODE,
                     GS_VERSION_MAJOR * 10000 + GS_VERSION_MINOR * 100 + GS_VERSION_PATCH);
}

static void test_text_matches_the_numbers(void **state)
{
    char text[64];
    (void)state;
    snprintf(text, sizeof text, "%d.%d.%d", GS_VERSION_MAJOR, GS_VERSION_MINOR,
             GS_VERSION_PATCH);
    assert_string_equal(GS_VERSION_STRING, text);
    assert_string_equal(GS_CMAKE_VERSION, text);
}

static void test_library_reports_its_version(void **state)
{
    int version = -1;
    (void)state;
    assert_int_equal(gs_get_version(&version), GS_SUCCESS);
    assert_int_equal(version, GS_VERSION_CODE);
    assert_string_equal(gs_version(), GS_VERSION_STRING);
}

static void test_null_is_refused_with_a_sentence(void **state)
{
    (void)state;
    gs_clear_error();
    assert_int_equal(gs_get_version(NULL), GS_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gs_last_error_detail(), "gs_get_version"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_code_is_major_minor_patch),
        cmocka_unit_test(test_text_matches_the_numbers),
        cmocka_unit_test(test_library_reports_its_version),
        cmocka_unit_test(test_null_is_refused_with_a_sentence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
