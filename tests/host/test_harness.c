/* test_harness.c - statistics, the stopping rule (--min-samples,
 * --min-time, --max-noise, --timeout), host timing, CPU references, host
 * random numbers and result tables (text, CSV, JSON; measured rows). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "gridsync_internal.h"
#include "harness/timer.h"
#include "results/results.h"
#include "results/sampling.h"
#include "results/stats.h"
#include "results/table.h"
#include "testing/random.h"
#include "testing/reference.h"
#ifdef GS_HAVE_MULTI
#include "suites/multi/nccl_device_barrier.h"
#endif

static void test_stats_odd_even_empty(void **state)
{
    (void)state;
    gs_stats s;
    const double odd[] = {5.0, 1.0, 3.0, 9.0, 7.0};
    assert_int_equal(gs_stats_compute(odd, 5, &s), 0);
    assert_true(s.median == 5.0 && s.min == 1.0 && s.max == 9.0 && s.mean == 5.0 && s.n == 5);
    assert_true(odd[0] == 5.0); /* input untouched */
    const double even[] = {4.0, 1.0, 2.0, 3.0};
    gs_stats_compute(even, 4, &s);
    assert_true(s.median == 2.5);
    gs_stats_compute(even, 0, &s);
    assert_true(s.n == 0 && s.median == 0.0);
    const double one[] = {0.75};
    gs_stats_compute(one, 1, &s);
    assert_true(s.median == 0.75 && s.min == 0.75 && s.max == 0.75);
    assert_true(s.stddev == 0.0 && isnan(s.noise)); /* no noise from one sample */
}

static void test_stats_noise_and_scale(void **state)
{
    (void)state;
    gs_stats s;
    const double x[] = {9.0, 11.0, 10.0, 10.0}; /* mean 10, sample stddev sqrt(2/3) */
    assert_int_equal(gs_stats_compute(x, 4, &s), 0);
    assert_true(fabs(s.stddev - sqrt(2.0 / 3.0)) < 1e-12);
    assert_true(fabs(s.noise - sqrt(2.0 / 3.0) / 10.0) < 1e-12);
    gs_stats_scale(&s, 0.5); /* per barrier: everything but the relative noise halves */
    assert_true(s.median == 5.0 && s.min == 4.5 && s.max == 5.5 && s.mean == 5.0);
    assert_true(fabs(s.stddev - 0.5 * sqrt(2.0 / 3.0)) < 1e-12);
    assert_true(fabs(s.noise - sqrt(2.0 / 3.0) / 10.0) < 1e-12);
}

/* Feed `rule` samples value(i) of `dt` seconds each, wall time advancing by
 * `wall` per sample; the number taken when it stops, and why in *why. */
static int run_rule(const gs_sampling *rule, double (*value)(int), double dt, double wall,
                    gs_stop_reason *why)
{
    gs_sample_tally t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 1000000; ++i) {
        gs_tally_add(&t, value(i), dt);
        *why = gs_sampling_check(rule, &t, (i + 1) * wall);
        if (*why != GS_STOP_NOT_YET)
            return t.n;
    }
    return -1;
}

static double steady(int i) { (void)i; return 2.0; }
static double alternating(int i) { return i % 2 ? 1.1 : 0.9; } /* 10% noise for ever */
static double settling(int i) { return i < 5 ? 2.02 : 2.0; } /* 1% off at first, then flat */

