/*
 * timer.h - timing work: device work on one stream with CUDA events, and
 * work that waits for itself (several GPUs, host round trips) with the
 * host's monotonic clock.
 *
 * For gs_time_work the caller supplies `enqueue`, which puts one unit of
 * work on a stream. gs_time_work runs it `warmup` times untimed, then takes
 * samples, each bracketed by events, and returns microseconds per enqueue.
 * How many samples: the plan's sampling rule (results/sampling.h: NVBench's
 * --min-samples, --min-time, --max-noise, --timeout), or exactly `samples`
 * without one. A cold rule flushes the L2 before every sample
 * (harness/l2flush.h); the flush is outside the events. With `graph_batch` >
 * 0 it first captures `graph_batch` enqueues into one CUDA graph and times
 * replays of that graph instead (one sample = one replay, reported per
 * enqueue): for launch-bound work, this removes the CPU's launch gaps from
 * the measurement.
 */
#ifndef GS_BENCH_TIMER_H
#define GS_BENCH_TIMER_H

#include "gridsync.h"
#include "common/clock.h"
#include "results/sampling.h"
#include "results/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef gs_status (*gs_enqueue_fn)(void *ctx, cudaStream_t stream);

typedef struct gs_timing_plan {
    int warmup;       /* untimed runs first (>= 0) */
    int samples;      /* timed runs (>= 1) when there is no sampling rule */
    int graph_batch;  /* 0: direct launches; n > 0: capture n enqueues in a graph */
    const gs_sampling *sampling; /* the stopping rule and hot/cold; NULL: exactly `samples`
                                  * samples, hot */
} gs_timing_plan;

/* Times `enqueue`; fills `stats` with microseconds per enqueue (and how the
 * samples were taken: stats->timing, stats->stop). */
gs_status gs_time_work(gs_enqueue_fn enqueue, void *ctx, cudaStream_t stream,
                       const gs_timing_plan *plan, gs_stats *stats);

/* One call of the work being timed, enqueued on `stream`. */
typedef gs_status (*gs_call_fn)(void *ctx, cudaStream_t stream);

/* Microseconds per call of `call`: with a hot plan each sample is `calls`
 * calls back to back (for work shorter than a launch, the next call hides
 * this one's launch) and counts as their average; with a cold plan each
 * sample is one call after an L2 flush (NVBench's cold measurement), and
 * `calls` is not used. */
gs_status gs_time_calls_stats(gs_call_fn call, void *ctx, int calls, cudaStream_t stream,
                              const gs_timing_plan *plan, gs_stats *stats);

/* The median of gs_time_calls_stats. */
gs_status gs_time_calls(gs_call_fn call, void *ctx, int calls, cudaStream_t stream,
                        const gs_timing_plan *plan, double *us);

/* One call of host-timed work: returns when the work is done. */
typedef gs_status (*gs_host_work_fn)(void *ctx);

/* Times `work` on the host's clock: plan->warmup untimed calls, then samples
 * as the plan's rule says (graph_batch and cold are not used); fills
 * `stats` with microseconds per unit of work, `units` units per call. */
gs_status gs_time_host_work(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                            double units, gs_stats *stats);

/* Host-timed work that several processes do together (one rank each, as
 * the two-process rows of `gridsync bench multi`): each process times its
 * own calls, and after every sample, outside the timed region, `agree`
 * makes them decide together whether to go on, so that every process makes
 * the same number of calls (each call meets the other processes). `agree`
 * is collective: every process calls it with its *value and receives the
 * smallest of them. The leader passes 1 when its rule says stop, 0 to go
 * on; the others pass 1: everyone follows the leader's rule (the others'
 * own rules, and their statistics, are not used). */
typedef gs_status (*gs_agree_fn)(void *ctx, int *value);

typedef struct gs_together {
    gs_agree_fn agree;
    void *ctx;
    int leader; /* this process's rule decides */
} gs_together;

/* gs_time_host_work, the samples decided together (`together` NULL: alone,
 * the same as gs_time_host_work). Warm-up calls are plan->warmup on every
 * process: give them the same plan. */
gs_status gs_time_host_work_together(gs_host_work_fn work, void *ctx, const gs_timing_plan *plan,
                                     double units, const gs_together *together, gs_stats *stats);

/* A verdict every process must share before a collective step (can this
 * method run here?): `mine`, this process's, made everyone's. Alone
 * (`together` NULL): `mine`. Together: a failure anywhere is a failure
 * everywhere: this process's own (its status and sentence), or `elsewhere`
 * with "<what>: another process cannot run it (it says why)". */
gs_status gs_together_verdict(const gs_together *together, gs_status mine, gs_status elsewhere,
                              const char *what);

#ifdef __cplusplus
}
#endif

#endif
