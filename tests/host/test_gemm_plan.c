/* test_gemm_plan.c - the choice of block tile and schedule (unsplit, k
 * slices, stream-k) behind gs_sgemm (src/gemm/sgemm_plan.c) and the cutting
 * of k into slices: the invariants the split-k kernel relies on (no empty
 * slice, at most the maximum), what each forced choice gives, the rule that
 * shapes filling the SMs stay unsplit, and the choices for the issue's
 * shapes on a 132-SM GPU (H100 SXM / H200). Pure host code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <gridsync/detail/core/tuning.h>

#include "gridsync_internal.h"

static const int sm_counts[] = {1, 16, 46, 80, 108, 114, 132, 144};

static void test_slices(void **state)
{
    (void)state;
    int per = 0;
    assert_int_equal(gs__sgemm_slices(1, 4, &per), 1); /* one step of k: one slice */
    assert_int_equal(per, 1);
    assert_int_equal(gs__sgemm_slices(72, 4, &per), 3); /* 9 steps: 3 + 3 + 3 */
    assert_int_equal(per, 3);
    assert_int_equal(gs__sgemm_slices(80, 4, &per), 4); /* 10 steps: 3 + 3 + 3 + 1 */
    assert_int_equal(per, 3);
    assert_int_equal(gs__sgemm_slices(16384, 4, &per), 4);
    assert_int_equal(per, 512);
    assert_int_equal(gs__sgemm_slices(100, 0, &per), 1);
    for (int k = 1; k <= 2000; k += 7)
        for (int s = 1; s <= GS_TUNE_SGEMM_MAX_SPLIT; ++s) {
            int used = gs__sgemm_slices(k, s, &per), steps = (k + 7) / 8;
            assert_true(used >= 1 && used <= s);
            assert_true((used - 1) * per < steps); /* the last slice is not empty */
            assert_true(used * per >= steps);      /* and the slices cover k */
        }
}

/* The next value of a 64-bit linear congruential generator (Knuth's
 * MMIX constants): the shapes the invariant tests draw. */
static uint64_t next_random(uint64_t *state)
{
    return *state = *state * 6364136223846793005ull + 1442695040888963407ull;
}

/* Invariants over many shapes and GPUs. */
static void test_plan_invariants(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    for (int i = 0; i < 20000; ++i) {
        next_random(&rng);
        int m = 1 + (int)((rng >> 20) % 5000), n = 1 + (int)((rng >> 35) % 5000);
        int k = 1 + (int)((rng >> 50) % 20000) * (i % 3 == 0 ? 4 : 1);
        int sms = sm_counts[i % (int)(sizeof sm_counts / sizeof sm_counts[0])];
        for (int force = GS__SGEMM_CHOOSE; force <= GS__SGEMM_STREAM; ++force) {
            gs__sgemm_plan p = gs__sgemm_plan_for(m, n, k, sms, force);
            int per = 0, steps = (k + 7) / 8;
            long long big = (long long)((m + 127) / 128) * ((n + 127) / 128);
            const int chosen = force == GS__SGEMM_CHOOSE, unsplit = p.splits == 1 && !p.streamk;
            assert_true(p.tile == 128 || p.tile == 64);
            assert_true(p.splits >= 1 && p.splits <= GS_TUNE_SGEMM_MAX_SPLIT);
            assert_true(p.streamk == 0 || p.streamk == 1);
            assert_true(!p.streamk || p.splits == 1); /* stream-k does not cut k in slices */
            assert_int_equal(gs__sgemm_slices(k, p.splits, &per), p.splits); /* as launched */
            assert_int_equal(p.streamk, force == GS__SGEMM_STREAM || (chosen && p.streamk));
            if (steps < 2 && force != GS__SGEMM_STREAM)
                assert_true(unsplit);
            if (force == GS__SGEMM_SPLIT && steps >= 2)
                assert_true(p.splits >= 2);
            if (force != GS__SGEMM_CHOOSE && big >= sms) /* forced on full SMs: big tiles */
                assert_int_equal(p.tile, 128);
            if (chosen && big >= sms && unsplit) /* unsplit on full SMs: big tiles */
                assert_int_equal(p.tile, 128);
            if (chosen && p.splits > 1)
                assert_true(per >= GS_TUNE_SGEMM_MIN_SLICE_STEPS);
            if (chosen && p.streamk) { /* each block's share is long enough to pay */
                long long tiles = (long long)((m + p.tile - 1) / p.tile) * ((n + p.tile - 1) / p.tile);
                long long blocks = (long long)sms * (p.tile == GS_TUNE_SGEMM_BIG_TILE
                                                         ? GS_TUNE_SGEMM_BIG_MIN_BLOCKS
                                                         : GS_TUNE_SGEMM_SMALL_MIN_BLOCKS);
                assert_true(tiles * steps >= blocks * GS_TUNE_SGEMM_MIN_SLICE_STEPS);
            }
            if (chosen && unsplit && big < sms)
                assert_int_equal(p.tile, 64); /* unsplit: today's choice */
        }
    }
}

