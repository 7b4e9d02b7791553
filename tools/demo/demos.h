/*
 * demos.h - the GPU halves of `gridsync demo` and `gridsync check`: each
 * runs the seed's correct version and its broken twin and reports what it
 * observed. Every CUDA call is checked (a gs_status, detail in
 * gs_last_error_detail()).
 */
#ifndef GS_DEMO_DEMOS_H
#define GS_DEMO_DEMOS_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- bitmap (seed 004, section 5.3) ---------------------------------- */

enum { GS_BITMAP_DIM = 1024 };

/* Render the seed's 1024x1024 image on the GPU, with the block barrier
 * (`sync` = 1) or without it, into `rgb` (DIM x DIM x 3 bytes). */
gs_status gs_demo_bitmap_gpu(int sync, unsigned char *rgb);

/* The same image computed on the CPU in double precision. */
void gs_demo_bitmap_cpu(unsigned char *rgb);

/* Pixels whose green level differs from `ref` by more than `tolerance`. */
long gs_demo_bitmap_diff(const unsigned char *rgb, const unsigned char *ref, int tolerance);

/* ---- missing-sync (seeds 000 and 003) -------------------------------- */

/* Block sums of 256-thread blocks over n floats (device pointer `in`): the
 * seed's shared-memory tree with its barriers (`sync` = 1) or without. Host
 * `sums` receives ceil(n / 256) values. */
gs_status gs_demo_block_sums(int sync, const float *in, int n, float *sums);

/* ---- divergent-barrier (seed 004, section 5.3.1) --------------------- */

/* Dot product with the seed's "incorrect optimisation" (`broken` = 1:
 * __syncthreads() inside `if (cacheIndex < i)`) or the correct kernel, of
 * x[i] = i % 7 - 3 and y[i] = i % 5 - 2 for n elements; *result receives it
 * and *expected the exact value. May never return when broken: run it in a
 * child process (gs_child_run). */
gs_status gs_demo_divergent_dot(int broken, int n, double *result, double *expected);

/* ---- message passing (seeds 001/002) --------------------------------- */

typedef enum gs_mp_mode {
    GS_MP_RELAXED = 0,     /* plain stores and loads, volatile flag: no fence */
    GS_MP_THREADFENCE = 1, /* __threadfence() after the data and after the flag */
    GS_MP_RELEASE_ACQUIRE = 2, /* st.release flag, ld.acquire flag */
    GS_MP_MODE_COUNT = 3
} gs_mp_mode;

typedef struct gs_mp_result {
    long rounds;       /* rounds completed */
    long stale;        /* rounds where the consumer saw the flag but old data */
    long stale_words;  /* old data words seen, over all rounds */
    int timed_out;     /* a bounded wait gave up (the test stopped early) */
} gs_mp_result;

/* One producer block writes `words` data words then a flag, round after
 * round; a consumer block on another SM waits for the flag and reads the
 * data; `stress` more blocks store to memory meanwhile. Co-resident launch. */
gs_status gs_demo_message_passing(gs_mp_mode mode, long rounds, int words, int stress,
                                  gs_mp_result *result);
const char *gs_mp_mode_name(gs_mp_mode mode);

/* ---- grid-oversubscribed --------------------------------------------- */

typedef struct gs_oversub_result {
    int max_blocks;          /* co-resident maximum for the kernel */
    int requested;           /* blocks asked for (max_blocks + extra) */
    gs_status launch_status; /* what gs_launch said (GS_ERR_NOT_CORESIDENT) */
    char launch_detail[512];
    gs_status plain_status;  /* the plain launch's gs_barrier_check verdict */
    char plain_detail[512];
} gs_oversub_result;

/* Launch a grid-barrier kernel with `extra` blocks more than fit: through
 * gs_launch, then with a plain <<<>>> launch guarded by the watchdog
 * (`timeout_s` seconds). */
gs_status gs_demo_oversubscribed(int extra, double timeout_s, gs_oversub_result *result);

/* A barrier that one block skips must time out (check: the watchdog). Fills
 * `detail` with the watchdog's sentence; *st receives gs_barrier_check's
 * status. */
gs_status gs_demo_stuck_barrier(int blocks, double timeout_s, gs_status *st, char *detail,
                                size_t len);

#ifdef __cplusplus
}
#endif

#endif
