/*
 * sgemm_plan.c - how gs_sgemm runs a shape: which block tile, and whether
 * it cuts k into slices (split-k) or divides every tile's k steps evenly
 * among one wave of blocks (stream-k) (docs/gemm.md). A pure function
 * of the shape and the SM count, so host tests check its choices.
 *
 * Rule: unsplit, a shape runs in 128-tiles when they fill every SM, else
 * in 64-tiles. Each candidate gets a predicted time from a small cost model
 * (tuning.h): the busiest SM's FMAs at the issue rate its resident warps
 * reach, plus the fix-up of a tile by one block. The candidates: split-k
 * with tile 128 or 64 and S slices of at least GS_TUNE_SGEMM_MIN_SLICE_STEPS
 * k steps (S <= GS_TUNE_SGEMM_MAX_SPLIT), and stream-k with tile 128 or 64
 * where each block's share has at least as many steps. The cheapest is
 * taken when it beats the unsplit choice by the margin: shapes with few
 * tiles, and shapes whose 128-tiles fill the SMs but leave a last wave
 * mostly idle (1536^2: 144 tiles on 132 SMs; those run in 128-tiles only).
 * The large squares, whole waves, stay unsplit.
 *
 * gs__sgemm_wide_slices then says whether the wide tile (128 x 256,
 * sgemm_wide.cu) runs a 128-tile plan instead, unsplit or split in one
 * wave, from the waves each kernel's blocks make.
 */
#include <math.h>

#include <gridsync/detail/core/tuning.h>

#include "../core/error.h"

typedef struct tile_kind {
    int tile, threads, per_sm; /* block tile, threads, blocks per SM (__launch_bounds__) */
} tile_kind;

static const tile_kind kinds[] = {
    {GS_TUNE_SGEMM_BIG_TILE, GS_TUNE_SGEMM_BIG_THREADS, GS_TUNE_SGEMM_BIG_MIN_BLOCKS},
    {GS_TUNE_SGEMM_SMALL_TILE, GS_TUNE_SGEMM_SMALL_THREADS, GS_TUNE_SGEMM_SMALL_MIN_BLOCKS}};

int gs__sgemm_slices(int k, int splits, int *slice_steps)
{
    long long steps = ((long long)k + GS_TUNE_SGEMM_BK - 1) / GS_TUNE_SGEMM_BK;
    if (splits < 1)
        splits = 1;
    long long per = (steps + splits - 1) / splits;
    *slice_steps = (int)per;
    return (int)((steps + per - 1) / per);
}

/* The cost model (tuning.h), in FMA issue slots of the busiest SM: its
 * `per_sm` blocks of `kind`, `resident` of them at a time, each walking
 * `block_steps` k steps (its prologues included), then one block's fix-up
 * of a tile from `partials` partial tiles (0: none). */
static double predicted(const tile_kind *kind, long long per_sm, long long resident,
                        long long block_steps, long long partials)
{
    double warps = (double)resident * (kind->threads / 32);
    double issue = warps / (warps + GS_TUNE_SGEMM_HALF_WARPS);
    double area = (double)kind->tile * kind->tile;
    double main = (double)per_sm * block_steps * area * GS_TUNE_SGEMM_BK / issue;
    double fixup = partials > 0 ? (partials + 1) * (area * 4.0 * GS_TUNE_SGEMM_FIXUP_FMAS_PER_BYTE +
                                                    GS_TUNE_SGEMM_FIXUP_ROUND_FMAS)
                                : 0.0;
    return main + fixup;
}

/* Predicted cost of `kind` with k cut into `splits` slices. */
static double cost(const tile_kind *kind, long long tiles, int k, int splits, int sms)
{
    int slice_steps = 0;
    int s = gs__sgemm_slices(k, splits, &slice_steps);
    long long blocks = tiles * s, per_sm = (blocks + sms - 1) / sms;
    long long resident = per_sm < kind->per_sm ? per_sm : kind->per_sm;
    return predicted(kind, per_sm, resident, slice_steps + GS_TUNE_SGEMM_PROLOGUE_STEPS,
                     s > 1 ? s : 0);
}