/* The shapes of the issue and the bench on a 132-SM GPU. */
static void test_plan_shapes(void **state)
{
    (void)state;
    static const int shapes[][3] = {{512, 512, 512},     {1024, 1024, 1024},  {1024, 1024, 16384},
                                    {2048, 2048, 2048},  {4096, 4096, 4096},  {8192, 8192, 8192},
                                    {16384, 512, 4096},  {512, 16384, 4096},  {3001, 2999, 1537},
                                    {256, 256, 256},     {64, 64, 100000},    {1000, 8, 64},
                                    {1536, 1536, 1536},  {2560, 2560, 2560}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        gs__sgemm_plan p = gs__sgemm_plan_for(shapes[i][0], shapes[i][1], shapes[i][2], 132, 0);
        char schedule[32] = "stream-k";
        if (!p.streamk)
            snprintf(schedule, sizeof schedule, "%d slice%s", p.splits, p.splits == 1 ? "" : "s");
        printf("  %5d x %5d x %6d on 132 SMs: tile %3d, %s\n", shapes[i][0], shapes[i][1],
               shapes[i][2], p.tile, schedule);
    }
    /* the long-k shape splits (stream-k measured the same there) */
    gs__sgemm_plan p = gs__sgemm_plan_for(1024, 1024, 16384, 132, 0);
    assert_true(p.splits >= 2 || p.streamk);
    p = gs__sgemm_plan_for(1024, 1024, 16384, 132, GS__SGEMM_SPLIT);
    assert_true(!p.streamk && p.splits >= 2); /* what GS_GEMM_SPLITK runs */
    assert_true((1024 / p.tile) * (1024 / p.tile) * p.splits >= 132); /* fills the SMs */
    p = gs__sgemm_plan_for(512, 512, 512, 132, 0);
    assert_true(p.splits >= 2); /* and so does 512^3 */
    for (int e = 11; e <= 13; ++e) { /* large squares keep today's kernel */
        p = gs__sgemm_plan_for(1 << e, 1 << e, 1 << e, 132, 0);
        assert_int_equal(p.tile, 128);
        assert_int_equal(p.splits, 1);
    }
    /* 576 big tiles, 2.2 waves: split 2 ways (0.95x cuBLAS against 0.88x) */
    p = gs__sgemm_plan_for(3001, 2999, 1537, 132, 0);
    assert_true(p.splits >= 2 || p.streamk);
    /* 144 big tiles, a last wave of 12: stream-k (1.12x cuBLAS; the best
     * split 1.06x, unsplit 0.69x) */
    p = gs__sgemm_plan_for(1536, 1536, 1536, 132, 0);
    assert_true(p.streamk);
    p = gs__sgemm_plan_for(1000, 8, 8, 132, GS__SGEMM_SPLIT); /* one step: nothing to split */
    assert_int_equal(p.splits, 1);
    p = gs__sgemm_plan_for(1000, 8, 8, 132, GS__SGEMM_STREAM); /* stream-k runs it anyway */
    assert_true(p.streamk);
}