static void test_sampling_rule(void **state)
{
    (void)state;
    gs_stop_reason why;
    /* --repeat N: exactly N, whatever the noise */
    gs_sampling fixed = gs_sampling_fixed(15);
    assert_int_equal(run_rule(&fixed, alternating, 1e-3, 1e-3, &why), 15);
    assert_int_equal(why, GS_STOP_COUNT);
    /* NVBench's defaults: steady samples of 1 ms stop once 0.5 s are timed */
    gs_sampling nv = gs_sampling_nvbench();
    assert_int_equal(run_rule(&nv, steady, 1e-3, 1e-3, &why), 500);
    assert_int_equal(why, GS_STOP_NOISE);
    /* long samples: --min-samples decides */
    assert_int_equal(run_rule(&nv, steady, 1.0, 1.0, &why), 10);
    assert_int_equal(why, GS_STOP_NOISE);
    /* a noisy start: the noise must come down below 0.5% first */
    nv.min_time_s = 0.0;
    int n = run_rule(&nv, settling, 1e-3, 1e-3, &why);
    assert_int_equal(why, GS_STOP_NOISE);
    assert_true(n > 10);
    /* 10% noise for ever: it settles (checked every 16 samples once 64 noise
     * values are in), long before the time-out */
    n = run_rule(&nv, alternating, 1e-3, 1e-3, &why);
    assert_int_equal(why, GS_STOP_STABLE);
    assert_true(n >= GS_NOISE_WINDOW && n % 16 == 0 && n < 15000);
    /* max_samples bounds it */
    gs_sampling capped = nv;
    capped.max_samples = 40;
    assert_int_equal(run_rule(&capped, alternating, 1e-3, 1e-3, &why), 40);
    assert_int_equal(why, GS_STOP_MAX_SAMPLES);
    /* the time-out: wall time, even before min_samples */
    gs_sampling slow = gs_sampling_nvbench();
    slow.min_samples = 100;
    assert_int_equal(run_rule(&slow, steady, 1.0, 5.0, &why), 3); /* 15 s at 5 s a sample */
    assert_int_equal(why, GS_STOP_TIMEOUT);
    /* --min-time without a noise target: time decides, then the count */
    gs_sampling timed = {3, 1000, 0.01, 0.0, 0.0, 0};
    assert_int_equal(run_rule(&timed, alternating, 1e-3, 1e-3, &why), 10);
    assert_int_equal(why, GS_STOP_COUNT);
    /* the tally's noise is gs_stats's */
    gs_sample_tally t;
    memset(&t, 0, sizeof t);
    const double x[] = {9.0, 11.0, 10.0, 10.0};
    for (int i = 0; i < 4; ++i)
        gs_tally_add(&t, x[i], 0.0);
    gs_stats s;
    gs_stats_compute(x, 4, &s);
    assert_true(fabs(t.noise - s.noise) < 1e-12);
    assert_int_equal(gs_sampling_check(&fixed, &(gs_sample_tally){0}, 99.0), GS_STOP_NOT_YET);
    /* rules that make no sense */
    gs_sampling bad = gs_sampling_fixed(0);
    assert_int_equal(gs_sampling_valid(&bad), -1);
    bad = gs_sampling_nvbench();
    bad.max_samples = 5;
    assert_int_equal(gs_sampling_valid(&bad), -1);
    bad = gs_sampling_nvbench();
    bad.max_noise = -1.0;
    assert_int_equal(gs_sampling_valid(&bad), -1);
    assert_string_equal(gs_stop_reason_name(GS_STOP_STABLE), "stable");
}

static gs_table *sample_table(void)
{
    const char *cols[] = {"method", "us", "note"};
    gs_table *t = gs_table_new("demo", 3, cols);
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "tree");
    gs_table_set_number(t, 1, 0.6543, 3);
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "cg, grid.sync");
    gs_table_set_number(t, 1, 1.25, 3);
    gs_table_set_text(t, 2, "say \"hi\"");
    return t;
}

static char *render(int (*fn)(const gs_table *, FILE *), const gs_table *t)
{
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    fn(t, f);
    fclose(f);
    return buf;
}

static int print_wrap(const gs_table *t, FILE *f)
{
    gs_table_print(t, f);
    return 0;
}