/* Predicted cost of `kind` in stream-k: the tiles' steps divided evenly
 * among one wave of blocks (fewer when there are fewer steps); each block
 * pays the prologue once per tile its share meets. *share: its steps. */
static double streamk_cost(const tile_kind *kind, long long tiles, int k, int sms,
                           long long *share)
{
    long long steps = ((long long)k + GS_TUNE_SGEMM_BK - 1) / GS_TUNE_SGEMM_BK;
    long long total = tiles * steps, blocks = (long long)sms * kind->per_sm;
    if (blocks > total)
        blocks = total;
    long long per_block = (total + blocks - 1) / blocks, per_sm = (blocks + sms - 1) / sms;
    long long meets = (per_block + steps - 2) / steps + 1;         /* tiles a share meets */
    long long sharers = per_block >= steps ? 2 : (steps + per_block - 2) / per_block + 1;
    *share = per_block;
    return predicted(kind, per_sm, per_sm, per_block + GS_TUNE_SGEMM_PROLOGUE_STEPS * meets,
                     sharers) *
           GS_TUNE_SGEMM_STREAMK_PCT / 100.0;
}

/* Tiles of tile_m x tile_n that cover m x n. */
static long long tiles_of(int m, int n, int tile_m, int tile_n)
{
    return (((long long)m + tile_m - 1) / tile_m) * (((long long)n + tile_n - 1) / tile_n);
}

gs__sgemm_plan gs__sgemm_plan_for(int m, int n, int k, int sms, int force)
{
    const tile_kind *big = &kinds[0], *small = &kinds[1];
    long long steps = ((long long)k + GS_TUNE_SGEMM_BK - 1) / GS_TUNE_SGEMM_BK;
    /* unsplit: the big tile once its tiles fill the SMs, else the small */
    const tile_kind *whole = tiles_of(m, n, big->tile, big->tile) >= sms ? big : small;
    gs__sgemm_plan unsplit = {whole->tile, 1, 0};
    gs__sgemm_plan best = unsplit;
    double best_cost = 0.0;
    int found = 0; /* a split or stream-k candidate is in `best` */
    if (sms < 1 || (steps < 2 && force != GS__SGEMM_STREAM))
        return unsplit;
    /* where big tiles fill the SMs, splits keep them: 64-tiles there are
     * slower per FMA on odd sizes (1500^2: 0.59x cuBLAS in 64-tiles cut in
     * 2, 0.63x unsplit, 0.88-0.91x in 128-tiles cut in 4-6) */
    for (int i = 0; i < (whole == big ? 1 : 2); ++i) {
        long long tiles = tiles_of(m, n, kinds[i].tile, kinds[i].tile);
        for (int s = 2; force != GS__SGEMM_STREAM && s <= GS_TUNE_SGEMM_MAX_SPLIT && s <= steps;
             ++s) {
            if (force == GS__SGEMM_CHOOSE && steps / s < GS_TUNE_SGEMM_MIN_SLICE_STEPS)
                break;
            double c = cost(&kinds[i], tiles, k, s, sms);
            if (!found || c < best_cost) {
                int slice_steps = 0;
                best = (gs__sgemm_plan){kinds[i].tile, gs__sgemm_slices(k, s, &slice_steps), 0};
                best_cost = c;
                found = 1;
            }
        }
        if (force == GS__SGEMM_SPLIT)
            continue;
        long long share = 0;
        double c = streamk_cost(&kinds[i], tiles, k, sms, &share);
        if ((force == GS__SGEMM_STREAM || share >= GS_TUNE_SGEMM_MIN_SLICE_STEPS) &&
            (!found || c < best_cost)) {
            best = (gs__sgemm_plan){kinds[i].tile, 1, 1};
            best_cost = c;
            found = 1;
        }
    }
    if (force != GS__SGEMM_CHOOSE || !found)
        return best;
    /* it must beat the unsplit kernel by the margin: with the big tile that
     * is a last wave that leaves SMs idle (1536^2: 144 tiles on 132 SMs,
     * 0.69x cuBLAS unsplit, 1.12x in stream-k) */
    double unsplit_cost = cost(whole, tiles_of(m, n, whole->tile, whole->tile), k, 1, sms);
    return best_cost * GS_TUNE_SGEMM_SPLIT_MARGIN_PCT < unsplit_cost * 100.0 ? best : unsplit;
}

