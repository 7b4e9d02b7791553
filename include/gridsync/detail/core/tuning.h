/*
 * gridsync/detail/core/tuning.h - every tuning constant of gridsync, one section
 * per component, each with the GPU and the date it was measured on and the
 * research notes that hold the measurement (research/notes/; the reference
 * pages in docs/ summarize them). Plain C with no #include (host C code,
 * device code, NVRTC). Kernels take their numbers from here (or from the
 * policy structs built on them); nothing else in the library repeats a
 * number that belongs here.
 */
#ifndef GRIDSYNC_DETAIL_TUNING_H
#define GRIDSYNC_DETAIL_TUNING_H

/* ------------------------------------------------- grid barrier (tree)
 * Measured on H200 (132 SMs), 2026-11-22: research/notes/barrier.md
 * (docs/barrier-design.md). */

/* Grids of at most this many blocks use one counter (flip's scheme): it beat
 * grouped arrival at every grid of >= 128-thread blocks up to 2112 blocks.
 * gs_barrier_set_tree_params overrides it per barrier. */
#define GS_TUNE_TREE_FLAT_MAX 2048u

/* Blocks per arrival group on larger grids (only blocks of <= 64 threads
 * get there); raised where needed so that block 0's threads can watch every
 * group. gs_barrier_set_tree_params overrides it per barrier. */
#define GS_TUNE_TREE_GROUP 32u

/* Polls made inline before a wait moves to the watched slow path: ~50 us of
 * polling, far beyond a healthy barrier, so the watchdog costs nothing on
 * the fast path and its registers stay out of the user's kernel. */
#define GS_TUNE_BARRIER_FAST_POLLS 256u

/* Split-phase barrier (gs_grid_arrive/gs_grid_wait): its poller makes
 * its first poll no sooner than this many SM clocks per block of the grid
 * after the block's arrival. Polls made while the arrivals still land on
 * the counter's line slow them down; the arrivals take a few ns a block.
 * H200, 2026-11-22 (research/notes/scoped-sync.md, "Split-phase barrier";
 * the split_phase probe, 256 threads, arrive then wait at once): 2.09 ->
 * 1.38 us at 528 blocks and 3.99 -> 2.44 us at 1056 with 3 clocks a block,
 * unchanged at 132; with 2 us of work nobody waits. */
#define GS_TUNE_SPLIT_GATE_CLOCKS_PER_BLOCK 3u

/* ------------------------------------------------ single-pass reduction
 * Measured on H200 (132 SMs, HBM3e), 2026-11-22: research/notes/reduce.md
 * (docs/reduce.md). */

/* Threads per block. */
#define GS_TUNE_REDUCE_THREADS 256

/* Elements read per thread (a dot reads two per index), but at least one
 * block per SM while each thread still gets GS_TUNE_REDUCE_MIN_ITEMS (more
 * blocks help latency-bound lengths, 2^13..2^19), and at most one wave. */
#define GS_TUNE_REDUCE_ITEMS 16
#define GS_TUNE_REDUCE_MIN_ITEMS 4

/* Most blocks a single pass launches (the workspace's partial slots). */
#define GS_TUNE_REDUCE_MAX_BLOCKS 2048

/* 16-byte vectors in flight per thread per loop trip: 4 for one input
 * (64 bytes, enough to cover HBM latency at full occupancy), 2 pairs for
 * two inputs (a dot: 64 bytes too; more spilled at 32 registers). */
#define GS_TUNE_REDUCE_VECTORS_ONE_INPUT 4
#define GS_TUNE_REDUCE_VECTORS_TWO_INPUTS 2

/* ------------------------------------------------------ single-pass scan
 * Measured on H200 against CUB DeviceScan, 2026-11-22 and 2026-11-23:
 * research/notes/scan.md (docs/scan.md; the scan_tiles and scan_pipelined
 * probes). Three tilings, chosen by the length in bytes alone (so
 * that a floating scan gives the same bits on every GPU): the short tile for
 * arrays of a few tiles, the latency tile while one wave of blocks covers
 * the array (each block one tile), the bandwidth tile past that. */