static void test_table_text_and_csv(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    assert_int_equal(gs_table_rows(t), 2);
    const char *txt = render(print_wrap, t);
    assert_non_null(strstr(txt, "demo\n"));
    assert_non_null(strstr(txt, "0.654"));
    assert_non_null(strstr(txt, "  -\n")); /* unset cell */
    const char *csv = render(gs_table_write_csv, t);
    assert_string_equal(csv, "method,us,note\ntree,0.654,\n\"cg, grid.sync\",1.250,\"say \"\"hi\"\"\"\n");
    gs_table_free(t);
}

static void test_table_json_round_trip(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    cJSON *results = gs_results_new(cJSON_CreateObject());
    assert_int_equal(gs_results_add(results, "barrier", t), 0);
    char path[] = "/tmp/gs_results_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(gs_results_write(results, path), 0);
    FILE *f = fopen(path, "r");
    char text[4096] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    remove(path);
    assert_true(n > 0);
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    assert_string_equal(cJSON_GetObjectItem(back, "schema")->valuestring, GS_RESULTS_SCHEMA);
    cJSON *rows = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(back, "suites"), "barrier"), "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    cJSON *r0 = cJSON_GetArrayItem(rows, 0);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(r0, "us")));
    assert_true(fabs(cJSON_GetObjectItem(r0, "us")->valuedouble - 0.6543) < 1e-12);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(r0, "note")));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 1), "method")->valuestring,
                        "cg, grid.sync");
    cJSON_Delete(back);
    cJSON_Delete(results);
    gs_table_free(t);
}

static void test_table_measured_rows(void **state)
{
    (void)state;
    const gs_column cols[] = {{"method", "", 0, "m"}, {"us", "us", 3, "t"}};
    gs_table *t = gs_table_new_columns("m", 2, cols);
    const double x[] = {9.0, 11.0, 10.0, 10.0};
    gs_stats s;
    gs_stats_compute(x, 4, &s);
    s.timing = GS_TIMING_COLD;
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "tree");
    assert_int_equal(gs_table_set_measured(t, 1, &s, 0.1), 0); /* 10 -> 1.000 */
    gs_table_add_row(t);
    gs_table_set_text(t, 0, "copy"); /* not measured: no noise, no samples */
    gs_sampling rule = gs_sampling_nvbench();
    rule.cold = 1;
    gs_table_set_sampling(t, &rule);
    const char *csv = render(gs_table_write_csv, t);
    assert_string_equal(csv, "method,us,noise,samples\ntree,1.000,0.081650,4\ncopy,,,\n");
    const char *txt = render(print_wrap, t);
    assert_non_null(strstr(txt, "noise  samples"));
    assert_non_null(strstr(txt, "8.16%"));
    cJSON *j = gs_table_to_json(t);
    cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 0);
    assert_true(cJSON_GetObjectItem(r0, "us")->valuedouble == 1.0);
    assert_true(cJSON_GetObjectItem(r0, GS_ROW_SAMPLES)->valuedouble == 4.0);
    assert_true(fabs(cJSON_GetObjectItem(r0, GS_ROW_NOISE)->valuedouble - s.noise) < 1e-12);
    assert_true(cJSON_GetObjectItem(r0, GS_ROW_REL_MIN)->valuedouble == 0.9);
    assert_true(cJSON_GetObjectItem(r0, GS_ROW_REL_MAX)->valuedouble == 1.1);
    assert_string_equal(cJSON_GetObjectItem(r0, GS_ROW_TIMING)->valuestring, "cold");
    cJSON *r1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 1);
    assert_null(cJSON_GetObjectItem(r1, GS_ROW_SAMPLES));
    cJSON *sampling = cJSON_GetObjectItem(j, "sampling");
    assert_string_equal(cJSON_GetObjectItem(sampling, "mode")->valuestring, "cold");
    assert_true(cJSON_GetObjectItem(sampling, "max_noise")->valuedouble == 0.005);
    cJSON_Delete(j);
    gs_table_free(t);
}