/* The wide tile's cost against the 128-tile's, in hundredths of the time
 * an SM takes for one k step of two 128-tiles (one wide tile, or two
 * 128-tile blocks side by side): whole waves cost 200 a step; a last wave
 * of the 128-tile kernel that leaves every SM at most one block costs
 * 2 * GS_TUNE_SGEMM_LONE_BLOCK_PCT (a block alone on its SM runs faster
 * than beside another), a last wave of wide tiles a whole one. In double:
 * the counts of the largest shapes gs_sgemm takes overflow 64 bits. */
#if GS_TUNE_SGEMM_BIG_MIN_BLOCKS != 2
#error "the wide tile's cost model counts two 128-tile blocks a SM"
#endif
static double big_tile_cost(double blocks, int sms, double slice_steps)
{
    const double slots = (double)sms * GS_TUNE_SGEMM_BIG_MIN_BLOCKS;
    const double whole = floor(blocks / slots), rest = blocks - whole * slots;
    const double last = rest == 0 ? 0 : rest <= sms ? 2.0 * GS_TUNE_SGEMM_LONE_BLOCK_PCT : 200;
    return (whole * 200 + last) * slice_steps;
}

static double wide_tile_cost(double blocks, int sms, double slice_steps)
{
    return ceil(blocks / sms) * 200 * slice_steps;
}

int gs__sgemm_wide_slices(int m, int n, int k, int sms, gs__sgemm_plan plan)
{
    if (sms < 1 || m < 1 || n < 1 || k < 1 || plan.streamk || plan.tile != GS_TUNE_SGEMM_BIG_TILE)
        return 0;
    const long long steps = ((long long)k + GS_TUNE_SGEMM_BK - 1) / GS_TUNE_SGEMM_BK;
    const long long wide = tiles_of(m, n, GS_TUNE_SGEMM_WIDE_TILE_M, GS_TUNE_SGEMM_WIDE_TILE_N);
    const long long big = tiles_of(m, n, GS_TUNE_SGEMM_BIG_TILE, GS_TUNE_SGEMM_BIG_TILE);
    int per = 0;
    gs__sgemm_slices(k, plan.splits, &per);
    const double big_cost = big_tile_cost((double)big * plan.splits, sms, per);
    /* Unsplit stays unsplit. A split takes the cheapest slice count that
     * keeps the wide blocks in one wave: the case measured (few tiles, a
     * long k); splits over several waves keep the 128-tile plan, whose
     * model counts their fix-ups. */
    int best = 0;
    double best_cost = 0;
    for (int s = 1; s <= (plan.splits > 1 ? GS_TUNE_SGEMM_MAX_SPLIT : 1); ++s) {
        if (plan.splits > 1 &&
            (s < 2 || steps / s < GS_TUNE_SGEMM_MIN_SLICE_STEPS || wide * s > sms))
            continue;
        const int slices = gs__sgemm_slices(k, s, &per);
        if (slices != s)
            continue;
        const double c = wide_tile_cost((double)wide * slices, sms, per);
        if (!best || c < best_cost) {
            best = slices;
            best_cost = c;
        }
    }
    return best && best_cost * GS_TUNE_SGEMM_WIDE_WAVE_PCT <= big_cost * 100 ? best : 0;
}