/* The short tile: 256 x 4 vectors = 16 KiB, 4 blocks per SM, for lengths of
 * at most SHORT_TO_BYTES (512 KiB: 32 tiles). Twice as many blocks share the
 * loads and stores of a short array as with the latency tile: on H200
 * (2026-11-23, research/notes/scan.md, "A third tiling"), a host whose
 * launches take 3.5 us, 3.62-3.79 against 4.00-4.01 us at 2^15
 * floats, 3.65-3.68 against 4.02-4.05 at 2^16, 3.88-3.91 against 4.14 at
 * 2^17; 4.51 against 4.42 at 2^18 and 5.52 against 5.14 at 2^19, where the
 * latency tile stays. */
#define GS_TUNE_SCAN_SHORT_THREADS 256
#define GS_TUNE_SCAN_SHORT_MIN_BLOCKS 4
#define GS_TUNE_SCAN_SHORT_VECTORS 4
#define GS_TUNE_SCAN_SHORT_TO_BYTES (512ll << 10)

/* The latency tile: threads per block (a multiple of 32), blocks per SM
 * the kernel is compiled for (__launch_bounds__: 2 x 256 threads leaves
 * 128 registers a thread), 16-byte vectors per thread: 8 = 128 bytes in
 * flight per thread, a tile of 32 KiB (8192 floats). */
#define GS_TUNE_SCAN_THREADS 256
#define GS_TUNE_SCAN_MIN_BLOCKS 2
#define GS_TUNE_SCAN_VECTORS 8

/* The bandwidth tile: 448 x 8 vectors = 56 KiB, 2 blocks per SM (72
 * registers a thread, no spills). At 2^28 floats (H200, 2026-11-22,
 * research/notes/scan.md, "Measured on H200"): 1.10x CUB against 1.01x for
 * the 32 KiB tile and 0.89x for 64 KiB with one block per SM. */
#define GS_TUNE_SCAN_LARGE_THREADS 448
#define GS_TUNE_SCAN_LARGE_MIN_BLOCKS 2
#define GS_TUNE_SCAN_LARGE_VECTORS 8

/* Blocks per SM of the bandwidth tiling's resident kernel (sm_90 and
 * later, gridsync/detail/scan/resident_scan.cuh): the same 56 KiB tiles, two a
 * block in shared memory (112 KiB), 14 data warps and a look-back warp.
 * At 2^28 and 2^30 floats on H200 (2026-11-23, research/notes/scan.md, "A
 * look-back warp"; the scan_pipelined probe): 0.91-0.92
 * of a device copy; smaller tiles with 3 blocks per SM were slower (32 KiB
 * x 3: 0.77, 36 KiB x 3: 0.82; more tiles, more look-backs), and so was the
 * earlier design, one tile a block with every warp waiting out the
 * look-back, 3 blocks per SM (0.82). */
#define GS_TUNE_SCAN_LARGE_RESIDENT_MIN_BLOCKS 2

/* ... and from how many bytes it runs instead of the register kernel (the
 * same bits either way). On H200, 2026-11-23 (research/notes/scan.md, "A
 * look-back warp"; the scan_pipelined probe at f775063), float inclusive
 * sums, us per call (register / resident): 16 MiB 14.6 / 15.2, 32 MiB
 * 28.9 / 27.6, 64 MiB 50.2 / 44.8, 128 MiB 90.1 / 78.7. */
#define GS_TUNE_SCAN_RESIDENT_FROM_BYTES (32ll << 20)

/* Lengths of more than this many bytes take the bandwidth tile: 8 MiB is
 * one wave of latency tiles on an H200 (132 SMs x 2 x 32 KiB; 2026-11-22,
 * research/notes/scan.md, "Measured on H200"). */
#define GS_TUNE_SCAN_LARGE_FROM_BYTES (8ll << 20)