static void test_table_bad_column(void **state)
{
    (void)state;
    gs_table *t = sample_table();
    assert_int_equal(gs_table_set_text(t, 3, "x"), -1);
    assert_int_equal(gs_table_set_number(t, -1, 1.0, 1), -1);
    gs_table_set_number(t, 1, NAN, 2);
    cJSON *j = gs_table_to_json(t);
    cJSON *last = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "rows"), 1);
    assert_string_equal(cJSON_GetObjectItem(last, "us")->valuestring, "nan");
    cJSON_Delete(j);
    gs_table_free(t);
}

static void test_reference_reductions(void **state)
{
    (void)state;
    gs_ref_reduction r;
    double got = 0.0;
    const int big[] = {2000000000, 2000000000, -5}; /* an int32 sum wraps */
    gs_ref_reduce(GS_REDUCE_SUM, GS_INT32, big, 3, &r);
    assert_true(r.ivalue == (long long)(int)(4000000000u - 5u));
    int wrapped = (int)(4000000000u - 5u);
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_INT32, &r, &wrapped, &got));
    const float x[] = {1.0f, -3.0f, 2.5f};
    gs_ref_reduce(GS_REDUCE_MIN, GS_FLOAT32, x, 3, &r);
    assert_true(r.value == -3.0 && r.bound == 0.0);
    gs_ref_reduce(GS_REDUCE_SUM, GS_FLOAT32, x, 3, &r);
    assert_true(r.value == 0.5 && r.magnitude == 6.5 && r.bound == 3 * ldexp(1.0, -24) * 6.5);
    float near = 0.5f, far = 0.75f;
    assert_true(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT32, &r, &near, &got) && got == 0.5);
    assert_false(gs_ref_reduce_ok(GS_REDUCE_SUM, GS_FLOAT32, &r, &far, &got));
    /* argmin/argmax: the first index of the extreme */
    const long long v[] = {4, -2, 9, -2, 9};
    gs_ref_reduce(GS_REDUCE_ARGMIN, GS_INT64, v, 5, &r);
    assert_true(r.ivalue == -2 && r.index == 1);
    gs_ref_reduce(GS_REDUCE_ARGMAX, GS_INT64, v, 5, &r);
    assert_true(r.ivalue == 9 && r.index == 2);
    gs_reduce_arg arg = {2, {.i64 = 9}};
    assert_true(gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_INT64, &r, &arg, &got));
    arg.index = 4; /* the same value, not the first */
    assert_false(gs_ref_reduce_ok(GS_REDUCE_ARGMAX, GS_INT64, &r, &arg, &got));
    gs_ref_reduce(GS_REDUCE_ARGMIN, GS_FLOAT32, x, 0, &r);
    assert_true(r.index == -1);
    const double a[] = {1.0, 2.0}, b[] = {3.0, -4.0};
    double bound = 0.0;
    assert_true(gs_ref_dot_f64(a, b, 2, &bound) == -5.0 && bound == 3 * ldexp(1.0, -53) * 11.0);
}

static void test_reference_sgemm(void **state)
{
    (void)state;
    const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}; /* 2x2 */
    float c[] = {19, 22, 43, 50};
    assert_int_equal(gs_ref_sgemm_out_of_bound(a, b, c, 2, 2, 2), 0);
    c[3] = NAN;
    c[0] = 19.5f;
    assert_int_equal(gs_ref_sgemm_out_of_bound(a, b, c, 2, 2, 2), 2);
}

static void test_random_range(void **state)
{
    (void)state;
    gs_rng a = {42}, b = {42};
    float x[1000];
    gs_rng_fill(&a, x, 1000);
    for (int i = 0; i < 1000; ++i) {
        assert_true(x[i] >= -1.0f && x[i] < 1.0f);
        assert_true(x[i] == (float)gs_rng_uniform(&b)); /* the same sequence */
    }
}

/* Host-timed work that counts its calls. */
static gs_status count_call(void *ctx)
{
    ++*(int *)ctx;
    return GS_SUCCESS;
}

/* Host-timed work of 10 or 30 microseconds, in turn: noise that no
 * sample count brings under a small target. */
