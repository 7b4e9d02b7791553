/* multi_bench.h - `gridsync bench multi` (built with NCCL). */
#ifndef GS_MULTI_BENCH_H
#define GS_MULTI_BENCH_H

#include "gridsync.h"
#include "bench/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_bench_multi_opts {
    int iterations; /* barriers per timed kernel */
    int samples;
    int quiet;
} gs_bench_multi_opts;

/* Cross-GPU barrier latency (gridsync's, an NCCL all-reduce of one word,
 * host-side synchronisation of every GPU's stream) and multi-GPU reduction
 * bandwidth, for 2 .. all local GPUs. GS_ERR_NOT_SUPPORTED with fewer than
 * two GPUs. */
gs_status gs_bench_multi(const gs_bench_multi_opts *opts, gs_table **table);

#ifdef __cplusplus
}
#endif

#endif