/* Tile descriptors each lane of the looking-back warp reads per window: a
 * window is 32 x this many tiles (1, 2 or 4; 4 spills the 8-byte types at
 * 4 blocks per SM: 12-80 bytes on sm_75/sm_90, -Xptxas -v; 4 was no faster
 * at 2^19 on H200, 2026-11-23, research/notes/scan.md, "A look-back warp"). */
#define GS_TUNE_SCAN_LOOKBACK_PER_LANE 2

/* Nanoseconds a looking-back warp sleeps after a window that was not ready
 * (0: poll again at once; 100 and 400 measured no faster on H200,
 * 2026-11-22, research/notes/scan.md, "Measured on H200"). */
#define GS_TUNE_SCAN_POLL_SLEEP_NS 0

/* ------------------------------------------------------ FP32 matrix multiply
 * Measured on H200 at n = 4096 against cuBLAS (no TF32), 2026-11-22 and
 * 2026-11-23: research/notes/gemm.md (docs/gemm.md). */

/* k step of the register-tiled kernel (a tile of A is BM x BK, of B BK x BN). */
#define GS_TUNE_SGEMM_BK 8

/* Its block tiles: 128 x 128 with 256 threads (2 blocks per SM), or 64 x 64
 * with 64 threads (6 per SM) when 128-tiles would leave SMs idle. */
#define GS_TUNE_SGEMM_BIG_TILE 128
#define GS_TUNE_SGEMM_BIG_THREADS 256
#define GS_TUNE_SGEMM_BIG_MIN_BLOCKS 2
#define GS_TUNE_SGEMM_SMALL_TILE 64
#define GS_TUNE_SGEMM_SMALL_THREADS 64
#define GS_TUNE_SGEMM_SMALL_MIN_BLOCKS 6

/* Shared-memory stages of the main loop's copy path (src/gemm/sgemm_tile.cuh),
 * which the split-k and stream-k kernels take for interior tiles on sm_80+:
 * the tiles of A and B go straight from global to shared memory (cp.async),
 * a step's copies issued STAGES - 1 steps ahead. Measured on H200 at
 * 1024 x 1024 x 16384 (split 4 ways; 2026-11-23, research/notes/gemm.md,
 * "The copy path"): 2 stages 0.88x cuBLAS, 3 0.89-0.90x,
 * 4 0.89x; 4 cost the 64-tile splits 3% at 1024^3. Below 2: the register
 * path everywhere (global -> registers one step ahead -> shared), which
 * the unsplit kernel, edge tiles and GPUs before sm_80 always take. */
#define GS_TUNE_SGEMM_STAGES 3

/* The wide tile (src/gemm/sgemm_wide.cu, sm_80+, 16-byte aligned operands):
 * 128 x 256 tiles of C, 256 threads of 8 x 16 registers, one block a SM,
 * every tile through the copy path's STAGES buffers. Measured on H200
 * against cuBLAS (2026-11-23, research/notes/gemm.md, "The wide tile in the
 * library"): 0.99-1.01x at 4096^3 and 8192^3,
 * 0.90-0.92x at 1024 x 1024 x 16384 split 4 ways, where the 128-tile kernel
 * reaches 0.94-0.95x and 0.89x; measured on H200 only, taken on every
 * sm_80+ GPU. The plan (sgemm_plan.c) takes it where its waves, counted at
 * WIDE_WAVE_PCT percent of a 128-tile kernel's wave (the wide tile does the
 * same work about 5% faster), cost no more than the 128-tile kernel's: a
 * wide tile is two 128-tiles, one block a SM against two; a last wave of
 * 128-tiles with at most one block a SM costs LONE_BLOCK_PCT percent of a
 * whole one (H200, 2900 x 2052 x 2048: 391 128-tiles ran in 0.632 ms, of
 * which the first wave of 264 blocks about 0.369; the 207 wide tiles' two
 * waves took 0.70 ms). */