static gs_status uneven_call(void *ctx)
{
    int *calls = ctx;
    double until = gs_now_seconds() + (++*calls % 2 ? 10e-6 : 30e-6);
    while (gs_now_seconds() < until)
        ;
    return GS_SUCCESS;
}

static void test_host_timing(void **state)
{
    (void)state;
    int calls = 0;
    gs_stats s;
    gs_timing_plan plan = {2, 5, 0, NULL};
    assert_int_equal(gs_time_host_work(count_call, &calls, &plan, 10.0, &s), GS_SUCCESS);
    assert_int_equal(calls, 7);
    assert_true(s.n == 5 && s.min >= 0.0 && s.median >= s.min && s.max >= s.median);
    assert_true(s.timing == GS_TIMING_HOST && s.stop == GS_STOP_COUNT);
    /* with a rule: a noise target it can never meet stops at the time-out,
     * or once the noise has settled */
    gs_sampling rule = {3, 1000000, 0.0, 0.001, 0.05, 1};
    plan.sampling = &rule;
    calls = 0;
    assert_int_equal(gs_time_host_work(uneven_call, &calls, &plan, 1.0, &s), GS_SUCCESS);
    assert_true(s.n >= 3 && (s.stop == GS_STOP_TIMEOUT || s.stop == GS_STOP_STABLE));
    assert_true(s.noise > 0.001);
    assert_int_equal(calls, (int)s.n + 2);
    assert_true(s.timing == GS_TIMING_HOST); /* cold does not apply to the host's clock */
    rule.max_noise = 1e300; /* any noise will do: min_samples */
    assert_int_equal(gs_time_host_work(uneven_call, &calls, &plan, 1.0, &s), GS_SUCCESS);
    assert_true(s.n == 3 && s.stop == GS_STOP_NOISE);
    plan.sampling = NULL;
    plan.samples = 0;
    assert_int_equal(gs_time_host_work(count_call, &calls, &plan, 10.0, &s),
                     GS_ERR_INVALID_ARGUMENT);
    double us = 0.0;
    plan.samples = 1;
    assert_int_equal(gs_time_calls(NULL, NULL, 0, 0, &plan, &us), GS_ERR_INVALID_ARGUMENT);
}

/* A stand-in for the other processes of gs_time_host_work_together: it
 * records what this process passed and answers the smallest of that and
 * the others' scripted values (the leader's decisions, for a follower). */
typedef struct script {
    int calls, passed[100];
    const int *others; /* one per sample; NULL: the others always pass 1 */
    int fail_at;       /* nonzero: the fail_at-th agreement fails */
} script;

static gs_status scripted_agree(void *ctx, int *value)
{
    script *s = ctx;
    int other = s->others ? s->others[s->calls] : 1;
    s->passed[s->calls++] = *value;
    if (s->fail_at && s->calls == s->fail_at)
        return GS_ERR_BARRIER_TIMEOUT;
    *value = *value < other ? *value : other;
    return GS_SUCCESS;
}