/* When gs_sgemm runs the wide tile (gs__sgemm_wide_slices): never for
 * stream-k or 64-tile plans, unsplit plans stay unsplit, split ones stay in
 * one wave; and the shapes measured on a 132-SM GPU. */
static void test_wide_choice(void **state)
{
    (void)state;
    uint64_t rng = 777;
    for (int i = 0; i < 20000; ++i) {
        next_random(&rng);
        int m = 1 + (int)((rng >> 20) % 9000), n = 1 + (int)((rng >> 35) % 9000);
        int k = 8 * (1 + (int)((rng >> 50) % 4000));
        int sms = sm_counts[i % (int)(sizeof sm_counts / sizeof sm_counts[0])];
        gs__sgemm_plan p = gs__sgemm_plan_for(m, n, k, sms, GS__SGEMM_CHOOSE);
        int w = gs__sgemm_wide_slices(m, n, k, sms, p), per = 0;
        long long wide = (long long)((m + 127) / 128) * ((n + 255) / 256);
        assert_true(w >= 0 && w <= GS_TUNE_SGEMM_MAX_SPLIT);
        if (p.streamk || p.tile != GS_TUNE_SGEMM_BIG_TILE)
            assert_int_equal(w, 0);
        if (p.splits == 1)
            assert_true(w <= 1);
        if (w > 1) {
            assert_true(p.splits > 1 && wide * w <= sms);
            assert_int_equal(gs__sgemm_slices(k, w, &per), w); /* as launched */
            assert_true(per >= GS_TUNE_SGEMM_MIN_SLICE_STEPS);
        }
    }
    /* whole waves of wide tiles: 2048^3 (128), 4096^3 (512), 8192^3, the
     * tall and wide shapes (256: 1.94 waves, as the 128-tiles) */
    assert_int_equal(gs__sgemm_wide_slices(2048, 2048, 2048, 132,
                                           gs__sgemm_plan_for(2048, 2048, 2048, 132, 0)), 1);
    for (int e = 12; e <= 13; ++e)
        assert_int_equal(gs__sgemm_wide_slices(1 << e, 1 << e, 1 << e, 132,
                                               gs__sgemm_plan_for(1 << e, 1 << e, 1 << e, 132, 0)),
                         1);
    assert_int_equal(gs__sgemm_wide_slices(16384, 512, 4096, 132,
                                           gs__sgemm_plan_for(16384, 512, 4096, 132, 0)), 1);
    assert_int_equal(gs__sgemm_wide_slices(512, 16384, 4096, 132,
                                           gs__sgemm_plan_for(512, 16384, 4096, 132, 0)), 1);
    /* the long-k shape: 32 wide tiles x 4 slices, one wave */
    assert_int_equal(gs__sgemm_wide_slices(1024, 1024, 16384, 132,
                                           gs__sgemm_plan_for(1024, 1024, 16384, 132, 0)), 4);
    /* 207 wide tiles (1.57 waves) against 391 128-tiles whose second wave
     * leaves each SM one block: the 128-tiles (0.857x cuBLAS against 0.79x) */
    assert_int_equal(gs__sgemm_wide_slices(2900, 2052, 2048, 132,
                                           gs__sgemm_plan_for(2900, 2052, 2048, 132, 0)), 0);
    /* stream-k and the 64-tile split keep their kernels */
    assert_int_equal(gs__sgemm_wide_slices(1536, 1536, 1536, 132,
                                           gs__sgemm_plan_for(1536, 1536, 1536, 132, 0)), 0);
    assert_int_equal(gs__sgemm_wide_slices(512, 512, 512, 132,
                                           gs__sgemm_plan_for(512, 512, 512, 132, 0)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slices),
        cmocka_unit_test(test_plan_invariants),
        cmocka_unit_test(test_plan_shapes),
        cmocka_unit_test(test_wide_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