#define GS_TUNE_SGEMM_WIDE_TILE_M 128
#define GS_TUNE_SGEMM_WIDE_TILE_N 256
#define GS_TUNE_SGEMM_WIDE_THREADS 256
#define GS_TUNE_SGEMM_WIDE_WAVE_PCT 95
#define GS_TUNE_SGEMM_LONE_BLOCK_PCT 71

/* Split-k and stream-k (src/gemm/sgemm_plan.c; H200, 2026-11-22,
 * research/notes/gemm.md, "Split-k measured on H200" and "Stream-k").
 * At most this many k slices, each of at least MIN_SLICE_STEPS k steps (the
 * fix-up block reads one partial tile per slice, so a slice must carry
 * enough work to pay for it); a stream-k block's share has at least as many.
 */
#define GS_TUNE_SGEMM_MAX_SPLIT 16
#define GS_TUNE_SGEMM_MIN_SLICE_STEPS 8
/* The plan's cost model, in FMAs of one SM: an SM with w resident warps
 * issues FMAs at w / (w + HALF_WARPS) of its peak (16 warps: 0.8, 4: 0.5);
 * each block pays PROLOGUE_STEPS k steps of latency (first tile, epilogue)
 * per tile it works on; the fix-up costs FIXUP_FMAS_PER_BYTE per byte of
 * partial tile it moves through one SM (~32 B/cycle against 128 FMAs/cycle)
 * per partial, plus one round trip of FIXUP_ROUND_FMAS (~300 cycles).
 * Stream-k's predicted cost is multiplied by STREAMK_PCT / 100: measured on
 * H200 over ten shapes, it ran 2-7% slower against the best split than the
 * model says (its blocks work at different k, so fewer of them share the
 * lines of A and B they load at one time). A split or stream-k is taken
 * only when its predicted cost times SPLIT_MARGIN_PCT / 100 is below the
 * unsplit kernel's: the model overrates them by up to 5% on whole waves
 * (4096^3: the best split predicted 0.999 of unsplit, measured 1.044), and
 * 3001 x 2999 x 1537 (predicted 0.919, measured 0.93) must still split. */
#define GS_TUNE_SGEMM_HALF_WARPS 4
#define GS_TUNE_SGEMM_PROLOGUE_STEPS 2
#define GS_TUNE_SGEMM_FIXUP_FMAS_PER_BYTE 4
#define GS_TUNE_SGEMM_FIXUP_ROUND_FMAS 38400
#define GS_TUNE_SGEMM_STREAMK_PCT 104
#define GS_TUNE_SGEMM_SPLIT_MARGIN_PCT 108

/* The tutorial's kernel: 16 x 16 tiles, one element per thread. */
#define GS_TUNE_SGEMM_TILED16_TILE 16

/* ------------------------------------------------------------ halo
 * The early polls of gridsync/halo.cuh (detail/scoped/halo_exchange.cuh), measured
 * with the bench's tagged-halo stencil on H200, 2026-11 (docs/apps-stencil.md).
 * How many threads poll the next step's ring while the others compute the
 * interior: whole warps, at most half the block; one poller a ring cell, or
 * one per two, or per four: the most pollers that leave at most
 * INTERIOR_PER_THREAD interior cells to each other thread, else one per
 * four. Why (us a step, one / two / four cells a poller, 256 threads): tiles
 * of 32 x 32 (2^16 cells on 64 blocks) 0.88 / 0.92 / 1.00, where the polls'
 * own latency is the step's; tiles of 45 x 44 (2^18 on 132 blocks) 1.16 /
 * 1.09 / 1.04, where the interior is (14 / 11 / 9 cells a thread).
 * POLL_ROUNDS: unwatched looks at a poller's four words (loads in flight
 * together) before its watched waits. */
#define GS_TUNE_HALO_INTERIOR_PER_THREAD 8
#define GS_TUNE_HALO_POLL_ROUNDS 8

#endif /* GRIDSYNC_DETAIL_TUNING_H */