static void test_host_timing_together(void **state)
{
    (void)state;
    int calls = 0;
    gs_stats s;
    gs_timing_plan plan = {2, 3, 0, NULL};
    /* the leader: its rule (3 samples) decides; it says stop only after the 3rd */
    script lead = {0, {0}, NULL, 0};
    gs_together leader = {scripted_agree, &lead, 1};
    assert_int_equal(gs_time_host_work_together(count_call, &calls, &plan, 1.0, &leader, &s),
                     GS_SUCCESS);
    assert_true(calls == 5 && s.n == 3 && lead.calls == 3 && s.stop == GS_STOP_COUNT);
    assert_true(lead.passed[0] == 0 && lead.passed[1] == 0 && lead.passed[2] == 1);
    /* a follower goes on past its own rule (3 samples) and past 64, and
     * stops when the leader does */
    static int go_on[100];
    for (int i = 0; i < 79; ++i)
        go_on[i] = 0;
    go_on[79] = 1;
    script follow = {0, {0}, go_on, 0};
    gs_together follower = {scripted_agree, &follow, 0};
    calls = 0;
    assert_int_equal(gs_time_host_work_together(count_call, &calls, &plan, 1.0, &follower, &s),
                     GS_SUCCESS);
    assert_true(calls == 82 && s.n == 80 && follow.calls == 80 && s.stop == GS_STOP_COUNT);
    for (int i = 0; i < 80; ++i)
        assert_int_equal(follow.passed[i], 1); /* a follower never holds the others back */
    /* a failed agreement (another process gone) ends the measurement */
    script broken = {0, {0}, NULL, 2};
    gs_together failing = {scripted_agree, &broken, 1};
    assert_int_equal(gs_time_host_work_together(count_call, &calls, &plan, 1.0, &failing, &s),
                     GS_ERR_BARRIER_TIMEOUT);
    /* a verdict shared before a collective step */
    script verdicts = {0, {0}, go_on, 0}; /* the other process: 0 (cannot), then ... */
    gs_together both = {scripted_agree, &verdicts, 1};
    assert_int_equal(gs_together_verdict(NULL, GS_ERR_NOT_CORESIDENT, GS_ERR_NOT_SUPPORTED, "x"),
                     GS_ERR_NOT_CORESIDENT);
    assert_int_equal(gs_together_verdict(&both, GS_SUCCESS, GS_ERR_NOT_CORESIDENT, "p2p"),
                     GS_ERR_NOT_CORESIDENT); /* the other said no */
    assert_non_null(strstr(gs_last_error_detail(), "p2p: another process cannot run it"));
    assert_int_equal(verdicts.passed[0], 1);
    verdicts.others = NULL; /* the other says yes from now on */
    assert_int_equal(gs_together_verdict(&both, GS_SUCCESS, GS_ERR_NOT_SUPPORTED, "lsa"),
                     GS_SUCCESS);
    gs__fail(GS_ERR_NOT_SUPPORTED, "no device API here");
    assert_int_equal(gs_together_verdict(&both, GS_ERR_NOT_SUPPORTED, GS_ERR_CUDA, "lsa"),
                     GS_ERR_NOT_SUPPORTED); /* its own reason, kept */
    assert_string_equal(gs_last_error_detail(), "no device API here");
    assert_int_equal(verdicts.passed[2], 0);
    gs_together none = {NULL, NULL, 1};
    assert_int_equal(gs_time_host_work_together(count_call, &calls, &plan, 1.0, &none, &s),
                     GS_ERR_INVALID_ARGUMENT);
}

#ifdef GS_HAVE_MULTI
/* NCCL's device API is inlined from its headers: the library must be the
 * very same version, patch included (2.28.9 headers on a 2.28.3 library
 * crashed with an illegal address when only major.minor was compared). */
static void test_nccl_device_api_version_guard(void **state)
{
    (void)state;
    assert_true(gs__nccl_device_api_usable(22803, 22803));
    assert_false(gs__nccl_device_api_usable(22803, 22809));
    assert_false(gs__nccl_device_api_usable(22809, 22803));
    assert_false(gs__nccl_device_api_usable(22703, 22703)); /* no device API before 2.28 */
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef GS_HAVE_MULTI
        cmocka_unit_test(test_nccl_device_api_version_guard),
#endif
        cmocka_unit_test(test_stats_odd_even_empty),
        cmocka_unit_test(test_stats_noise_and_scale),
        cmocka_unit_test(test_sampling_rule),
        cmocka_unit_test(test_table_measured_rows),
        cmocka_unit_test(test_table_text_and_csv),
        cmocka_unit_test(test_table_json_round_trip),
        cmocka_unit_test(test_table_bad_column),
        cmocka_unit_test(test_reference_reductions),
        cmocka_unit_test(test_reference_sgemm),
        cmocka_unit_test(test_random_range),
        cmocka_unit_test(test_host_timing),
        cmocka_unit_test(test_host_timing_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
